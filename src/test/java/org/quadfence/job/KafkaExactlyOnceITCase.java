package org.quadfence.job;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.io.EventTimes;
import org.quadfence.kafka.KafkaIo;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.LargeFences;
import org.quadfence.testing.MembershipsCheck;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleCheck.Event;
import org.quadfence.testing.SampleReplay;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job exactly-once between a real Kafka broker (KRaft, in this JVM, on 127.0.0.1) and a
 * MiniCluster: the sample's events, read with read_committed, are exactly the expected ones, also
 * when a task fails mid-stream and the job recovers from its last checkpoint, with or without the
 * changelog state backend (option {@code state-changelog}).
 */
class KafkaExactlyOnceITCase {

    /** Where the TaskManager keeps the changes of a job with option state-changelog. */
    private static final Path CHANGELOG =
            Path.of("target", "kafka-exactly-once-changelog").toAbsolutePath();

    @RegisterExtension
    static final MiniClusterExtension FLINK = MiniClusters.loopback(4, changelogStorage());

    private static final Path SAMPLE = SampleReplay.SAMPLES.resolve("sample-nasty");
    private static final Path RULES = SampleReplay.SAMPLES.resolve("sample-rules");
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension static final KafkaBroker kafka = KafkaBroker.perClass();

    /** Fails the task once, after some records, so the job restarts from a checkpoint. */
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir Path tmp;

    @Test
    void theSamplesEventsArriveExactlyOnce() throws Exception {
        runAndCheck("plain", false, Map.of(), StreamExecutionEnvironment::getExecutionEnvironment);
    }

    /**
     * Producers compress (gzip, snappy, lz4 and zstd are Kafka's codecs): each position partition
     * written with another codec, the fences with zstd, gives the sample's events, as plain records
     * do.
     */
    @Test
    void recordsCompressedWithEachOfKafkasCodecsGiveTheSameEvents() throws Exception {
        runAndCheck(
                "codecs",
                false,
                Map.of(),
                StreamExecutionEnvironment::getExecutionEnvironment,
                List.of("zstd"),
                List.of("gzip", "snappy", "lz4", "zstd"));
    }

    @Test
    void aTaskFailureMidStreamLosesAndRepeatsNothing() throws Exception {
        FAILED.set(false);
        runAndCheck("failing", true, Map.of(), StreamExecutionEnvironment::getExecutionEnvironment);
        assertThat(FAILED).isTrue();
    }

    @Test
    void aTaskFailureMidStreamWithTheStateChangelogLosesAndRepeatsNothing() throws Exception {
        FAILED.set(false);
        JobID job =
                runAndCheck(
                        "changelog",
                        true,
                        Map.of("state-changelog", "true"),
                        () -> {
                            StreamExecutionEnvironment env =
                                    StreamExecutionEnvironment.getExecutionEnvironment();
                            // The cluster's storage, as a cluster's client would see it.
                            env.configure(changelogStorage());
                            return env;
                        });
        assertThat(FAILED).isTrue();
        // Only a job whose state logs its changes gets a place in the storage.
        assertThat(CHANGELOG.resolve(job.toHexString()).resolve("dstl")).isDirectory();
    }

    /**
     * Rules per fence, position accuracy and visits (contract section 11): the confirmation clocks
     * and visits restored from the checkpoint after a task failure give sample-rules' events, visit
     * fields included, and its memberships (the confirmed sets).
     */
    @Test
    void aTaskFailureLosesAndRepeatsNothingOfTheRulesPerFenceAndTheirClocks() throws Exception {
        FAILED.set(false);
        runAndCheck(
                RULES,
                "rules",
                true,
                SampleReplay.engineOptions(RULES),
                StreamExecutionEnvironment::getExecutionEnvironment,
                List.of("none"),
                List.of("none"),
                4);
        assertThat(FAILED).isTrue();
    }

