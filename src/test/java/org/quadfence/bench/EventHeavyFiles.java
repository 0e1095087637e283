package org.quadfence.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * Writes the event-heavy replay's files ({@link EventHeavyWorld}, issue 21) for {@code ./quadfence
 * replay} and {@link BroadcastStrTreeJob}: {@code fences.jsonl} (the fences, then their changes in
 * ascending time) and {@code positions.jsonl}.
 *
 * <pre>
 * mvn -B -ntp -Pjob-bench test-compile exec:exec -Djob-bench.main=org.quadfence.bench.EventHeavyFiles \
 *     -Djob-bench.args="target/event-heavy 2000000 100000"
 * </pre>
 *
 * Arguments: directory, positions, fences, and optionally entities (default: positions / 40, so
 * that each entity reports 40 times). Seed 42, 30 s between an entity's reports, fence changes 2%
 * of the fences.
 */
public final class EventHeavyFiles {

    private static final long START = 1_732_233_600_000L;
    private static final int INTERVAL_MS = 30_000;

    private EventHeavyFiles() {}

    public static void main(String[] argv) throws IOException {
        // The job-bench profile passes its arguments as one.
        String[] args = argv.length == 1 ? argv[0].trim().split("\\s+") : argv;
        Path dir = Path.of(args[0]);
        long positions = Long.parseLong(args[1]);
        int fences = Integer.parseInt(args[2]);
        int entities = args.length > 3 ? Integer.parseInt(args[3]) : (int) (positions / 40);
        long rounds = (positions + entities - 1) / entities;
        Files.createDirectories(dir);
        EventHeavyWorld world = new EventHeavyWorld(42, fences, entities, INTERVAL_MS);
        int changes = fences / 50;
        try (Writer out = lines(dir.resolve("fences.jsonl"))) {
            world.fences(fences, line(out));
            world.changes(changes, START, START + rounds * INTERVAL_MS, line(out));
        }
        try (Writer out = lines(dir.resolve("positions.jsonl"))) {
            Consumer<CharSequence> all = line(out);
            long[] left = {positions};
            for (long round = 0; round < rounds; round++) {
                world.round(
                        START,
                        round,
                        INTERVAL_MS,
                        s -> {
                            if (left[0]-- > 0) {
                                all.accept(s);
                            }
                        });
            }
        }
        System.out.printf(
                "wrote %d fences, %d fence changes and %d positions of %d entities to %s%n",
                fences, changes, positions, entities, dir);
    }

    private static Writer lines(Path file) throws IOException {
        return new BufferedWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), 1 << 16);
    }

    private static Consumer<CharSequence> line(Writer out) {
        return s -> {
            try {
                out.append(s).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
