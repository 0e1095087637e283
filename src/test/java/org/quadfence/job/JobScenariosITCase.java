package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleReplay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Small hand-made cases through the whole job graph (both keyed stages) on a MiniCluster. */
class JobScenariosITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(2);

    @TempDir Path dir;

    private List<String> run(List<String> fences, List<String> positions) throws Exception {
        return run(fences, positions, Map.of());
    }

    private List<String> run(List<String> fences, List<String> positions, Map<String, String> more)
            throws Exception {
        Files.write(dir.resolve("f.jsonl"), fences);
        Files.write(dir.resolve("p.jsonl"), positions);
        Map<String, String> o = new java.util.HashMap<>(more);
        o.put("parallelism", "2");
        o.putIfAbsent("tile-level", "7");
        JobOptions options = JobOptions.of(o);
        SampleReplay.replay(
                options,
                dir.resolve("f.jsonl"),
                dir.resolve("p.jsonl"),
                dir.resolve("events.jsonl"),
                dir.resolve("dlq.jsonl"));
        return SampleCheck.read(dir.resolve("events.jsonl")).stream()
                .map(e -> e.event() + " " + e.fenceId() + " @" + e.timestamp())
                .collect(Collectors.toList());
    }

    private static String pos(double lon, double lat, long t) {
        return "{\"entityId\":\"e\",\"lon\":"
                + lon
                + ",\"lat\":"
                + lat
                + ",\"timestamp\":"
                + t
                + "}";
    }

    @Test
    void anEntityCrossingTilesAndTheAntimeridianInsideOneBigFenceEntersOnce() throws Exception {
        List<String> events =
                run(
                        List.of("{\"fenceId\":\"pacific\",\"rect\":[150,-30,-150,30]}"),
                        List.of(
                                pos(160, 0, 1),
                                pos(170.5, 3, 2),
                                pos(179.99, 5, 3),
                                pos(180, 5, 4),
                                pos(-180, 5, 5),
                                pos(-179.99, -5, 6),
                                pos(-151, 29, 7),
                                pos(-150, 30, 8),
                                pos(-149.99, 30, 9)));
        assertThat(events).containsExactly("ENTER pacific @1", "EXIT pacific @9");
    }

    @Test
    void aFenceDeletedOrMovedWhileAnEntityIsInsideIsLeftAtItsNextPosition() throws Exception {
        List<String> events =
                run(
                        List.of(
                                "{\"fenceId\":\"a\",\"rect\":[0,0,1,1],\"timestamp\":0}",
                                "{\"fenceId\":\"b\",\"rect\":[0,0,1,1],\"timestamp\":0}",
                                "{\"fenceId\":\"a\",\"deleted\":true,\"timestamp\":15}",
                                "{\"fenceId\":\"b\",\"rect\":[5,5,6,6],\"timestamp\":25}"),
                        List.of(pos(0.5, 0.5, 10), pos(0.5, 0.5, 20), pos(0.5, 0.5, 30)));
        assertThat(events)
                .containsExactly("ENTER a @10", "ENTER b @10", "EXIT a @20", "EXIT b @30");
    }

    @Test
    void badLinesBecomeDeadLettersAndTheGoodOnesStillCount() throws Exception {
        List<String> events =
                run(
                        List.of("{\"fenceId\":\"a\",\"rect\":[0,0,1,1]}", "not json"),
                        List.of(
                                pos(0.5, 0.5, 10),
                                "{\"entityId\":\"e\",\"lon\":0,\"lat\":91,\"timestamp\":11}"));
        assertThat(events).containsExactly("ENTER a @10");
        assertThat(SampleCheck.deadLetterCounts(dir.resolve("dlq.jsonl")))
                .containsEntry("positions", 1)
                .containsEntry("fences", 1);
    }

    @Test
    void groupsNeverMeetEachOthersFencesAndAnEntityIdIsUniqueOnlyWithinItsGroup() throws Exception {
        List<String> fences =
                List.of(
                        "{\"fenceId\":\"depot\",\"rect\":[0,0,1,1]}",
                        "{\"fenceId\":\"depot\",\"rect\":[0,0,1,1],\"group\":\"fleet-a\"}",
                        "{\"fenceId\":\"yard\",\"rect\":[0,0,1,1],\"group\":\"fleet-b\"}");
        List<String> positions =
                List.of(
                        pos(0.5, 0.5, 10),
                        "{\"entityId\":\"e\",\"lon\":0.5,\"lat\":0.5,\"timestamp\":10,\"group\":\"fleet-a\"}",
                        "{\"entityId\":\"e\",\"lon\":0.5,\"lat\":0.5,\"timestamp\":11,\"group\":\"fleet-b\"}",
                        "{\"entityId\":\"e\",\"lon\":5,\"lat\":5,\"timestamp\":12,\"group\":\"fleet-a\"}");
        run(fences, positions);
        List<String> lines = Files.readAllLines(dir.resolve("events.jsonl"));
        assertThat(lines)
                .containsExactlyInAnyOrder(
                        "{\"entityId\":\"e\",\"fenceId\":\"depot\",\"event\":\"ENTER\",\"timestamp\":10,\"lon\":0.5,\"lat\":0.5,\"enteredAt\":10}",
                        "{\"entityId\":\"e\",\"fenceId\":\"depot\",\"event\":\"ENTER\",\"timestamp\":10,\"lon\":0.5,\"lat\":0.5,\"enteredAt\":10,\"group\":\"fleet-a\"}",
                        "{\"entityId\":\"e\",\"fenceId\":\"yard\",\"event\":\"ENTER\",\"timestamp\":11,\"lon\":0.5,\"lat\":0.5,\"enteredAt\":11,\"group\":\"fleet-b\"}",
                        "{\"entityId\":\"e\",\"fenceId\":\"depot\",\"event\":\"EXIT\",\"timestamp\":12,\"lon\":5.0,\"lat\":5.0,\"enteredAt\":10,\"durationMs\":2,\"group\":\"fleet-a\"}");
    }

    @Test
    void aFencesPropertiesAreCarriedIntoItsEvents() throws Exception {
        run(
                List.of(
                        "{\"fenceId\":\"a\",\"rect\":[0,0,1,1],\"properties\":{\"name\":\"Depot\",\"n\":1.10}}"),
                List.of(pos(0.5, 0.5, 10), pos(3, 3, 11)));
        assertThat(Files.readAllLines(dir.resolve("events.jsonl")))
                .allSatisfy(
                        l ->
                                assertThat(l)
                                        .endsWith(
                                                ",\"properties\":{\"name\":\"Depot\",\"n\":1.10}}"))
                .hasSize(2);
    }

    @Test
    void anExitMarginRemovesTheFlappingOfAJitteryTrackAlongAnEdge() throws Exception {
        // A track along the fence's north edge (lat 1), jittering about 5 m (0.00005 deg) across
        // it.
        List<String> fences = List.of("{\"fenceId\":\"yard\",\"rect\":[0,0,1,1]}");
        List<String> track = new java.util.ArrayList<>();
        for (int i = 0; i < 20; i++) {
            double lat = i % 2 == 0 ? 0.99995 : 1.00005;
            track.add(pos(0.5, lat, 10 + i));
        }
        track.add(pos(0.5, 1.001, 40)); // about 111 m out: beyond a 20 m margin
        List<String> flapping = run(fences, track);
        assertThat(flapping).hasSize(20).startsWith("ENTER yard @10", "EXIT yard @11");

        List<String> steady = run(fences, track, Map.of("exit-margin-meters", "20"));
        assertThat(steady).containsExactly("ENTER yard @10", "EXIT yard @40");
    }

    @Test
    void anEmptyMultiPolygonContainsNoPointAndAFenceReplacedByOneIsLeft() throws Exception {
        String empty = "\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[]}";
        List<String> fences =
                List.of(
                        "{\"type\":\"Feature\",\"id\":\"zone\",\"geometry\":{\"type\":\"Polygon\","
                            + "\"coordinates\":[[[0,0],[1,0],[1,1],[0,1],[0,0]]]},\"timestamp\":0}",
                        "{\"type\":\"Feature\",\"id\":\"none\","
                                + empty
                                + ",\"properties\":{\"k\":1},\"timestamp\":0}",
                        "{\"type\":\"Feature\",\"id\":\"zone\"," + empty + ",\"timestamp\":15}");
        List<String> positions = List.of(pos(0.5, 0.5, 10), pos(0.5, 0.5, 20), pos(0, 0, 30));
        for (String level : List.of("7", "12")) {
            Map<String, String> options = Map.of("tile-level", level, "exit-margin-meters", "20");
            assertThat(run(fences, positions, options))
                    .containsExactly("ENTER zone @10", "EXIT zone @20");
            assertThat(SampleCheck.deadLetterCounts(dir.resolve("dlq.jsonl")))
                    .containsEntry("fences", 0);
        }
    }

    @Test
    void ringsThatTouchAreValidAndTheirTouchPointIsInside() throws Exception {
        // A hole touching the exterior ring at its corner (10, 10).
        List<String> events =
                run(
                        List.of(
                                "{\"type\":\"Feature\",\"id\":\"holey\",\"geometry\":{\"type\":\"Polygon\","
                                    + "\"coordinates\":[[[10,10],[12,10],[12,12],[10,12],[10,10]],"
                                    + "[[10,10],[11,10.5],[10.5,11],[10,10]]]}}"),
                        List.of(pos(10, 10, 30), pos(10.6, 10.6, 31), pos(11.5, 11.5, 32)));
        assertThat(events).containsExactly("ENTER holey @30", "EXIT holey @31", "ENTER holey @32");
    }

    @Test
    void polygonAndCircleFencesAreExactOnTheirBoundary() throws Exception {
        List<String> events =
                run(
                        List.of(
                                "{\"type\":\"Feature\",\"id\":\"tri\",\"geometry\":{\"type\":\"Polygon\","
                                    + "\"coordinates\":[[[0,0],[2,0],[0,2],[0,0]]]},\"properties\":{\"k\":1}}",
                                "{\"fenceId\":\"disc\",\"circle\":{\"lon\":10,\"lat\":10,\"radiusMeters\":1000}}"),
                        List.of(
                                pos(1, 1, 10), // on the triangle's hypotenuse: inside
                                pos(1.0000001, 1, 11), // just outside it
                                pos(10, 10.005, 12), // 556 m north of the circle's centre
                                pos(10, 10.01, 13))); // 1112 m north: outside
        assertThat(events)
                .containsExactly(
                        "ENTER tri @10", "EXIT tri @11", "ENTER disc @12", "EXIT disc @13");
    }
}
