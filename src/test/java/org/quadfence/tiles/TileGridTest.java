package org.quadfence.tiles;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Circle;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.RectanglePiece;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TileGridTest {

    @Test
    void theCornersOfTheWorldBelongToTheCornerTilesAtEveryLevel() {
        for (int level = 0; level <= TileGrid.MAX_LEVEL; level++) {
            TileGrid grid = new TileGrid(level);
            assertThat(grid.quadkey(grid.tileOf(-180, 90))).isEqualTo("0".repeat(level));
            assertThat(grid.quadkey(grid.tileOf(180, 90))).isEqualTo("0".repeat(level));
            assertThat(grid.quadkey(grid.tileOf(Math.nextDown(180.0), 90)))
                    .isEqualTo("1".repeat(level));
            assertThat(grid.quadkey(grid.tileOf(-180, -90))).isEqualTo("2".repeat(level));
            assertThat(grid.quadkey(grid.tileOf(180, -90))).isEqualTo("2".repeat(level));
            assertThat(grid.quadkey(grid.tileOf(Math.nextDown(180.0), -90)))
                    .isEqualTo("3".repeat(level));
        }
    }

    @Test
    void lon180FoldsIntoTheWestColumnAndLat90IntoTheTopRow() {
        TileGrid grid = new TileGrid(3);
        assertThat(grid.tileOf(180, 12.3)).isEqualTo(grid.tileOf(-180, 12.3));
        assertThat(grid.cell(grid.tileOf(180, 12.3)).minX()).isEqualTo(-180);
        assertThat(grid.cell(grid.tileOf(33, 90)).maxY()).isEqualTo(90);
        assertThat(grid.cell(grid.tileOf(33, -90)).minY()).isEqualTo(-90);
        assertThat(TileGrid.foldLon(180)).isEqualTo(-180);
        assertThat(TileGrid.foldLon(-180)).isEqualTo(-180);
        assertThat(TileGrid.foldLon(179.5)).isEqualTo(179.5);
    }

    @Test
    void theOriginBelongsToTheTileNorthEastOfItAtEveryLevel() {
        for (int level = 1; level <= TileGrid.MAX_LEVEL; level++) {
            TileGrid grid = new TileGrid(level);
            Box cell = grid.cell(grid.tileOf(0, 0));
            assertThat(cell.minX()).isEqualTo(0);
            assertThat(cell.minY()).isEqualTo(0);
            Box before = grid.cell(grid.tileOf(Math.nextDown(0.0), Math.nextDown(0.0)));
            assertThat(before.maxX()).isEqualTo(0);
            assertThat(before.maxY()).isEqualTo(0);
        }
    }

    @Test
    void aPointOnATileLineBelongsToTheTileEastOrNorthOfItAndNextDownToTheOneBefore() {
        SplittableRandom random = new SplittableRandom(7);
        for (int level = 1; level <= TileGrid.MAX_LEVEL; level++) {
            TileGrid grid = new TileGrid(level);
            int n = 1 << level;
            for (int k = 0; k < 200; k++) {
                int i = 1 + random.nextInt(n - 1);
                double lon = -180 + i * (360.0 / n);
                double lat = -90 + i * (180.0 / n);
                assertThat(grid.cell(grid.tileOf(lon, 0.1)).minX()).isEqualTo(lon);
                assertThat(grid.cell(grid.tileOf(Math.nextDown(lon), 0.1)).maxX()).isEqualTo(lon);
                assertThat(grid.cell(grid.tileOf(0.1, lat)).minY()).isEqualTo(lat);
                assertThat(grid.cell(grid.tileOf(0.1, Math.nextDown(lat))).maxY()).isEqualTo(lat);
            }
        }
    }

    @Test
    void quadkeysFollowTheBingDigitOrderAndRoundTrip() {
        TileGrid one = new TileGrid(1);
        assertThat(one.quadkey(one.tileOf(-90, 45))).isEqualTo("0");
        assertThat(one.quadkey(one.tileOf(90, 45))).isEqualTo("1");
        assertThat(one.quadkey(one.tileOf(-90, -45))).isEqualTo("2");
        assertThat(one.quadkey(one.tileOf(90, -45))).isEqualTo("3");
        TileGrid two = new TileGrid(2);
        assertThat(two.cell(two.tile("03"))).isEqualTo(new Box(-90, 0, 0, 45));
        assertThat(two.cell(two.tile("30"))).isEqualTo(new Box(0, -45, 90, 0));
        TileGrid zero = new TileGrid(0);
        assertThat(zero.quadkey(zero.tileOf(12, 34))).isEmpty();
        assertThat(zero.cell(zero.tile(""))).isEqualTo(Box.WORLD);

        SplittableRandom random = new SplittableRandom(11);
        for (int level : new int[] {0, 1, 5, 17, TileGrid.MAX_LEVEL}) {
            TileGrid grid = new TileGrid(level);
            for (int k = 0; k < 500; k++) {
                long tile = grid.tileOf(random.nextDouble(-180, 180), random.nextDouble(-90, 90));
                String quadkey = grid.quadkey(tile);
                assertThat(quadkey).hasSize(level).matches("[0-3]*");
                assertThat(grid.tile(quadkey)).isEqualTo(tile);
            }
        }
    }

    @Test
    void badQuadkeysTilesAndLevelsAreRefused() {
        TileGrid grid = new TileGrid(2);
        assertThatThrownBy(() -> grid.tile("0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> grid.tile("04")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> grid.tile("0/")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> grid.tile(null)).isInstanceOf(IllegalArgumentException.class);
        long levelThree = new TileGrid(3).tileOf(0, 0);
        assertThatThrownBy(() -> grid.cell(levelThree))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> grid.quadkey(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TileGrid(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TileGrid(TileGrid.MAX_LEVEL + 1))
                .hasMessage("tile level out of range [0, 30]: 31");
    }

    @Test
    void theCellsTileTheWorld() {
        for (int level = 0; level <= 5; level++) {
            TileGrid grid = new TileGrid(level);
            int n = 1 << level;
            Set<Box> cells = new HashSet<>();
            grid.tilesTouching(Box.WORLD, tile -> cells.add(grid.cell(tile)));
            Set<Box> expected = new HashSet<>();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    expected.add(
                            new Box(
                                    -180 + i * 360.0 / n,
                                    -90 + j * 180.0 / n,
                                    -180 + (i + 1) * 360.0 / n,
                                    -90 + (j + 1) * 180.0 / n));
                }
            }
            assertThat(cells).isEqualTo(expected);
            for (Box cell : cells) {
                double lon = (cell.minX() + cell.maxX()) / 2;
                double lat = (cell.minY() + cell.maxY()) / 2;
                assertThat(grid.cell(grid.tileOf(lon, lat))).isEqualTo(cell);
                assertThat(grid.cell(grid.tileOf(cell.minX(), cell.minY()))).isEqualTo(cell);
            }
        }
    }

    @Test
    void tilesTouchingFindsEveryCellTheClosedBoxReaches() {
        SplittableRandom random = new SplittableRandom(3);
        for (int level = 0; level <= 4; level++) {
            TileGrid grid = new TileGrid(level);
            List<Long> all = new ArrayList<>();
            grid.tilesTouching(Box.WORLD, all::add);
            for (int k = 0; k < 300; k++) {
                Box box = randomSnappedBox(random, level);
                Set<Long> expected =
                        all.stream()
                                .filter(t -> grid.cell(t).intersects(box))
                                .collect(Collectors.toSet());
                List<Long> found = new ArrayList<>();
                grid.tilesTouching(box, found::add);
                assertThat(found).doesNotHaveDuplicates();
                assertThat(new HashSet<>(found)).as("%s", box).isEqualTo(expected);
            }
        }
        TileGrid grid = new TileGrid(1);
        List<String> keys = new ArrayList<>();
        grid.tilesTouching(new Box(0, 0, 0, 0), t -> keys.add(grid.quadkey(t)));
        assertThat(keys).containsExactly("0", "1", "2", "3");
    }

    @Test
    void aTinyRectangleInsideOneTileIsCutToItself() {
        TileGrid grid = new TileGrid(7);
        Rectangle fence = new Rectangle(13.40, 52.50, 13.41, 52.51);
        List<TileCut> cuts = grid.cut(fence);
        assertThat(cuts)
                .containsExactly(
                        new TileCut(
                                grid.tileOf(13.405, 52.505),
                                false,
                                Boxes.of(new Box(13.40, 52.50, 13.41, 52.51))));
    }

    @Test
    void aRectangleWithAnEdgeOnATileLineIsInTheTilesOnBothSides() {
        TileGrid grid = new TileGrid(1);
        Map<String, TileCut> cuts = byQuadkey(grid, grid.cut(new Rectangle(0, 10, 20, 20)));
        assertThat(cuts).containsOnlyKeys("0", "1");
        assertThat(boxes(cuts.get("0"))).containsExactly(new Box(0, 10, 0, 20));
        assertThat(boxes(cuts.get("1"))).containsExactly(new Box(0, 10, 20, 20));
        assertThat(byQuadkey(grid, grid.cut(new Rectangle(10, -5, 20, 0)))).hasSize(2);
    }

    @Test
    void aPointFenceAtATileCornerIsInTheFourTilesAroundIt() {
        TileGrid grid = new TileGrid(2);
        Map<String, TileCut> cuts = byQuadkey(grid, grid.cut(new Rectangle(0, 0, 0, 0)));
        assertThat(cuts).containsOnlyKeys("03", "12", "21", "30");
        assertThat(cuts.values())
                .allSatisfy(c -> assertThat(boxes(c)).containsExactly(new Box(0, 0, 0, 0)));
    }

    @Test
    void anAntimeridianRectangleIsInTheTilesOnBothSides() {
        TileGrid grid = new TileGrid(2);
        Map<String, TileCut> cuts = byQuadkey(grid, grid.cut(new Rectangle(170, -10, -170, 10)));
        assertThat(cuts).containsOnlyKeys("02", "13", "20", "31");
        assertThat(boxes(cuts.get("02"))).containsExactly(new Box(-180, 0, -170, 10));
        assertThat(boxes(cuts.get("13"))).containsExactly(new Box(170, 0, 180, 10));
        assertThat(boxes(cuts.get("20"))).containsExactly(new Box(-180, -10, -170, 0));
        assertThat(boxes(cuts.get("31"))).containsExactly(new Box(170, -10, 180, 0));
    }

    @Test
    void aRectangleTouchingLon180IsAlsoInTheWestColumnAtLonMinus180() {
        TileGrid grid = new TileGrid(2);
        Rectangle fence = new Rectangle(170, 1, 180, 2);
        Map<String, TileCut> cuts = byQuadkey(grid, grid.cut(fence));
        assertThat(cuts).containsOnlyKeys("02", "13");
        assertThat(boxes(cuts.get("02"))).containsExactly(new Box(-180, 1, -180, 2));
        TileCut west = cuts.get("02");
        assertThat(west.tile()).isEqualTo(grid.tileOf(180, 1.5));
        assertThat(west.piece().contains(TileGrid.foldLon(180), 1.5)).isTrue();
        assertThat(west.piece().contains(-179.9, 1.5)).isFalse();
    }

    @Test
    void atLevelZeroAFenceCanLeaveTwoPiecesInTheOneTile() {
        TileGrid grid = new TileGrid(0);
        TileCut crossing = grid.cut(new Rectangle(170, -1, -170, 1)).get(0);
        assertThat(boxes(crossing))
                .containsExactly(new Box(-180, -1, -170, 1), new Box(170, -1, 180, 1));
        assertThat(crossing.piece().contains(0, 0)).isFalse();
        TileCut touching = grid.cut(new Rectangle(170, -1, 180, 1)).get(0);
        assertThat(boxes(touching))
                .containsExactly(new Box(170, -1, 180, 1), new Box(-180, -1, -180, 1));
        TileGrid one = new TileGrid(1);
        assertThat(one.cut(new Rectangle(-10, 1, -20, 10)))
                .filteredOn(c -> boxes(c).size() == 2)
                .extracting(c -> one.quadkey(c.tile()))
                .containsExactly("0");
    }

    @Test
    void theWorldCoversEveryTile() {
        TileGrid grid = new TileGrid(3);
        List<TileCut> cuts = grid.cut(new Rectangle(-180, -90, 180, 90));
        assertThat(cuts)
                .hasSize(64)
                .allSatisfy(c -> assertThat(c.covered()).isTrue())
                .allSatisfy(c -> assertThat(c.piece()).isEqualTo(Boxes.of(grid.cell(c.tile()))));
        assertThat(grid.tileCount(new Rectangle(-180, -90, 180, 90))).isEqualTo(64);
        assertThat(new TileGrid(TileGrid.MAX_LEVEL).tileCount(new Rectangle(-180, -90, 180, 90)))
                .isEqualTo(1L << 60);
    }

    @Test
    void fencesAtThePolesAreInTheTopAndBottomRows() {
        TileGrid grid = new TileGrid(1);
        Map<String, TileCut> north = byQuadkey(grid, grid.cut(new Rectangle(-10, 90, 10, 90)));
        assertThat(north).containsOnlyKeys("0", "1");
        assertThat(north.get("1").piece().contains(5, 90)).isTrue();
        assertThat(grid.tileOf(5, 90)).isEqualTo(north.get("1").tile());
        Map<String, TileCut> south = byQuadkey(grid, grid.cut(new Rectangle(170, -90, -170, -80)));
        assertThat(south).containsOnlyKeys("2", "3");
        assertThat(south.get("2").piece().contains(TileGrid.foldLon(180), -90)).isTrue();
    }

    @Test
    void withAMarginATileInsideHoldsItsCellAndEveryOtherTileNearTheRectangleHoldsTheRectangle() {
        TileGrid grid = new TileGrid(3);
        Rectangle fence = new Rectangle(-90, -45, 0, 0);
        List<TileCut> cuts = grid.cut(fence, 1000);
        assertThat(grid.cut(fence, 0)).isEqualTo(grid.cut(fence));
        assertThat(cuts).filteredOn(TileCut::covered).hasSize(4);
        assertThat(cuts)
                .filteredOn(c -> !c.covered())
                .hasSize(12)
                .allSatisfy(
                        c -> {
                            RectanglePiece piece = (RectanglePiece) c.piece();
                            assertThat(piece.rect()).isEqualTo(fence);
                            assertThat(grid.cell(c.tile()).covers(piece.bounds())).isTrue();
                        });
        // Beyond the south-west corner the piece's bounds end 1,000 m out, not at the cell.
        TileCut corner =
                cuts.stream()
                        .filter(c -> c.tile() == grid.tileOf(-90.005, -45.005))
                        .findFirst()
                        .orElseThrow();
        Box bounds = corner.piece().bounds();
        assertThat(bounds.maxX()).isEqualTo(-90);
        assertThat(bounds.maxY()).isEqualTo(-45);
        assertThat(bounds.minX()).isBetween(-90.02, -90.01);
        assertThat(bounds.minY()).isBetween(-45.01, -45.008);
        assertThat(corner.piece().distanceMeters(-90.005, -45)).isCloseTo(393, within(1.0));
    }

    @Test
    void aCutHoldsAPieceAndACoveredCutItsCellAsExactBoxes() {
        Box cell = new TileGrid(0).cell(1);
        assertThatThrownBy(() -> new TileCut(1, false, null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TileCut(1, true, CirclePiece.of(new Circle(0, 0, 1), cell)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Boxes(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Boxes.of(cell, cell, cell))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(new TileCut(1, true, Boxes.of(cell)).piece().distanceMeters(0, 0)).isZero();
    }

    private static List<Box> boxes(TileCut cut) {
        return ((Boxes) cut.piece()).boxes();
    }

    private static Map<String, TileCut> byQuadkey(TileGrid grid, List<TileCut> cuts) {
        assertThat(cuts).extracting(TileCut::tile).doesNotHaveDuplicates();
        return cuts.stream().collect(Collectors.toMap(c -> grid.quadkey(c.tile()), c -> c));
    }

    private static Box randomSnappedBox(SplittableRandom random, int level) {
        double[] x = {snapped(random, -180, 360, level), snapped(random, -180, 360, level)};
        double[] y = {snapped(random, -90, 180, level), snapped(random, -90, 180, level)};
        return new Box(
                Math.min(x[0], x[1]), Math.min(y[0], y[1]),
                Math.max(x[0], x[1]), Math.max(y[0], y[1]));
    }

    private static double snapped(SplittableRandom random, double origin, double span, int level) {
        if (random.nextBoolean()) {
            return origin + span * random.nextDouble();
        }
        int n = 1 << (level + 1);
        return origin + random.nextInt(n + 1) * (span / n);
    }
}