    /**
     * Backlogs of trackers that were offline (contract section 12), DWELLs due while they were,
     * through a task failure: the positions on one partition, as the sample's file is one.
     */
    @Test
    void aTaskFailureLosesAndRepeatsNothingOfTheBacklogsOfDevicesThatWereOffline()
            throws Exception {
        FAILED.set(false);
        Path sample = SampleReplay.SAMPLES.resolve("sample-backlog/dwell");
        runAndCheck(
                sample,
                "backlog",
                true,
                SampleReplay.engineOptions(sample),
                StreamExecutionEnvironment::getExecutionEnvironment,
                List.of("none"),
                List.of("none"),
                1);
        assertThat(FAILED).isTrue();
    }

    @Test
    void aFenceRecordOverOneMebibyteGoesThroughKafkaAndIsUsed() throws Exception {
        String name = "large";
        kafka.createTopic(name + "-positions", 1, false);
        kafka.createTopic(name + "-fences", 1, true);
        kafka.createTopic(name + "-events", 1, false);
        kafka.createTopic(name + "-dlq", 1, false);
        // 60,000 vertices with 17 significant digits: about 2.6 MB, over Kafka's 1 MiB defaults.
        String fence = LargeFences.circle("big", 10, 20, 5, 60_000, true);
        assertThat(fence.length()).isGreaterThan(2 << 20);
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            producer.send(KafkaTopics.record(name + "-fences", null, "big", 0L, fence)).get();
            long t = 1000;
            for (double lat : new double[] {20, 26, 24.5}) {
                String p =
                        "{\"entityId\":\"e\",\"lon\":10,\"lat\":"
                                + lat
                                + ",\"timestamp\":"
                                + t
                                + "}";
                producer.send(KafkaTopics.record(name + "-positions", null, "e", t, p)).get();
                t += 1000;
            }
        }
        JobOptions options =
                JobOptions.of(
                        Map.of(
                                "bootstrap-servers",
                                kafka.bootstrapServers(),
                                "positions-topic",
                                name + "-positions",
                                "fences-topic",
                                name + "-fences",
                                "events-topic",
                                name + "-events",
                                "dlq-topic",
                                name + "-dlq",
                                "group-id",
                                name,
                                "starting-offsets",
                                "earliest",
                                "checkpoint-interval",
                                "300ms",
                                "parallelism",
                                "1",
                                "max-out-of-orderness",
                                "1000"));
        SampleReplay.run(options, JobIo.kafka(options, true), true);
        List<String> events = new ArrayList<>();
        for (String e : readAll(name + "-events", 3)) {
            JsonNode n = JSON.readTree(e);
            events.add(
                    n.get("event").asText()
                            + " "
                            + n.get("fenceId").asText()
                            + " @"
                            + n.get("timestamp").asLong());
        }
        assertThat(events).containsExactly("ENTER big @1000", "EXIT big @2000", "ENTER big @3000");
        assertThat(readAll(name + "-dlq", 0)).isEmpty();
    }

    private JobID runAndCheck(
            String name,
            boolean fail,
            Map<String, String> more,
            Supplier<StreamExecutionEnvironment> flink)
            throws Exception {
        return runAndCheck(SAMPLE, name, fail, more, flink, List.of("none"), List.of("none"), 4);
    }

    private JobID runAndCheck(
            String name,
            boolean fail,
            Map<String, String> more,
            Supplier<StreamExecutionEnvironment> flink,
            List<String> fenceCodecs,
            List<String> positionCodecs)
            throws Exception {
        return runAndCheck(SAMPLE, name, fail, more, flink, fenceCodecs, positionCodecs, 4);
    }

    /**
     * @param sample the sample whose records go in and whose events must come out (check.py)
     * @param fenceCodecs the compression of the fences' producer
     * @param positionCodecs the compression of each position partition's producer, in turn
     * @param positionPartitions the partitions of the positions topic
     */
    private JobID runAndCheck(
            Path sample,
            String name,
            boolean fail,
            Map<String, String> more,
            Supplier<StreamExecutionEnvironment> flink,
            List<String> fenceCodecs,
            List<String> positionCodecs,
            int positionPartitions)
            throws Exception {
        String positions = name + "-positions";
        String fences = name + "-fences";
        String events = name + "-events";
        String dlq = name + "-dlq";
        String memberships = name + "-memberships";
        // Not compacted here, so that every record stays to be counted.
        kafka.createTopic(memberships, 2, false);
        kafka.createTopic(positions, positionPartitions, false);
        kafka.createTopic(fences, 2, true);
        kafka.createTopic(events, 3, false);
        kafka.createTopic(dlq, 1, false);
        produce(fences, 2, sample.resolve("fences.jsonl"), "fenceId", fenceCodecs);
        produce(
                positions,
                positionPartitions,
                sample.resolve("positions.jsonl"),
                "entityId",
                positionCodecs);

        Map<String, String> given =
                new HashMap<>(
                        Map.of(
                                "bootstrap-servers",
                                kafka.bootstrapServers(),
                                "positions-topic",
                                positions,
                                "fences-topic",
                                fences,
                                "events-topic",
                                events,
                                "dlq-topic",
                                dlq,
                                "group-id",
                                name,
                                "starting-offsets",
                                "earliest",
                                "checkpoint-interval",
                                "300ms",
                                "parallelism",
                                "2",
                                "max-out-of-orderness",
                                "1000"));
        given.put("memberships-topic", memberships);
        given.putAll(more);
        JobOptions options = JobOptions.of(given);
        GeofenceJob.Io io = JobIo.kafka(options, true);
        if (fail) {
            KafkaIo k =
                    new KafkaIo(
                            kafka.bootstrapServers(),
                            name,
                            JobIo.transactionalIdPrefix(options),
                            new java.util.Properties(),
                            options.inputRules());
            var failing =
                    k.positions(
                            positions,
                            OffsetsInitializer.earliest(),
                            true,
                            new FailOnce(KafkaIo.positionRecords(options.inputRules()), 1200));
            io =
                    io.withPositions(
                            options.millis("max-backlog") == 0
                                    ? failing
                                    : JobIo.positions(
                                            k.keepingEventTime(
                                                    failing,
                                                    positions,
                                                    EventTimes.POSITIONS,
                                                    options.millis("max-out-of-orderness")),
                                            options));
        }
        StreamExecutionEnvironment env = flink.get();
        GeofenceJob.assemble(env, options, io, true);
        JobID job = env.execute(GeofenceJob.name(options)).getJobID();

        List<Event> expected = SampleCheck.read(sample.resolve("expected.jsonl"));
        Path got = tmp.resolve(name + ".jsonl");
        Files.write(got, readAll(events, expected.size()));
        Path dead = tmp.resolve(name + ".dlq");
        Files.write(dead, readAll(dlq, 0));
        SampleReplay.checkPy(sample, got, dead);
        assertThat(SampleCheck.deadLetterCounts(dead))
                .isEqualTo(SampleCheck.expectedDeadLetters(sample));
        assertThat(currentFences(memberships))
                .as("each entity's sets, once each, tombstones as empty sets")
                .isEqualTo(MembershipsCheck.changes(sample.resolve("expected.jsonl")));
        return job;
    }

    private static Configuration changelogStorage() {
        return LocalFlink.keepingChangelogIn(new Configuration(), CHANGELOG);
    }

    /** Each key's sets of fences in topic order, keyed "group/entity"; a tombstone is empty. */
    private Map<String, List<List<String>>> currentFences(String topic) throws Exception {
        Map<String, List<List<String>>> sets = new java.util.TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("reader-" + topic, true)) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 30_000;
            int quiet = 0;
            while (System.currentTimeMillis() < deadline && quiet < 3) {
                var records = c.poll(Duration.ofMillis(500));
                // Joining the group takes a few empty polls first.
                quiet = records.isEmpty() && !sets.isEmpty() ? quiet + 1 : 0;
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    JsonNode key = JSON.readTree(r.key());
                    List<String> ids = new ArrayList<>();
                    if (r.value() != null) {
                        JSON.readTree(r.value()).get("fenceIds").forEach(n -> ids.add(n.asText()));
                    }
                    sets.computeIfAbsent(
                                    key.get(0).asText() + "/" + key.get(1).asText(),
                                    k -> new ArrayList<>())
                            .add(ids);
                }
            }
        }
        return sets;
    }

    /**
     * Each line as a record; keyed by the named field when it can be read, else a stand-in. The
     * record goes to the partition of its key, as Kafka's default partitioner puts it, written by
     * the producer of {@code codecs} for that partition ({@code compression.type}, in turn).
     */
    private void produce(
            String topic, int partitions, Path file, String keyField, List<String> codecs)
            throws Exception {
        List<KafkaProducer<byte[], byte[]>> producers = new ArrayList<>();
        try {
            for (String codec : codecs) {
                Map<String, Object> p = new HashMap<>();
                p.put("bootstrap.servers", kafka.bootstrapServers());
                p.put("enable.idempotence", "true");
                p.put("max.request.size", String.valueOf(4 << 20));
                p.put("compression.type", codec);
                producers.add(
                        new KafkaProducer<>(
                                p, new ByteArraySerializer(), new ByteArraySerializer()));
            }
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            int n = 0;
            for (String line : Files.readAllLines(file)) {
                String key = "line-" + n++;
                try {
                    JsonNode record = JSON.readTree(line);
                    JsonNode k = record.get(keyField);
                    // A GeoJSON Feature fence names itself by its "id".
                    k = k == null && keyField.equals("fenceId") ? record.get("id") : k;
                    if (k != null && k.isTextual()) {
                        key = k.asText();
                    }
                } catch (Exception notJson) {
                    // keep the stand-in key: a compacted topic refuses records without one
                }
                byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
                int partition = Utils.toPositive(Utils.murmur2(keyBytes)) % partitions;
                // Timestamp 0 stands for "the beginning of time" of fence lines without one.
                sent.add(
                        producers
                                .get(partition % producers.size())
                                .send(
                                        new ProducerRecord<>(
                                                topic,
                                                partition,
                                                0L,
                                                keyBytes,
                                                line.getBytes(StandardCharsets.UTF_8))));
            }
            producers.forEach(KafkaProducer::flush);
            for (java.util.concurrent.Future<?> f : sent) {
                f.get();
            }
        } finally {
            producers.forEach(KafkaProducer::close);
        }
    }

    /** Every committed record of the topic (waits until at least {@code atLeast} arrived). */
    private List<String> readAll(String topic, int atLeast) {
        List<String> lines = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("reader-" + topic, true)) {
            c.subscribe(List.of(topic));
            long deadline = System.currentTimeMillis() + 60_000;
            int quiet = 0;
            while (System.currentTimeMillis() < deadline && (lines.size() < atLeast || quiet < 3)) {
                int before = lines.size();
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(500))) {
                    lines.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                quiet = lines.size() == before ? quiet + 1 : 0;
            }
        }
        return lines;
    }

    /** A deserializer that throws once, after {@code after} records (process-wide). */
    static final class FailOnce implements KafkaRecordDeserializationSchema<Parsed<Position>> {
        private static final long serialVersionUID = 1L;
        private final KafkaRecordDeserializationSchema<Parsed<Position>> delegate;
        private final int after;
        private transient int seen;

        FailOnce(KafkaRecordDeserializationSchema<Parsed<Position>> delegate, int after) {
            this.delegate = delegate;
            this.after = after;
        }

        @Override
        public void open(DeserializationSchema.InitializationContext context) throws Exception {
            delegate.open(context);
        }

        @Override
        public void deserialize(
                ConsumerRecord<byte[], byte[]> record, Collector<Parsed<Position>> out)
                throws java.io.IOException {
            // Slow enough that checkpoints complete before the failure.
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (++seen >= after && FAILED.compareAndSet(false, true)) {
                throw new java.io.IOException("injected failure after " + seen + " records");
            }
            delegate.deserialize(record, out);
        }

        @Override
        public TypeInformation<Parsed<Position>> getProducedType() {
            return delegate.getProducedType();
        }
    }
}
