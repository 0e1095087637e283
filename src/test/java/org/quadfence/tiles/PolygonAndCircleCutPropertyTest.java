package org.quadfence.tiles;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Box;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Earth;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.Shape;
import org.quadfence.testing.RandomShapes;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.tiles.CutChecks.answersLikeTheFence;
import static org.quadfence.tiles.CutChecks.answersTheBoundaryLikeTheFence;
import static org.quadfence.tiles.CutChecks.byTile;
import static org.quadfence.tiles.CutChecks.jittered;
import static org.quadfence.tiles.CutChecks.pointsOf;

/**
 * Seeded random polygon and circle fences cut to the tiles of several levels, and points biased
 * towards the hard places (edges, vertices, one ulp off them, tile lines, lon +-180): the point's
 * tile answers exactly like the whole fence, covered tiles are wholly inside, the tiles cut are
 * exactly those the fence meets, and with a margin the distances agree exactly within it.
 */
class PolygonAndCircleCutPropertyTest {

    private static final int FENCES = 300;

    private SplittableRandom random;
    private RandomShapes shapes;
    private TileGrid grid;
    private double width;
    private double height;

    private void setUp(int level) {
        random = new SplittableRandom(2000 + level);
        shapes = new RandomShapes(random);
        grid = new TileGrid(level);
        width = 360.0 / (1 << level);
        height = 180.0 / (1 << level);
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void aPolygonsTileAnswersExactlyLikeThePolygon(int level) {
        setUp(level);
        for (int k = 0; k < FENCES; k++) {
            Polygon fence = polygon();
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, 0));
            for (double[] p : shapes.points(fence, width, height, 200)) {
                TileCut cut = cuts.get(grid.tileOf(p[0], p[1]));
                double x = TileGrid.foldLon(p[0]);
                boolean kept = cut != null && cut.piece().contains(x, p[1]);
                assertThat(kept)
                        .as("%s at level %d, point (%s, %s), cut %s", fence, level, p[0], p[1], cut)
                        .isEqualTo(fence.contains(p[0], p[1]));
                if (kept && !cut.covered()) {
                    assertThat(cut.piece().bounds().contains(x, p[1])).isTrue();
                }
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void coveredTilesAreWhollyInsideAndTheTilesCutAreThoseThePolygonMeets(int level) {
        setUp(level);
        for (int k = 0; k < FENCES; k++) {
            Polygon fence = polygon();
            RandomShapes.Reference jts = new RandomShapes.Reference(fence);
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, 0));
            for (TileCut cut : cuts.values()) {
                Box cell = grid.cell(cut.tile());
                assertThat(meets(jts, cell)).as("%s meets %s", fence, cell).isTrue();
                if (cut.covered()) {
                    for (double[] p : pointsOf(cell, random)) {
                        assertThat(fence.contains(p[0], p[1]))
                                .as("%s covers %s: (%s, %s)", fence, cell, p[0], p[1])
                                .isTrue();
                    }
                } else {
                    assertThat(cell.covers(cut.piece().bounds())).isTrue();
                }
            }
            for (Box b : fence.bounds()) {
                grid.tilesTouching(
                        b,
                        tile -> {
                            Box cell = grid.cell(tile);
                            assertThat(cuts.containsKey(tile))
                                    .as("%s and %s", fence, cell)
                                    .isEqualTo(meets(jts, cell));
                        });
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {3, 7, 12})
    void withAMarginTilesAnswerTheDistanceExactlyWithinIt(int level) {
        setUp(level);
        for (int k = 0; k < FENCES / 2; k++) {
            Polygon fence = polygon();
            double tileMeters = Math.toRadians(height) * Earth.RADIUS_METERS;
            double margin = tileMeters * Math.scalb(1.0, -random.nextInt(0, 12));
            double reach = Math.toDegrees(2 * margin / Earth.RADIUS_METERS);
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, margin));
            int near = 0;
            for (double[] p : shapes.points(fence, width, height, 200)) {
                double[] q = jittered(p, reach, random);
                near += answersLikeTheFence(fence, margin, grid, cuts, q) <= margin ? 1 : 0;
            }
            assertThat(near).isPositive();
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {3, 7, 12})
    void cutForAccuracyTilesAnswerTheBoundaryDistanceOfInsidePointsExactlyWithinIt(int level) {
        setUp(level);
        int near = 0;
        for (int k = 0; k < FENCES / 2; k++) {
            Polygon fence = polygon();
            double tileMeters = Math.toRadians(height) * Earth.RADIUS_METERS;
            double reach = tileMeters * Math.scalb(1.0, -random.nextInt(0, 12));
            double degrees = Math.toDegrees(2 * reach / Earth.RADIUS_METERS);
            Map<Long, TileCut> cuts = byTile(grid.cut(fence, reach, reach));
            for (double[] p : shapes.points(fence, width, height, 200)) {
                double[] q = jittered(p, degrees, random);
                double b = answersTheBoundaryLikeTheFence(fence, reach, grid, cuts, q);
                near += b > 0 && b <= reach ? 1 : 0;
                answersLikeTheFence(fence, reach, grid, cuts, q);
            }
        }
        assertThat(near).isPositive();
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 1, 3, 7, 12})
    void aCirclesTilesHoldEveryPointInsideAndAnswerLikeTheCircle(int level) {
        setUp(level);
        for (int k = 0; k < FENCES; k++) {
            Circle circle = circle(level);
            double margin =
                    random.nextInt(3) == 0 ? circle.radiusMeters() * random.nextDouble() : 0;
            Map<Long, TileCut> cuts = byTile(grid.cut(circle, margin));
            for (int i = 0; i < 100; i++) {
                double[] p = i % 2 == 0 ? inside(circle, margin) : around(circle);
                TileCut cut = cuts.get(grid.tileOf(p[0], p[1]));
                double x = TileGrid.foldLon(p[0]);
                boolean in = circle.contains(p[0], p[1]);
                assertThat(cut != null && cut.piece().contains(x, p[1]))
                        .as("%s, point (%s, %s)", circle, p[0], p[1])
                        .isEqualTo(in);
                double d = circle.distanceMeters(p[0], p[1]);
                if (d <= margin) {
                    assertThat(cut).isNotNull();
                    assertThat(cut.piece().distanceMeters(x, p[1])).isEqualTo(d);
                    assertThat(cut.piece().bounds().contains(x, p[1])).isTrue();
                    assertThat(inBounds(circle.boundsWithin(margin), p)).isTrue();
                }
                if (in) {
                    assertThat(inBounds(circle.bounds(), p))
                            .as("%s bounds %s, point (%s, %s)", circle, circle.bounds(), p[0], p[1])
                            .isTrue();
                }
            }
        }
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {0, 3, 7, 12})
    void theTilesCutWithAMarginHoldEveryPointWithinItOfAnyShape(int level) {
        setUp(level);
        double tileMeters = Math.toRadians(height) * Earth.RADIUS_METERS;
        // Near a pole a margin reaches every longitude: thousands of tiles per fence at level 12.
        for (int k = 0; k < FENCES / 3; k++) {
            Polygon polygon = polygon();
            Box b = polygon.bounds().get(polygon.bounds().size() - 1);
            // Sometimes the rectangle's complement in longitude: it crosses the antimeridian.
            double maxLon = random.nextBoolean() || b.minX() - 1 < -180 ? b.maxX() : b.minX() - 1;
            Shape[] shapes = {
                polygon, circle(level), new Rectangle(b.minX(), b.minY(), maxLon, b.maxY())
            };
            for (Shape shape : shapes) {
                double meters = tileMeters * random.nextDouble();
                Set<Long> near = new HashSet<>();
                grid.cut(shape, meters).forEach(cut -> near.add(cut.tile()));
                for (double[] p : this.shapes.points(polygon, width, height, 50)) {
                    double lon = p[0] + width * (random.nextDouble() - 0.5);
                    lon = ((lon + 180) % 360 + 360) % 360 - 180;
                    double lat = p[1];
                    if (shape.distanceMeters(lon, lat) <= meters) {
                        assertThat(near)
                                .as("%s within %s of (%s, %s)", shape, meters, lon, lat)
                                .contains(grid.tileOf(lon, lat));
                    }
                }
            }
        }
    }

