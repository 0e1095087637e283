package org.quadfence.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.JobTopics;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleReplay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Contract 8a, "Upgrades keep state": savepoints of each stable state format, kept in
 * src/test/resources/savepoints, restore in this version and the job goes on exactly, as Flink
 * tests its own operators across versions ({@code SavepointMigrationTestBase}). A savepoint is a
 * run of sample-features (polygons, circles, groups, hysteresis, DWELL, expiry) stopped after the
 * positions before the middle of its time were read from Kafka, with the events written until then
 * beside it; the test writes the same records to a new broker (so the savepoint's offsets hold),
 * and the rest of the positions after them, restores the savepoint at another parallelism, and
 * checks that the events before and after are the sample's, each exactly once.
 *
 * <p>Write the savepoint of this version (when a new stable format comes, beside the others):
 *
 * <pre>
 * mvn -B -ntp verify -Dtest=NoSuchTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=StateFormatMigrationITCase -Dsavepoint.write=true
 * </pre>
 */
class StateFormatMigrationITCase {

    private static final String SAMPLE = "sample-features";

    /** The stable state formats whose savepoints this version restores. */
    private static final List<String> STABLE = List.of("7", "8", "9");

    private static final java.nio.file.Path SAVEPOINTS =
            java.nio.file.Path.of("src/test/resources/savepoints");

    private static final int POSITION_PARTITIONS = 2;

    /** A position long after the sample, in no fence: it moves the watermark past everything. */
    private static final String END =
            "{\"entityId\":\"zz-end-of-sample\",\"lon\":0.5,\"lat\":0.5,"
                    + "\"timestamp\":1893456000000}";

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir java.nio.file.Path work;

    @Test
    void savepointsOfEveryStableStateFormatRestoreAndTheJobGoesOnExactly() throws Exception {
        for (String format : STABLE) {
            java.nio.file.Path kept = SAVEPOINTS.resolve("state-format-" + format);
            assertThat(kept.resolve("savepoint").resolve("_metadata"))
                    .as("the savepoint of state format " + format)
                    .isRegularFile();
            Properties written = new Properties();
            try (var in = Files.newBufferedReader(kept.resolve("savepoint.properties"))) {
                written.load(in);
            }
            long cut = Long.parseLong(written.getProperty("cut"));
            List<String> before = Files.readAllLines(kept.resolve("events-before.jsonl"));
            int expected = Files.readAllLines(sample().resolve("expected.jsonl")).size();
            try (KafkaBroker kafka = KafkaBroker.start()) {
                Topics topics = Topics.create(kafka);
                // The offsets in the savepoint are those of this input, written the same way.
                topics.send(topics.names().fences(), fences(), f -> 0);
                topics.send(
                        topics.names().positions(),
                        positions(Long.MIN_VALUE, cut),
                        Topics::partition);
                List<String> rest = positions(cut, Long.MAX_VALUE);
                rest.add(END);
                topics.send(topics.names().positions(), rest, Topics::partition);

                StreamExecutionEnvironment env =
                        StreamExecutionEnvironment.getExecutionEnvironment();
                env.configure(
                        Configuration.fromMap(
                                Map.of(
                                        StateRecoveryOptions.SAVEPOINT_PATH.key(),
                                        kept.resolve("savepoint").toAbsolutePath().toString())));
                JobOptions options = topics.options(3);
                GeofenceJob.assemble(env, options, JobIo.kafka(options, false), true);
                JobClient job = env.executeAsync("restored savepoint of state format " + format);
                List<String> after;
                try {
                    after = topics.awaitEvents(expected - before.size());
                } finally {
                    job.cancel().get();
                }
                java.nio.file.Path dir = Files.createDirectories(work.resolve(format));
                List<String> both = new ArrayList<>(before);
                both.addAll(after);
                java.nio.file.Path all = Files.write(dir.resolve("events.jsonl"), both);
                java.nio.file.Path dlq = Files.writeString(dir.resolve("dlq.jsonl"), "");
                SampleReplay.checkPy(expectedAfter(format, cut, dir), all, dlq);
                assertThat(before).as("events before the savepoint").isNotEmpty();
                assertThat(after).as("events after the restore").isNotEmpty();
                assertThat(both).as("events before and after the savepoint").hasSize(expected);
            }
        }
    }

    /** Writes the savepoint of this version's state format: see the class comment. */
    @Test
    @EnabledIfSystemProperty(named = "savepoint.write", matches = "true")
    void writesTheSavepointOfThisVersion() throws Exception {
        long cut = middleTime();
        java.nio.file.Path target = SAVEPOINTS.resolve("state-format-" + GeofenceJob.STATE_FORMAT);
        List<String> before;
        String savepoint;
        try (KafkaBroker kafka = KafkaBroker.start()) {
            Topics topics = Topics.create(kafka);
            topics.send(topics.names().fences(), fences(), f -> 0);
            topics.send(
                    topics.names().positions(), positions(Long.MIN_VALUE, cut), Topics::partition);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            JobOptions options = topics.options(2);
            GeofenceJob.assemble(env, options, JobIo.kafka(options, false), true);
            JobClient job =
                    env.executeAsync("savepoint of state format " + GeofenceJob.STATE_FORMAT);
            // Any moment would do (a savepoint is consistent whenever it is taken); this one has
            // the first half worked through, and its last positions still waiting.
            before = topics.awaitEvents(1);
            savepoint =
                    job.stopWithSavepoint(
                                    false,
                                    work.resolve("savepoints").toUri().toString(),
                                    SavepointFormatType.CANONICAL)
                            .get();
            before = topics.awaitEvents(before.size());
        }
        if (Files.exists(target)) {
            try (Stream<java.nio.file.Path> old = Files.walk(target)) {
                old.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        java.nio.file.Path from = java.nio.file.Path.of(java.net.URI.create(savepoint));
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files::iterator) {
                java.nio.file.Path to = target.resolve("savepoint").resolve(from.relativize(f));
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Files.write(target.resolve("events-before.jsonl"), before);
        Properties written = new Properties();
        written.setProperty("cut", Long.toString(cut));
        written.setProperty("state-format", GeofenceJob.STATE_FORMAT);
        written.setProperty("sample", SAMPLE);
        written.setProperty("parallelism", "2");
        try (var out = Files.newBufferedWriter(target.resolve("savepoint.properties"))) {
            written.store(
                    out,
                    "StateFormatMigrationITCase#writesTheSavepointOfThisVersion: the positions"
                            + " before 'cut' were read, the rest come after the restore");
        }
    }

    // ---------------------------------------------------------------- Kafka

    /** The topics of the test: the same names, partitions and offsets at every run. */
    private record Topics(KafkaBroker kafka, JobTopics names) {

        static Topics create(KafkaBroker kafka) throws Exception {
            return new Topics(
                    kafka, JobTopics.named("mig").create(kafka, POSITION_PARTITIONS, 1, 1));
        }

        /** The partition of a position: by its entity, as the same every time. */
        static int partition(String line) {
            try {
                String entity = JSON.readTree(line).get("entityId").asText();
                return Math.floorMod(entity.hashCode(), POSITION_PARTITIONS);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Sends {@code lines} one at a time, in order, keyed by fence or entity id. */
        void send(String topic, List<String> lines, ToIntFunction<String> partition)
                throws Exception {
            try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
                for (String line : lines) {
                    producer.send(
                                    KafkaTopics.record(
                                            topic, partition.applyAsInt(line), key(line), 0L, line))
                            .get(30, TimeUnit.SECONDS);
                }
            }
        }

        private static String key(String line) throws IOException {
            JsonNode record = JSON.readTree(line);
            for (String id : List.of("fenceId", "id", "entityId")) {
                if (record.has(id)) {
                    return record.get(id).asText();
                }
            }
            throw new IllegalArgumentException("no id: " + line);
        }

        JobOptions options(int parallelism) throws IOException {
            Map<String, String> o = new HashMap<>();
            JsonNode meta = JSON.readTree(sample().resolve("meta.json").toFile());
            meta.path("engine_options")
                    .fields()
                    .forEachRemaining(e -> o.put(e.getKey(), e.getValue().asText()));
            o.put("parallelism", Integer.toString(parallelism));
            o.putAll(names.options(kafka, "migration"));
            o.put("delivery", "at-least-once");
            // One copy of each tile's fences: a smaller savepoint to keep in the repository.
            o.put("tile-shards", "1");
            // Once read, the fences topic falls silent; the job goes on with the positions.
            o.put("idle-timeout", "1s");
            return JobOptions.of(o);
        }

        /**
         * The events topic once it holds at least {@code count} records and has not changed for 5 s
         * (or after 3 minutes).
         */
        List<String> awaitEvents(int count) throws Exception {
            List<String> lines = new ArrayList<>();
            try (KafkaConsumer<byte[], byte[]> consumer =
                    kafka.consumer("reader-" + System.nanoTime(), false)) {
                KafkaTopics.assignFromBeginning(consumer, names.events());
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                long quietSince = System.nanoTime();
                while (System.nanoTime() < deadline) {
                    int n = lines.size();
                    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        lines.add(new String(r.value(), StandardCharsets.UTF_8));
                    }
                    if (lines.size() != n) {
                        quietSince = System.nanoTime();
                    } else if (lines.size() >= count
                            && System.nanoTime() - quietSince > Duration.ofSeconds(5).toNanos()) {
                        break;
                    }
                }
            }
            return lines;
        }
    }

    // ---------------------------------------------------------------- the sample

    private static java.nio.file.Path sample() {
        return SampleReplay.SAMPLES.resolve(SAMPLE);
    }

    /**
     * The sample as check.py is to compare the events with: as it is for this version's format; for
     * a format before visits (9), without the visit fields of the visits begun before the cut,
     * which a state of that format did not keep (docs/rules.md, "Upgrading a state of format 8").
     * The visits begun after it are checked in full.
     */
    private static java.nio.file.Path expectedAfter(String format, long cut, java.nio.file.Path dir)
            throws IOException {
        if (Integer.parseInt(format) >= 9) {
            return sample();
        }
        java.nio.file.Path copy = Files.createDirectories(dir.resolve("sample"));
        for (String file : List.of("meta.json", "fences.jsonl", "positions.jsonl")) {
            Files.copy(sample().resolve(file), copy.resolve(file));
        }
        List<String> expected = new ArrayList<>();
        for (String line : Files.readAllLines(sample().resolve("expected.jsonl"))) {
            ObjectNode event = (ObjectNode) JSON.readTree(line);
            if (event.has("enteredAt") && event.get("enteredAt").asLong() < cut) {
                event.remove("enteredAt");
                event.remove("durationMs");
            }
            expected.add(JSON.writeValueAsString(event));
        }
        Files.write(copy.resolve("expected.jsonl"), expected);
        return copy;
    }

    private static List<String> fences() throws IOException {
        return Files.readAllLines(sample().resolve("fences.jsonl"));
    }

    private static long time(String line) throws IOException {
        JsonNode t = JSON.readTree(line).get("timestamp");
        return t.isNumber() ? t.asLong() : Instant.parse(t.asText()).toEpochMilli();
    }

    /** The middle of the sample's positions in event time. */
    private static long middleTime() throws IOException {
        List<Long> times = new ArrayList<>();
        for (String line : Files.readAllLines(sample().resolve("positions.jsonl"))) {
            times.add(time(line));
        }
        times.sort(null);
        return times.get(times.size() / 2);
    }

    /** The sample's positions at times in [from, to), in file order. */
    private static List<String> positions(long from, long to) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line : Files.readAllLines(sample().resolve("positions.jsonl"))) {
            long t = time(line);
            if (t >= from && t < to) {
                lines.add(line);
            }
        }
        return lines;
    }
}
