package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fences whose rings touch (holes touching their exterior ring or one another at a vertex or inside
 * an edge, members touching at a vertex, several rings meeting at one point) are answered exactly
 * (contract section 6: closed, a hole's boundary included), by the polygon's own lookup and by the
 * tile pieces it is cut to at tile levels 0 to 16: every answer equals JTS's {@code
 * geometry.covers(point)}. The fences are the valid ones of {@link TouchingShapes}, on a grid laid
 * on the tile lines of some level (every vertex, touch point included, on a tile corner, or on
 * halves or quarters of a tile) or placed anywhere; the points are every vertex, every point of the
 * fence's grid around it, exact midpoints and quarter points of edges, points one ulp off these,
 * and random points.
 */
class TouchingContainmentTest {

    private static final int[] LEVELS = {0, 3, 7, 12, 16};

    @Test
    void touchingRingsAreAnsweredLikeJtsCoversByThePolygonAndByItsTilesAtEveryLevel() {
        SplittableRandom random = new SplittableRandom(6);
        TouchingShapes shapes = new TouchingShapes(random);
        int fences = 0;
        int touching = 0;
        long points = 0;
        long inside = 0;
        while (fences < 600) {
            TouchingShapes.Fence grid = shapes.next();
            if (!new IsValidOp(grid.jts()).isValid()) {
                continue;
            }
            fences++;
            int level = LEVELS[random.nextInt(LEVELS.length)];
            TouchingShapes.Fence fence = place(grid, level, random);
            Geometry jts = fence.jts();
            Polygon polygon = Polygon.of(fence.polygons());
            touching += TouchingShapes.ringsTouch(grid) ? 1 : 0;
            List<double[]> tried = points(fence, random);
            boolean[] expected = new boolean[tried.size()];
            for (int i = 0; i < expected.length; i++) {
                double[] p = tried.get(i);
                expected[i] =
                        covers(jts, p[0], p[1])
                                || (p[0] == 180 && covers(jts, -180, p[1]))
                                || (p[0] == -180 && covers(jts, 180, p[1]));
                assertThat(polygon.contains(p[0], p[1]))
                        .as("%s, point (%s, %s)", fence, p[0], p[1])
                        .isEqualTo(expected[i]);
                points++;
                inside += expected[i] ? 1 : 0;
            }
            for (int l : LEVELS) {
                TileGrid tiles = new TileGrid(l);
                if (tiles.tilesSpanned(polygon.bounds()) > 10_000) {
                    // The job cuts a fence this wide to its wide tier, level 7.
                    continue;
                }
                Map<Long, TileCut> cuts = new HashMap<>();
                for (TileCut cut : tiles.cut(polygon, 0)) {
                    cuts.put(cut.tile(), cut);
                }
                for (int i = 0; i < expected.length; i++) {
                    double[] p = tried.get(i);
                    TileCut cut = cuts.get(tiles.tileOf(p[0], p[1]));
                    assertThat(cut != null && cut.piece().contains(TileGrid.foldLon(p[0]), p[1]))
                            .as(
                                    "%s at level %d, point (%s, %s), tile %s",
                                    fence, l, p[0], p[1], cut)
                            .isEqualTo(expected[i]);
                }
            }
        }
        assertThat(touching).as("fences whose rings touch").isGreaterThan(300);
        assertThat(inside).isBetween(points / 5, points * 9 / 10);
    }

    // On the tile lines of the level: the grid's unit a tile, or a half, quarter or eighth of one,
    // from a tile corner; or, one time in four, anywhere with a unit of any power of two.
    private static TouchingShapes.Fence place(
            TouchingShapes.Fence f, int level, SplittableRandom random) {
        double w = 360.0 / (1 << level);
        double h = 180.0 / (1 << level);
        if (random.nextInt(4) == 0) {
            double q = Math.scalb(1.0, -random.nextInt(0, 30));
            return f.placed(
                    -170 + 330 * random.nextDouble(), -80 + 150 * random.nextDouble(), q, q);
        }
        int split = random.nextInt(4);
        double qx = Math.scalb(w, -split);
        double qy = Math.scalb(h, -split);
        // The grid spans 8 units: keep it inside the world.
        int columns = Math.max(1, (int) ((360 - 8 * qx) / w) + 1);
        int rows = Math.max(1, (int) ((180 - 8 * qy) / h) + 1);
        double x0 = -180 + w * random.nextInt(columns);
        double y0 = -90 + h * random.nextInt(rows);
        if (8 * qx >= 360) {
            qx = 360.0 / 16;
            x0 = -90;
        }
        if (8 * qy >= 180) {
            qy = 180.0 / 16;
            y0 = -45;
        }
        return f.placed(x0, y0, qx, qy);
    }

    private static boolean covers(Geometry g, double x, double y) {
        return g.covers(TouchingShapes.JTS.createPoint(new Coordinate(x, y)));
    }

    // Vertices, the points of the fence's grid (its vertices' coordinates, and halves between
    // them), midpoints and quarter points of edges, one ulp off some, and random points.
    private static List<double[]> points(TouchingShapes.Fence f, SplittableRandom random) {
        List<double[]> out = new ArrayList<>();
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        double minX = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        for (double[][] polygon : f.polygons()) {
            for (double[] ring : polygon) {
                for (int i = 0; i + 2 < ring.length; i += 2) {
                    double ax = ring[i];
                    double ay = ring[i + 1];
                    double bx = ring[i + 2];
                    double by = ring[i + 3];
                    out.add(new double[] {ax, ay});
                    out.add(new double[] {(ax + bx) / 2, (ay + by) / 2});
                    out.add(new double[] {ax + (bx - ax) / 4, ay + (by - ay) / 4});
                    out.add(off(new double[] {ax, ay}, random));
                    out.add(off(new double[] {(ax + bx) / 2, (ay + by) / 2}, random));
                    xs.add(ax);
                    ys.add(ay);
                    minX = Math.min(minX, ax);
                    maxX = Math.max(maxX, ax);
                    minY = Math.min(minY, ay);
                    maxY = Math.max(maxY, ay);
                }
            }
        }
        for (int i = 0; i < 40; i++) {
            double x = xs.get(random.nextInt(xs.size()));
            double y = ys.get(random.nextInt(ys.size()));
            double x2 = xs.get(random.nextInt(xs.size()));
            double y2 = ys.get(random.nextInt(ys.size()));
            out.add(new double[] {x, y});
            out.add(new double[] {(x + x2) / 2, (y + y2) / 2});
            out.add(
                    new double[] {
                        minX + (maxX - minX) * random.nextDouble(),
                        minY + (maxY - minY) * random.nextDouble()
                    });
        }
        for (double[] p : out) {
            p[0] = Math.max(-180, Math.min(180, p[0]));
            p[1] = Math.max(-90, Math.min(90, p[1]));
        }
        return out;
    }

    private static double[] off(double[] p, SplittableRandom random) {
        int axis = random.nextInt(2);
        p[axis] = random.nextBoolean() ? Math.nextUp(p[axis]) : Math.nextDown(p[axis]);
        return p;
    }
}
