package org.quadfence.bench;

import java.nio.charset.StandardCharsets;

/**
 * The event-heavy world ({@link EventHeavyWorld}, about 1.8 events per position) as Kafka records
 * for the job harness's {@code --workload event-heavy} (issue 21, goal 4): fences keyed by fence id
 * at time 0, then their changes (2% of the fences, as {@link EventHeavyFiles} writes them) at their
 * times; positions keyed by entity id at their event times.
 */
final class EventHeavyFeed {

    private final EventHeavyWorld world;

    EventHeavyFeed(long seed, int fences, int entities, int intervalMs) {
        world = new EventHeavyWorld(seed, fences, entities, intervalMs);
    }

    /** Changes written after {@code count} fences, as {@link EventHeavyFiles} has it. */
    static int changes(int count) {
        return count / 50;
    }

    /** The fences, then {@link #changes} of them at times spread over [start, end). */
    void fences(int count, long start, long end, BenchWorld.RecordSink out) {
        world.fences(count, line -> out.accept(key(line, "fenceId", "id"), bytes(line), 0L));
        world.changes(
                changes(count),
                start,
                end,
                line -> out.accept(key(line, "fenceId", "id"), bytes(line), timestamp(line)));
    }

    /** The positions of round {@code round}, as {@link EventHeavyWorld#round} makes them. */
    void round(long start, long round, int intervalMs, BenchWorld.RecordSink out) {
        world.round(
                start,
                round,
                intervalMs,
                line ->
                        out.accept(
                                key(line, "entityId", "entityId"), bytes(line), timestamp(line)));
    }

    /** The string value of the first of two fields found in a one-line JSON object, as bytes. */
    private static byte[] key(CharSequence line, String field, String otherField) {
        String s = line.toString();
        int at = s.indexOf("\"" + field + "\":\"");
        String name = field;
        if (at < 0) {
            at = s.indexOf("\"" + otherField + "\":\"");
            name = otherField;
        }
        int from = at + name.length() + 4;
        return bytes(s.substring(from, s.indexOf('"', from)));
    }

    private static long timestamp(CharSequence line) {
        String s = line.toString();
        int from = s.lastIndexOf("\"timestamp\":") + 12;
        int to = from;
        while (to < s.length() && Character.isDigit(s.charAt(to))) {
            to++;
        }
        return Long.parseLong(s, from, to, 10);
    }

    private static byte[] bytes(CharSequence s) {
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }
}
