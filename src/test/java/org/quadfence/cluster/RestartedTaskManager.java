package org.quadfence.cluster;

import org.apache.flink.util.FileUtils;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.quadfence.bench.BenchWorld;
import org.quadfence.testing.CommittedReader;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.Patience;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A restarted TaskManager (a benchmark main, not a test; issue 21: "a restarted TaskManager starts
 * cold"): the job jar on a standalone session cluster ({@link StandaloneFlinkCluster}), its
 * TaskManager a JVM of its own with goal 2's heap and collector, reads the job harness's world
 * (seed 42: 100,000 fences, 100,000 entities, a position each 10 s) from a broker in this JVM. Once
 * the fences and two rounds of positions are read and a checkpoint taken when those inputs were
 * idle holds them, the TaskManager is killed with SIGKILL, the other rounds are written (2,800,000
 * positions of 3,000,000, and one far later position a partition, so that every event comes out),
 * and a fresh TaskManager, a cold JVM, restores the job from that checkpoint, its fences from
 * state, and reads that backlog.
 *
 * <p>Prints how long the job took to run again, when each tenth of the backlog had been read (the
 * partitions' offsets from the REST API, whose metrics are a second old at most), the steady rate
 * between 10% and 90% as the job harness gives it, and the events committed in all and the dead
 * letters: 1,273,863 and 0 for this world in the harness, so a count that differs is an event lost
 * or repeated across the kill.
 *
 * <p>Run with {@code mvn -B -ntp -Pjob-bench package -DskipTests exec:exec
 * -Djob-bench.main=org.quadfence.cluster.RestartedTaskManager} (the shaded jar and Flink's lib/
 * come from {@code package}); {@code -Djob-bench.args="N key=value ..."} for N positions in all and
 * job options. Its files go to target/restarted-tm.
 */
public final class RestartedTaskManager {

    private static final Path JOB_JAR = Path.of("target/quadfence.jar");
    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    private static final int ENTITIES = 100_000;
    private static final int FENCES = 100_000;
    private static final int BIG_FENCES = 40;
    private static final int INTERVAL_MS = 10_000;
    private static final int POSITION_PARTITIONS = 4;
    private static final Duration WAIT = Duration.ofMinutes(10);

    /** The job's default {@code idle-timeout}. */
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(10);

    /** How long the events topic stays the same before its events are taken as all. */
    private static final Duration QUIET = Duration.ofSeconds(15);

    /** Rounds of positions read before the kill: the fences go into state with them. */
    private static final long LOADED_ROUNDS = 2;

    /** The TaskManager as goal 2's harness JVM: a 4 GB heap, ParallelGC, huge pages. */
    private static final Map<String, String> TASK_MANAGER =
            Map.of(
                    "taskmanager.memory.process.size", "6g",
                    "taskmanager.memory.managed.size", "512m",
                    "env.java.opts.taskmanager", "-XX:+UseParallelGC -XX:+UseTransparentHugePages",
                    "heartbeat.interval", "1000",
                    "heartbeat.timeout", "15000",
                    // The REST API's metrics a second old at most; more often, the TaskManager
                    // would gather all its metrics (thousands) that often.
                    "metrics.fetcher.update-interval", "1000");

    /** The job harness's producer settings: batches of 256 KB, lz4. */
    private static final Map<String, String> FAST =
            Map.of("linger.ms", "20", "batch.size", "262144", "compression.type", "lz4");

    private final ClusterAndBroker up = new ClusterAndBroker("RestartedTaskManager");
    private final BenchWorld world = new BenchWorld(42, ENTITIES, INTERVAL_MS, false);

    private RestartedTaskManager() {}

    /**
     * @param args one argument of blank-separated words (as the job-bench profile passes them): a
     *     number of positions in all (3,000,000 if none), and job options as {@code key=value}
     */
    public static void main(String[] args) throws Exception {
        long positions = 3_000_000L;
        StringBuilder options = new StringBuilder();
        for (String word : String.join(" ", args).trim().split("\\s+")) {
            if (word.contains("=")) {
                options.append(word).append('\n');
            } else if (!word.isEmpty()) {
                positions = Long.parseLong(word);
            }
        }
        new RestartedTaskManager().run(positions / ENTITIES, options.toString());
    }

    private void run(long rounds, String options) throws Exception {
        Path dir = Path.of("target/restarted-tm").toAbsolutePath();
        FileUtils.deleteDirectory(dir.toFile());
        try (up) {
            up.start(dir.resolve("flink"), TASK_MANAGER);
            StandaloneFlinkCluster flink = up.flink();
            KafkaBroker kafka = up.kafka();
            kafka.createTopic("fences-bench", 2, true);
            kafka.createTopic("positions-bench", POSITION_PARTITIONS, false);
            try (KafkaProducer<byte[], byte[]> p = KafkaTopics.producer(kafka, FAST)) {
                world.fences(FENCES, BIG_FENCES, (k, v, ts) -> send(p, "fences-bench", k, v, ts));
                produceRounds(p, 0, LOADED_ROUNDS);
            }
            up.log("fences and " + LOADED_ROUNDS * ENTITIES + " positions produced");
            List<String> jobArgs =
                    StandaloneFlinkCluster.jobArguments(
                            dir.resolve("job.properties"),
                            kafka,
                            "fences-topic=fences-bench\npositions-topic=positions-bench\n"
                                    + "watermark-interval=20ms\n"
                                    + options);
            up.log("job options added: " + options.replace('\n', ' '));
            // Goal 2's checkpoint interval in place of the tests' second.
            List<String> goal2 = new ArrayList<>(jobArgs);
            goal2.set(goal2.indexOf("--checkpoint-interval") + 1, "10s");
            String job = flink.runJar(flink.uploadJar(JOB_JAR), goal2, 2, null);
            flink.awaitRunning(job, WAIT);
            awaitRead(flink, job, LOADED_ROUNDS * ENTITIES);
            // A running job's quiet topics are idle at its checkpoints: wait for one taken when
            // the inputs, read to their ends, had been silent for the default idle-timeout.
            long quiet = System.currentTimeMillis() + IDLE_TIMEOUT.toMillis();
            flink.await(
                    "a checkpoint once the loaded inputs were idle",
                    WAIT,
                    () -> lastCheckpoint(flink, job) > quiet);
            up.log(
                    "fences and first positions read and checkpointed idle; killing the"
                            + " TaskManager");
            long before = offsets(flink, job);
            flink.killTaskManager();
            try (KafkaProducer<byte[], byte[]> p = KafkaTopics.producer(kafka, FAST)) {
                produceRounds(p, LOADED_ROUNDS, rounds);
                flushWatermarks(p, rounds);
            }
            long backlog = (rounds - LOADED_ROUNDS) * ENTITIES;
            up.log(backlog + " more positions produced; starting a fresh TaskManager");
            long t0 = System.nanoTime();
            flink.startTaskManager();
            flink.await("the job to run again", WAIT, () -> restarted(flink, job));
            up.log(
                    String.format(
                            Locale.ROOT,
                            "the job runs again %.1f s after the TaskManager's start",
                            (System.nanoTime() - t0) / 1e9));
            measure(flink, job, backlog, before, t0);
            // Read once the backlog is, so that reading them takes nothing from the measurement.
            Patience patience = new Patience(() -> WAIT, () -> "the logs are in " + dir);
            long events;
            long deadLetters;
            try (CommittedReader committed = patience.committed(kafka, "geofence-events", QUIET);
                    CommittedReader dlq = patience.committed(kafka, "geofence-dlq", QUIET)) {
                events = committed.awaitQuiet(1).size();
                deadLetters = dlq.count();
            }
            up.log("events committed in all: " + events + " (dead letters: " + deadLetters + ")");
            flink.post("/jobs/" + job + "/stop", Map.of("drain", false));
            // Every record of this world is good: a dead letter is a position that came late.
            if (deadLetters > 0) {
                throw new IllegalStateException(deadLetters + " dead letters: see the log above");
            }
        } catch (Exception | Error e) {
            if (up.flink() != null) {
                System.out.println(up.flink().logTails(60));
            }
            throw e;
        }
    }

    private void produceRounds(KafkaProducer<byte[], byte[]> p, long from, long to) {
        for (long round = from; round < to; round++) {
            world.round(
                    START, round, INTERVAL_MS, (k, v, ts) -> send(p, "positions-bench", k, v, ts));
        }
    }

    // One position a partition, of an entity far from every fence, ten minutes after the last: it
    // moves the positions' watermark past every position, so that all their events come out.
    private static void flushWatermarks(KafkaProducer<byte[], byte[]> p, long rounds) {
        long t = START + rounds * INTERVAL_MS + 600_000;
        for (int partition = 0; partition < POSITION_PARTITIONS; partition++) {
            String id = "flush-" + partition;
            p.send(
                    KafkaTopics.record(
                            "positions-bench",
                            partition,
                            id,
                            t,
                            "{\"entityId\":\"%s\",\"lon\":0.0,\"lat\":-80.0,\"timestamp\":%d}"
                                    .formatted(id, t)));
        }
    }

    private static void send(
            KafkaProducer<byte[], byte[]> p, String topic, byte[] k, byte[] v, long ts) {
        p.send(new ProducerRecord<>(topic, null, ts, k, v));
    }

    /**
     * Polls the positions read until {@code backlog}; prints tenths and the steady rate. {@code
     * before}: the sum of the partitions' offsets when the TaskManager was killed, where the job
     * restarts (the REST API's metric store may show it until the new TaskManager reports).
     */
    private void measure(
            StandaloneFlinkCluster flink, String job, long backlog, long before, long t0)
            throws Exception {
        double[] tenths = new double[10];
        int next = 0;
        double first = -1;
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (next < 10 && System.nanoTime() < deadline) {
            long read = offsets(flink, job) - before;
            double s = (System.nanoTime() - t0) / 1e9;
            if (read > 0 && first < 0) {
                first = s;
            }
            while (next < 10 && read >= backlog * (next + 1) / 10) {
                tenths[next++] = s;
            }
            Thread.sleep(250);
        }
        if (next < 10) {
            throw new IllegalStateException("the backlog was not read within " + WAIT);
        }
        StringBuilder line = new StringBuilder();
        for (double t : tenths) {
            line.append(String.format(Locale.ROOT, " %.1f", t - first));
        }
        up.log(
                String.format(
                        Locale.ROOT,
                        "first position read %.1f s after the TaskManager's start; tenths of %d"
                                + " positions read at%s s; steady (10-90%%) %,.0f positions/s",
                        first,
                        backlog,
                        line,
                        0.8 * backlog / (tenths[8] - tenths[0])));
    }

    /**
     * The sum over the positions partitions of the offset the source last read (a metric of Kafka's
     * reader): it goes on from the restored offsets, where a count of records starts again at 0.
     * {@link Long#MIN_VALUE} while a partition has none.
     */
    private static long offsets(StandaloneFlinkCluster flink, String job) throws Exception {
        List<String> names = new ArrayList<>();
        for (int p = 0; p < POSITION_PARTITIONS; p++) {
            names.add(
                    "Source__positions_source.KafkaSourceReader.topic.positions-bench.partition."
                            + p
                            + ".currentOffset");
        }
        for (JsonNode v : flink.get("/jobs/" + job).path("vertices")) {
            if (v.path("name").asText().startsWith("Source: positions source")) {
                JsonNode m =
                        flink.get(
                                "/jobs/"
                                        + job
                                        + "/vertices/"
                                        + v.path("id").asText()
                                        + "/subtasks/metrics?agg=max&get="
                                        + String.join(",", names));
                long sum = 0;
                for (JsonNode partition : m) {
                    sum += partition.path("max").asLong();
                }
                return m.size() == POSITION_PARTITIONS ? sum : Long.MIN_VALUE;
            }
        }
        return Long.MIN_VALUE;
    }

    /** Whether every subtask of the job runs in an attempt after the first. */
    private static boolean restarted(StandaloneFlinkCluster flink, String job) throws Exception {
        JsonNode vertices = flink.get("/jobs/" + job).path("vertices");
        for (JsonNode v : vertices) {
            JsonNode detail = flink.get("/jobs/" + job + "/vertices/" + v.path("id").asText());
            for (JsonNode t : detail.path("subtasks")) {
                if (t.path("attempt").asInt() == 0
                        || !t.path("status").asText().equals("RUNNING")) {
                    return false;
                }
            }
        }
        return vertices.size() > 0;
    }

    private static void awaitRead(StandaloneFlinkCluster flink, String job, long count)
            throws Exception {
        // An offset is that of the last record read: count - 1 in each partition.
        flink.await(
                count + " positions read",
                WAIT,
                () -> offsets(flink, job) >= count - POSITION_PARTITIONS);
    }

    private static long lastCheckpoint(StandaloneFlinkCluster flink, String job) throws Exception {
        JsonNode c = flink.get("/jobs/" + job + "/checkpoints").path("latest").path("completed");
        return c.isMissingNode() || c.isNull() ? 0 : c.path("latest_ack_timestamp").asLong();
    }
}
