package org.quadfence.job;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.logging.log4j.core.config.Configurator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.BrokerProcess;
import org.quadfence.testing.BusyCores;
import org.quadfence.testing.CommittedReader;
import org.quadfence.testing.JobTopics;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.Patience;
import org.quadfence.testing.PositionFeeder;
import org.quadfence.testing.RunLogs;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleReplay;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Broker outages: the Kafka broker, in a JVM of its own ({@link BrokerProcess}), is killed with
 * SIGKILL twice under the running job (exactly-once, checkpoints every second, the default restart
 * strategy, on a MiniCluster) while positions are still being written, and started again each time
 * on the same port and data directory a few seconds later. The job recovers by itself: the events
 * topic, read with read_committed, holds every expected event of sample-clean exactly once, as
 * without the outages, and the dead-letter topic nothing; and no position reached a tile stage
 * behind its clock (the outages made no partition idle: {@link
 * org.quadfence.kafka.IdleWhileLeadersAnswer}). An opt-in test keeps the broker away for three
 * minutes, long enough for the sinks to fail and the job to restart.
 *
 * <p>The job's warnings (the Kafka clients' failed connections, the restarts of the job and why)
 * and its checkpoints go to {@code target/run-logs/BrokerRestartITCase/job.log}; per test, in a
 * directory beside it, the broker's output ({@code broker-N.log}, one per start), what happened
 * when ({@code outages.txt}: the kills, the restarts, the time they took) and the events read.
 */
class BrokerRestartITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(2);

    private static final Path SAMPLE = SampleReplay.SAMPLES.resolve("sample-clean");
    private static final int POSITION_PARTITIONS = 4;

    /**
     * How long one step (a start, the events of a batch, the recovery after an outage) may take:
     * seconds on an idle machine, much longer on a busy one with two cores; more after a long
     * outage.
     */
    private static volatile Duration patience = Duration.ofSeconds(100);

    /** How long the events topic stays the same before the test takes it for complete. */
    private static final Duration QUIET = Duration.ofSeconds(3);

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path logs;

    private static final Patience WAITS =
            new Patience(() -> patience, () -> "the job's and the broker's logs are in " + logs);

    /**
     * The job's logging for this class: warnings and errors of everything, the job's restarts and
     * checkpoints, to {@code job.log}; errors to the console as without a configuration.
     */
    @BeforeAll
    static void logToAFile() throws IOException {
        logs = RunLogs.fresh(BrokerRestartITCase.class.getSimpleName());
        Path config =
                Files.writeString(
                        logs.resolve("log4j2-test.properties"),
                        String.join(
                                "\n",
                                "rootLogger.level = WARN",
                                "rootLogger.appenderRef.file.ref = file",
                                "rootLogger.appenderRef.console.ref = console",
                                "appender.file.type = File",
                                "appender.file.name = file",
                                "appender.file.fileName = " + logs.resolve("job.log"),
                                "appender.file.layout.type = PatternLayout",
                                "appender.file.layout.pattern = %d{HH:mm:ss.SSS} %-5p %c{1} - %m%n",
                                "appender.console.type = Console",
                                "appender.console.name = console",
                                "appender.console.filter.threshold.type = ThresholdFilter",
                                "appender.console.filter.threshold.level = ERROR",
                                "appender.console.layout.type = PatternLayout",
                                "appender.console.layout.pattern = %d{HH:mm:ss} %-5p %c{1} - %m%n",
                                String.join("\n", RunLogs.JOB_PROGRESS),
                                ""));
        Configurator.reconfigure(config.toUri());
    }

    /** Back to the logging the other test classes of this JVM have. */
    @AfterAll
    static void logAsBefore() {
        Configurator.reconfigure();
    }

    @TempDir Path work;

    /**
     * The broker killed twice, each time started again 5 s after the kill (its start after a kill
     * takes about 14 s on a quiet machine, most of it the controller waiting out the session of the
     * broker's previous life; up to 60 s allowed here), on a busy machine: busy threads on every
     * core, a 2 s idle timeout.
     */
    @Test
    void theBrokerKilledTwiceUnderARunningJobLosesAndRepeatsNothing() throws Exception {
        patience = Duration.ofSeconds(100);
        try (BusyCores busy = BusyCores.everyCoreTwice()) {
            outages("twice", 2, Duration.ofSeconds(5), Duration.ofSeconds(60));
        }
    }

    /**
     * The broker away for three minutes, longer than the producers' {@code max.block.ms} (60 s),
     * their {@code delivery.timeout.ms} and the checkpoint timeout (2 min): the sinks fail, the job
     * restarts (again and again, as the restart strategy says, while the broker is away) and goes
     * on from its last checkpoint once the broker is back. About five minutes; run with {@code
     * -Dbroker.outage.long=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "broker.outage.long", matches = "true")
    void theBrokerAwayForThreeMinutesAlsoLosesAndRepeatsNothing() throws Exception {
        patience = Duration.ofMinutes(5);
        outages("long", 1, Duration.ofMinutes(3), Duration.ofMinutes(4));
    }

    /**
     * Runs the job against the broker while the sample's positions are written, kills the broker
     * {@code kills} times mid-stream and starts it again after {@code down}, and checks that the
     * events are exactly the sample's.
     *
     * @param backWithin the bound on the time from a kill to a broker that answers again
     */
    private void outages(String name, int kills, Duration down, Duration backWithin)
            throws Exception {
        Path out = Files.createDirectories(logs.resolve(name));
        List<SampleCheck.Event> expected = SampleCheck.read(SAMPLE.resolve("expected.jsonl"));
        int n = expected.size();
        Outages outages = new Outages(out.resolve("outages.txt"));
        List<String> lines;
        List<String> dead;
        long behindClock;
        try (BrokerProcess kafka = BrokerProcess.format(work.resolve("kafka"), out)) {
            outages.note("broker started in " + kafka.start().toMillis() + " ms");
            JobTopics topics = JobTopics.named("outage").create(kafka, POSITION_PARTITIONS, 2, 3);
            try (KafkaProducer<byte[], byte[]> producer = producer(kafka)) {
                topics.sendFences(producer, SAMPLE.resolve("fences.jsonl"));
            }
            Map<String, String> o = topics.options(kafka, "outage");
            o.put("parallelism", "2");
            // Above the feed's pauses (500 ms), as a live stream's timeout must be: a partition
            // caught up between two of its records is then not idle.
            o.put("idle-timeout", "2s");
            JobOptions options = JobOptions.of(o);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            GeofenceJob.assemble(
                    env, options, JobIo.kafka(options, env.getConfiguration(), false), true);
            JobClient job = env.executeAsync(GeofenceJob.name(options));
            outages.note("job " + job.getJobID() + " submitted");
            try (CommittedReader events = committed(kafka, topics.events());
                    PositionFeeder feeder =
                            new PositionFeeder(
                                    () -> producer(kafka),
                                    topics.positions(),
                                    POSITION_PARTITIONS,
                                    SAMPLE.resolve("positions.jsonl"),
                                    50,
                                    Duration.ofMillis(500),
                                    patience)) {
                // The feed starts with the job, as a live stream does: partitions silent for the
                // idle timeout before their first records (an empty topic) are idle, and their
                // first records can then be behind the others' (README, Semantics).
                feeder.allowEnd();
                feeder.start();
                for (int k = 0; k < kills; k++) {
                    int percent = 25 + 35 * k;
                    // Mid-stream, once the job commits events, and not right after a recovery.
                    awaitFed(feeder, Math.max(percent * feeder.total() / 100, feeder.fed() + 500));
                    events.awaitAtLeast(1);
                    int before = events.count();
                    int fed = feeder.fed();
                    // Mid-stream: positions still to be written, events still to come.
                    assertThat(feeder.fed()).isLessThan(feeder.total());
                    assertThat(before).isLessThan(n);
                    outages.note(
                            "SIGKILL at "
                                    + feeder.fed()
                                    + "/"
                                    + feeder.total()
                                    + " positions written, "
                                    + before
                                    + "/"
                                    + n
                                    + " events committed; job "
                                    + job.getJobStatus().get()
                                    + ", restarts "
                                    + restarts(job));
                    long killed = System.nanoTime();
                    kafka.kill();
                    Thread.sleep(down.toMillis());
                    Duration start = kafka.start();
                    Duration away = Duration.ofNanos(System.nanoTime() - killed);
                    outages.note(
                            "broker back after "
                                    + away.toMillis()
                                    + " ms (its start "
                                    + start.toMillis()
                                    + " ms)");
                    assertThat(away).as("from the kill to the broker back").isLessThan(backWithin);
                    // Recovered by itself: the feed goes on, and events are committed after it
                    // went on (by a checkpoint after the outage).
                    awaitFed(feeder, fed + 500);
                    events.awaitAtLeast(Math.max(before, events.count()) + 1);
                    outages.note(
                            "new events committed "
                                    + Duration.ofNanos(System.nanoTime() - killed).toMillis()
                                    + " ms after the kill; job "
                                    + job.getJobStatus().get()
                                    + ", restarts "
                                    + restarts(job));
                }
                feeder.awaitDone();
                lines = events.awaitQuiet(n);
                outages.note(
                        "all "
                                + lines.size()
                                + " records read; job "
                                + job.getJobStatus().get()
                                + ", restarts "
                                + restarts(job));
                assertThat(job.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
                try (CommittedReader dlq = committed(kafka, topics.dlq())) {
                    dead = dlq.awaitQuiet(0);
                }
                behindClock = metricSum(job, "positionsMatchedBehindClock");
                outages.note(
                        "positionsMatchedBehindClock "
                                + behindClock
                                + ", latePositions "
                                + metricSum(job, "latePositions"));
            } finally {
                outages.note("exceptions: " + exceptions(job));
                job.cancel().get(60, TimeUnit.SECONDS);
            }
        }
        List<String> events =
                lines.stream()
                        .filter(l -> !l.contains(PositionFeeder.END))
                        .collect(Collectors.toList());
        Path got = Files.write(out.resolve("events.jsonl"), events);
        Path deadFile = Files.write(out.resolve("dlq.jsonl"), dead);
        assertThat(SampleCheck.differences(expected, SampleCheck.read(got))).isEmpty();
        assertThat(events).hasSize(n);
        assertThat(dead).isEmpty();
        // The outages made no partition idle: no position reached a tile stage behind its clock
        // (where it would be matched against the fences of a later time).
        assertThat(behindClock).as("positionsMatchedBehindClock").isZero();
        assertThat(SampleReplay.checkPy(SAMPLE, got, deadFile))
                .contains("agreement: " + n + "/" + n);
    }

    // ---------------------------------------------------------------- the job seen from outside

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** The job's numRestarts metric, as the REST API (and the web UI) show it; "?" if none. */
    private static String restarts(JobClient job) {
        JsonNode metrics = rest("/jobs/" + job.getJobID() + "/metrics?get=numRestarts");
        return metrics != null && metrics.size() > 0 ? metrics.get(0).path("value").asText() : "?";
    }

    /** The root causes of the job's restarts, as the web UI's Exceptions tab shows them. */
    private static String exceptions(JobClient job) {
        JsonNode history = rest("/jobs/" + job.getJobID() + "/exceptions");
        if (history == null) {
            return "?";
        }
        List<String> causes = new ArrayList<>();
        for (JsonNode e : history.path("exceptionHistory").path("entries")) {
            String name = e.path("exceptionName").asText();
            String trace = e.path("stacktrace").asText();
            causes.add(
                    name
                            + " in "
                            + e.path("taskName").asText("the job")
                            + ": "
                            + trace.lines().limit(3).collect(Collectors.joining(" | ")));
        }
        return causes.size() + (causes.isEmpty() ? "" : "\n  " + String.join("\n  ", causes));
    }

    /**
     * The sum over the job's subtasks of the operator metrics whose name ends with {@code name}.
     */
    private static long metricSum(JobClient job, String name) {
        JsonNode detail = rest("/jobs/" + job.getJobID());
        long sum = 0;
        if (detail == null) {
            return -1;
        }
        for (JsonNode v : detail.path("vertices")) {
            String base = "/jobs/" + job.getJobID() + "/vertices/" + v.path("id").asText();
            JsonNode available = rest(base + "/subtasks/metrics");
            if (available == null) {
                continue;
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode m : available) {
                if (m.path("id").asText().endsWith("." + name)) {
                    ids.add(m.path("id").asText());
                }
            }
            if (ids.isEmpty()) {
                continue;
            }
            JsonNode values =
                    rest(
                            base
                                    + "/subtasks/metrics?agg=sum&get="
                                    + java.net.URLEncoder.encode(
                                            String.join(",", ids), StandardCharsets.UTF_8));
            if (values != null) {
                for (JsonNode m : values) {
                    sum += (long) m.path("sum").asDouble();
                }
            }
        }
        return sum;
    }

    private static JsonNode rest(String path) {
        try {
            var conf = FLINK.getClientConfiguration();
            String base =
                    "http://" + conf.get(RestOptions.ADDRESS) + ":" + conf.get(RestOptions.PORT);
            HttpResponse<String> r =
                    HTTP.send(
                            HttpRequest.newBuilder(URI.create(base + path))
                                    .timeout(Duration.ofSeconds(5))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** What happened when, to the console and {@code outages.txt}. */
    private static final class Outages {
        private final Path file;

        Outages(Path file) {
            this.file = file;
        }

        void note(String what) throws IOException {
            String line = LocalTime.now() + " " + what;
            System.out.println("BrokerRestartITCase: " + line);
            Files.writeString(
                    file,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        }
    }

    /** A reader of {@code topic} with this test's patience, the end markers left out. */
    private static CommittedReader committed(BrokerProcess kafka, String topic) {
        return WAITS.committed(kafka, topic, QUIET);
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        WAITS.await(what, done);
    }

    /** Waits until {@code count} positions are written. */
    private static void awaitFed(PositionFeeder feeder, int count) throws InterruptedException {
        await(count + " positions written", () -> feeder.hasFed(count));
    }

    // ---------------------------------------------------------------- Kafka

    /**
     * An idempotent producer that outlives an outage of the broker: it waits for the broker and
     * retries a record for up to 10 minutes (Kafka's defaults give up after 1 and 2) and sends
     * nothing twice.
     */
    private static KafkaProducer<byte[], byte[]> producer(BrokerProcess kafka) {
        return KafkaTopics.producer(
                kafka, Map.of("delivery.timeout.ms", "600000", "max.block.ms", "600000"));
    }
}
