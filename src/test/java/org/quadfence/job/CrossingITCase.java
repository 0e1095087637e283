package org.quadfence.job;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.api.GeofenceStreams;
import org.quadfence.api.Geofencing;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.io.PositionCodec;
import org.quadfence.kafka.KafkaIo;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.CrossingScenario;
import org.quadfence.testing.JobTopics;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleReplay;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CROSS events (contract section 10, option crossing) through the whole job on a MiniCluster: a
 * hand-made scenario with its expected events ({@link CrossingScenario}) through replay at
 * parallelism 1 and 4 and tile levels 7 and 14 (two tiers), through Kafka exactly-once, and through
 * the library's builder; and a generated sample whose ENTER, EXIT and DWELL events stay exactly the
 * sample's with crossing on, its CROSS events the same at every parallelism and tile level.
 */
class CrossingITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @RegisterExtension static final KafkaBroker kafka = KafkaBroker.perClass();

    @TempDir Path tmp;

    @Test
    void replayGivesTheScenariosEventsAtParallelismOneAndFourAndTileLevelsSevenAndFourteen()
            throws Exception {
        Path fences = Files.write(tmp.resolve("fences.jsonl"), CrossingScenario.fences());
        Path positions = Files.write(tmp.resolve("positions.jsonl"), CrossingScenario.positions());
        for (String[] run : new String[][] {{"1", "7"}, {"4", "7"}, {"4", "14"}, {"2", "10"}}) {
            Map<String, String> o = new HashMap<>(CrossingScenario.OPTIONS);
            o.put("parallelism", run[0]);
            o.put("tile-level", run[1]);
            Path events = tmp.resolve("events-" + run[0] + "-" + run[1] + ".jsonl");
            Path dlq = tmp.resolve("dlq-" + run[0] + "-" + run[1] + ".jsonl");
            SampleReplay.replay(JobOptions.of(o), fences, positions, events, dlq);
            assertThat(Files.readAllLines(dlq)).as("dead letters").isEmpty();
            CrossingScenario.check(Files.readAllLines(events));
        }
    }

    @Test
    void
            withCrossingOnASamplesOtherEventsStayExactlyTheSamplesAndItsCrossesAreTheSameAtAnyParallelismAndTileLevel()
                    throws Exception {
        List<String> first = null;
        for (String[] run : new String[][] {{"1", "7"}, {"4", "12"}}) {
            Map<String, String> extra = new HashMap<>();
            extra.put("parallelism", run[0]);
            extra.put("tile-level", run[1]);
            extra.put("crossing", "true");
            extra.put("crossing-max-meters", "20000");
            List<String> crosses = crossesOfSample("sample-features", extra);
            assertThat(crosses).as("CROSS events of sample-features").isNotEmpty();
            if (first == null) {
                first = crosses;
            } else {
                CrossingScenario.sameEvents(crosses, first);
            }
        }
    }

    /**
     * Replays a sample with {@code extra}; checks its events without the CROSS ones against the
     * sample's expected events; returns the CROSS events, sorted.
     */
    private List<String> crossesOfSample(String name, Map<String, String> extra) throws Exception {
        Path sample = SampleReplay.SAMPLES.resolve(name);
        Map<String, String> o = new HashMap<>();
        var meta =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(sample.resolve("meta.json").toFile());
        meta.path("engine_options")
                .fields()
                .forEachRemaining(e -> o.put(e.getKey(), e.getValue().asText()));
        o.putAll(extra);
        String tag = String.join("-", extra.values()).replaceAll("[^A-Za-z0-9-]", "_");
        Path events = tmp.resolve(name + "-" + tag + ".jsonl");
        Path dlq = tmp.resolve(name + "-" + tag + ".dlq");
        SampleReplay.replay(
                JobOptions.of(o),
                sample.resolve("fences.jsonl"),
                sample.resolve("positions.jsonl"),
                events,
                dlq);
        List<String> all = Files.readAllLines(events);
        Map<Boolean, List<String>> split =
                all.stream()
                        .collect(Collectors.partitioningBy(l -> l.contains("\"event\":\"CROSS\"")));
        Path others =
                Files.write(tmp.resolve(name + "-" + tag + "-others.jsonl"), split.get(false));
        SampleReplay.checkPy(sample, others, dlq);
        return split.get(true).stream().sorted().collect(Collectors.toList());
    }

    @Test
    void kafkaExactlyOnceGivesTheScenariosEventsOnce() throws Exception {
        String name = "crossing";
        JobTopics topics = JobTopics.named(name).create(kafka, 3, 2, 2);
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            Path fences = Files.write(tmp.resolve("fences.jsonl"), CrossingScenario.fences());
            topics.sendFences(producer, fences);
            for (String p : CrossingScenario.positions()) {
                String id = p.substring(13, p.indexOf('"', 13));
                producer.send(KafkaTopics.record(topics.positions(), null, id, 0L, p)).get();
            }
        }
        Map<String, String> o = new HashMap<>(topics.options(kafka, name));
        o.putAll(CrossingScenario.OPTIONS);
        o.put("parallelism", "2");
        o.put("checkpoint-interval", "300ms");
        o.put("tile-level", "12");
        JobOptions options = JobOptions.of(o);
        SampleReplay.run(options, JobIo.kafka(options, true), true);
        List<String> events = readCommitted(topics.events(), CrossingScenario.expected().size());
        CrossingScenario.check(events);
    }

    @Test
    void aTaskFailureMidStreamOnKafkaLosesAndRepeatsNoCross() throws Exception {
        String name = "crossing-failing";
        Path sample = SampleReplay.SAMPLES.resolve("sample-crossing-random");
        JobTopics topics = JobTopics.named(name).create(kafka, 4, 2, 3);
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            topics.sendFences(producer, sample.resolve("fences.jsonl"));
            List<java.util.concurrent.Future<?>> sent = new ArrayList<>();
            for (String p : Files.readAllLines(sample.resolve("positions.jsonl"))) {
                String id = p.substring(13, p.indexOf('"', 13));
                sent.add(producer.send(KafkaTopics.record(topics.positions(), null, id, 0L, p)));
            }
            for (var f : sent) {
                f.get();
            }
        }
        Map<String, String> o = new HashMap<>(topics.options(kafka, name));
        var meta =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(sample.resolve("meta.json").toFile());
        meta.path("engine_options")
                .fields()
                .forEachRemaining(e -> o.put(e.getKey(), e.getValue().asText()));
        o.put("parallelism", "2");
        o.put("checkpoint-interval", "300ms");
        JobOptions options = JobOptions.of(o);
        KafkaIo k =
                new KafkaIo(
                        kafka.bootstrapServers(),
                        name,
                        JobIo.transactionalIdPrefix(options),
                        new java.util.Properties(),
                        options.inputRules());
        GeofenceJob.Io io =
                JobIo.kafka(options, true)
                        .withPositions(
                                k.positions(
                                        topics.positions(),
                                        OffsetsInitializer.earliest(),
                                        true,
                                        new KafkaExactlyOnceITCase.FailOnce(
                                                KafkaIo.positionRecords(options.inputRules()),
                                                1200)));
        KafkaExactlyOnceITCase.FAILED.set(false);
        SampleReplay.run(options, io, true);
        assertThat(KafkaExactlyOnceITCase.FAILED).isTrue();
        int expected = Files.readAllLines(sample.resolve("expected.jsonl")).size();
        Path events =
                Files.write(tmp.resolve(name + ".jsonl"), readCommitted(topics.events(), expected));
        Path dlq = Files.writeString(tmp.resolve(name + ".dlq"), "");
        SampleReplay.checkPy(sample, events, dlq);
        assertThat(Files.readAllLines(events)).hasSize(expected);
    }

    private List<String> readCommitted(String topic, int count) throws Exception {
        List<String> lines = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("reader-" + topic, true)) {
            KafkaTopics.assignFromBeginning(c, topic);
            long deadline = System.currentTimeMillis() + 60_000;
            long quietSince = System.currentTimeMillis();
            while (System.currentTimeMillis() < deadline) {
                var records = c.poll(Duration.ofMillis(300));
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    lines.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                if (!records.isEmpty()) {
                    quietSince = System.currentTimeMillis();
                } else if (lines.size() >= count
                        && System.currentTimeMillis() - quietSince > 2000) {
                    break;
                }
            }
        }
        return lines;
    }

    @Test
    void theLibrarysBuilderSetterGivesTheScenariosEvents() throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        PositionCodec positionCodec = new PositionCodec();
        List<Position> positions = new ArrayList<>();
        for (String line : CrossingScenario.positions()) {
            Parsed<Position> p = positionCodec.parse(line);
            assertThat(p.ok()).as(line).isTrue();
            positions.add(p.value());
        }
        FenceChangeCodec fenceCodec = new FenceChangeCodec();
        List<FenceChange> fences = new ArrayList<>();
        for (String line : CrossingScenario.fences()) {
            Parsed<FenceChange> c =
                    fenceCodec.parse(null, line.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE);
            assertThat(c.ok()).as(line).isTrue();
            fences.add(c.value());
        }
        positions.sort(Comparator.comparingLong(Position::timestamp));
        DataStream<Position> p = env.fromData(positions, TypeInformation.of(Position.class));
        DataStream<FenceChange> f = env.fromData(fences, TypeInformation.of(FenceChange.class));
        GeofenceStreams out =
                Geofencing.builder()
                        .setCrossing(true)
                        .setCrossingMaxGap(Duration.ofMillis(4500))
                        .setCrossingMaxMeters(50_000)
                        .setEntityTtl(Duration.ofMillis(5000))
                        .setMaxOutOfOrderness(Duration.ofSeconds(1))
                        .build()
                        .apply(p, f);
        CloseableIterator<GeofenceEvent> events = out.events().collectAsync();
        env.execute("library crossing");
        GeofenceEventCodec codec = new GeofenceEventCodec();
        List<String> lines = new ArrayList<>();
        try (events) {
            events.forEachRemaining(
                    e -> lines.add(new String(codec.encode(e), StandardCharsets.UTF_8)));
        }
        CrossingScenario.check(lines);
    }
}
