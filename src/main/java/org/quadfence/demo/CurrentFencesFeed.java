package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the job's current fences (contract section 9) from the compacted memberships topic, as any
 * reader of it would: the latest record per key is an entity's set, a tombstone removes it. Answers
 * "how many vehicles are inside now" and "which fence holds the most".
 */
final class CurrentFencesFeed implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final TopicReader reader;
    private final Map<String, List<String>> fencesOf = new HashMap<>();

    /** Starts reading {@code topic} from its beginning in a thread of its own. */
    CurrentFencesFeed(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        this.reader = new TopicReader(consumer, topic, this::read);
    }

    private synchronized void read(ConsumerRecord<byte[], byte[]> r) {
        String key = new String(r.key(), StandardCharsets.UTF_8);
        if (r.value() == null) {
            fencesOf.remove(key);
            return;
        }
        try {
            List<String> ids = new ArrayList<>();
            JSON.readTree(r.value()).get("fenceIds").forEach((JsonNode n) -> ids.add(n.asText()));
            fencesOf.put(key, ids);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Entities inside at least one fence now. */
    synchronized int entitiesInside() {
        return fencesOf.size();
    }

    /** The fence with the most entities inside now and their count, or "none". */
    synchronized String busiestFence() {
        Map<String, Integer> count = new HashMap<>();
        fencesOf.values().forEach(ids -> ids.forEach(id -> count.merge(id, 1, Integer::sum)));
        return count.entrySet().stream()
                .max(
                        Map.Entry.<String, Integer>comparingByValue()
                                .thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getKey() + " (" + e.getValue() + ")")
                .orElse("none");
    }

    /** Stops reading and closes the consumer. */
    @Override
    public void close() throws InterruptedException {
        reader.close();
    }
}
