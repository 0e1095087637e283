package org.quadfence.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Compares a run's events with a sample's expected.jsonl the way ../shared/data/check.py does for
 * ENTER/EXIT cases: the same multiset of (entity, fence, event, time), the same coordinates, and
 * per entity the contract's order. Returns the differences as sentences; none means agreement.
 */
public final class SampleCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private SampleCheck() {}

    /** One event line. */
    public record Event(
            String entityId, String fenceId, String event, long timestamp, double lon, double lat) {
        String key() {
            return entityId + "|" + fenceId + "|" + event + "|" + timestamp;
        }
    }

    public static List<Event> read(Path file) throws IOException {
        List<Event> out = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode n = JSON.readTree(line);
            out.add(
                    new Event(
                            n.get("entityId").asText(),
                            n.get("fenceId").asText(),
                            n.get("event").asText(),
                            n.get("timestamp").asLong(),
                            n.get("lon").asDouble(),
                            n.get("lat").asDouble()));
        }
        return out;
    }

    /** The differences between expected and actual events; empty when they agree. */
    public static List<String> differences(List<Event> expected, List<Event> actual) {
        List<String> problems = new ArrayList<>();
        Map<String, List<Event>> want = byKey(expected);
        Map<String, List<Event>> got = byKey(actual);
        for (String k : want.keySet()) {
            int w = want.get(k).size();
            int g = got.getOrDefault(k, List.of()).size();
            if (w != g) {
                problems.add("expected " + w + " of " + k + ", got " + g);
            } else {
                List<Event> e = sorted(want.get(k));
                List<Event> a = sorted(got.get(k));
                for (int i = 0; i < e.size(); i++) {
                    if (e.get(i).lat() != a.get(i).lat()
                            || !sameLon(e.get(i).lon(), a.get(i).lon())) {
                        problems.add("wrong lon/lat for " + k + ": " + a.get(i));
                    }
                }
            }
        }
        for (String k : got.keySet()) {
            if (!want.containsKey(k)) {
                problems.add("unexpected " + got.get(k).size() + " of " + k);
            }
        }
        Map<String, Event> last = new HashMap<>();
        for (Event e : actual) {
            Event before = last.put(e.entityId(), e);
            if (before != null && order(before, e) >= 0) {
                problems.add("out of contract order: " + before + " then " + e);
            }
        }
        return problems;
    }

    private static int order(Event a, Event b) {
        int c = Long.compare(a.timestamp(), b.timestamp());
        if (c == 0) c = Double.compare(a.lat(), b.lat());
        if (c == 0) c = Double.compare(a.lon(), b.lon());
        if (c == 0) c = Boolean.compare(a.event().equals("ENTER"), b.event().equals("ENTER"));
        if (c == 0) c = a.fenceId().compareTo(b.fenceId());
        return c;
    }

    private static boolean sameLon(double a, double b) {
        return a == b || (Math.abs(a) == 180 && Math.abs(b) == 180);
    }

    private static List<Event> sorted(List<Event> events) {
        List<Event> s = new ArrayList<>(events);
        s.sort(
                (x, y) ->
                        x.lat() != y.lat()
                                ? Double.compare(x.lat(), y.lat())
                                : Double.compare(
                                        Math.abs(x.lon()) == 180 ? -180 : x.lon(),
                                        Math.abs(y.lon()) == 180 ? -180 : y.lon()));
        return s;
    }

    private static Map<String, List<Event>> byKey(List<Event> events) {
        Map<String, List<Event>> m = new TreeMap<>();
        for (Event e : events) {
            m.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e);
        }
        return m;
    }

    /** Dead letters per input ("positions", "fences") in a dead-letter file. */
    public static Map<String, Integer> deadLetterCounts(Path file) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        counts.put("positions", 0);
        counts.put("fences", 0);
        for (String line : Files.readAllLines(file)) {
            if (!line.isBlank()) {
                JsonNode n = JSON.readTree(line);
                Objects.requireNonNull(n.get("error"), "dead letter without error: " + line);
                counts.merge(n.get("input").asText(), 1, Integer::sum);
            }
        }
        return counts;
    }

    /** The expected dead letters per input of a sample (none when it has no counts file). */
    public static Map<String, Integer> expectedDeadLetters(Path sample) throws IOException {
        Map<String, Integer> counts = new TreeMap<>();
        counts.put("positions", 0);
        counts.put("fences", 0);
        Path f = sample.resolve("expected_dlq_counts.json");
        if (Files.exists(f)) {
            JsonNode n = JSON.readTree(f.toFile());
            counts.put("positions", n.path("positions").asInt());
            counts.put("fences", n.path("fences").asInt());
        }
        return counts;
    }
}
