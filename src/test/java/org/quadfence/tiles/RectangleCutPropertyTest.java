package org.quadfence.tiles;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Earth;
import org.quadfence.geo.Rectangle;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.tiles.CutChecks.answersLikeTheFence;
import static org.quadfence.tiles.CutChecks.answersTheBoundaryLikeTheFence;
import static org.quadfence.tiles.CutChecks.byTile;
import static org.quadfence.tiles.CutChecks.jittered;
import static org.quadfence.tiles.CutChecks.pointsOf;

/**
 * Seeded random rectangle fences cut to the tiles of several levels, and points biased towards the
 * hard places: tile lines of this and nearby levels, the fence's own edges and corners, one ulp
 * either side of them, lon ±180 and lat ±90. The point's tile answers exactly like the fence,
 * covered tiles are wholly inside, the exact boxes lie in their cell and the fence, and with a
 * margin the distances agree exactly within it.
 */
class RectangleCutPropertyTest {

    private static final int FENCES = 1000;

    private SplittableRandom random;
    private TileGrid grid;
    private int level;

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void aPointIsInAFenceExactlyWhenItsTileKeepsAPartOfTheFenceThatHoldsIt(int level) {
        setUp(level);
        for (int k = 0; k < FENCES; k++) {
            Rectangle fence = fence();
            Map<Long, TileCut> cuts = byTile(grid.cut(fence));
            for (double[] p : points(fence)) {
                double lon = p[0];
                double lat = p[1];
                long tile = grid.tileOf(lon, lat);
                assertHalfOpen(grid.cell(tile), TileGrid.foldLon(lon), lat);
                TileCut cut = cuts.get(tile);
                boolean kept = cut != null && cut.piece().contains(TileGrid.foldLon(lon), lat);
                assertThat(kept)
                        .as("%s at level %d, point (%s, %s), cut %s", fence, level, lon, lat, cut)
                        .isEqualTo(fence.contains(lon, lat));
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void everyPointOfACoveredTileIsInTheFence(int level) {
        setUp(level);
        for (int k = 0; k < FENCES; k++) {
            Rectangle fence = fence();
            for (TileCut cut : grid.cut(fence)) {
                if (!cut.covered() || random.nextInt(4) != 0) {
                    continue;
                }
                Box cell = grid.cell(cut.tile());
                for (double[] p : pointsOf(cell, random)) {
                    assertThat(fence.contains(p[0], p[1]))
                            .as("%s covers %s, point (%s, %s)", fence, cell, p[0], p[1])
                            .isTrue();
                }
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void aCutListsEachTouchedTileOnceWithClipsInsideItsCellAndTheFence(int level) {
        setUp(level);
        List<Long> all = new ArrayList<>();
        if (level <= 3) {
            grid.tilesTouching(Box.WORLD, all::add);
        }
        for (int k = 0; k < FENCES; k++) {
            Rectangle fence = fence();
            Map<Long, TileCut> cuts = byTile(grid.cut(fence));
            assertThat((long) cuts.size()).isEqualTo(grid.tileCount(fence));
            for (TileCut cut : cuts.values()) {
                Box cell = grid.cell(cut.tile());
                assertThat(touches(fence, cell)).as("%s touches %s", fence, cell).isTrue();
                List<Box> boxes = ((Boxes) cut.piece()).boxes();
                if (cut.covered()) {
                    assertThat(boxes).containsExactly(cell);
                }
                for (Box clip : boxes) {
                    assertThat(cell.covers(clip)).as("%s within %s", clip, cell).isTrue();
                    for (double[] p : pointsOf(clip, random)) {
                        assertThat(fence.contains(p[0], p[1])).as("%s in %s", clip, fence).isTrue();
                    }
                }
            }
            for (long tile : all) {
                assertThat(cuts.containsKey(tile))
                        .as("%s and %s", fence, grid.cell(tile))
                        .isEqualTo(touches(fence, grid.cell(tile)));
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {3, 7, 12})
    void withAMarginTilesAnswerTheDistanceExactlyWithinIt(int level) {
        setUp(level);
        double tileMeters = Math.toRadians(180.0 / (1 << level)) * Earth.RADIUS_METERS;
        int nearOutside = 0;
        for (int k = 0; k < FENCES / 4; k++) {
            Rectangle fence = fence();
            double margin = tileMeters * Math.scalb(1.0, -random.nextInt(0, 12));
            double reach = Math.toDegrees(2 * margin / Earth.RADIUS_METERS);
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, margin));
            for (double[] p : points(fence)) {
                double d =
                        answersLikeTheFence(fence, margin, grid, cuts, jittered(p, reach, random));
                nearOutside += d > 0 && d <= margin ? 1 : 0;
            }
        }
        assertThat(nearOutside).isGreaterThan(FENCES);
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {3, 7, 12})
    void cutForAccuracyTilesAnswerTheBoundaryDistanceOfInsidePointsExactlyWithinIt(int level) {
        setUp(level);
        double tileMeters = Math.toRadians(180.0 / (1 << level)) * Earth.RADIUS_METERS;
        int near = 0;
        for (int k = 0; k < FENCES / 4; k++) {
            Rectangle fence = fence();
            double reach = tileMeters * Math.scalb(1.0, -random.nextInt(0, 12));
            double degrees = Math.toDegrees(2 * reach / Earth.RADIUS_METERS);
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, reach, reach));
            for (double[] p : points(fence)) {
                double[] q = jittered(p, degrees, random);
                double b = answersTheBoundaryLikeTheFence(fence, reach, grid, cuts, q);
                near += b > 0 && b <= reach ? 1 : 0;
                answersLikeTheFence(fence, reach, grid, cuts, q);
            }
        }
        assertThat(near).isGreaterThan(FENCES / 4);
    }

    // The point lies in its tile's cell, and not on the cell's east or north edge unless that
    // edge is lat 90 (lon 180 was folded away).
    private static void assertHalfOpen(Box cell, double lon, double lat) {
        assertThat(cell.contains(lon, lat)).as("(%s, %s) in %s", lon, lat, cell).isTrue();
        assertThat(lon < cell.maxX()).as("(%s, %s) west of %s", lon, lat, cell).isTrue();
        assertThat(lat < cell.maxY() || lat == 90)
                .as("(%s, %s) south of %s", lon, lat, cell)
                .isTrue();
    }

    private void setUp(int level) {
        this.level = level;
        this.grid = new TileGrid(level);
        this.random = new SplittableRandom(1000 + level);
    }

    // The closed bounding boxes touch the cell, or the fence touches lon 180 and the cell is in
    // the west column at the same latitudes.
    private static boolean touches(Rectangle fence, Box cell) {
        boolean atEast = false;
        for (Box b : fence.bounds()) {
            if (b.intersects(cell)) {
                return true;
            }
            atEast |= b.maxX() == 180;
        }
        return atEast
                && cell.minX() == -180
                && cell.intersects(new Box(-180, fence.minLat(), -180, fence.maxLat()));
    }

    private Rectangle fence() {
        double minLat = lat();
        double maxLat = random.nextInt(5) == 0 ? minLat : lat();
        if (maxLat < minLat) {
            double t = minLat;
            minLat = maxLat;
            maxLat = t;
        }
        if (level <= 3 && random.nextBoolean()) {
            double minLon = lon();
            return new Rectangle(minLon, minLat, random.nextInt(5) == 0 ? minLon : lon(), maxLat);
        }
        // Above level 3 keep fences a few tiles wide, so that cuts stay small.
        double width = 360.0 / (1 << level);
        double height = 180.0 / (1 << level);
        maxLat = Math.min(90, minLat + extent(height));
        double minLon = random.nextInt(4) == 0 ? Math.max(-180, 180 - extent(width)) : lon();
        double maxLon = minLon + Math.min(360, extent(width));
        if (maxLon > 180) {
            maxLon = Math.max(-180, maxLon - 360);
        }
        return new Rectangle(minLon, minLat, maxLon, maxLat);
    }

    private double extent(double tile) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(4) * tile;
            case 2 -> random.nextInt(1, 9) * tile / 4;
            default -> random.nextDouble() * 3 * tile;
        };
    }

    private double lon() {
        return coordinate(-180, 360);
    }

    private double lat() {
        return coordinate(-90, 180);
    }

    private double coordinate(double origin, double span) {
        return switch (random.nextInt(8)) {
            case 0 -> origin;
            case 1 -> origin + span;
            case 2, 3 -> line(origin, span);
            case 4 -> nudge(line(origin, span), origin, span);
            default -> origin + span * random.nextDouble();
        };
    }

    // A tile line of this level or one of the two below or any above it.
    private double line(double origin, double span) {
        int n = 1 << random.nextInt(level + 3);
        return origin + random.nextInt(n + 1) * (span / n);
    }

    private double nudge(double v, double origin, double span) {
        double w = random.nextBoolean() ? Math.nextUp(v) : Math.nextDown(v);
        return Math.max(origin, Math.min(origin + span, w));
    }

    private List<double[]> points(Rectangle fence) {
        double lonSpan = fence.maxLon() - fence.minLon();
        if (fence.crossesAntimeridian()) {
            lonSpan += 360;
        }
        double[] lons = {
            fence.minLon(),
            fence.maxLon(),
            nudge(fence.minLon(), -180, 360),
            nudge(fence.maxLon(), -180, 360),
            wrap(fence.minLon() + lonSpan * random.nextDouble()),
            wrap(fence.minLon() + lonSpan * random.nextDouble()),
            snap(wrap(fence.minLon() + lonSpan * random.nextDouble()), -180, 360),
            180,
            -180,
            lon()
        };
        double latSpan = fence.maxLat() - fence.minLat();
        double[] lats = {
            fence.minLat(),
            fence.maxLat(),
            nudge(fence.minLat(), -90, 180),
            nudge(fence.maxLat(), -90, 180),
            fence.minLat() + latSpan * random.nextDouble(),
            snap(fence.minLat() + latSpan * random.nextDouble(), -90, 180),
            lat()
        };
        List<double[]> points = new ArrayList<>();
        for (double lon : lons) {
            for (double lat : lats) {
                points.add(new double[] {lon, lat});
            }
        }
        return points;
    }

    private static double wrap(double lon) {
        return lon > 180 ? lon - 360 : lon;
    }

    // The nearest tile line of this level.
    private double snap(double v, double origin, double span) {
        double step = span / (1 << level);
        return origin + Math.rint((v - origin) / step) * step;
    }
}
