package org.quadfence.stages;

import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.ShapePiece;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Groups;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

class FenceRouterTest
        extends StageTestBase<
                KeyedOneInputStreamOperatorTestHarness<String, FenceChange, TileUpdate>> {

    private static final TileGrid GRID = new TileGrid(2);

    @Override
    KeyedOneInputStreamOperatorTestHarness<String, FenceChange, TileUpdate> newHarness()
            throws Exception {
        return fenceRouter(new Tiers(GRID.level()));
    }

    private void upsert(String id, long t, double... r) throws Exception {
        harness.processElement(
                FenceChange.upsert(id, new Rectangle(r[0], r[1], r[2], r[3]), t, null), t);
    }

    private void delete(String id, long t) throws Exception {
        harness.processElement(FenceChange.delete(id, t), t);
    }

    /** What {@code tile} holds of {@code fence} at time t, replaying the updates as a tile does. */
    private ShapePiece inForce(long tile, String fence, long t) {
        ShapePiece piece = null;
        long at = Long.MIN_VALUE;
        for (TileUpdate u : harness.extractOutputValues()) {
            if (u.tile() == tile
                    && u.fenceId().equals(fence)
                    && u.timestamp() <= t
                    && u.timestamp() >= at) {
                piece = u.piece();
                at = u.timestamp();
            }
        }
        return piece;
    }

    private Set<Long> tilesHolding(String fence, long t) {
        return harness.extractOutputValues().stream()
                .map(TileUpdate::tile)
                .filter(tile -> inForce(tile, fence, t) != null)
                .collect(Collectors.toSet());
    }

    @Test
    void anUpsertReachesEveryTileItsBoxTouchesWithMarkersForTilesWhollyInside() throws Exception {
        upsert("f", 1, -90, -45, 90, 45);
        List<TileUpdate> out = harness.extractOutputValues();
        assertThat(out).hasSize(16);
        assertThat(out).filteredOn(u -> u.piece().equals(Boxes.of(GRID.cell(u.tile())))).hasSize(4);
        long corner = GRID.tileOf(-180, -90);
        assertThat(inForce(corner, "f", 1)).isEqualTo(Boxes.of(new Box(-90, -45, -90, -45)));
    }

    @Test
    void aMovedFenceLeavesItsOldTilesAtTheTimeOfTheMove() throws Exception {
        upsert("f", 1, 10, 10, 20, 20);
        upsert("f", 5, -100, -50, -95, -46);
        assertThat(tilesHolding("f", 4)).containsExactly(GRID.tileOf(15, 15));
        assertThat(tilesHolding("f", 5)).containsExactly(GRID.tileOf(-97, -48));
    }

    /** A triangle around (lon, lat), some degrees across: a polygon, so that it is cut exactly. */
    private void triangle(String id, long t, double lon, double lat) throws Exception {
        double[] ring = {lon - 2, lat - 2, lon + 2, lat - 2, lon, lat + 2, lon - 2, lat - 2};
        Polygon p = Polygon.of(new double[][][] {{ring}});
        harness.processElement(FenceChange.upsert(id, p, t, null), t);
    }

    @Test
    void aMovedPolygonLeavesItsOldTilesAtTheTimeOfEachMove() throws Exception {
        triangle("f", 1, 15, 15);
        triangle("f", 5, -97, -48);
        triangle("f", 7, 100, 30);
        triangle("f", 7, 140, -30);
        assertThat(tilesHolding("f", 4)).containsExactly(GRID.tileOf(15, 15));
        assertThat(tilesHolding("f", 5)).containsExactly(GRID.tileOf(-97, -48));
        assertThat(tilesHolding("f", 7)).containsExactly(GRID.tileOf(140, -30));
    }

    @Test
    void aRectangleReplacingAPolygonAtItsTimeIsTheVersionTheNextChangeLeaves() throws Exception {
        triangle("f", 1, 15, 15);
        upsert("f", 1, -100, -50, -95, -46);
        triangle("f", 7, 140, -30);
        assertThat(tilesHolding("f", 1)).containsExactly(GRID.tileOf(-97, -48));
        assertThat(tilesHolding("f", 7)).containsExactly(GRID.tileOf(140, -30));
    }

    @Test
    void aPolygonMovedAfterARestartLeavesTheTilesItHeldBefore() throws Exception {
        triangle("f", 1, 15, 15);
        restart();
        triangle("f", 5, -97, -48);
        assertThat(tilesHolding("f", 5)).containsExactly(GRID.tileOf(-97, -48));
        assertThat(harness.extractOutputValues())
                .filteredOn(u -> u.tile() == GRID.tileOf(15, 15))
                .singleElement()
                .satisfies(u -> assertThat(u.isRemoval()).isTrue());
    }

    @Test
    void aPolygonArrivingBeforeALaterKnownVersionLeavesTheTilesOfTheVersionBeforeIt()
            throws Exception {
        triangle("f", 1, 15, 15);
        triangle("f", 9, 100, 30);
        triangle("f", 5, -97, -48);
        triangle("f", 12, 140, -30);
        assertThat(tilesHolding("f", 4)).containsExactly(GRID.tileOf(15, 15));
        assertThat(tilesHolding("f", 5)).containsExactly(GRID.tileOf(-97, -48));
        assertThat(tilesHolding("f", 9)).containsExactly(GRID.tileOf(100, 30));
        assertThat(tilesHolding("f", 12)).containsExactly(GRID.tileOf(140, -30));
    }

    @Test
    void aChangeArrivingOutOfOrderStillLeavesTheRightFenceInForceAtEachTime() throws Exception {
        upsert("f", 5, 10, 10, 20, 20);
        upsert("f", 3, -100, -50, -95, -46);
        assertThat(tilesHolding("f", 2)).isEmpty();
        assertThat(tilesHolding("f", 3)).containsExactly(GRID.tileOf(-97, -48));
        assertThat(tilesHolding("f", 5)).containsExactly(GRID.tileOf(15, 15));
    }

    @Test
    void aDeleteEmptiesEveryTileAndLeavesOnlyItsTimeOnceTheWatermarkPassesIt() throws Exception {
        upsert("f", 1, -10, -10, 10, 10);
        delete("f", 2);
        assertThat(tilesHolding("f", 1)).hasSize(4);
        assertThat(tilesHolding("f", 2)).isEmpty();
        harness.processWatermark(2);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void aLateUpsertOlderThanAnAppliedDeleteDoesNotBringTheFenceBack() throws Exception {
        upsert("f", 1, -10, -10, 10, 10);
        delete("f", 5);
        harness.processWatermark(10);
        harness.getOutput().clear();
        upsert("f", 3, -10, -10, 10, 10);
        assertThat(harness.extractOutputValues()).isEmpty();
        upsert("f", 12, -10, -10, 10, 10);
        assertThat(tilesHolding("f", 12)).hasSize(4);
    }

    @Test
    void anEmptyMultiPolygonHoldsNoTileAndEmptiesTheTilesOfTheVersionItReplaces() throws Exception {
        upsert("f", 1, -10, -10, 10, 10);
        Polygon empty = Polygon.of(new double[][][] {});
        harness.processElement(FenceChange.upsert("f", empty, 2, null), 2);
        harness.processElement(FenceChange.upsert("g", empty, 2, null), 2);
        assertThat(tilesHolding("f", 1)).hasSize(4);
        assertThat(tilesHolding("f", 2)).isEmpty();
        assertThat(tilesHolding("g", 2)).isEmpty();
        assertThat(harness.getSideOutput(DeadLetterSplitter.DEAD_LETTERS)).isNull();
        harness.processWatermark(2);
        upsert("f", 3, -10, -10, 10, 10);
        assertThat(tilesHolding("f", 3)).hasSize(4);
    }

    @Test
    void deletingAnUnknownFenceIsANoOpAndLeavesNoState() throws Exception {
        delete("nobody", 7);
        harness.processWatermark(7);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aRectangleAcrossTheAntimeridianReachesTilesOnBothSides() throws Exception {
        upsert("am", 1, 170, 0, -170, 10);
        assertThat(tilesHolding("am", 1))
                .containsExactlyInAnyOrder(
                        GRID.tileOf(175, 5),
                        GRID.tileOf(-175, 5),
                        GRID.tileOf(175, -5),
                        GRID.tileOf(-175, -5));
    }

    @Test
    void aLateChangeTakesEffectUnlessANewerVersionIsInForce() throws Exception {
        upsert("f", 5, 10, 10, 20, 20);
        harness.processWatermark(10);
        upsert("f", 7, -100, -50, -95, -46);
        assertThat(tilesHolding("f", 7)).containsExactly(GRID.tileOf(-97, -48));
        upsert("f", 6, 100, 10, 110, 20);
        assertThat(tilesHolding("f", 7)).containsExactly(GRID.tileOf(-97, -48));
    }

    @Test
    void aFenceWiderThanTheTileLimitGoesToTheWideTierAndBackWhenItShrinks() throws Exception {
        Tiers tiers = new Tiers(12);
        use(fenceRouter(tiers));
        upsert("w", 1, -180, -90, 180, 90);
        assertThat(harness.extractOutputValues())
                .hasSize(1 << (2 * Tiers.WIDE_LEVEL))
                .allMatch(u -> tiers.isWide(u.tile()));
        harness.getOutput().clear();
        upsert("w", 2, 10, 10, 10.01, 10.01);
        List<TileUpdate> out = harness.extractOutputValues();
        assertThat(out.stream().filter(u -> !tiers.isWide(u.tile())).map(TileUpdate::tile))
                .containsExactly(tiers.fine().tileOf(10.005, 10.005));
        assertThat(out.stream().filter(u -> tiers.isWide(u.tile())))
                .hasSize(1 << (2 * Tiers.WIDE_LEVEL))
                .allMatch(TileUpdate::isRemoval);
    }

    @Test
    void aPolygonOfMoreThanTheDefaultVertexLimitIsCutWhenTheJobAllowsIt() throws Exception {
        int n = 120_000;
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i <= n; i++) {
            double a = 2 * Math.PI * (i % n) / n;
            ring[2 * i] = 10 + 5 * Math.cos(a);
            ring[2 * i + 1] = 10 + 5 * Math.sin(a);
        }
        Polygon big = Polygon.of(new double[][][] {{ring}}, 200_000);
        harness.processElement(FenceChange.upsert("big", big, 1, null), 1);
        assertThat(harness.extractOutputValues())
                .singleElement()
                .satisfies(
                        u -> {
                            assertThat(u.tile()).isEqualTo(GRID.tileOf(10, 10));
                            assertThat(u.piece()).isInstanceOf(PolygonPiece.class);
                        });
        assertThat(harness.getSideOutput(DeadLetterSplitter.DEAD_LETTERS)).isNull();
    }

    @Test
    void aFenceThatCannotBeCutIsADeadLetterAndChangesNoTile() throws Exception {
        FenceChange broken =
                new FenceChange(
                        "broken", null, 1, null, Groups.DEFAULT, null, new double[][][] {{{}}});
        harness.processElement(broken, 1);
        assertThat(harness.extractOutputValues()).isEmpty();
        assertThat(harness.getSideOutput(DeadLetterSplitter.DEAD_LETTERS))
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getValue().input()).isEqualTo("fences");
                            assertThat(r.getValue().error())
                                    .startsWith("the fence could not be cut into tiles: ");
                            assertThat(r.getValue().raw()).contains("\"fenceId\":\"broken\"");
                        });
        assertThat(harness.numKeyedStateEntries()).isZero();
    }
}
