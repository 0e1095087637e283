package org.quadfence.geo;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A path in one frame of the plane: the segment from A = (ax + sa, ay) to B = (bx + sb, by), the
 * shifts whole multiples of 360 ({@link Path#legs}). It is tested against plain geometry of lon
 * [-180, 180]: every meets/doesn't-meet decision is exact ({@link Shifted}); only the fraction s of
 * a first point, where A is s = 0 and B is s = 1, is computed in floating point.
 */
final class PathLeg {

    // Below this sine of the angle between a path and an edge, their crossing is found exactly:
    // in doubles the point along the path is off by up to about 1e-13 degree / sine.
    private static final double STEEP = 1e-3;

    private final double ax;
    private final double ay;
    private final double sa;
    private final double bx;
    private final double by;
    private final double sb;
    // A and B rounded, and the direction: for fractions only.
    private final double x0;
    private final double x1;
    private final double dx;
    private final double dy;

    PathLeg(double ax, double ay, double sa, double bx, double by, double sb) {
        this.ax = ax;
        this.ay = ay;
        this.sa = sa;
        this.bx = bx;
        this.by = by;
        this.sb = sb;
        this.x0 = ax + sa;
        this.x1 = bx + sb;
        this.dx = x1 - x0;
        this.dy = by - ay;
    }

    /** True when A lies in the closed box. */
    boolean startsIn(double minX, double minY, double maxX, double maxY) {
        return ay >= minY
                && ay <= maxY
                && Shifted.compare(ax, sa, minX) >= 0
                && Shifted.compare(ax, sa, maxX) <= 0;
    }

    /** True when the closed leg meets the closed box. */
    boolean meetsBox(double minX, double minY, double maxX, double maxY) {
        if (Math.max(ay, by) < minY || Math.min(ay, by) > maxY) {
            return false;
        }
        if (Shifted.compare(ax, sa, minX) < 0 && Shifted.compare(bx, sb, minX) < 0
                || Shifted.compare(ax, sa, maxX) > 0 && Shifted.compare(bx, sb, maxX) > 0) {
            return false;
        }
        if (startsIn(minX, minY, maxX, maxY)) {
            return true;
        }
        // The bounding boxes overlap, so only the leg's own line can separate them.
        int s = side(minX, minY);
        int t = side(maxX, minY);
        int u = side(maxX, maxY);
        int v = side(minX, maxY);
        return !(s > 0 && t > 0 && u > 0 && v > 0 || s < 0 && t < 0 && u < 0 && v < 0);
    }

    /** The fraction of the leg's first point in the closed box, or NaN when it misses it. */
    double firstInBox(double minX, double minY, double maxX, double maxY) {
        if (startsIn(minX, minY, maxX, maxY)) {
            return 0;
        }
        double[] part = clip(minX, minY, maxX, maxY);
        return part == null ? Double.NaN : part[0];
    }

    /**
     * The fractions [enter, exit] of the leg's part in the closed box, rounded, or null when the
     * leg misses the box.
     */
    double[] clip(double minX, double minY, double maxX, double maxY) {
        if (!meetsBox(minX, minY, maxX, maxY)) {
            return null;
        }
        // Liang-Barsky: the latest entry and earliest exit across the two slabs. The exact test
        // decided that the leg meets the box, so rounding can only move these, not invent them.
        double enter = 0;
        double exit = 1;
        if (dx != 0) {
            double u = (minX - x0) / dx;
            double v = (maxX - x0) / dx;
            enter = Math.max(enter, Math.min(u, v));
            exit = Math.min(exit, Math.max(u, v));
        }
        if (dy != 0) {
            double u = (minY - ay) / dy;
            double v = (maxY - ay) / dy;
            enter = Math.max(enter, Math.min(u, v));
            exit = Math.min(exit, Math.max(u, v));
        }
        return new double[] {Math.min(enter, 1), Math.max(exit, 0)};
    }

    /**
     * The fraction of the leg's first point on the closed segment e = (ex, ey)-(fx, fy) (a point
     * when both ends are equal), or NaN when they do not meet.
     */
    double firstOnSegment(double ex, double ey, double fx, double fy) {
        if (Math.max(ay, by) < Math.min(ey, fy) || Math.min(ay, by) > Math.max(ey, fy)) {
            return Double.NaN;
        }
        double west = Math.min(ex, fx);
        double east = Math.max(ex, fx);
        if (Shifted.compare(ax, sa, west) < 0 && Shifted.compare(bx, sb, west) < 0
                || Shifted.compare(ax, sa, east) > 0 && Shifted.compare(bx, sb, east) > 0) {
            return Double.NaN;
        }
        int o1 = side(ex, ey);
        int o2 = side(fx, fy);
        if (o1 * o2 > 0) {
            return Double.NaN;
        }
        // The sides of A and B with respect to e, in e's frame (A and B moved, e not).
        int o3 = Shifted.orient(ex, ey, -sa, fx, fy, -sa, ax, ay);
        int o4 = Shifted.orient(ex, ey, -sb, fx, fy, -sb, bx, by);
        if (o3 * o4 > 0) {
            return Double.NaN;
        }
        if (o1 == 0 && o2 == 0) {
            return firstOnCollinear(ex, ey, fx, fy);
        }
        // Not collinear: they meet in one point.
        if (o3 == 0) {
            return 0;
        }
        if (o4 == 0) {
            return 1;
        }
        if (o1 == 0) {
            return fractionOf(ex, ey);
        }
        if (o2 == 0) {
            return fractionOf(fx, fy);
        }
        return crossing(ex, ey, fx, fy);
    }

    // Leg and e on one line, their bounding boxes overlapping (checked by the caller for x; y
    // here): A when e holds it, else the end of e nearest A that lies on the leg.
    private double firstOnCollinear(double ex, double ey, double fx, double fy) {
        if (onLeg(ex, ey) || onLeg(fx, fy)) {
            if (inBox(ex, ey, fx, fy)) {
                return 0;
            }
            double s = Double.POSITIVE_INFINITY;
            if (onLeg(ex, ey)) {
                s = fractionOf(ex, ey);
            }
            if (onLeg(fx, fy)) {
                s = Math.min(s, fractionOf(fx, fy));
            }
            return s;
        }
        // Neither end of e on the leg: the leg lies inside e, or they miss.
        return inBox(ex, ey, fx, fy) ? 0 : Double.NaN;
    }

    // True when A lies in the bounding box of e (on e, when collinear with it).
    private boolean inBox(double ex, double ey, double fx, double fy) {
        return startsIn(Math.min(ex, fx), Math.min(ey, fy), Math.max(ex, fx), Math.max(ey, fy));
    }

    // True when (x, y), collinear with the leg, lies within its bounding box.
    private boolean onLeg(double x, double y) {
        if (y < Math.min(ay, by) || y > Math.max(ay, by)) {
            return false;
        }
        int west = Shifted.compare(ax, sa, x);
        int east = Shifted.compare(bx, sb, x);
        return west * east <= 0;
    }

    // The side of (x, y) with respect to the directed leg: 1 left, -1 right, 0 on its line.
    private int side(double x, double y) {
        return Shifted.orient(ax, ay, sa, bx, by, sb, x, y);
    }

    // The fraction of the projection of (x, y) on the leg, in [0, 1]; 0 for a point leg.
    private double fractionOf(double x, double y) {
        double len2 = dx * dx + dy * dy;
        if (len2 == 0) {
            return 0;
        }
        double s = ((x - x0) * dx + (y - ay) * dy) / len2;
        return Math.max(0, Math.min(1, s));
    }

    // Where the leg's line crosses e's line, known to be a point of both.
    private double crossing(double ex, double ey, double fx, double fy) {
        double gx = fx - ex;
        double gy = fy - ey;
        double den = dx * gy - dy * gx;
        double num = (ex - x0) * gy - (ey - ay) * gx;
        double scale = Math.hypot(dx, dy) * Math.hypot(gx, gy);
        if (Math.abs(den) >= STEEP * scale) {
            return Math.max(0, Math.min(1, num / den));
        }
        // Nearly parallel: the rounded determinants lose too much, so take them exactly.
        BigDecimal bgx = new BigDecimal(fx).subtract(new BigDecimal(ex));
        BigDecimal bgy = new BigDecimal(fy).subtract(new BigDecimal(ey));
        BigDecimal a = new BigDecimal(ax).add(new BigDecimal(sa));
        BigDecimal bdx = new BigDecimal(bx).add(new BigDecimal(sb)).subtract(a);
        BigDecimal bdy = new BigDecimal(by).subtract(new BigDecimal(ay));
        BigDecimal bden = bdx.multiply(bgy).subtract(bdy.multiply(bgx));
        BigDecimal bnum =
                new BigDecimal(ex)
                        .subtract(a)
                        .multiply(bgy)
                        .subtract(new BigDecimal(ey).subtract(new BigDecimal(ay)).multiply(bgx));
        double s = bnum.divide(bden, MathContext.DECIMAL64).doubleValue();
        return Math.max(0, Math.min(1, s));
    }
}
