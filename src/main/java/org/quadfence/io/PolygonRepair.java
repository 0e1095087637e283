package org.quadfence.io;

import org.locationtech.jts.algorithm.LineIntersector;
import org.locationtech.jts.algorithm.RobustLineIntersector;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateArrays;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.MultiPolygon;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.locationtech.jts.noding.BasicSegmentString;
import org.locationtech.jts.noding.MCIndexNoder;
import org.locationtech.jts.noding.SegmentIntersector;
import org.locationtech.jts.noding.SegmentString;
import org.quadfence.geo.Polygon;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code fence-repair make-valid} (contract section 8a): a Polygon or MultiPolygon that {@link
 * Polygon#of} refuses is replaced by what JTS {@link GeometryFixer} (jts-core 1.20, collapsed parts
 * dropped) makes of it, when that has an area and {@link Polygon#of} takes it.
 *
 * <p>Never repaired, so a dead letter as without the option: a ring with a longitude step over 180
 * (it crosses the antimeridian and must be split at 180), an unclosed or empty ring (the record is
 * malformed: JTS cannot even make a ring of it, and closing it would be a guess), a coordinate out
 * of range, more than {@code max-vertices} vertices, and rings that cross or touch more than {@link
 * #CROSSINGS_PER_VERTEX} times a vertex or {@code max-vertices} times (each crossing can become a
 * vertex, and the repair's work grows with them: a star of n points has about n * n / 2). A ring of
 * fewer than 4 positions (closed) encloses nothing: it is dropped like any other collapsed ring,
 * and a polygon whose exterior ring is dropped goes with its holes.
 */
final class PolygonRepair {

    private static final GeometryFactory JTS = new GeometryFactory();

    /**
     * Crossings and touches of rings repaired, per vertex: rings that cross more often are not
     * repaired, so that a repair costs in proportion to the fence's vertices. Two polygons that
     * share a border touch at most about 2.5 times a vertex.
     */
    static final int CROSSINGS_PER_VERTEX = 4;

    private PolygonRepair() {}

    /**
     * The repaired polygons, as {@link Polygon#coordinates()}.
     *
     * @param polygons as {@link Polygon#of} takes them, which refused them
     * @param reason why {@link Polygon#of} refused them: the start of any dead letter's error
     * @throws BadRecord when the geometry is not repaired, or nothing with an area is left
     */
    static double[][][] repair(double[][][] polygons, int maxVertices, String reason) {
        double[][][] repaired = fixed(polygons, maxVertices, reason);
        try {
            return Polygon.of(repaired, maxVertices).coordinates();
        } catch (IllegalArgumentException e) {
            throw new BadRecord(
                    reason
                            + "; repaired by fence-repair make-valid it is still refused: "
                            + e.getMessage());
        }
    }

    /**
     * What {@link GeometryFixer} makes of the polygons, its parts with an area, before {@link
     * Polygon#of} checks them.
     *
     * @throws BadRecord when the geometry is not repaired, or nothing with an area is left
     */
    static double[][][] fixed(double[][][] polygons, int maxVertices, String reason) {
        String never = notRepaired(polygons, maxVertices);
        if (never != null) {
            throw new BadRecord(
                    reason + " (fence-repair make-valid does not repair " + never + ")");
        }
        MultiPolygon input = jts(polygons);
        if (input.isEmpty()) {
            throw nothingLeft(reason);
        }
        long crossings = Math.min(maxVertices, CROSSINGS_PER_VERTEX * input.getNumPoints() + 64);
        if (crossingsOver(input, crossings)) {
            throw new BadRecord(
                    reason
                            + " (fence-repair make-valid does not repair rings that cross or touch"
                            + " more than "
                            + crossings
                            + " times: "
                            + CROSSINGS_PER_VERTEX
                            + " a vertex, at most max-vertices)");
        }
        Geometry fixed;
        try {
            GeometryFixer fixer = new GeometryFixer(input);
            fixer.setKeepCollapsed(false);
            fixed = fixer.getResult();
        } catch (RuntimeException e) {
            throw new BadRecord(reason + "; fence-repair make-valid failed: " + e.getMessage());
        }
        double[][][] repaired = polygonal(fixed);
        if (repaired.length == 0) {
            throw nothingLeft(reason);
        }
        return repaired;
    }

    private static BadRecord nothingLeft(String reason) {
        return new BadRecord(reason + "; fence-repair make-valid leaves nothing with an area");
    }

    /** Why the geometry is never repaired, or null when it may be. */
    static String notRepaired(double[][][] polygons, int maxVertices) {
        long vertices = 0;
        for (int p = 0; p < polygons.length; p++) {
            for (int r = 0; r < polygons[p].length; r++) {
                double[] ring = polygons[p][r];
                String where = "ring " + r + " of polygon " + p;
                int n = ring.length / 2;
                if (n == 0) {
                    return "an empty ring (" + where + ")";
                }
                for (int i = 0; i < n; i++) {
                    if (!(ring[2 * i] >= -180 && ring[2 * i] <= 180)
                            || !(ring[2 * i + 1] >= -90 && ring[2 * i + 1] <= 90)) {
                        return "a position out of range (" + where + ", position " + i + ")";
                    }
                }
                if (ring[0] != ring[2 * n - 2] || ring[1] != ring[2 * n - 1]) {
                    return "an unclosed ring (" + where + ")";
                }
                for (int i = 1; i < n; i++) {
                    if (Math.abs(ring[2 * i] - ring[2 * i - 2]) > 180) {
                        return "a longitude step over 180 ("
                                + where
                                + ", positions "
                                + (i - 1)
                                + " and "
                                + i
                                + "): split it at 180 into a MultiPolygon (RFC 7946 3.1.9)";
                    }
                }
                vertices += n - 1;
            }
        }
        if (vertices > maxVertices) {
            return "a fence of more than max-vertices (" + maxVertices + ") vertices";
        }
        return null;
    }

    /**
     * The polygons in JTS, without rings of fewer than 4 positions (nor polygons without shell).
     */
    private static MultiPolygon jts(double[][][] polygons) {
        List<org.locationtech.jts.geom.Polygon> out = new ArrayList<>();
        for (double[][] rings : polygons) {
            if (rings[0].length < 8) {
                continue;
            }
            List<LinearRing> holes = new ArrayList<>();
            for (int r = 1; r < rings.length; r++) {
                if (rings[r].length >= 8) {
                    holes.add(JTS.createLinearRing(coordinates(rings[r])));
                }
            }
            out.add(
                    JTS.createPolygon(
                            JTS.createLinearRing(coordinates(rings[0])),
                            holes.toArray(new LinearRing[0])));
        }
        return JTS.createMultiPolygon(out.toArray(new org.locationtech.jts.geom.Polygon[0]));
    }

    private static Coordinate[] coordinates(double[] ring) {
        Coordinate[] c = new Coordinate[ring.length / 2];
        for (int i = 0; i < c.length; i++) {
            c[i] = new Coordinate(ring[2 * i], ring[2 * i + 1]);
        }
        return c;
    }

    /** The polygons with an area in {@code g} (a Polygon, MultiPolygon or collection). */
    static double[][][] polygonal(Geometry g) {
        List<double[][]> out = new ArrayList<>();
        collect(g, out);
        return out.toArray(new double[0][][]);
    }

    private static void collect(Geometry g, List<double[][]> out) {
        if (g instanceof org.locationtech.jts.geom.Polygon p) {
            if (!p.isEmpty() && p.getArea() > 0) {
                double[][] rings = new double[1 + p.getNumInteriorRing()][];
                rings[0] = flat(p.getExteriorRing().getCoordinates());
                for (int h = 0; h < p.getNumInteriorRing(); h++) {
                    rings[h + 1] = flat(p.getInteriorRingN(h).getCoordinates());
                }
                out.add(rings);
            }
        } else {
            // MultiPolygon and GeometryCollection; the parts of other types have no area.
            for (int i = 0; i < g.getNumGeometries(); i++) {
                Geometry part = g.getGeometryN(i);
                if (part != g) {
                    collect(part, out);
                }
            }
        }
    }

    private static double[] flat(Coordinate[] ring) {
        double[] flat = new double[2 * ring.length];
        for (int i = 0; i < ring.length; i++) {
            flat[2 * i] = ring[i].getX();
            flat[2 * i + 1] = ring[i].getY();
        }
        return flat;
    }

    /**
     * Whether the rings cross or touch one another (or themselves, past the shared vertex of
     * consecutive edges) more than {@code limit} times; stops counting there, so that the count
     * costs O((n + limit) log n) for n vertices.
     */
    static boolean crossingsOver(MultiPolygon g, long limit) {
        List<SegmentString> rings = new ArrayList<>();
        for (int i = 0; i < g.getNumGeometries(); i++) {
            org.locationtech.jts.geom.Polygon p =
                    (org.locationtech.jts.geom.Polygon) g.getGeometryN(i);
            addRing(p.getExteriorRing(), rings);
            for (int h = 0; h < p.getNumInteriorRing(); h++) {
                addRing(p.getInteriorRingN(h), rings);
            }
        }
        Counter counter = new Counter(limit);
        new MCIndexNoder(counter).computeNodes(rings);
        return counter.isDone();
    }

    private static void addRing(LinearRing ring, List<SegmentString> rings) {
        Coordinate[] c = CoordinateArrays.removeRepeatedPoints(ring.getCoordinates());
        if (c.length >= 2) {
            rings.add(new BasicSegmentString(c, null));
        }
    }

    /** Counts the intersections of segments, but for consecutive ones at their shared vertex. */
    private static final class Counter implements SegmentIntersector {

        private final LineIntersector li = new RobustLineIntersector();
        private final long limit;
        private long count;

        Counter(long limit) {
            this.limit = limit;
        }

        @Override
        public void processIntersections(SegmentString a, int i, SegmentString b, int j) {
            if (a == b && i == j) {
                return;
            }
            li.computeIntersection(
                    a.getCoordinate(i),
                    a.getCoordinate(i + 1),
                    b.getCoordinate(j),
                    b.getCoordinate(j + 1));
            if (!li.hasIntersection()) {
                return;
            }
            if (a == b && li.getIntersectionNum() == 1 && consecutive(i, j, a.size() - 1)) {
                return;
            }
            count++;
        }

        // Edges i and j of a closed ring of n edges.
        private static boolean consecutive(int i, int j, int n) {
            int d = Math.abs(i - j);
            return d == 1 || d == n - 1;
        }

        @Override
        public boolean isDone() {
            return count > limit;
        }
    }
}
