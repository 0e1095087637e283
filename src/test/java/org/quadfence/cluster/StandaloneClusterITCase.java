package org.quadfence.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleCheck.Event;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded job jar on a real Flink session cluster, the way a user deploys it: a JobManager and a
 * TaskManager in their own JVMs (from Flink's jars, see {@link StandaloneFlinkCluster}), the jar
 * uploaded and run through the REST API, a real Kafka broker (KRaft, in this JVM, on 127.0.0.1).
 *
 * <p>The job reads the first half of a sample's positions (by event time) at parallelism 1, is
 * stopped with a savepoint, and is started again from it at parallelism 2; the second run reads the
 * rest and is stopped with a drained savepoint. The events a read_committed consumer sees in the
 * end are exactly the sample's expected events, in each entity's order: nothing lost and nothing
 * repeated across the stop, the rescale and the restore. There are no dead letters.
 *
 * <p>How the test keeps the result a function of the input, not of timing:
 *
 * <ul>
 *   <li>Each part of the positions is in Kafka before the job that reads it starts, so no partition
 *       wakes up from idleness behind the watermark.
 *   <li>{@code idle-timeout} is short (3 s), so the positions fall idle between the parts while the
 *       fences' changes run ten minutes of event time past them. The tile stage must keep its clock
 *       on the positions (it did not at first: Flink takes the largest watermark of idle inputs, so
 *       future fence versions were applied and later positions were late or matched against the
 *       wrong fences); this test guards that.
 *   <li>So that the restored run's watermark does not wait for the fences' partitions, which have
 *       no new records, one far-future fence goes into each of them before the restore. Fences from
 *       after the last position change no event.
 * </ul>
 *
 * <p>The cluster's config.yaml sets the state backend and checkpoint settings of its own ({@link
 * #CLUSTER_SETTINGS}), and the job is given {@code checkpoint-interval} alone of the options that
 * stand for them: both running jobs have the cluster's backend, checkpoint timeout and tolerable
 * failures, and the option's interval.
 */
class StandaloneClusterITCase {

    private static final Path SAMPLE = Path.of("src/test/resources/samples/sample-clean");
    private static final Path JOB_JAR = Path.of("target/quadfence.jar");

    /** Where a failed run leaves the events it read. */
    private static final Path EVENTS_COPY = Path.of("target/StandaloneClusterITCase-events.jsonl");

    private static final Path DLQ_COPY = Path.of("target/StandaloneClusterITCase-dlq.jsonl");
    private static final String GROUP = "quadfence-e2e";
    private static final int POSITION_PARTITIONS = ClusterAndBroker.POSITION_PARTITIONS;
    private static final int FENCE_PARTITIONS = ClusterAndBroker.FENCE_PARTITIONS;

    /** Short, so that the positions fall idle during the test: see the class comment. */
    private static final String IDLE_TIMEOUT =
            System.getProperty("quadfence.e2e.idle-timeout", "3s");

    /** max-out-of-orderness; the watermark trails the newest record by this plus 1 ms. */
    private static final long BOUND_MS = 1000;

    /** Settings of the cluster's own, in its config.yaml; the job gives only an interval. */
    private static final Map<String, String> CLUSTER_SETTINGS =
            Map.of(
                    "state.backend.type", "rocksdb",
                    "execution.checkpointing.interval", "5 s",
                    "execution.checkpointing.timeout", "97 s",
                    "execution.checkpointing.tolerable-failed-checkpoints", "7");

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir Path tmp;

    @Test
    void theJarSurvivesAStopWithSavepointAndARescaleOnASessionCluster() throws Exception {
        assertThat(JOB_JAR).as("the shaded jar (mvn package)").isRegularFile();
        ClusterAndBroker up = new ClusterAndBroker("StandaloneClusterITCase");
        String job = null;
        try {
            up.start(tmp.resolve("flink"), CLUSTER_SETTINGS);
            StandaloneFlinkCluster flink = up.flink();
            KafkaBroker kafka = up.kafka();

            List<Positioned> positions = Positioned.byTime(SAMPLE);
            long half = positions.get(positions.size() / 2 - 1).timestamp();
            List<Positioned> first = positions.stream().filter(p -> p.timestamp() <= half).toList();
            List<Positioned> rest = positions.stream().filter(p -> p.timestamp() > half).toList();
            List<Event> expected = SampleCheck.read(SAMPLE.resolve("expected.jsonl"));

            produceFences(kafka);
            long cut1 = watermarkAfter(produce(kafka, first));
            up.log("fences and " + first.size() + " positions in Kafka");

            List<String> args =
                    StandaloneFlinkCluster.jobArguments(
                            tmp.resolve("e2e.properties"),
                            kafka,
                            String.join(
                                    "\n",
                                    "group-id=" + GROUP,
                                    "max-out-of-orderness=" + BOUND_MS,
                                    "idle-timeout=" + IDLE_TIMEOUT,
                                    "job-name=quadfence-e2e",
                                    ""));

            String jar = flink.uploadJar(JOB_JAR);
            String job1 = flink.runJar(jar, args, 1, null);
            job = job1;
            flink.awaitRunning(job1, WAIT);
            assertThat(parallelisms(flink, job1)).containsOnly(1);
            assertTheClustersSettingsStandWhereNoOptionIsGiven(flink, job1);

            up.log("job " + job1 + " runs at parallelism 1");

            try (EventReader events = new EventReader(kafka, "geofence-events", EVENTS_COPY)) {
                List<Event> firstEvents = before(expected, cut1);
                assertThat(firstEvents).hasSizeGreaterThan(1000);
                events.awaitContaining(firstEvents, WAIT, tmp);
                up.log("first part: " + firstEvents.size() + " expected events committed");

                String savepoint =
                        flink.stopWithSavepoint(job1, tmp.resolve("savepoint-1"), false, WAIT);
                up.log("job 1 stopped with savepoint " + savepoint);

                long cut2 = watermarkAfter(produce(kafka, rest));
                produceFutureFences(kafka, rest.get(rest.size() - 1).timestamp() + 86_400_000L);
                String job2 = flink.runJar(jar, args, 2, savepoint);
                job = job2;
                flink.awaitRunning(job2, WAIT);
                assertThat(parallelisms(flink, job2)).containsOnly(2);
                assertTheClustersSettingsStandWhereNoOptionIsGiven(flink, job2);

                JsonNode restored = flink.get("/jobs/" + job2 + "/checkpoints");
                assertThat(
                                restored.path("latest")
                                        .path("restored")
                                        .path("is_savepoint")
                                        .asBoolean())
                        .as("job 2 restored from a savepoint: %s", restored)
                        .isTrue();
                assertThat(restored.path("latest").path("restored").path("external_path").asText())
                        .isEqualTo(savepoint);
                up.log(
                        "job "
                                + job2
                                + " restored, parallelism 2; "
                                + rest.size()
                                + " more positions");

                // Output of the restored, rescaled run as it goes, before any drain.
                events.awaitContaining(before(expected, cut2), WAIT, tmp);
                awaitPositionsCommitted(flink, kafka);
                up.log("second part read and checkpointed");

                String last = flink.stopWithSavepoint(job2, tmp.resolve("savepoint-2"), true, WAIT);
                up.log("job 2 drained and stopped with savepoint " + last);

                List<Event> got = events.readToEnd(WAIT, tmp);
                List<String> differences = SampleCheck.differences(expected, got);
                if (!differences.isEmpty()) {
                    events.keep(EVENTS_COPY);
                }
                assertThat(differences).isEmpty();
                assertThat(got).hasSize(expected.size());
            }
            try (EventReader deadLetters = new EventReader(kafka, "geofence-dlq", DLQ_COPY)) {
                assertThat(deadLetters.readLinesToEnd(WAIT)).isEmpty();
            }
            up.log(expected.size() + " events, exactly the expected ones; no dead letters");
        } catch (Throwable t) {
            report(up.flink(), up.kafka(), job);
            throw t;
        } finally {
            up.close();
        }
    }

    /** What a failure report needs: the logs' tails, the dead letters, the job's counters. */
    private static void report(StandaloneFlinkCluster flink, KafkaBroker kafka, String job) {
        if (flink == null) {
            return;
        }
        System.err.println(flink.logTails(60));
        if (kafka != null) {
            System.err.println(deadLettersReport(kafka));
        }
        if (job != null) {
            try {
                System.err.println(
                        "job "
                                + job
                                + ": "
                                + flink.metrics(
                                        job,
                                        List.of(
                                                "latePositions",
                                                "lateTileUpdates",
                                                "lateFenceChanges",
                                                "fenceChangesIn",
                                                "positionsIn",
                                                "deadLetters",
                                                "enterEvents",
                                                "exitEvents")));
            } catch (Exception e) {
                System.err.println("no metrics of job " + job + ": " + e);
            }
        }
    }

    /** How many dead letters there are, committed or not, with the first few; for a report. */
    private static String deadLettersReport(KafkaBroker kafka) {
        List<String> lines = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("report-dlq", false)) {
            // The topic has one partition.
            TopicPartition p = KafkaTopics.assignFromBeginning(c, "geofence-dlq").get(0);
            long end = c.endOffsets(List.of(p)).get(p);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (c.position(p) < end && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200))
                        .forEach(r -> lines.add(new String(r.value(), StandardCharsets.UTF_8)));
            }
        } catch (RuntimeException e) {
            return "dead letters unreadable: " + e;
        }
        return lines.size()
                + " dead letters (read_uncommitted), the first: "
                + lines.subList(0, Math.min(3, lines.size()));
    }

    /** The expected events the watermark {@code watermark} has certainly let out. */
    private static List<Event> before(List<Event> expected, long watermark) {
        // A second to spare: the events need not be this close behind the watermark.
        return expected.stream().filter(e -> e.timestamp() <= watermark - 1000).toList();
    }

    /**
     * The watermark the job reaches once it has read records up to these per-partition times: the
     * least of them, less the bound and 1 ms.
     */
    private static long watermarkAfter(Map<Integer, Long> newestPerPartition) {
        assertThat(newestPerPartition)
                .as("records in every partition")
                .hasSize(POSITION_PARTITIONS);
        long least = newestPerPartition.values().stream().min(Long::compare).orElseThrow();
        return least - BOUND_MS - 1;
    }

    /** Fence lines, keyed by fence id; Kafka timestamp 0: those without a time hold from then. */
    private static void produceFences(KafkaBroker kafka) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            List<Future<RecordMetadata>> sent =
                    KafkaTopics.sendFences(producer, "fences", SAMPLE.resolve("fences.jsonl"));
            for (Future<RecordMetadata> f : sent) {
                f.get();
            }
        }
    }

    /**
     * A fence in each partition of the fences topic, from {@code time} on: it moves the fences'
     * watermark past every position and, from after the last position, changes no event.
     */
    private static void produceFutureFences(KafkaBroker kafka, long time) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            for (int p = 0; p < FENCE_PARTITIONS; p++) {
                producer.send(KafkaTopics.smallFence("fences", p, "e2e-future-" + p, time)).get();
            }
        }
    }

    /** Positions keyed by entity id, stamped with their event time; newest time per partition. */
    private static Map<Integer, Long> produce(KafkaBroker kafka, List<Positioned> positions)
            throws Exception {
        Map<Integer, Long> newest = new TreeMap<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (Positioned p : positions) {
                sent.add(
                        producer.send(
                                KafkaTopics.record(
                                        "positions", null, p.entityId(), p.timestamp(), p.line())));
            }
            for (int i = 0; i < sent.size(); i++) {
                newest.merge(
                        sent.get(i).get().partition(), positions.get(i).timestamp(), Math::max);
            }
        }
        return newest;
    }

    /**
     * The running job's checkpoint settings and state backend are the cluster's ({@link
     * #CLUSTER_SETTINGS}) but for the interval, which the job's options give (1 s); the web UI's
     * user configuration shows the options so.
     */
    private static void assertTheClustersSettingsStandWhereNoOptionIsGiven(
            StandaloneFlinkCluster flink, String job) throws Exception {
        JsonNode checkpoints = flink.get("/jobs/" + job + "/checkpoints/config");
        assertThat(checkpoints.path("state_backend").asText())
                .as("%s", checkpoints)
                .containsIgnoringCase("rocksdb");
        assertThat(checkpoints.path("timeout").asLong()).as("%s", checkpoints).isEqualTo(97_000);
        assertThat(checkpoints.path("tolerable_failed_checkpoints").asInt())
                .as("%s", checkpoints)
                .isEqualTo(7);
        assertThat(checkpoints.path("interval").asLong()).as("%s", checkpoints).isEqualTo(1000);
        JsonNode shown =
                flink.get("/jobs/" + job + "/config").path("execution-config").path("user-config");
        assertThat(shown.path("state-backend").asText())
                .as("%s", shown)
                .isEqualTo("rocksdb (the cluster's state.backend.type)");
        assertThat(shown.path("checkpoint-interval").asText()).isEqualTo("1s");
        assertThat(shown.path("tile-level").asText()).isEqualTo("7");
    }

    /** The parallelism of each of the job's vertices. */
    private static List<Integer> parallelisms(StandaloneFlinkCluster flink, String job)
            throws Exception {
        List<Integer> out = new ArrayList<>();
        for (JsonNode v : flink.get("/jobs/" + job).path("vertices")) {
            out.add(v.path("parallelism").asInt());
        }
        return out;
    }

    /**
     * Waits until the job's consumer group has committed (which the Kafka source does at completed
     * checkpoints) the end of every positions partition.
     */
    private static void awaitPositionsCommitted(StandaloneFlinkCluster flink, KafkaBroker kafka)
            throws Exception {
        try (Admin admin = KafkaTopics.admin(kafka)) {
            Map<TopicPartition, Long> ends =
                    KafkaTopics.endOffsets(admin, "positions", POSITION_PARTITIONS);
            flink.await(
                    "the positions to be read and checkpointed",
                    WAIT,
                    () -> KafkaTopics.committedUpTo(admin, GROUP, ends));
        }
    }
}
