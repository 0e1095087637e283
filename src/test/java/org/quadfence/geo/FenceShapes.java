package org.quadfence.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * Hostile but valid rings for tests: edges 1e-9 degree apart, long collinear runs, needle spikes,
 * stars of tens of thousands of spikes, vertices on tile corners. Each is a closed ring as flat
 * lon, lat pairs, as {@link Polygon#of} takes it.
 */
public final class FenceShapes {

    private FenceShapes() {}

    /**
     * A star of {@code vertices} (even) points around (x, y): every other point at radius r, the
     * others {@code depth} further in, so spikes of that depth.
     */
    static double[] star(int vertices, double x, double y, double r, double depth) {
        double[] ring = new double[2 * vertices + 2];
        for (int i = 0; i < vertices; i++) {
            double angle = 2 * Math.PI * i / vertices;
            double radius = i % 2 == 0 ? r : r - depth;
            ring[2 * i] = x + radius * Math.cos(angle);
            ring[2 * i + 1] = y + radius * Math.sin(angle);
        }
        return close(ring);
    }

    /**
     * A comb like the hostile sample's: from (x, y) a bar {@code length} long, and above it {@code
     * teeth} slots reaching from its east end to near its west end, slots and teeth {@code gap}
     * high, then a block on top: long horizontal edges {@code gap} apart.
     */
    public static double[] comb(int teeth, double x, double y, double length, double gap) {
        List<Double> ring = new ArrayList<>(List.of(x, y, x + length, y));
        double top = y;
        double inner = x + length / 100;
        for (int t = 0; t < teeth; t++) {
            ring.addAll(List.of(x + length, top + gap, inner, top + gap));
            ring.addAll(List.of(inner, top + 2 * gap, x + length, top + 2 * gap));
            top += 2 * gap;
        }
        ring.addAll(List.of(x + length, top + length, x, top + length, x, y));
        return toArray(ring);
    }

    /** The rectangle [x0, x1] x [y0, y1], counter-clockwise. */
    static double[] rectangle(double x0, double y0, double x1, double y1) {
        return new double[] {x0, y0, x1, y0, x1, y1, x0, y1, x0, y0};
    }

    /** A rectangle whose south and north sides each have {@code runs} collinear vertices. */
    static double[] collinearRuns(int runs, double x, double y, double width, double height) {
        List<Double> ring = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            ring.addAll(List.of(x + width * i / runs, y));
        }
        for (int i = runs; i > 0; i--) {
            ring.addAll(List.of(x + width * i / runs, y + height));
        }
        ring.addAll(List.of(x, y + height, x, y));
        return toArray(ring);
    }

    /**
     * A square of side {@code side} with {@code spikes} needles {@code width} wide and {@code side}
     * long rising from its north side.
     */
    static double[] needles(int spikes, double x, double y, double side, double width) {
        List<Double> ring = new ArrayList<>(List.of(x, y, x + side, y, x + side, y + side));
        for (int i = spikes; i > 0; i--) {
            double at = x + side * i / (spikes + 1);
            ring.addAll(List.of(at + width, y + side, at + width / 2, y + 2 * side));
            ring.addAll(List.of(at, y + side));
        }
        ring.addAll(List.of(x, y + side, x, y));
        return toArray(ring);
    }

    /**
     * A staircase whose vertices lie on tile corners of levels 7, 12, 16 and 20 (the corners of
     * {@link CellGrid}), so its edges run along tile lines, starting at the corner (column, row) of
     * level 7.
     */
    static double[] tileCorners(int column, int row) {
        List<Double> ring = new ArrayList<>();
        double x = new CellGrid(7, 7).west(column);
        double y = new CellGrid(7, 7).south(row);
        ring.addAll(List.of(x, y));
        for (int level : new int[] {7, 12, 16, 20}) {
            CellGrid grid = new CellGrid(level, level);
            double w = grid.west(1) - grid.west(0);
            double h = grid.south(1) - grid.south(0);
            x += w;
            ring.addAll(List.of(x, y));
            y += h;
            ring.addAll(List.of(x, y));
        }
        ring.addAll(List.of(ring.get(0), y, ring.get(0), ring.get(1)));
        return toArray(ring);
    }

    private static double[] close(double[] ring) {
        ring[ring.length - 2] = ring[0];
        ring[ring.length - 1] = ring[1];
        return ring;
    }

    private static double[] toArray(List<Double> ring) {
        double[] out = new double[ring.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ring.get(i);
        }
        return out;
    }
}
