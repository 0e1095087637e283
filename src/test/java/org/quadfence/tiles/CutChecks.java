package org.quadfence.tiles;

import org.quadfence.geo.Box;
import org.quadfence.geo.Shape;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** What the property tests of the cuts share: the points they try and what they check there. */
final class CutChecks {

    private CutChecks() {}

    /** The cuts by tile, checking that each tile is listed once. */
    static Map<Long, TileCut> byTile(List<TileCut> cuts) {
        Map<Long, TileCut> out = new HashMap<>();
        for (TileCut cut : cuts) {
            assertThat(out.put(cut.tile(), cut)).as("%s listed twice", cut).isNull();
        }
        return out;
    }

    /**
     * Corners, edge midpoints, the centre and random points of a closed box; at lon -180 also the
     * same point at lon 180, which is the same meridian.
     */
    static List<double[]> pointsOf(Box box, SplittableRandom random) {
        double[] xs = {
            box.minX(),
            box.maxX(),
            (box.minX() + box.maxX()) / 2,
            between(box.minX(), box.maxX(), random)
        };
        double[] ys = {
            box.minY(),
            box.maxY(),
            (box.minY() + box.maxY()) / 2,
            between(box.minY(), box.maxY(), random)
        };
        List<double[]> points = new ArrayList<>();
        for (double x : xs) {
            for (double y : ys) {
                points.add(new double[] {x, y});
                if (x == -180) {
                    points.add(new double[] {180, y});
                }
            }
        }
        return points;
    }

    /** The point itself or, as often, a random point up to {@code reach} degrees (of lat) away. */
    static double[] jittered(double[] p, double reach, SplittableRandom random) {
        if (random.nextBoolean()) {
            return p;
        }
        double lat = Math.max(-90, Math.min(90, p[1] + reach * (2 * random.nextDouble() - 1)));
        double cos = Math.max(0.01, Math.cos(Math.toRadians(lat)));
        double lon = p[0] + reach / cos * (2 * random.nextDouble() - 1);
        return new double[] {((lon + 180) % 360 + 360) % 360 - 180, lat};
    }

    /**
     * Checks that the point's tile answers like the fence cut with {@code margin}: containment
     * exactly, and the distance exactly within the margin (the point then in the piece's bounds),
     * above it otherwise. Returns the fence's distance.
     */
    static double answersLikeTheFence(
            Shape fence, double margin, TileGrid grid, Map<Long, TileCut> cuts, double[] p) {
        double lon = p[0];
        double lat = p[1];
        TileCut cut = cuts.get(grid.tileOf(lon, lat));
        double x = TileGrid.foldLon(lon);
        double d = fence.distanceMeters(lon, lat);
        String what = fence + " margin " + margin + " point (" + lon + ", " + lat + ")";
        assertThat(cut != null && cut.piece().contains(x, lat))
                .as(what)
                .isEqualTo(fence.contains(lon, lat));
        if (d <= margin) {
            assertThat(cut).as(what).isNotNull();
            assertThat(cut.piece().distanceMeters(x, lat)).as(what).isEqualTo(d);
            assertThat(cut.piece().bounds().contains(x, lat))
                    .as("%s in bounds of %s (reach %s)", what, cut, fence.boundsWithin(margin))
                    .isTrue();
        } else if (cut != null) {
            assertThat(cut.piece().distanceMeters(x, lat)).as(what).isGreaterThan(margin);
        }
        return d;
    }

    /**
     * Checks that the point's tile, cut for boundary distances within {@code reach}, answers the
     * fence's boundary distance of an inside point exactly within it, and above it otherwise.
     * Returns the fence's boundary distance (0 outside).
     */
    static double answersTheBoundaryLikeTheFence(
            Shape fence, double reach, TileGrid grid, Map<Long, TileCut> cuts, double[] p) {
        double lon = p[0];
        double lat = p[1];
        double b = fence.boundaryMeters(lon, lat);
        if (!fence.contains(lon, lat)) {
            return 0;
        }
        TileCut cut = cuts.get(grid.tileOf(lon, lat));
        String what = fence + " reach " + reach + " point (" + lon + ", " + lat + ")";
        assertThat(cut).as(what).isNotNull();
        double x = TileGrid.foldLon(lon);
        if (b <= reach) {
            assertThat(cut.covered()).as(what).isFalse();
            assertThat(cut.piece().boundaryMeters(x, lat)).as(what).isEqualTo(b);
        } else {
            assertThat(cut.piece().boundaryMeters(x, lat)).as(what).isGreaterThan(reach);
        }
        return b;
    }

    private static double between(double min, double max, SplittableRandom random) {
        return Math.min(max, min + (max - min) * random.nextDouble());
    }
}
