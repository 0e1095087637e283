package org.quadfence.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A position line of a sample with its entity and event time. */
record Positioned(String entityId, long timestamp, String line) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * The positions of a sample's {@code positions.jsonl}, ordered by event time (stable: equal
     * times keep file order).
     */
    static List<Positioned> byTime(Path sample) throws IOException {
        List<Positioned> out = new ArrayList<>();
        for (String line : Files.readAllLines(sample.resolve("positions.jsonl"))) {
            JsonNode p = JSON.readTree(line);
            out.add(new Positioned(p.get("entityId").asText(), millis(p.get("timestamp")), line));
        }
        out.sort(Comparator.comparingLong(Positioned::timestamp));
        return out;
    }

    /** An event time of the contract: epoch milliseconds or an ISO-8601 instant. */
    static long millis(JsonNode time) {
        return time.isNumber() ? time.asLong() : Instant.parse(time.asText()).toEpochMilli();
    }
}
