package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.InputSelection;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay's tile stage reads fence updates alone while they are behind the positions. */
class FencesFirstTileMatcherTest
        extends StageTestBase<
                KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership>> {

    private static final TileGrid GRID = new TileGrid(2);
    private static final long TILE = GRID.tileOf(10, 10);

    private FencesFirstTileMatcher<Position> stage;

    @Override
    KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership> newHarness()
            throws Exception {
        TileShards oneShard = new TileShards(1, 128);
        stage =
                new FencesFirstTileMatcher<>(
                        new TileMatcher<>(
                                TypeInformation.of(Position.class),
                                GRID,
                                4,
                                8,
                                0,
                                GRID.level(),
                                1,
                                true));
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                stage,
                new StageKeys.TileOfUpdate(oneShard),
                new StageKeys.TileOfPosition(GRID, oneShard),
                TypeInformation.of(TileKey.class));
    }

    private void fencesUpTo(long t) throws Exception {
        harness.processWatermark1(new Watermark(t));
    }

    private void positionsUpTo(long t) throws Exception {
        harness.processWatermark2(new Watermark(t));
    }

    @Test
    void bothInputsAreReadWhileNeitherIsAhead() throws Exception {
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.ALL);
        fencesUpTo(100);
        positionsUpTo(100);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.ALL);
    }

    @Test
    void onlyFencesAreReadWhileTheirWatermarkIsBehindThePositions() throws Exception {
        positionsUpTo(100);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.FIRST);
        fencesUpTo(99);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.FIRST);
        fencesUpTo(100);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.ALL);
    }

    @Test
    void positionsAreReadAgainOnceTheFencesHaveEnded() throws Exception {
        positionsUpTo(100);
        harness.endInput1();
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.ALL);
    }

    @Test
    void anIdleFencesInputDoesNotStopThePositions() throws Exception {
        positionsUpTo(100);
        harness.processWatermarkStatus1(WatermarkStatus.IDLE);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.ALL);
        harness.processWatermarkStatus1(WatermarkStatus.ACTIVE);
        assertThat(stage.nextSelection()).isEqualTo(InputSelection.FIRST);
    }

    @Test
    void itAnswersLikeTheTileStageItExtends() throws Exception {
        harness.processElement1(
                new TileUpdate(TILE, Groups.DEFAULT, "A", 1, Boxes.of(new Box(5, 5, 15, 15))), 1);
        harness.processElement2(new Position("e", 10, 10, 10), 10);
        harness.processBothWatermarks(new Watermark(10));
        assertThat(harness.extractOutputValues())
                .singleElement()
                .satisfies(m -> assertThat(m.fenceIds()).containsExactly("A"));
    }
}
