package org.quadfence.geo;

/**
 * The checks of {@link Polygon#of}, in the order a person fixes them: the project's own first
 * (structure and size, then each ring's coordinates, closure, antimeridian steps and distinct
 * positions; each failure names the polygon, ring and position), then OGC validity as JTS {@code
 * IsValidOp} has it, for all rings together ({@link RingSweep}; the message starts "invalid polygon
 * (OGC): "). No polygons at all (an empty MultiPolygon) is valid: a fence that contains no point.
 * Cost: O(n log n) for n vertices.
 */
final class PolygonValidation {

    private PolygonValidation() {}

    static void check(double[][][] polygons, int maxVertices) {
        if (polygons == null) {
            throw new IllegalArgumentException(
                    "a polygon fence needs an array of polygons (empty for none)");
        }
        long vertices = 0;
        for (int p = 0; p < polygons.length; p++) {
            double[][] rings = polygons[p];
            if (rings == null || rings.length == 0) {
                throw new IllegalArgumentException("polygon " + p + " has no rings");
            }
            for (int r = 0; r < rings.length; r++) {
                double[] ring = rings[r];
                if (ring == null || ring.length % 2 != 0) {
                    throw new IllegalArgumentException(
                            name(p, r) + " is not a list of lon, lat pairs");
                }
                if (ring.length < 8) {
                    throw new IllegalArgumentException(
                            name(p, r)
                                    + " has "
                                    + ring.length / 2
                                    + " positions; a ring needs at least 4 (the first"
                                    + " repeated at the end)");
                }
                vertices += ring.length / 2 - 1;
            }
        }
        if (vertices > maxVertices) {
            throw new IllegalArgumentException(
                    "the fence has "
                            + vertices
                            + " vertices, more than the limit of "
                            + maxVertices);
        }
        for (int p = 0; p < polygons.length; p++) {
            for (int r = 0; r < polygons[p].length; r++) {
                checkRing(polygons[p][r], p, r);
            }
        }
        RingSweep.check(polygons);
    }

    private static void checkRing(double[] ring, int p, int r) {
        for (int i = 0; i < ring.length; i += 2) {
            if (!(ring[i] >= -180 && ring[i] <= 180)) {
                throw new IllegalArgumentException(
                        position(p, r, i) + ": lon out of range [-180, 180]: " + ring[i]);
            }
            if (!(ring[i + 1] >= -90 && ring[i + 1] <= 90)) {
                throw new IllegalArgumentException(
                        position(p, r, i) + ": lat out of range [-90, 90]: " + ring[i + 1]);
            }
        }
        int last = ring.length - 2;
        if (ring[0] != ring[last] || ring[1] != ring[last + 1]) {
            throw new IllegalArgumentException(
                    name(p, r)
                            + " is not closed: first "
                            + point(ring, 0)
                            + " != last "
                            + point(ring, last));
        }
        for (int i = 2; i < ring.length; i += 2) {
            if (Math.abs(ring[i] - ring[i - 2]) > 180) {
                throw new IllegalArgumentException(
                        name(p, r)
                                + " crosses the antimeridian between positions "
                                + (i / 2 - 1)
                                + " "
                                + point(ring, i - 2)
                                + " and "
                                + i / 2
                                + " "
                                + point(ring, i)
                                + " (a longitude step over 180): split it at 180 into a"
                                + " MultiPolygon (RFC 7946 3.1.9)");
            }
        }
        if (distinct(ring) < 4) {
            throw new IllegalArgumentException(
                    name(p, r) + " has fewer than 3 distinct positions: it encloses no area");
        }
    }

    // The ring's positions without consecutive repeats, the closing one included.
    private static int distinct(double[] ring) {
        int n = 0;
        for (int i = 0; i < ring.length; i += 2) {
            if (i == 0 || ring[i] != ring[i - 2] || ring[i + 1] != ring[i - 1]) {
                n++;
            }
        }
        return n;
    }

    static String name(int p, int r) {
        return "ring " + r + " of polygon " + p;
    }

    private static String position(int p, int r, int i) {
        return name(p, r) + ", position " + i / 2;
    }

    private static String point(double[] ring, int i) {
        return "[" + ring[i] + ", " + ring[i + 1] + "]";
    }
}
