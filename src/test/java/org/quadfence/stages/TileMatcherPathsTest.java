package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.model.Waypoint;
import org.quadfence.tiles.TileGrid;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The tile stage with option crossing: steps answered from every tile their path meets. */
class TileMatcherPathsTest
        extends StageTestBase<
                KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Step, Membership>> {

    private static final TileGrid GRID = new TileGrid(2);
    private static final long TILE = GRID.tileOf(10, 10);
    private static final TileShards ONE_SHARD = new TileShards(1, 128);

    @Override
    KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Step, Membership> newHarness()
            throws Exception {
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new TileMatcher<>(TypeInformation.of(Step.class), GRID, 4, 8, 0, 2, 1, true),
                new StageKeys.TileOfUpdate(ONE_SHARD),
                new StageKeys.TileOfStep(ONE_SHARD),
                TypeInformation.of(TileKey.class));
    }

    private void fence(String id, long t, Box box) throws Exception {
        harness.processElement1(new TileUpdate(TILE, Groups.DEFAULT, id, t, Boxes.of(box)), t);
    }

    private void step(long t, double lon, double lat, Waypoint from, long tile) throws Exception {
        harness.processElement2(new Step(new Position("e", lon, lat, t), from, tile), t);
    }

    private List<String> answers() {
        List<String> s =
                harness.extractOutputValues().stream()
                        .map(
                                m ->
                                        Arrays.toString(m.fenceIds())
                                                + " met "
                                                + Arrays.toString(m.pathIds())
                                                + " at "
                                                + Arrays.stream(m.pathAt())
                                                        .mapToObj(a -> String.format("%.6f", a))
                                                        .collect(Collectors.toList()))
                        .collect(Collectors.toList());
        harness.getOutput().clear();
        return s;
    }

    @Test
    void aTileThePathCrossesButThePositionIsNotInAnswersWithTheFencesThePathMeets()
            throws Exception {
        fence("gate", 0, new Box(10, 10, 11, 11));
        fence("off", 0, new Box(30, 30, 31, 31));
        // The path from (5, 10.5) to (100, 10.5) ends in another tile of level 2.
        step(100, 100, 10.5, new Waypoint(50, 5, 10.5), TILE);
        harness.processBothWatermarks(new Watermark(200));
        assertThat(GRID.tileOf(100, 10.5)).isNotEqualTo(TILE);
        assertThat(answers()).containsExactly("[] met [gate] at [0.052632]");
    }

    @Test
    void theFencesInForceAtTheLaterPositionsTimeAreTheOnesMet() throws Exception {
        fence("gate", 150, new Box(10, 10, 11, 11));
        step(100, 100, 10.5, new Waypoint(50, 5, 10.5), TILE);
        step(200, 5, 10.5, new Waypoint(100, 100, 10.5), TILE);
        harness.processBothWatermarks(new Watermark(300));
        // Nothing met at 100 in a tile the position is not in: no answer.
        assertThat(answers()).containsExactly("[] met [gate] at [0.936842]");
    }

    @Test
    void aStateTakenWithoutCrossingIsRefusedWithCrossingOnNamingTheOption() throws Exception {
        var off = tileMatcher(GRID);
        off.open();
        OperatorSubtaskState state = off.snapshot(1, 2);
        off.close();
        var on = newHarness();
        assertThatThrownBy(() -> on.initializeState(state))
                .hasStackTraceContaining(
                        "taken with crossing false and the job now has crossing true");
    }

    @Test
    void aStateTakenWithCrossingIsRefusedWithCrossingOffNamingTheOption() throws Exception {
        OperatorSubtaskState state = harness.snapshot(1, 2);
        var off = tileMatcher(GRID);
        assertThatThrownBy(() -> off.initializeState(state))
                .hasStackTraceContaining(
                        "taken with crossing true and the job now has crossing false");
    }
}
