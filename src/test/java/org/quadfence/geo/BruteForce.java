package org.quadfence.geo;

/**
 * A reference for a fence's closed containment without any index: a point is inside when it lies on
 * an edge, or when a ray from it crosses some polygon's rings an odd number of times, each crossing
 * decided by an exact {@link Orientation} test. Slow (every edge for every point) and plain, so
 * tests can hold the indexed answers to it.
 */
final class BruteForce {

    private BruteForce() {}

    /** Closed containment in the polygons given as for {@link Polygon#of}, lon 180 = -180. */
    static boolean contains(double[][][] polygons, double lon, double lat) {
        return planar(polygons, lon, lat)
                || lon == 180 && planar(polygons, -180, lat)
                || lon == -180 && planar(polygons, 180, lat);
    }

    private static boolean planar(double[][][] polygons, double x, double y) {
        for (double[][] rings : polygons) {
            boolean inside = false;
            for (double[] ring : rings) {
                for (int i = 0; i + 3 < ring.length; i += 2) {
                    double ax = ring[i];
                    double ay = ring[i + 1];
                    double bx = ring[i + 2];
                    double by = ring[i + 3];
                    if (onEdge(ax, ay, bx, by, x, y)) {
                        return true;
                    }
                    // The ray runs east; an edge crossing its height lies east of the point when
                    // the point lies left of the edge directed upward.
                    if ((ay > y) != (by > y)) {
                        int side =
                                ay < by
                                        ? Orientation.index(ax, ay, bx, by, x, y)
                                        : Orientation.index(bx, by, ax, ay, x, y);
                        inside ^= side > 0;
                    }
                }
            }
            if (inside) {
                return true;
            }
        }
        return false;
    }

    private static boolean onEdge(double ax, double ay, double bx, double by, double x, double y) {
        return x >= Math.min(ax, bx)
                && x <= Math.max(ax, bx)
                && y >= Math.min(ay, by)
                && y <= Math.max(ay, by)
                && Orientation.index(ax, ay, bx, by, x, y) == 0;
    }
}
