package org.quadfence.job;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.api.GeofenceStreams;
import org.quadfence.api.Geofencing;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.io.PositionCodec;
import org.quadfence.model.AttributeMatch;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.FenceRules;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleReplay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Geofencing} as one step of a user's own DataStream job, on a MiniCluster: the library's
 * records or the user's own type in, the same events as the JSON job out.
 */
class GeofencingITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(2);

    private static final Path SAMPLE = Path.of("src/test/resources/samples/sample-clean");

    @TempDir Path tmp;

    /** A position of the user's own type. */
    public record Ping(String vehicle, double x, double y, long millis) {}

    @Test
    void theLibrarysOwnRecordsGiveTheSamplesEvents() throws Exception {
        StreamExecutionEnvironment env = environment();
        DataStream<Position> positions =
                env.fromData(samplePositions(), TypeInformation.of(Position.class));
        DataStream<FenceChange> fences =
                env.fromData(sampleFences(), TypeInformation.of(FenceChange.class));

        GeofenceStreams out =
                Geofencing.builder()
                        .setMaxOutOfOrderness(Duration.ofSeconds(1))
                        .setUidPrefix("geo-")
                        .build()
                        .apply(positions, fences);
        CloseableIterator<GeofenceEvent> events = out.events().collectAsync();
        CloseableIterator<CurrentFences> current = out.currentFences().collectAsync();
        env.execute("library");

        List<GeofenceEvent> got = drain(events);
        assertThat(
                        SampleCheck.differences(
                                SampleCheck.read(SAMPLE.resolve("expected.jsonl")), read(got)))
                .isEmpty();
        assertThat(drain(current)).isNotEmpty().allMatch(c -> c.entityId() != null);
    }

    @Test
    void theLibraryTakesTheBacklogsOfDevicesThatWereOfflineAgainstTheFencesOfTheirTime()
            throws Exception {
        Path sample = SampleReplay.SAMPLES.resolve("sample-backlog/rects");
        StreamExecutionEnvironment env = environment();
        // The sample's file is one partition: its positions reach the library in their order,
        // not spread over subtasks by a rebalance after the one-subtask source.
        env.setParallelism(1);
        DataStream<Position> positions =
                env.fromData(samplePositions(sample), TypeInformation.of(Position.class));
        DataStream<FenceChange> fences =
                env.fromData(sampleFences(sample), TypeInformation.of(FenceChange.class));

        GeofenceStreams out =
                Geofencing.builder()
                        .setMaxOutOfOrderness(Duration.ofSeconds(1))
                        .setMaxBacklog(Duration.ofMinutes(1))
                        .build()
                        .apply(positions, fences);
        CloseableIterator<GeofenceEvent> events = out.events().collectAsync();
        CloseableIterator<DeadLetter> dead = out.deadLetters().collectAsync();
        env.execute("library backlogs");

        assertThat(
                        SampleCheck.differences(
                                SampleCheck.read(sample.resolve("expected.jsonl")),
                                read(drain(events))))
                .isEmpty();
        assertThat(drain(dead))
                .hasSize(43)
                .allSatisfy(d -> assertThat(d.error()).startsWith("late"));
    }

    @Test
    void positionsOfTheUsersOwnTypeAreExtractedAndBadOnesBecomeDeadLetters() throws Exception {
        StreamExecutionEnvironment env = environment();
        long t = 1_732_233_600_000L;
        DataStream<Ping> pings =
                env.fromData(
                        List.of(
                                new Ping("truck-1", 1.5, 1.5, t),
                                new Ping("truck-1", 5, 5, t + 1000),
                                new Ping("truck-2", 1, 91, t + 1000),
                                new Ping(null, 1, 1, t + 1000)),
                        TypeInformation.of(Ping.class));
        DataStream<FenceChange> fences =
                env.fromData(
                        List.of(
                                FenceChange.upsert(
                                        "depot",
                                        new org.quadfence.geo.Rectangle(1, 1, 2, 2),
                                        Long.MIN_VALUE,
                                        null)),
                        TypeInformation.of(FenceChange.class));

        GeofenceStreams out =
                Geofencing.builder()
                        .build()
                        .apply(
                                pings,
                                p -> {
                                    if (p.vehicle() == null) {
                                        throw new IllegalArgumentException("no vehicle");
                                    }
                                    return new Position(p.vehicle(), p.x(), p.y(), p.millis());
                                },
                                fences);
        CloseableIterator<GeofenceEvent> events = out.events().collectAsync();
        CloseableIterator<DeadLetter> dead = out.deadLetters().collectAsync();
        env.execute("own type");

        assertThat(drain(events))
                .extracting(e -> e.entityId() + " " + e.event() + " " + e.fenceId())
                .containsExactly("truck-1 ENTER depot", "truck-1 EXIT depot");
        assertThat(drain(dead))
                .extracting(DeadLetter::error)
                .hasSize(2)
                .anyMatch(e -> e.startsWith("lat out of range"))
                .anyMatch(e -> e.contains("no vehicle"));
    }

    @Test
    void rulesAndAccuracyOnTheLibrarysRecordsConfirmEntersTargetPositionsAndGiveVisits()
            throws Exception {
        StreamExecutionEnvironment env = environment();
        long t = 1_732_233_600_000L;
        Map<String, String> truck = new TreeMap<>(Map.of("kind", "truck"));
        Map<String, String> van = new TreeMap<>(Map.of("kind", "van"));
        DataStream<Position> positions =
                env.fromData(
                        List.of(
                                new Position("truck-1", 1.5, 1.5, t, "default", 10, truck),
                                new Position("truck-1", 1.5, 1.5, t + 1000, "default", 10, truck),
                                new Position("truck-1", 5, 5, t + 2000, "default", 10, truck),
                                new Position("van-1", 1.5, 1.5, t, "default", 0, van),
                                new Position("van-1", 5, 5, t + 100, "default", 0, van),
                                new Position("bad", 1.5, 1.5, t, "default", 1e7, null)),
                        TypeInformation.of(Position.class));
        org.quadfence.geo.Rectangle square = new org.quadfence.geo.Rectangle(1, 1, 2, 2);
        FenceRules none = FenceRules.NONE;
        DataStream<FenceChange> fences =
                env.fromData(
                        List.of(
                                FenceChange.upsert("depot", square, Long.MIN_VALUE, null)
                                        .withRules(
                                                new FenceRules(
                                                        none.dwellMs(),
                                                        none.exitMarginMeters(),
                                                        500,
                                                        0,
                                                        none.validUntil(),
                                                        null,
                                                        null)),
                                FenceChange.upsert("yard", square, Long.MIN_VALUE, null)
                                        .withRules(
                                                new FenceRules(
                                                        none.dwellMs(),
                                                        none.exitMarginMeters(),
                                                        0,
                                                        0,
                                                        none.validUntil(),
                                                        null,
                                                        new AttributeMatch(
                                                                Map.of("kind", Set.of("truck"))))),
                                FenceChange.upsert("broken", square, Long.MIN_VALUE, null)
                                        .withRules(
                                                new FenceRules(
                                                        none.dwellMs(),
                                                        none.exitMarginMeters(),
                                                        -1,
                                                        0,
                                                        none.validUntil(),
                                                        null,
                                                        null))),
                        TypeInformation.of(FenceChange.class));

        GeofenceStreams out =
                Geofencing.builder().setMaxAccuracyMeters(100).build().apply(positions, fences);
        CloseableIterator<GeofenceEvent> events = out.events().collectAsync();
        CloseableIterator<DeadLetter> dead = out.deadLetters().collectAsync();
        env.execute("rules");

        assertThat(drain(events))
                .extracting(
                        e ->
                                e.entityId()
                                        + " "
                                        + e.event()
                                        + " "
                                        + e.fenceId()
                                        + " @"
                                        + (e.timestamp() - t)
                                        + " from "
                                        + (e.enteredAt() - t))
                .containsExactly(
                        "truck-1 ENTER yard @0 from 0",
                        "truck-1 ENTER depot @500 from 0",
                        "truck-1 EXIT depot @2000 from 0",
                        "truck-1 EXIT yard @2000 from 0");
        assertThat(drain(dead))
                .extracting(DeadLetter::error)
                .hasSize(2)
                .anyMatch(e -> e.startsWith("accuracy"))
                .anyMatch(e -> e.contains("rules.enterAfterMs"));
    }

    private static StreamExecutionEnvironment environment() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    private static List<Position> samplePositions() throws Exception {
        return samplePositions(SAMPLE);
    }

    private static List<Position> samplePositions(Path sample) throws Exception {
        PositionCodec codec = new PositionCodec();
        List<Position> out = new ArrayList<>();
        for (String line : Files.readAllLines(sample.resolve("positions.jsonl"))) {
            Parsed<Position> p = codec.parse(line);
            assertThat(p.ok()).as(line).isTrue();
            out.add(p.value());
        }
        return out;
    }

    private static List<FenceChange> sampleFences() throws Exception {
        return sampleFences(SAMPLE);
    }

    private static List<FenceChange> sampleFences(Path sample) throws Exception {
        FenceChangeCodec codec = new FenceChangeCodec();
        List<FenceChange> out = new ArrayList<>();
        for (String line : Files.readAllLines(sample.resolve("fences.jsonl"))) {
            Parsed<FenceChange> c = codec.parse(null, line.getBytes(), Long.MIN_VALUE);
            assertThat(c.ok()).as(line).isTrue();
            out.add(c.value());
        }
        return out;
    }

    private List<SampleCheck.Event> read(List<GeofenceEvent> events) throws Exception {
        GeofenceEventCodec codec = new GeofenceEventCodec();
        Path file = tmp.resolve("events.jsonl");
        List<String> lines = new ArrayList<>();
        for (GeofenceEvent e : events) {
            lines.add(new String(codec.encode(e), java.nio.charset.StandardCharsets.UTF_8));
        }
        Files.write(file, lines);
        return SampleCheck.read(file);
    }

    private static <T> List<T> drain(CloseableIterator<T> it) throws Exception {
        List<T> out = new ArrayList<>();
        try (it) {
            it.forEachRemaining(out::add);
        }
        return out;
    }
}
