package org.quadfence.tiles;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Earth;
import org.quadfence.geo.Path;
import org.quadfence.geo.PathCrossing;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.Shape;
import org.quadfence.testing.PathReference;
import org.quadfence.testing.RandomShapes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TileGrid#tilesOnPath} against a brute force over every tile (JTS intersects of the path
 * and each closed cell, with the cell's copies 360 degrees east and west), on paths built to touch
 * tile lines, corners, lon +-180 and the poles; the order along the path; the per-tile answers of
 * {@link PathCrossing#first(Path, org.quadfence.geo.ShapePiece, Box)} over fences cut by {@link
 * TileGrid#cut(Shape, double)}, whose minimum is the whole fence's answer; and the bound of {@link
 * TileGrid#maxTilesOnPath}.
 */
class TileGridPathTest {

    private SplittableRandom random;
    private TileGrid grid;
    private double width;
    private double height;

    private void setUp(int level) {
        random = new SplittableRandom(2200 + level);
        grid = new TileGrid(level);
        width = 360.0 / (1 << level);
        height = 180.0 / (1 << level);
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void theTilesOnAPathAreExactlyThoseWhoseClosedCellsItMeetsInPathOrder(int level) {
        setUp(level);
        int paths = level <= 6 ? 300 : 60;
        for (int k = 0; k < paths; k++) {
            Path p = path(level);
            long[] tiles = grid.tilesOnPath(p, Integer.MAX_VALUE);
            Set<Long> expected = new HashSet<>();
            for (int x = 0; x < 1 << level; x++) {
                for (int y = 0; y < 1 << level; y++) {
                    long tile = grid.tileOf(-180 + (x + 0.5) * width, -90 + (y + 0.5) * height);
                    if (PathReference.meets(p, grid.cell(tile))) {
                        expected.add(tile);
                    }
                }
            }
            List<Long> got = new ArrayList<>();
            for (long t : tiles) {
                got.add(t);
            }
            assertThat(got).as("%s at level %d", p, level).doesNotHaveDuplicates();
            assertThat(new HashSet<>(got)).as("%s at level %d", p, level).isEqualTo(expected);
            double entered = 0;
            for (long t : tiles) {
                Box cell = grid.cell(t);
                double s = PathCrossing.first(p, Boxes.of(cell), cell);
                assertThat(s).as("%s enters %s", p, cell).isGreaterThanOrEqualTo(entered - 1e-12);
                entered = Math.max(entered, s);
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {12, 20, 30})
    void atDeepLevelsTheTilesOnAShortPathAreThoseItMeetsAmongAllNearIt(int level) {
        setUp(level);
        for (int k = 0; k < 300; k++) {
            double[] a = point(level);
            int dx = random.nextInt(-3, 4);
            int dy = random.nextInt(-3, 4);
            double q = Math.scalb(1.0, -random.nextInt(0, 3));
            Path p =
                    new Path(
                            a[0],
                            a[1],
                            lon(a[0] + dx * q * width),
                            clampLat(a[1] + dy * q * height));
            Set<Long> expected = new HashSet<>();
            // Every tile within four tiles of the path's ends, across lon 180 too, by its centre.
            double west = Math.floor((Math.min(a[0], a[0] + dx * q * width) + 180) / width);
            double south = Math.floor((Math.min(a[1], a[1] + dy * q * height) + 90) / height);
            for (int i = -4; i <= 4 + Math.abs(dx); i++) {
                for (int j = -4; j <= 4 + Math.abs(dy); j++) {
                    double x = lon(-180 + (west + i + 0.5) * width);
                    double y = -90 + (south + j + 0.5) * height;
                    if (y > -90 && y < 90) {
                        long tile = grid.tileOf(x, y);
                        if (PathReference.meets(p, grid.cell(tile))) {
                            expected.add(tile);
                        }
                    }
                }
            }
            long[] tiles = grid.tilesOnPath(p, 1000);
            Set<Long> got = new HashSet<>();
            for (long t : tiles) {
                got.add(t);
            }
            assertThat(got).as("%s at level %d", p, level).isEqualTo(expected);
            assertThat(tiles).hasSize(got.size());
        }
    }

    @Test
    void aPathThatNeedsMoreTilesThanAllowedGetsNull() {
        setUp(3);
        Path p = new Path(-170, 1, 170, 1);
        assertThat(grid.tilesOnPath(p, 2)).hasSize(2);
        assertThat(grid.tilesOnPath(p, 1)).isNull();
        // On the equator, a row line, from lon -180, which is also 180: 6 columns by 2 rows.
        Path along = new Path(-180, 0, 0, 0);
        assertThat(grid.tilesOnPath(along, 100)).hasSize(12);
        assertThat(grid.tilesOnPath(along, 11)).isNull();
        assertThat(grid.tilesOnPath(new Path(0, 0, 0, 0), 4)).hasSize(4);
        assertThat(grid.tilesOnPath(new Path(0, 0, 0, 0), 0)).isNull();
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 2, 5, 8, 12})
    void theFirstPointOverTheTilesOnAPathIsTheWholeFencesFirstPointWithOrWithoutAMargin(int level) {
        setUp(level);
        RandomShapes shapes = new RandomShapes(random);
        for (int k = 0; k < 300; k++) {
            Shape fence = fence(shapes, level);
            // The job's pieces carry the exit margin when fences have one.
            double margin =
                    random.nextInt(3) == 0
                            ? Math.toRadians(height) * Earth.RADIUS_METERS * random.nextDouble()
                            : 0;
            Map<Long, TileCut> cuts = new HashMap<>();
            for (TileCut cut : grid.cut(fence, margin)) {
                cuts.put(cut.tile(), cut);
            }
            for (int i = 0; i < 10; i++) {
                Path p = pathNear(fence, level);
                double whole = PathCrossing.first(p, fence);
                double best = Double.NaN;
                for (long tile : grid.tilesOnPath(p, Integer.MAX_VALUE)) {
                    TileCut cut = cuts.get(tile);
                    if (cut != null) {
                        double s = PathCrossing.first(p, cut.piece(), grid.cell(tile));
                        if (!Double.isNaN(s)) {
                            // Any answer is a true point of the path in the fence.
                            assertThat(s)
                                    .as("%s %s tile %s", fence, p, cut)
                                    .isGreaterThanOrEqualTo(whole - 1e-10);
                            best = Double.isNaN(best) ? s : Math.min(best, s);
                        }
                    }
                }
                String what = fence + " " + p + " whole " + whole + " tiles " + best;
                assertThat(Double.isNaN(best)).as(what).isEqualTo(Double.isNaN(whole));
                if (!Double.isNaN(whole)) {
                    double degrees =
                            Math.hypot(p.unwrappedToLon() - p.fromLon(), p.toLat() - p.fromLat());
                    assertThat(Math.abs(best - whole) * degrees).as(what).isLessThan(1e-9);
                }
            }
        }
    }

    @Test
    void fencesTouchedExactlyOnTileLinesAndCornersAreFoundInTheTileThatHoldsTheTouch() {
        setUp(3);
        // Tiles are 45 by 22.5 degrees; the fences' sides and corners lie on tile lines.
        Rectangle onLine = new Rectangle(45, 0, 90, 22.5);
        Polygon diamond = Polygon.of(new double[][][] {{{0, 0, 45, -22.5, 90, 0, 45, 22.5, 0, 0}}});
        Polygon seam =
                Polygon.of(new double[][][] {{{135, 0, 180, 0, 180, 22.5, 135, 22.5, 135, 0}}});
        Object[][] cases = {
            {onLine, new Path(0, 45, 90, -45), 0.5},
            {onLine, new Path(0, 45, Math.nextDown(90.0), -45), Double.NaN},
            {onLine, new Path(10, 22.5, 50, 22.5), 35 / 40.0},
            {onLine, new Path(90, 40, 90, 22.5), 1.0},
            {diamond, new Path(45, 45, 45, 22.5), 1.0},
            {diamond, new Path(0, 22.5, 90, 22.5), 0.5},
            {diamond, new Path(0, Math.nextUp(22.5), 90, 22.5), Double.NaN},
            {diamond, new Path(-45, 0, 0, 0), 1.0},
            {seam, new Path(-135, 11.25, -180, 11.25), 1.0},
            {seam, new Path(-170, 30, -180, 22.5), 1.0},
            {seam, new Path(-180, 22.5, -180, 30), 0.0},
            {seam, new Path(-170, 0, -170, 22.5), Double.NaN},
        };
        for (Object[] c : cases) {
            Shape fence = (Shape) c[0];
            Path p = (Path) c[1];
            Double expected = (Double) c[2];
            assertThat(Double.valueOf(PathCrossing.first(p, fence)))
                    .as("%s %s", fence, p)
                    .isEqualTo(expected);
            assertThat(Double.valueOf(overTheTiles(fence, p)))
                    .as("%s %s over the tiles", fence, p)
                    .isEqualTo(expected);
        }
    }

    // The smallest answer of the tiles on the path that hold a piece of the fence.
    private double overTheTiles(Shape fence, Path p) {
        Map<Long, TileCut> cuts = new HashMap<>();
        for (TileCut cut : grid.cut(fence, 0)) {
            cuts.put(cut.tile(), cut);
        }
        double best = Double.NaN;
        for (long tile : grid.tilesOnPath(p, Integer.MAX_VALUE)) {
            TileCut cut = cuts.get(tile);
            double s =
                    cut == null ? Double.NaN : PathCrossing.first(p, cut.piece(), grid.cell(tile));
            best = Double.isNaN(best) || s < best ? s : best;
        }
        return best;
    }

    @Test
    void noPathOfAtMostMaxMetersMeetsMoreTilesThanTheBound() {
        setUp(0);
        for (int k = 0; k < 3000; k++) {
            int level = random.nextInt(0, 15);
            TileGrid g = new TileGrid(level);
            double meters = 50_000 * Math.scalb(1.0, random.nextInt(-8, 4));
            double maxAbsLat = random.nextInt(4) == 0 ? 89.9 : 80 * random.nextDouble();
            Path p = pathWithin(meters, maxAbsLat, level);
            long[] tiles = g.tilesOnPath(p, Integer.MAX_VALUE);
            int bound = TileGrid.maxTilesOnPath(meters, maxAbsLat, level);
            assertThat(tiles.length)
                    .as("%s at level %d, bound %d", p, level, bound)
                    .isLessThanOrEqualTo(bound);
            assertThat(bound).isLessThanOrEqualTo(TileGrid.maxTilesOnPath(meters, level));
        }
        // A diagonal through tile corners, and a path along a tile line, reach the bound's terms.
        TileGrid g = new TileGrid(4);
        assertThat(g.tilesOnPath(new Path(0, 0, 45, 22.5), 1000)).hasSize(10);
        assertThat(TileGrid.maxTilesOnSpan(45, 22.5, 4)).isEqualTo(2 * (2 + 2) + 4);
        assertThat(g.tilesOnPath(new Path(0, 0, 0, 22.5), 1000)).hasSize(8);
        assertThat(TileGrid.maxTilesOnSpan(0, 22.5, 4)).isEqualTo(8);
    }

    @Test
    void theBoundForTheDefaultMaxMetersIsSmallAwayFromThePoles() {
        // 50 km is 0.4497 degree of latitude and, up to latitude 60, 0.8993 of longitude: at
        // level 12 (tiles 0.0879 by 0.0439 degree) 2 * (10 + 10) + 4.
        assertThat(TileGrid.maxTilesOnPath(50_000, 60, 12)).isEqualTo(44);
        assertThat(TileGrid.maxTilesOnSpan(0.8993, 0.4497, 12)).isEqualTo(44);
        assertThat(TileGrid.maxTilesOnPath(50_000, 0, 12)).isEqualTo(34);
        assertThat(TileGrid.maxTilesOnPath(50_000, 75, 12)).isEqualTo(62);
        assertThat(TileGrid.maxTilesOnPath(50_000, 85, 12)).isEqualTo(140);
        assertThat(TileGrid.maxTilesOnPath(50_000, 90, 12)).isEqualTo(2 * (2048 + 10) + 4);
        assertThat(TileGrid.maxTilesOnPath(50_000, 12)).isEqualTo(4120);
    }

    // Ends on tile corners and lines, at lon +-180 and the poles, sometimes one point, sometimes
    // long or across the antimeridian: coordinates on a dyadic grid, so JTS decides exactly.
    private Path path(int level) {
        double[] a = point(level);
        double[] b;
        switch (random.nextInt(6)) {
            case 0 -> b = a;
            case 1 -> b = new double[] {a[0], point(level)[1]};
            case 2 -> b = new double[] {point(level)[0], a[1]};
            case 3 -> {
                int steps = random.nextInt(-4, 5);
                b = new double[] {lon(a[0] + steps * width), clampLat(a[1] + steps * height)};
            }
            default -> b = point(level);
        }
        return new Path(a[0], a[1], b[0], b[1]);
    }

    private double[] point(int level) {
        double qx = Math.scalb(width, -random.nextInt(0, 4));
        double qy = Math.scalb(height, -random.nextInt(0, 4));
        double x = Math.rint((-180 + 360 * random.nextDouble()) / qx) * qx;
        double y = Math.rint((-90 + 180 * random.nextDouble()) / qy) * qy;
        if (random.nextInt(8) == 0) {
            x = random.nextBoolean() ? 180 : -180;
        }
        if (random.nextInt(10) == 0) {
            y = random.nextBoolean() ? 90 : -90;
        }
        return new double[] {x, y};
    }

    private Shape fence(RandomShapes shapes, int level) {
        double size = Math.min(170, width * Math.scalb(1.0, random.nextInt(-3, 3)));
        double x = random.nextInt(6) == 0 ? 180 - size / 4 : -180 + 360 * random.nextDouble();
        double y = random.nextInt(8) == 0 ? 90 - size / 4 : -90 + 180 * random.nextDouble();
        double quantum = Math.scalb(Math.min(width, height), -random.nextInt(1, 8));
        return switch (random.nextInt(3)) {
            case 0 -> shapes.fence(x, y, size, quantum);
            case 1 -> {
                double x0 = Math.rint(x / quantum) * quantum;
                double y0 = clampLat(Math.rint(y / quantum) * quantum);
                double w =
                        random.nextInt(5) == 0
                                ? 0
                                : Math.rint(size * random.nextDouble() / quantum) * quantum;
                double h =
                        random.nextInt(5) == 0
                                ? 0
                                : Math.rint(size * random.nextDouble() / quantum) * quantum;
                yield new Rectangle(
                        x0,
                        Math.min(y0, clampLat(y0 + h)),
                        lon(x0 + w),
                        Math.max(y0, clampLat(y0 + h)));
            }
            default -> {
                double meters =
                        Math.toRadians(size) * Earth.RADIUS_METERS * random.nextDouble() / 2;
                yield new Circle(lon(x), clampLat(y), Math.max(1, meters));
            }
        };
    }

    // A path from about the fence's bounds to about its bounds, on the fence's dyadic grid.
    private Path pathNear(Shape fence, int level) {
        Box b = fence.bounds().get(random.nextInt(fence.bounds().size()));
        double[] a = around(b, level);
        double[] c = random.nextInt(10) == 0 ? a : around(b, level);
        return new Path(a[0], a[1], c[0], c[1]);
    }

    private double[] around(Box b, int level) {
        double q = Math.scalb(Math.min(width, height), -random.nextInt(1, 10));
        double spanX = Math.max(b.maxX() - b.minX(), width);
        double spanY = Math.max(b.maxY() - b.minY(), height);
        double x = b.minX() + spanX * (1.4 * random.nextDouble() - 0.2);
        double y = b.minY() + spanY * (1.4 * random.nextDouble() - 0.2);
        if (random.nextInt(4) == 0) {
            x = random.nextBoolean() ? b.minX() : b.maxX();
        }
        if (random.nextInt(4) == 0) {
            y = random.nextBoolean() ? b.minY() : b.maxY();
        }
        return new double[] {lon(Math.rint(x / q) * q), clampLat(Math.rint(y / q) * q)};
    }

    // Two positions at most meters apart with latitudes within maxAbsLat, near tile lines.
    private Path pathWithin(double meters, double maxAbsLat, int level) {
        for (; ; ) {
            double lat = (2 * random.nextDouble() - 1) * maxAbsLat;
            double lon = -180 + 360 * random.nextDouble();
            double delta = meters / Earth.RADIUS_METERS * random.nextDouble();
            double bearing = 2 * Math.PI * random.nextDouble();
            double phi = Math.toRadians(lat);
            double phi2 =
                    Math.asin(
                            Math.sin(phi) * Math.cos(delta)
                                    + Math.cos(phi) * Math.sin(delta) * Math.cos(bearing));
            double lambda =
                    Math.toRadians(lon)
                            + Math.atan2(
                                    Math.sin(bearing) * Math.sin(delta) * Math.cos(phi),
                                    Math.cos(delta) - Math.sin(phi) * Math.sin(phi2));
            double lat2 = Math.toDegrees(phi2);
            double lon2 = lon(Math.toDegrees(lambda));
            if (Math.abs(lat2) <= maxAbsLat
                    && Earth.haversineMeters(lon, lat, lon2, lat2) <= meters) {
                return new Path(lon, lat, lon2, lat2);
            }
        }
    }

    private static double lon(double v) {
        return v >= -180 && v <= 180 ? v : ((v + 180) % 360 + 360) % 360 - 180;
    }

    private static double clampLat(double v) {
        return Math.max(-90, Math.min(90, v));
    }
}
