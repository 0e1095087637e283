package org.quadfence.geo;

import java.math.BigDecimal;

/**
 * Exact predicates on points whose longitude carries a whole shift of degrees ({@code x + shift},
 * the shift a multiple of 360): a path across the antimeridian and the copies of a fence 360
 * degrees east or west. The sum {@code x + shift} is not always a double, so it is never rounded
 * into one: each test is evaluated in floating point, trusted beyond an error bound, and otherwise
 * exactly with {@link BigDecimal}.
 */
final class Shifted {

    // About 90 units in the last place: far above the few roundings of the sums and products.
    private static final double BOUND = 1e-14;

    private Shifted() {}

    /** The sign of {@code (x + shift) - v}, exact. */
    static int compare(double x, double shift, double v) {
        // Rounding is monotone and v is a double, so a rounded sum on one side of v is exact.
        double t = x + shift;
        if (t != v) {
            return t < v ? -1 : 1;
        }
        return new BigDecimal(x).add(new BigDecimal(shift)).compareTo(new BigDecimal(v));
    }

    /**
     * {@link Orientation#index} of a = (ax + sa, ay), b = (bx + sb, by) and c = (cx, cy): 1 when c
     * lies left of the directed line a to b, -1 right of it, 0 on it. Exact.
     */
    static int orient(
            double ax,
            double ay,
            double sa,
            double bx,
            double by,
            double sb,
            double cx,
            double cy) {
        if (sa == 0 && sb == 0) {
            return Orientation.index(ax, ay, bx, by, cx, cy);
        }
        double left = ((ax - cx) + sa) * (by - cy);
        double right = (ay - cy) * ((bx - cx) + sb);
        double det = left - right;
        double bound =
                BOUND
                                * ((Math.abs(ax) + Math.abs(cx) + Math.abs(sa))
                                                * (Math.abs(by) + Math.abs(cy))
                                        + (Math.abs(ay) + Math.abs(cy))
                                                * (Math.abs(bx) + Math.abs(cx) + Math.abs(sb)))
                        + Double.MIN_NORMAL;
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        BigDecimal x = new BigDecimal(cx);
        BigDecimal y = new BigDecimal(cy);
        BigDecimal l =
                new BigDecimal(ax)
                        .add(new BigDecimal(sa))
                        .subtract(x)
                        .multiply(new BigDecimal(by).subtract(y));
        BigDecimal r =
                new BigDecimal(ay)
                        .subtract(y)
                        .multiply(new BigDecimal(bx).add(new BigDecimal(sb)).subtract(x));
        return l.compareTo(r);
    }
}