    private Polygon polygon() {
        double size = width * Math.scalb(1.0, random.nextInt(-4, 3));
        if (grid.level() <= 3 && random.nextInt(4) == 0) {
            size = random.nextInt(10, 120);
        }
        double quantum = Math.scalb(Math.min(width, height), -random.nextInt(1, 8));
        double x = random.nextInt(6) == 0 ? 180 - size / 4 : -180 + 360 * random.nextDouble();
        double y = random.nextInt(8) == 0 ? 90 - size / 4 : -90 + 180 * random.nextDouble();
        return shapes.fence(x, y, Math.min(size, 170), quantum);
    }

    private Circle circle(int level) {
        double tileMeters = Math.toRadians(height) * Earth.RADIUS_METERS;
        double max = Math.min(Circle.MAX_RADIUS_METERS, 3 * tileMeters);
        double radius = Math.max(1, max * Math.pow(random.nextDouble(), 3));
        double lon =
                switch (random.nextInt(6)) {
                    case 0 -> 180;
                    case 1 -> -180;
                    case 2 -> -180 + width * random.nextInt(1 << level);
                    default -> -180 + 360 * random.nextDouble();
                };
        double lat =
                switch (random.nextInt(6)) {
                    case 0 -> 90;
                    case 1 -> -90 + random.nextDouble();
                    default -> -90 + 180 * random.nextDouble();
                };
        return new Circle(lon, lat, radius);
    }

