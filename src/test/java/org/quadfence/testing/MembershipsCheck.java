package org.quadfence.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Checks a replay's current fences (contract section 9) against its events: for each entity, the
 * events of one position (same time and place) that change its set must be followed by exactly one
 * record of the new set, with that position's time and place, in the same order; the last record
 * per entity is its set at the end. An entity forgotten without EXITs ({@code entity-ttl} without
 * {@code exit-on-expiry}) gets a record with no fences and no events.
 */
public final class MembershipsCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private MembershipsCheck() {}

    /**
     * What disagrees, one line each; empty when the records agree with the events.
     *
     * @param silentForgetting whether entities may be forgotten without EXIT events
     */
    public static List<String> differences(Path events, Path memberships, boolean silentForgetting)
            throws IOException {
        Map<String, List<JsonNode>> eventsOf = byEntity(events);
        Map<String, List<JsonNode>> recordsOf = byEntity(memberships);
        List<String> out = new ArrayList<>();
        for (String entity : recordsOf.keySet()) {
            if (!eventsOf.containsKey(entity)) {
                out.add(entity + ": current fences without any event");
            }
        }
        eventsOf.forEach(
                (entity, es) ->
                        check(
                                entity,
                                es,
                                recordsOf.getOrDefault(entity, List.of()),
                                silentForgetting,
                                out));
        return out;
    }

    /**
     * The sets each entity goes through, by its events (group and entity id joined by "/"): one
     * entry per position or expiry whose events change the set, the empty set included.
     */
    public static Map<String, List<List<String>>> changes(Path events) throws IOException {
        Map<String, List<List<String>>> out = new LinkedHashMap<>();
        byEntity(events)
                .forEach(
                        (entity, es) -> {
                            List<List<String>> sets = new ArrayList<>();
                            TreeSet<String> inside = new TreeSet<>();
                            for (int i = 0; i < es.size(); ) {
                                TreeSet<String> after = new TreeSet<>(inside);
                                int end = apply(es, i, after);
                                if (!after.equals(inside)) {
                                    sets.add(new ArrayList<>(after));
                                }
                                inside = after;
                                i = end;
                            }
                            out.put(entity, sets);
                        });
        return out;
    }

    // Applies the events of the position at i to inside; returns the index after them.
    private static boolean timer(JsonNode e) {
        return e.path("timer").asBoolean(false) || e.path("expiry").asBoolean(false);
    }

    private static int apply(List<JsonNode> events, int i, TreeSet<String> inside) {
        int end = i;
        // A timer's change (a confirmation, an expiry; marked in expected.jsonl) is one change,
        // and the position's at the same time another (contract section 11).
        for (;
                end < events.size()
                        && samePlace(events.get(end), events.get(i))
                        && timer(events.get(end)) == timer(events.get(i));
                end++) {
            JsonNode e = events.get(end);
            switch (e.get("event").asText()) {
                case "ENTER" -> inside.add(e.get("fenceId").asText());
                case "EXIT" -> inside.remove(e.get("fenceId").asText());
                default -> {}
            }
        }
        return end;
    }

    private static void check(
            String entity,
            List<JsonNode> events,
            List<JsonNode> records,
            boolean silentForgetting,
            List<String> out) {
        TreeSet<String> inside = new TreeSet<>();
        int next = 0;
        for (int i = 0; i < events.size(); ) {
            JsonNode first = events.get(i);
            TreeSet<String> after = new TreeSet<>(inside);
            int end = apply(events, i, after);
            if (silentForgetting
                    && next < records.size()
                    && !inside.isEmpty()
                    && records.get(next).get("fenceIds").isEmpty()
                    && records.get(next).get("timestamp").asLong()
                            <= first.get("timestamp").asLong()
                    && !(after.isEmpty() && samePlace(records.get(next), first))) {
                // Forgotten without EXITs: its set is empty before this position.
                next++;
                inside.clear();
                continue;
            }
            if (!after.equals(inside)) {
                if (next >= records.size()) {
                    out.add(entity + ": no record of " + after + " at " + first);
                    return;
                }
                JsonNode r = records.get(next++);
                if (!samePlace(r, first) || !fences(r).equals(new ArrayList<>(after))) {
                    out.add(entity + ": expected " + after + " at " + first + ", got " + r);
                    return;
                }
            }
            inside = after;
            i = end;
        }
        boolean forgottenAtEnd =
                silentForgetting
                        && next == records.size() - 1
                        && records.get(next).get("fenceIds").isEmpty();
        if (next != records.size() && !forgottenAtEnd) {
            out.add(
                    entity
                            + ": records after the last change: "
                            + records.subList(next, records.size()));
        }
    }

    private static boolean samePlace(JsonNode a, JsonNode b) {
        return a.get("timestamp").asLong() == b.get("timestamp").asLong()
                && a.get("lon").asDouble() == b.get("lon").asDouble()
                && a.get("lat").asDouble() == b.get("lat").asDouble();
    }

    private static List<String> fences(JsonNode record) {
        List<String> ids = new ArrayList<>();
        record.get("fenceIds").forEach(n -> ids.add(n.asText()));
        return ids;
    }

    // Each entity's lines in file order; the key is the group and the entity.
    private static Map<String, List<JsonNode>> byEntity(Path file) throws IOException {
        Map<String, List<JsonNode>> m = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                String key = n.path("group").asText("default") + "/" + n.get("entityId").asText();
                m.computeIfAbsent(key, k -> new ArrayList<>()).add(n);
            }
        }
        return m;
    }
}
