package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The path stage (option crossing, contract section 10): which steps have a path, and its state.
 */
class PathTrackerTest
        extends StageTestBase<KeyedOneInputStreamOperatorTestHarness<String, Position, Step>> {

    private PathTracker tracker;

    @Override
    KeyedOneInputStreamOperatorTestHarness<String, Position, Step> newHarness() throws Exception {
        return tracker(0, 0, 50_000);
    }

    private KeyedOneInputStreamOperatorTestHarness<String, Position, Step> tracker(
            long ttl, long maxGap, double maxMeters) throws Exception {
        tracker = new PathTracker(ttl, maxGap, maxMeters);
        return new KeyedOneInputStreamOperatorTestHarness<>(
                tracker, new StageKeys.EntityOfPosition(), Types.STRING);
    }

    private void at(String id, long t, double lon, double lat) throws Exception {
        harness.processElement(new Position(id, lon, lat, t), t);
    }

    /** The steps so far, each as "e @t (lon, lat) from ta" or "... no path"; clears the output. */
    private List<String> steps() {
        List<String> s =
                harness.extractOutputValues().stream()
                        .map(
                                st ->
                                        st.to().entityId()
                                                + " @"
                                                + st.to().timestamp()
                                                + " ("
                                                + st.to().lon()
                                                + ", "
                                                + st.to().lat()
                                                + ")"
                                                + (st.from() == null
                                                        ? " no path"
                                                        : " from " + st.from().timestamp()))
                        .collect(Collectors.toList());
        harness.getOutput().clear();
        return s;
    }

    @Test
    void anEntitysFirstPositionHasNoPathAndEachNextOneThePathFromThePreviousOne() throws Exception {
        at("e", 20, 0.1, 0);
        at("e", 10, 0, 0);
        at("f", 15, 5, 5);
        harness.processWatermark(100);
        assertThat(steps())
                .containsExactlyInAnyOrder(
                        "e @10 (0.0, 0.0) no path",
                        "f @15 (5.0, 5.0) no path",
                        "e @20 (0.1, 0.0) from 10");
    }

    @Test
    void positionsAtOneTimeGoByLatThenLonAndExactDuplicatesOnce() throws Exception {
        at("e", 10, 0.2, 0.1);
        at("e", 10, 0.1, 0.1);
        at("e", 10, 0.3, 0);
        at("e", 10, 0.1, 0.1);
        harness.processWatermark(100);
        assertThat(steps())
                .containsExactly(
                        "e @10 (0.3, 0.0) no path",
                        "e @10 (0.1, 0.1) from 10",
                        "e @10 (0.2, 0.1) from 10");
    }

    @Test
    void anEntityIsForgottenAtItsLastTimePlusTheTtlAndItsStateAndTimerGo() throws Exception {
        use(tracker(100, 0, 50_000));
        at("e", 10, 0, 0);
        at("e", 109, 0.01, 0);
        harness.processWatermark(150);
        assertThat(steps())
                .containsExactly("e @10 (0.0, 0.0) no path", "e @109 (0.01, 0.0) from 10");
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        harness.processWatermark(209);
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
        at("e", 309, 0, 0);
        at("e", 409, 0.01, 0);
        harness.processWatermark(1000);
        // 409 is exactly 309 + ttl: the entity is forgotten then.
        assertThat(steps())
                .containsExactly("e @309 (0.0, 0.0) no path", "e @409 (0.01, 0.0) no path");
        assertThat(tracker.skipped()).isZero();
    }

    @Test
    void stepsBeyondTheGapOrTheDistanceHaveNoPathAndAreCounted() throws Exception {
        use(tracker(0, 1000, 50_000));
        at("e", 0, 0, 0);
        at("e", 1000, 0.1, 0);
        at("e", 2001, 0.2, 0);
        at("e", 2002, 1.2, 0);
        harness.processWatermark(10_000);
        assertThat(steps())
                .containsExactly(
                        "e @0 (0.0, 0.0) no path",
                        "e @1000 (0.1, 0.0) from 0",
                        "e @2001 (0.2, 0.0) no path",
                        "e @2002 (1.2, 0.0) no path");
        assertThat(tracker.skipped()).isEqualTo(2);
    }

    @Test
    void thePreviousPositionSurvivesARestore() throws Exception {
        at("e", 10, 0, 0);
        harness.processWatermark(50);
        steps();
        restart();
        at("e", 60, 0.1, 0);
        harness.processWatermark(100);
        assertThat(steps()).containsExactly("e @60 (0.1, 0.0) from 10");
    }

    @Test
    void aHostileEntityJumpingBetweenFarPointsEveryMillisecondCostsOneTileAPosition()
            throws Exception {
        int n = 2000;
        for (int i = 0; i < n; i++) {
            at("hostile", i, i % 2 == 0 ? -170 : 170, i % 2 == 0 ? -80 : 80);
        }
        harness.processWatermark(n);
        PathTiles tiles = new PathTiles(new TileGrid(16), 50_000);
        List<Step> routed = new ArrayList<>();
        Collector<Step> out =
                new Collector<>() {
                    @Override
                    public void collect(Step s) {
                        routed.add(s);
                    }

                    @Override
                    public void close() {}
                };
        for (Step s : harness.extractOutputValues()) {
            tiles.flatMap(s, out);
        }
        assertThat(routed).hasSize(n);
        assertThat(tracker.skipped()).isEqualTo(n - 1);
    }

    @Test
    void aHostileEntityJumpingTheLongestTestedStepEveryMillisecondStaysWithinTheTileBound()
            throws Exception {
        use(tracker(0, 0, 50_000));
        int n = 400;
        // Steps just under crossing-max-meters, diagonal and near a pole, where tiles are narrow.
        for (int i = 0; i < n; i++) {
            at("hostile", i, i % 2 == 0 ? 0 : 0.3, i % 2 == 0 ? 89.7 : 89.9);
        }
        harness.processWatermark(n);
        for (int level : new int[] {7, 12, 16}) {
            PathTiles tiles = new PathTiles(new TileGrid(level), 50_000);
            for (Step s : harness.extractOutputValues()) {
                int[] count = {0};
                tiles.flatMap(
                        s,
                        new Collector<>() {
                            @Override
                            public void collect(Step x) {
                                count[0]++;
                            }

                            @Override
                            public void close() {}
                        });
                assertThat(count[0]).isBetween(1, tiles.maxTiles());
            }
        }
        assertThat(tracker.skipped()).isZero();
    }
}
