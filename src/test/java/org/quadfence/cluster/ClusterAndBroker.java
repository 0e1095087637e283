package org.quadfence.cluster;

import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What a cluster ITCase runs the jar against: a standalone Flink session cluster of one JobManager
 * and one TaskManager with two slots, and a Kafka broker with the job's topics. Closing stops
 * whatever was started.
 */
final class ClusterAndBroker implements AutoCloseable {

    /** Flink's lib/ of the build: its jars, as a Flink distribution has them. */
    static final Path FLINK_LIB = Path.of("target/flink-lib");

    /** Partitions of the topics "positions" and "fences". */
    static final int POSITION_PARTITIONS = 2;

    static final int FENCE_PARTITIONS = 2;

    /** How long the cluster may take to start on a busy machine. */
    private static final Duration START = Duration.ofSeconds(180);

    private final String test;
    private final long t0 = System.nanoTime();
    private StandaloneFlinkCluster flink;
    private KafkaBroker kafka;

    /**
     * @param test the test's name, at the start of its log lines
     */
    ClusterAndBroker(String test) {
        this.test = test;
    }

    /**
     * Starts the cluster in {@code dir} with {@code settings} in its config.yaml, then the broker;
     * waits for the TaskManager and creates the job's topics ({@link KafkaTopics#createJobTopics}).
     */
    void start(Path dir, Map<String, String> settings) throws Exception {
        flink = StandaloneFlinkCluster.start(FLINK_LIB, dir, 2, settings);
        kafka = KafkaBroker.start();
        flink.awaitTaskManagers(1, 2, START);
        log("cluster up: 1 JobManager, 1 TaskManager with 2 slots; broker up");
        KafkaTopics.createJobTopics(kafka, POSITION_PARTITIONS, FENCE_PARTITIONS);
    }

    /** Prints a line of the test's progress, with the time since this was made. */
    void log(String what) {
        System.out.printf("[%s %5.1f s] %s%n", test, (System.nanoTime() - t0) / 1e9, what);
    }

    /** The cluster; null before {@link #start} got to it. */
    StandaloneFlinkCluster flink() {
        return flink;
    }

    /** The broker; null before {@link #start} got to it. */
    KafkaBroker kafka() {
        return kafka;
    }

    @Override
    public void close() throws Exception {
        if (flink != null) {
            flink.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }
}