    // A point at a random bearing and a distance of at most radius + margin from the centre,
    // by the spherical destination formula.
    private double[] inside(Circle c, double margin) {
        double reach = (c.radiusMeters() + margin) * Math.sqrt(random.nextDouble());
        if (random.nextInt(8) == 0) {
            reach = c.radiusMeters();
        }
        return destination(c, reach / Earth.RADIUS_METERS, random.nextDouble() * 2 * Math.PI);
    }

    private double[] around(Circle c) {
        double reach = c.radiusMeters() * (2 * random.nextDouble());
        return destination(c, reach / Earth.RADIUS_METERS, random.nextDouble() * 2 * Math.PI);
    }

    private static double[] destination(Circle c, double delta, double bearing) {
        double phi = Math.toRadians(c.lat());
        double sin =
                Math.sin(phi) * Math.cos(delta)
                        + Math.cos(phi) * Math.sin(delta) * Math.cos(bearing);
        double phi2 = Math.asin(Math.max(-1, Math.min(1, sin)));
        double lambda =
                Math.toRadians(c.lon())
                        + Math.atan2(
                                Math.sin(bearing) * Math.sin(delta) * Math.cos(phi),
                                Math.cos(delta) - Math.sin(phi) * Math.sin(phi2));
        double lon = Math.toDegrees(lambda);
        while (lon > 180) {
            lon -= 360;
        }
        while (lon < -180) {
            lon += 360;
        }
        return new double[] {lon, Math.max(-90, Math.min(90, Math.toDegrees(phi2)))};
    }

    private static boolean inBounds(List<Box> boxes, double[] p) {
        for (Box b : boxes) {
            if (b.contains(p[0], p[1])
                    || (p[0] == 180 && b.contains(-180, p[1]))
                    || (p[0] == -180 && b.contains(180, p[1]))) {
                return true;
            }
        }
        return false;
    }

    // JTS says the fence meets the closed cell, or the cell is in the westmost column and the
    // fence meets the cell's west edge moved to lon 180 (points at 180 are looked up there).
    private static boolean meets(RandomShapes.Reference jts, Box cell) {
        return jts.meets(cell.minX(), cell.minY(), cell.maxX(), cell.maxY())
                || (cell.minX() == -180 && jts.meets(180, cell.minY(), 180, cell.maxY()));
    }
}
