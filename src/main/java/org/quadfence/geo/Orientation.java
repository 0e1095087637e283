package org.quadfence.geo;

import java.math.BigDecimal;

/**
 * The exact orientation predicate: on which side of the directed line a to b the point c lies,
 * decided exactly for any finite doubles.
 *
 * <p>A floating-point evaluation is trusted when its magnitude exceeds Shewchuk's error bound for
 * orient2d (J. R. Shewchuk, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
 * Predicates", 1997), widened by {@link Double#MIN_NORMAL} to cover products that underflow;
 * otherwise the determinant is evaluated exactly with {@link BigDecimal}, which holds every double
 * and every product of two doubles without rounding. The slow path runs only for nearly collinear
 * points.
 */
final class Orientation {

    // Shewchuk's ccwerrboundA = (3 + 16 eps) eps with eps = 2^-53.
    private static final double ERROR_BOUND = (3.0 + 16.0 * 0x1p-53) * 0x1p-53;

    private Orientation() {}

    /**
     * The sign of the cross product (b - a) x (c - a): 1 when a, b, c turn counter-clockwise (c
     * lies left of the directed line a to b), -1 when clockwise, 0 when collinear. Exact.
     */
    static int index(double ax, double ay, double bx, double by, double cx, double cy) {
        double left = (ax - cx) * (by - cy);
        double right = (ay - cy) * (bx - cx);
        double det = left - right;
        double bound = ERROR_BOUND * (Math.abs(left) + Math.abs(right)) + Double.MIN_NORMAL;
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        return exact(ax, ay, bx, by, cx, cy);
    }

    private static int exact(double ax, double ay, double bx, double by, double cx, double cy) {
        // The usual exact zeros without big numbers: c repeats a or b, or all lie on one axis
        // parallel (the sweep of ring edges meets these at every vertex).
        if (cx == ax && cy == ay || cx == bx && cy == by || ax == bx && ay == by) {
            return 0;
        }
        if (ax == bx && bx == cx || ay == by && by == cy) {
            return 0;
        }
        BigDecimal x = new BigDecimal(cx);
        BigDecimal y = new BigDecimal(cy);
        BigDecimal left = new BigDecimal(ax).subtract(x).multiply(new BigDecimal(by).subtract(y));
        BigDecimal right = new BigDecimal(ay).subtract(y).multiply(new BigDecimal(bx).subtract(x));
        return left.compareTo(right);
    }
}
