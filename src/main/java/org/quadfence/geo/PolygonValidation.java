package org.quadfence.geo;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.operation.valid.IsSimpleOp;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.locationtech.jts.operation.valid.TopologyValidationError;

import java.util.ArrayList;
import java.util.List;

/**
 * The checks of {@link Polygon#of}, in the order a person fixes them: structure and size first,
 * then each ring's coordinates, closure and antimeridian steps, then topology (JTS: a ring must not
 * cross or touch itself; holes must lie inside their exterior ring, neither nested nor crossing).
 * Each failure is an {@link IllegalArgumentException} whose message names the polygon, ring and
 * position.
 */
final class PolygonValidation {

    private static final GeometryFactory FACTORY = new GeometryFactory();

    private PolygonValidation() {}

    static void check(double[][][] polygons, int maxVertices) {
        if (polygons == null || polygons.length == 0) {
            throw new IllegalArgumentException("a polygon fence needs at least one polygon");
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
        for (int p = 0; p < polygons.length; p++) {
            checkTopology(polygons[p], p);
        }
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
        if (distinct(ring).size() < 4) {
            throw new IllegalArgumentException(
                    name(p, r) + " has fewer than 3 distinct positions: it encloses no area");
        }
    }

    private static void checkTopology(double[][] rings, int p) {
        LinearRing[] jts = new LinearRing[rings.length];
        for (int r = 0; r < rings.length; r++) {
            jts[r] = FACTORY.createLinearRing(distinct(rings[r]).toArray(new Coordinate[0]));
            IsSimpleOp simple = new IsSimpleOp(jts[r]);
            if (!simple.isSimple()) {
                throw new IllegalArgumentException(
                        name(p, r)
                                + " intersects itself at "
                                + point(simple.getNonSimpleLocation())
                                + ": edges may meet only where one ends and the next begins");
            }
        }
        LinearRing[] holes = new LinearRing[rings.length - 1];
        System.arraycopy(jts, 1, holes, 0, holes.length);
        TopologyValidationError error =
                new IsValidOp(FACTORY.createPolygon(jts[0], holes)).getValidationError();
        if (error != null) {
            throw new IllegalArgumentException(topology(error, p));
        }
    }

    private static String topology(TopologyValidationError error, int p) {
        String at = error.getCoordinate() == null ? "" : " near " + point(error.getCoordinate());
        String polygon = "polygon " + p;
        return switch (error.getErrorType()) {
            case TopologyValidationError.SELF_INTERSECTION ->
                    "the rings of "
                            + polygon
                            + " cross or overlap"
                            + at
                            + ": a hole may touch another ring only at single points";
            case TopologyValidationError.HOLE_OUTSIDE_SHELL ->
                    "a hole of " + polygon + " lies outside its exterior ring (ring 0)" + at;
            case TopologyValidationError.NESTED_HOLES ->
                    "a hole of " + polygon + " lies inside another hole" + at;
            case TopologyValidationError.DISCONNECTED_INTERIOR ->
                    "the holes of "
                            + polygon
                            + " cut its interior into pieces"
                            + at
                            + ": make each piece a polygon of its own";
            default -> polygon + " is not valid: " + error.getMessage() + at;
        };
    }

    // The ring's positions without consecutive repeats (the closing position kept).
    private static List<Coordinate> distinct(double[] ring) {
        List<Coordinate> out = new ArrayList<>(ring.length / 2);
        for (int i = 0; i < ring.length; i += 2) {
            if (i == 0 || ring[i] != ring[i - 2] || ring[i + 1] != ring[i - 1]) {
                out.add(new Coordinate(ring[i], ring[i + 1]));
            }
        }
        return out;
    }

    private static String name(int p, int r) {
        return "ring " + r + " of polygon " + p;
    }

    private static String position(int p, int r, int i) {
        return name(p, r) + ", position " + i / 2;
    }

    private static String point(double[] ring, int i) {
        return "[" + ring[i] + ", " + ring[i + 1] + "]";
    }

    private static String point(Coordinate c) {
        return "[" + c.x + ", " + c.y + "]";
    }
}
