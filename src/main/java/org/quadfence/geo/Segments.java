package org.quadfence.geo;

/**
 * Exact predicates on a segment a-b of the lon/lat plane, the building blocks of the polygon tests.
 * Every decision is made by comparisons of the given doubles and {@link Orientation#index}; nothing
 * is computed with rounding.
 *
 * <p>The two crossing predicates count crossings of a path that runs an infinitesimal amount off
 * the query point (see {@link PolygonPiece}): with 0 < epsilon << eta, a horizontal path at height
 * {@code y + epsilon} and a vertical path at {@code x = east + eta}. No vertex lies on such a path,
 * so each crossing is a proper crossing of one edge, and a vertex at the path's exact height or
 * longitude counts as lying below it or west of it (the half-open rule).
 */
final class Segments {

    private Segments() {}

    /** True when (x, y) lies on the closed segment a-b. */
    static boolean covers(double ax, double ay, double bx, double by, double x, double y) {
        if (x < Math.min(ax, bx) || x > Math.max(ax, bx)) {
            return false;
        }
        if (y < Math.min(ay, by) || y > Math.max(ay, by)) {
            return false;
        }
        return Orientation.index(ax, ay, bx, by, x, y) == 0;
    }

    /**
     * True when the segment crosses the horizontal path at height {@code y + epsilon} from {@code x
     * + eta} to {@code east + eta}: it straddles that height, and where it meets height y it lies
     * strictly east of x and at or west of east. Only meaningful when (x, y) is not on the segment.
     */
    static boolean crossesEast(
            double ax, double ay, double bx, double by, double x, double y, double east) {
        if ((ay > y) == (by > y)) {
            return false;
        }
        double minX = Math.min(ax, bx);
        double maxX = Math.max(ax, bx);
        if (x >= maxX || minX > east) {
            return false;
        }
        // Direct the edge upward: then a point at height y lies left of it exactly when it lies
        // west of the edge's crossing with that height.
        double lx = ay < by ? ax : bx;
        double ly = ay < by ? ay : by;
        double ux = ay < by ? bx : ax;
        double uy = ay < by ? by : ay;
        if (x >= minX && Orientation.index(lx, ly, ux, uy, x, y) <= 0) {
            return false;
        }
        return maxX <= east || Orientation.index(lx, ly, ux, uy, east, y) <= 0;
    }

    /**
     * True when the segment crosses the vertical path at {@code x = east + eta} from height {@code
     * y + epsilon} to {@code north + epsilon}.
     */
    static boolean crossesNorth(
            double ax, double ay, double bx, double by, double y, double east, double north) {
        if ((ax > east) == (bx > east)) {
            return false;
        }
        // Direct the edge eastward: then a point on the line x = east lies left of it exactly when
        // it lies above the edge's crossing with that line.
        double lx = ax < bx ? ax : bx;
        double ly = ax < bx ? ay : by;
        double rx = ax < bx ? bx : ax;
        double ry = ax < bx ? by : ay;
        double minY = Math.min(ay, by);
        double maxY = Math.max(ay, by);
        if (y > maxY || north < minY) {
            return false;
        }
        if (y >= minY) {
            // The crossing is at Y + eta * slope: above y + epsilon when Y > y, or Y = y and the
            // edge rises.
            int o = Orientation.index(lx, ly, rx, ry, east, y);
            if (o > 0 || (o == 0 && ry <= ly)) {
                return false;
            }
        }
        if (north > maxY) {
            return true;
        }
        // Below north + epsilon when Y < north, or Y = north and the edge does not rise.
        int o = Orientation.index(lx, ly, rx, ry, east, north);
        return o > 0 || (o == 0 && ry <= ly);
    }

    /** True when the segment meets the closed box [x0, x1] x [y0, y1]. */
    static boolean touchesBox(
            double ax,
            double ay,
            double bx,
            double by,
            double x0,
            double y0,
            double x1,
            double y1) {
        if (Math.max(ax, bx) < x0 || Math.min(ax, bx) > x1) {
            return false;
        }
        if (Math.max(ay, by) < y0 || Math.min(ay, by) > y1) {
            return false;
        }
        if ((ax >= x0 && ax <= x1 && ay >= y0 && ay <= y1)
                || (bx >= x0 && bx <= x1 && by >= y0 && by <= y1)) {
            return true;
        }
        // The boxes overlap, so only the segment's own line can separate them (separating axes).
        int s = Orientation.index(ax, ay, bx, by, x0, y0);
        int t = Orientation.index(ax, ay, bx, by, x1, y0);
        int u = Orientation.index(ax, ay, bx, by, x1, y1);
        int v = Orientation.index(ax, ay, bx, by, x0, y1);
        return !((s > 0 && t > 0 && u > 0 && v > 0) || (s < 0 && t < 0 && u < 0 && v < 0));
    }

    /** True when the segment meets the open box (x0, x1) x (y0, y1), its interior. */
    static boolean entersOpenBox(
            double ax,
            double ay,
            double bx,
            double by,
            double x0,
            double y0,
            double x1,
            double y1) {
        if (Math.max(ax, bx) <= x0 || Math.min(ax, bx) >= x1) {
            return false;
        }
        if (Math.max(ay, by) <= y0 || Math.min(ay, by) >= y1) {
            return false;
        }
        if ((ax > x0 && ax < x1 && ay > y0 && ay < y1)
                || (bx > x0 && bx < x1 && by > y0 && by < y1)) {
            return true;
        }
        int s = Orientation.index(ax, ay, bx, by, x0, y0);
        int t = Orientation.index(ax, ay, bx, by, x1, y0);
        int u = Orientation.index(ax, ay, bx, by, x1, y1);
        int v = Orientation.index(ax, ay, bx, by, x0, y1);
        return !((s >= 0 && t >= 0 && u >= 0 && v >= 0) || (s <= 0 && t <= 0 && u <= 0 && v <= 0));
    }
}
