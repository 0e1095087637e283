package org.quadfence.bench;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the job benchmark's world as JSON-lines files for {@code ./quadfence replay}: {@code
 * fences.jsonl} and {@code positions.jsonl} in a directory.
 *
 * <pre>
 * mvn -B -ntp -Pjob-bench test-compile exec:exec -Djob-bench.main=org.quadfence.bench.BenchFiles \
 *     -Djob-bench.args="target/replay-bench 2000000 100000 100000 cities"
 * </pre>
 *
 * Arguments: directory, positions, fences, entities, workload ({@code cities} or {@code one-city});
 * seed 42, 10 s between an entity's positions, 40 big fences.
 */
public final class BenchFiles {

    private static final long START = 1_732_233_600_000L;
    private static final int INTERVAL_MS = 10_000;

    private BenchFiles() {}

    public static void main(String[] argv) throws IOException {
        // The job-bench profile passes its arguments as one.
        String[] args = argv.length == 1 ? argv[0].trim().split("\\s+") : argv;
        Path dir = Path.of(args[0]);
        long positions = Long.parseLong(args[1]);
        int fences = Integer.parseInt(args[2]);
        int entities = Integer.parseInt(args[3]);
        boolean oneCity = args.length > 4 && args[4].equals("one-city");
        Files.createDirectories(dir);
        BenchWorld world = new BenchWorld(42, entities, INTERVAL_MS, oneCity);
        try (OutputStream out = lines(dir.resolve("fences.jsonl"))) {
            world.fences(fences, 40, (k, v, ts) -> write(out, v));
        }
        try (OutputStream out = lines(dir.resolve("positions.jsonl"))) {
            long[] left = {positions};
            for (long round = 0; left[0] > 0; round++) {
                world.round(
                        START,
                        round,
                        INTERVAL_MS,
                        (k, v, ts) -> {
                            if (left[0]-- > 0) {
                                write(out, v);
                            }
                        });
            }
        }
        System.out.println("wrote " + fences + " fences and " + positions + " positions to " + dir);
    }

    private static OutputStream lines(Path file) throws IOException {
        return new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
    }

    private static void write(OutputStream out, byte[] line) {
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
