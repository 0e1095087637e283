package org.quadfence.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The logs of the tests that kill runs or brokers, in {@code target/run-logs}, kept for a look
 * after a failure.
 */
public final class RunLogs {

    /**
     * Log4j properties that log the job's state changes and checkpoints, to tell a slow start from
     * a job that fails and restarts.
     */
    public static final List<String> JOB_PROGRESS =
            List.of(
                    "logger.graph.name = org.apache.flink.runtime.executiongraph",
                    "logger.graph.level = INFO",
                    "logger.checkpoints.name = org.apache.flink.runtime.checkpoint"
                            + ".CheckpointCoordinator",
                    "logger.checkpoints.level = INFO");

    private RunLogs() {}

    /**
     * The directory {@code target/run-logs/<names...>}, absolute and empty: what an earlier run
     * left there is deleted.
     */
    public static Path fresh(String... names) throws IOException {
        Path dir = Path.of("target", "run-logs").resolve(String.join("/", names)).toAbsolutePath();
        if (Files.exists(dir)) {
            try (Stream<Path> old = Files.walk(dir)) {
                old.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        return Files.createDirectories(dir);
    }
}
