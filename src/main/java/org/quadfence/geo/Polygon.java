package org.quadfence.geo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A polygon fence: polygons (a GeoJSON Polygon or MultiPolygon, RFC 7946), each an exterior ring
 * and any number of holes, with edges straight in the lon/lat plane, valid under the OGC rules as
 * JTS {@code IsValidOp} applies them there (see {@link RingSweep}): rings may touch one another at
 * single points (a hole its exterior ring or another hole, polygons one another), never cross or
 * overlap. Closed: a point on an edge or a vertex, a hole's included, is inside. A MultiPolygon is
 * the union of its polygons; an empty one (no polygons) contains no point. Longitude 180 and -180
 * are the same meridian: a fence that crosses the antimeridian arrives split there into a
 * MultiPolygon, and a point at lon -180 is inside when the same point at lon 180 is.
 *
 * <p>{@link #contains} is exact on the doubles given (see {@link PolygonPiece}); it finds the cell
 * of an internal grid, built on the first call, descends that cell's small quadtree to a leaf that
 * meets a few edges and tests those, so it costs a few dozen comparisons whatever the vertex count
 * (more only where edges lie so close together that the trees' budget stops them apart, see {@link
 * PolygonTree}). {@link #cut} hands out the same per-cell pieces for the tiles of the job. Memory
 * and work grow with the vertices, and for a cut with the cells the edges pass through, never with
 * how close edges lie. Instances are immutable and thread-safe. To send one through Flink, send its
 * {@link #coordinates()} and rebuild it with {@link #fromCoordinates}.
 */
public final class Polygon implements Shape {

    /** The vertex limit of {@link #of(double[][][])}. */
    public static final int DEFAULT_MAX_VERTICES = 100_000;

    /** Receives the cells of a {@link #cut}. */
    @FunctionalInterface
    public interface CellSink {
        /**
         * One cell the polygon has something in.
         *
         * @param piece null when the polygon covers the whole closed cell
         */
        void accept(int column, int row, PolygonPiece piece);
    }

    private final double[][][] coordinates;
    private final int vertexCount;
    // Edges x1, y1, x2, y2, polygon by polygon, without zero-length edges.
    private final double[] edges;
    private final int[] groupEnds;
    // The boundary at lon 180, copied to lon -180.
    private final double[] seams;
    private final List<Box> bounds;
    // Built on the first contains: a job only cuts.
    private volatile PolygonLookup[] lookups;

    private Polygon(double[][][] coordinates) {
        this.coordinates = coordinates;
        int vertices = 0;
        List<double[]> groups = new ArrayList<>();
        for (double[][] rings : coordinates) {
            groups.add(edgesOf(rings));
            for (double[] ring : rings) {
                vertices += ring.length / 2 - 1;
            }
        }
        this.vertexCount = vertices;
        this.bounds = boundsOf(groups);
        this.edges = concat(groups);
        this.groupEnds = ends(groups);
        this.seams = seamsOf(edges);
    }

    /**
     * A validated polygon fence.
     *
     * @param polygons per polygon, its rings: the exterior ring first, then the holes; each ring
     *     its positions as lon, lat pairs in one flat array, closed (the last position repeats the
     *     first). The arrays are copied.
     * @param maxVertices the most vertices the fence may have, counting each ring's positions
     *     except the closing one
     * @throws IllegalArgumentException with a sentence a person can act on, naming the polygon,
     *     ring and position, when a polygon has no rings, a ring has fewer than 4 positions, the
     *     fence too many vertices, a coordinate is out of range or not finite, a ring is not
     *     closed, has a longitude step over 180 (it crosses the antimeridian and must be split at
     *     180 into a MultiPolygon) or fewer than 3 distinct positions; or, starting "invalid
     *     polygon (OGC): ", when the polygons are not valid under the OGC rules as JTS {@code
     *     IsValidOp} applies them (see {@link RingSweep}): JTS's name of the rule, the first place
     *     it fails and what to do. No polygons at all is valid: a fence that contains no point.
     *     Cost: O(n log n) for n vertices
     */
    public static Polygon of(double[][][] polygons, int maxVertices) {
        PolygonValidation.check(polygons, maxVertices);
        return new Polygon(copy(polygons));
    }

    /** {@link #of(double[][][], int)} with {@link #DEFAULT_MAX_VERTICES}. */
    public static Polygon of(double[][][] polygons) {
        return of(polygons, DEFAULT_MAX_VERTICES);
    }

    /**
     * The polygon whose {@link #coordinates()} these are, rebuilt without checking them again (the
     * check costs O(n log n) for n vertices) and without a vertex limit: for a polygon sent through
     * Flink or kept in state. The arrays are copied. Precondition: they came from {@link
     * #coordinates()}; for any others the polygon's answers mean nothing.
     */
    public static Polygon fromCoordinates(double[][][] coordinates) {
        return new Polygon(copy(coordinates));
    }

    /** A copy of the coordinates, as given to {@link #of}. */
    public double[][][] coordinates() {
        return copy(coordinates);
    }

    private static double[][][] copy(double[][][] polygons) {
        double[][][] copy = new double[polygons.length][][];
        for (int p = 0; p < copy.length; p++) {
            copy[p] = new double[polygons[p].length][];
            for (int r = 0; r < copy[p].length; r++) {
                copy[p][r] = polygons[p][r].clone();
            }
        }
        return copy;
    }

    /** The number of polygons: 1 for a GeoJSON Polygon, 0 for an empty MultiPolygon. */
    public int polygonCount() {
        return coordinates.length;
    }

    /** The number of vertices: each ring's positions except the closing one. */
    public int vertexCount() {
        return vertexCount;
    }

    /** The edges, x1, y1, x2, y2 each, polygon by polygon; shared, so read-only. */
    double[] edges() {
        return edges;
    }

    /**
     * True when the point lies in the closed fence. Exact. Precondition: -180 <= lon <= 180, -90 <=
     * lat <= 90.
     */
    @Override
    public boolean contains(double lon, double lat) {
        if (planarContains(lon, lat)) {
            return true;
        }
        if (lon == 180) {
            return planarContains(-180, lat);
        }
        return lon == -180 && planarContains(180, lat);
    }

    private boolean planarContains(double x, double y) {
        for (PolygonLookup lookup : lookups()) {
            if (lookup.contains(x, y)) {
                return true;
            }
        }
        return false;
    }

    // Two threads may both build them; either result is the same.
    private PolygonLookup[] lookups() {
        PolygonLookup[] built = lookups;
        if (built == null) {
            built = new PolygonLookup[bounds.size()];
            for (int k = 0; k < built.length; k++) {
                Box box = bounds.get(k);
                List<double[]> part = new ArrayList<>();
                for (int g = 0; g < groupEnds.length; g++) {
                    double[] group =
                            Arrays.copyOfRange(edges, g == 0 ? 0 : groupEnds[g - 1], groupEnds[g]);
                    if (box.covers(boxOf(group))) {
                        part.add(group);
                    }
                }
                built[k] = new PolygonLookup(box, concat(part), ends(part));
            }
            lookups = built;
        }
        return built;
    }

    /** The edge references and nodes of the pieces of the lookup {@link #contains} uses. */
    long lookupSize() {
        long size = 0;
        for (PolygonLookup lookup : lookups()) {
            size += lookup.size();
        }
        return size;
    }

    /**
     * The bounding box, or two when the fence has polygons at both lon -180 and lon 180 with a gap
     * between (a fence split at the antimeridian): the one at -180 first, each the box of its
     * polygons; none for a fence with no polygons.
     */
    @Override
    public List<Box> bounds() {
        return bounds;
    }

    /**
     * 0 when the fence contains the point, else the smallest distance to any of its edges by the
     * rule of {@link Earth}: the haversine distance to the edge point nearest in the point's local
     * equirectangular plane, the shortest way round; infinite for a fence with no polygons.
     */
    @Override
    public double distanceMeters(double lon, double lat) {
        if (contains(lon, lat)) {
            return 0;
        }
        return distanceToEdges(edges, 0, edges.length, Earth.eastLon(lon), lat);
    }

    /**
     * For a point inside, the smallest distance to an edge by the rule of {@link Earth}, edges
     * along lon 180 or -180 left out (the halves of a fence split at the antimeridian meet there);
     * 0 outside.
     */
    @Override
    public double boundaryMeters(double lon, double lat) {
        if (!contains(lon, lat)) {
            return 0;
        }
        return boundaryToEdges(edges, 0, edges.length, Earth.eastLon(lon), lat);
    }

    /** {@link #distanceToEdges} without the edges that lie along lon 180 or -180. */
    static double boundaryToEdges(double[] edges, int from, int to, double lon, double lat) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = from; i < to; i += 4) {
            double ax = edges[i];
            if (ax == edges[i + 2] && (ax == 180 || ax == -180)) {
                continue;
            }
            best = Math.min(best, distanceToEdges(edges, i, i + 4, lon, lat));
        }
        return best;
    }

    // The smallest edge distance over edges[from, to); an edge whose latitude alone puts it
    // farther than the best so far is skipped (the haversine distance is at least R * dLat).
    static double distanceToEdges(double[] edges, int from, int to, double lon, double lat) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = from; i < to; i += 4) {
            double ay = edges[i + 1];
            double by = edges[i + 3];
            double dLat = Math.max(0, Math.max(Math.min(ay, by) - lat, lat - Math.max(ay, by)));
            if (Math.toRadians(dLat) * Earth.RADIUS_METERS * (1 - 1e-9) > best) {
                continue;
            }
            best = Math.min(best, Earth.toEdgeMeters(lon, lat, edges[i], ay, edges[i + 2], by));
        }
        return best;
    }

    /**
     * Cuts the fence to the cells of a grid: every cell that the fence meets (boundaries included)
     * or, with a margin, that has a point within {@code marginMeters} of it, gets {@code
     * sink.accept}, rows from north to south and west to east within a row: null when every point
     * of the closed cell is in the fence, otherwise a piece that answers {@link
     * PolygonPiece#contains} exactly like the fence for every point of the closed cell and {@link
     * PolygonPiece#distanceMeters} like the fence whenever that is within the margin. Cells the
     * fence's bounding box touches but the fence does not get nothing.
     *
     * <p>Cost: proportional to the cells the fence's edges pass through (times a log), plus one
     * step per covered cell; with a margin, each edge also visits the cells within the margin.
     *
     * @param fold also cut for points at lon 180, which are looked up at lon -180 (in column 0):
     *     column-0 cells get the fence's boundary at lon 180 as seams
     * @throws IllegalArgumentException when the margin is negative or not finite
     */
    public void cut(CellGrid grid, double marginMeters, boolean fold, CellSink sink) {
        cut(grid, marginMeters, fold, false, sink);
    }

    /**
     * {@link #cut(CellGrid, double, boolean, CellSink)}, whose pieces also answer {@link
     * PolygonPiece#boundaryMeters} like the fence whenever that is within the margin when {@code
     * boundaries}: a cell the fence covers gets null only when no edge comes within the margin of
     * it, and otherwise a piece that covers it.
     */
    public void cut(
            CellGrid grid, double marginMeters, boolean fold, boolean boundaries, CellSink sink) {
        if (!(marginMeters >= 0 && marginMeters < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("distance must be finite and >= 0: " + marginMeters);
        }
        if (bounds.isEmpty()) {
            return;
        }
        List<Box> reach = new ArrayList<>(marginMeters == 0 ? bounds : boundsWithin(marginMeters));
        if (fold) {
            for (Box b : List.copyOf(reach)) {
                if (b.maxX() == 180) {
                    reach.add(new Box(-180, b.minY(), -180, b.maxY()));
                }
            }
        }
        PolygonCutter.cut(
                edges,
                groupEnds,
                fold ? seams : new double[0],
                reach,
                grid,
                marginMeters,
                boundaries,
                sink);
    }

    // The edges of one polygon, all rings, without zero-length edges.
    private static double[] edgesOf(double[][] rings) {
        int n = 0;
        for (double[] ring : rings) {
            n += ring.length / 2 - 1;
        }
        double[] out = new double[4 * n];
        int k = 0;
        for (double[] ring : rings) {
            for (int i = 0; i + 3 < ring.length; i += 2) {
                if (ring[i] != ring[i + 2] || ring[i + 1] != ring[i + 3]) {
                    System.arraycopy(ring, i, out, k, 4);
                    k += 4;
                }
            }
        }
        return Arrays.copyOf(out, k);
    }

    private static double[] seamsOf(double[] edges) {
        double[] out = new double[edges.length];
        int k = 0;
        for (int i = 0; i < edges.length; i += 4) {
            if (edges[i] == 180) {
                boolean along = edges[i + 2] == 180;
                out[k] = -180;
                out[k + 1] = edges[i + 1];
                out[k + 2] = -180;
                out[k + 3] = along ? edges[i + 3] : edges[i + 1];
                k += 4;
            }
        }
        return Arrays.copyOf(out, k);
    }

    // One box, or two when the polygons reach both -180 and 180 and leave a gap between: then the
    // widest gap between the polygons' longitude spans separates the two.
    private static List<Box> boundsOf(List<double[]> groups) {
        if (groups.isEmpty()) {
            return List.of();
        }
        List<Box> boxes = new ArrayList<>();
        for (double[] g : groups) {
            boxes.add(boxOf(g));
        }
        Box all = hull(boxes);
        boxes.sort(Comparator.comparingDouble(Box::minX));
        double gapWest = 0;
        double gapEast = 0;
        double reach = boxes.get(0).maxX();
        for (Box b : boxes) {
            if (b.minX() > reach && b.minX() - reach > gapEast - gapWest) {
                gapWest = reach;
                gapEast = b.minX();
            }
            reach = Math.max(reach, b.maxX());
        }
        if (all.minX() != -180 || all.maxX() != 180 || gapEast <= gapWest) {
            return List.of(all);
        }
        List<Box> west = new ArrayList<>();
        List<Box> east = new ArrayList<>();
        for (Box b : boxes) {
            (b.maxX() <= gapWest ? west : east).add(b);
        }
        return List.of(hull(west), hull(east));
    }

    private static Box boxOf(double[] edges) {
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < edges.length; i += 2) {
            minX = Math.min(minX, edges[i]);
            maxX = Math.max(maxX, edges[i]);
            minY = Math.min(minY, edges[i + 1]);
            maxY = Math.max(maxY, edges[i + 1]);
        }
        return new Box(minX, minY, maxX, maxY);
    }

    private static Box hull(List<Box> boxes) {
        Box h = boxes.get(0);
        for (Box b : boxes) {
            h =
                    new Box(
                            Math.min(h.minX(), b.minX()),
                            Math.min(h.minY(), b.minY()),
                            Math.max(h.maxX(), b.maxX()),
                            Math.max(h.maxY(), b.maxY()));
        }
        return h;
    }

    private static double[] concat(List<double[]> groups) {
        int n = 0;
        for (double[] g : groups) {
            n += g.length;
        }
        double[] out = new double[n];
        int k = 0;
        for (double[] g : groups) {
            System.arraycopy(g, 0, out, k, g.length);
            k += g.length;
        }
        return out;
    }

    private static int[] ends(List<double[]> groups) {
        int[] out = new int[groups.size()];
        int k = 0;
        for (int g = 0; g < out.length; g++) {
            k += groups.get(g).length;
            out[g] = k;
        }
        return out;
    }

    /** Equal when the coordinates are equal, polygon by polygon and ring by ring. */
    @Override
    public boolean equals(Object o) {
        return o instanceof Polygon p && Arrays.deepEquals(coordinates, p.coordinates);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(coordinates);
    }

    @Override
    public String toString() {
        return "Polygon["
                + coordinates.length
                + " polygons, "
                + vertexCount
                + " vertices, bounds "
                + bounds
                + "]";
    }
}
