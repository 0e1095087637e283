package org.quadfence.geo;

import java.util.Arrays;

/**
 * A polygon fence in one cell ({@link ShapePiece}): the fence's own edges that meet the closed
 * cell, with their exact coordinates, and one precomputed bit per polygon. It answers {@link
 * #contains} exactly like the whole fence for every point of the closed cell, and its size grows
 * with the edges that meet the cell, not with the fence's vertex count.
 *
 * <p><b>Why it is exact.</b> Nothing is clipped: clipping makes new vertices by rounding and moves
 * the boundary. Instead, a point P of the cell is decided by a path from P to a reference point R
 * near the cell's north-east corner (east, north), whose status was found exactly when the cell was
 * cut. To keep vertices off the path, both are nudged by infinitesimals 0 < epsilon << eta
 * (symbolic perturbation): P' = P + (eta, epsilon) and R = (east + eta, north + epsilon). P' is
 * inside exactly when P is, unless P lies on the boundary, which is tested first and counts as
 * inside (closed semantics). The path runs east from P' at height P.y + epsilon to the line x =
 * east + eta, then north along it to R; it stays within an infinitesimal distance of the closed
 * cell, so every edge it can cross is kept here. Each crossing flips inside/outside; {@link
 * Segments} decides each one with comparisons and exact orientation tests on the original
 * coordinates, the perturbation resolving the ties (a vertex at the path's height counts as below
 * it). So P is inside a polygon exactly when the reference bit of that polygon, flipped once per
 * crossing, says so.
 *
 * <p>Cells are cut one row at a time from east to west (see {@link Polygon#cut}): the reference of
 * the cell east of the polygon's bounding box is outside, and the reference of each next cell west
 * follows from the previous one by the crossings on the stretch of the line y = north + epsilon
 * between them, whose edges meet the cell between. Cells that no edge meets are wholly inside or
 * wholly outside, by their reference bit.
 *
 * <p><b>Quadtree.</b> A cell that many edges meet is split into quarters, recursively, until each
 * leaf meets at most a few edges or the tree's budget of 4 edge references and 4 nodes per edge is
 * spent ({@link PolygonTree}); each leaf has its own reference point, its north-east corner, whose
 * bits follow exactly from the parent's. A lookup descends by comparing with the quarters'
 * midlines, computed the same way when cutting and when testing, and then tests the few edges of
 * one leaf; it allocates nothing.
 *
 * <p><b>Layout</b>, flat (primitives and primitive arrays only): {@code nodes} holds two ints per
 * node, node 0 the root (the box west, south, east, north): a negative first int -c-1 makes an
 * inner node whose quarters are nodes c to c+3 (south-west, south-east, north-west, north-east);
 * otherwise the two ints are the leaf's range of slots. A slot is one polygon in one leaf: its
 * reference bit {@code slotInside[s]} and its edges, x1, y1, x2, y2 each, in {@code edges} from
 * {@code slotEnds[s-1]} (0 for the first slot) to {@code slotEnds[s]}. A leaf's point is inside
 * when it lies on an edge of the leaf or inside any one of its polygons (the polygons of a
 * MultiPolygon may overlap); a covered leaf is one slot with no edges and its bit set. {@code near}
 * holds the edges that only matter for a distance (they come within the cut's margin of the cell
 * without meeting it), and {@code seams} the fence's boundary at lon 180 copied to lon -180: a
 * point given at -180 is also the point at 180. The arrays are shared, not copied: treat them as
 * read-only.
 */
public final class PolygonPiece implements ShapePiece {

    private final double minX;
    private final double minY;
    private final double maxX;
    private final double maxY;
    private final double west;
    private final double south;
    private final double east;
    private final double north;
    private final int[] nodes;
    private final int[] slotEnds;
    private final boolean[] slotInside;
    private final double[] edges;
    private final double[] near;
    private final double[] seams;
    // What a serializer made of this piece, kept because the piece never changes and a heap
    // checkpoint writes every piece again each time; whichever thread writes it first sets it.
    private volatile byte[] serialized;

    /**
     * A piece of the given fields, which it keeps: treat the arrays as read-only.
     *
     * @param minX the west edge of {@link #bounds()}
     * @param minY the south edge of {@link #bounds()}
     * @param maxX the east edge of {@link #bounds()}
     * @param maxY the north edge of {@link #bounds()}
     * @param west the west edge of the cell (the tree's root box)
     * @param south the south edge of the cell
     * @param east the east edge of the cell
     * @param north the north edge of the cell
     * @param nodes the quadtree, two ints per node
     * @param slotEnds per slot, where its edges end in {@code edges}
     * @param slotInside per slot, whether its leaf's reference point is inside its polygon
     * @param edges the slots' edges, four doubles each
     * @param near edges for distances only, four doubles each
     * @param seams segments on lon -180 that are boundary, four doubles each
     */
    public PolygonPiece(
            double minX,
            double minY,
            double maxX,
            double maxY,
            double west,
            double south,
            double east,
            double north,
            int[] nodes,
            int[] slotEnds,
            boolean[] slotInside,
            double[] edges,
            double[] near,
            double[] seams) {
        this.minX = minX;
        this.minY = minY;
        this.maxX = maxX;
        this.maxY = maxY;
        this.west = west;
        this.south = south;
        this.east = east;
        this.north = north;
        this.nodes = nodes;
        this.slotEnds = slotEnds;
        this.slotInside = slotInside;
        this.edges = edges;
        this.near = near;
        this.seams = seams;
    }

    public double minX() {
        return minX;
    }

    public double minY() {
        return minY;
    }

    public double maxX() {
        return maxX;
    }

    public double maxY() {
        return maxY;
    }

    public double west() {
        return west;
    }

    public double south() {
        return south;
    }

    public double east() {
        return east;
    }

    public double north() {
        return north;
    }

    public int[] nodes() {
        return nodes;
    }

    public int[] slotEnds() {
        return slotEnds;
    }

    public boolean[] slotInside() {
        return slotInside;
    }

    public double[] edges() {
        return edges;
    }

    public double[] near() {
        return near;
    }

    public double[] seams() {
        return seams;
    }

    /**
     * The bytes a serializer kept with {@link #keepSerialized}, or null. The piece never changes,
     * so they stay valid; they are the serializer's to interpret.
     */
    public byte[] serialized() {
        return serialized;
    }

    /** Keeps {@code bytes}, what a serializer wrote for this piece, to be written again as is. */
    public void keepSerialized(byte[] bytes) {
        serialized = bytes;
    }

    /** Stands for a cell wholly inside the polygon in maps of pieces by cell; never tested. */
    static final PolygonPiece COVERED =
            new PolygonPiece(
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    new int[2],
                    new int[0],
                    new boolean[0],
                    new double[0],
                    new double[0],
                    new double[0]);

    @Override
    public Box bounds() {
        return new Box(minX, minY, maxX, maxY);
    }

    /**
     * True when the fence contains the point (closed: edges and vertices count). Exact for every
     * point of the cell the piece was cut for, with lon 180 given as -180.
     */
    @Override
    public boolean contains(double foldedLon, double lat) {
        double x = foldedLon;
        double y = lat;
        double x0 = west;
        double y0 = south;
        double x1 = east;
        double y1 = north;
        int[] t = nodes;
        int k = 0;
        for (int c = t[0]; c < 0; c = t[2 * k]) {
            k = -c - 1;
            double mx = (x0 + x1) * 0.5;
            double my = (y0 + y1) * 0.5;
            if (x < mx) {
                x1 = mx;
            } else {
                x0 = mx;
                k += 1;
            }
            if (y < my) {
                y1 = my;
            } else {
                y0 = my;
                k += 2;
            }
        }
        double[] e = edges;
        int s = t[2 * k];
        int i = s == 0 ? 0 : slotEnds[s - 1];
        for (int end = t[2 * k + 1]; s < end; s++) {
            boolean inside = slotInside[s];
            for (int stop = slotEnds[s]; i < stop; i += 4) {
                double ax = e[i];
                double ay = e[i + 1];
                double bx = e[i + 2];
                double by = e[i + 3];
                if (Segments.covers(ax, ay, bx, by, x, y)) {
                    return true;
                }
                if (Segments.crossesEast(ax, ay, bx, by, x, y, x1)) {
                    inside = !inside;
                }
                if (Segments.crossesNorth(ax, ay, bx, by, y, x1, y1)) {
                    inside = !inside;
                }
            }
            if (inside) {
                return true;
            }
        }
        for (int j = 0; j < seams.length; j += 4) {
            if (Segments.covers(seams[j], seams[j + 1], seams[j + 2], seams[j + 3], x, y)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The fraction of the first point where the leg meets a kept edge in a leaf whose closed box
     * the leg meets, a covered leaf's box, or a seam; NaN when there is none. Each boundary point
     * of the fence in the cell lies on an edge kept in a leaf whose box holds it, or in a covered
     * leaf's box, so the first one on the leg is found; any answer is a point of the fence,
     * possibly outside the cell ({@link PathCrossing}).
     */
    double firstOnEdges(PathLeg leg) {
        double best = firstOnEdges(leg, 0, west, south, east, north);
        for (int j = 0; j < seams.length; j += 4) {
            best =
                    PathCrossing.min(
                            best,
                            leg.firstOnSegment(seams[j], seams[j + 1], seams[j + 2], seams[j + 3]));
        }
        return best;
    }

    // The quarters' boxes as contains() finds them; depth at most PolygonTree.MAX_DEPTH.
    private double firstOnEdges(PathLeg leg, int k, double x0, double y0, double x1, double y1) {
        if (!leg.meetsBox(x0, y0, x1, y1)) {
            return Double.NaN;
        }
        int c = nodes[2 * k];
        if (c < 0) {
            int q = -c - 1;
            double mx = (x0 + x1) * 0.5;
            double my = (y0 + y1) * 0.5;
            double best = firstOnEdges(leg, q, x0, y0, mx, my);
            best = PathCrossing.min(best, firstOnEdges(leg, q + 1, mx, y0, x1, my));
            best = PathCrossing.min(best, firstOnEdges(leg, q + 2, x0, my, mx, y1));
            return PathCrossing.min(best, firstOnEdges(leg, q + 3, mx, my, x1, y1));
        }
        int end = nodes[2 * k + 1];
        if (c == end) {
            return Double.NaN;
        }
        int from = c == 0 ? 0 : slotEnds[c - 1];
        if (end == c + 1 && slotEnds[c] == from && slotInside[c]) {
            // A covered leaf keeps no edges, not even those along its sides: its box is inside.
            return leg.firstInBox(x0, y0, x1, y1);
        }
        double best = Double.NaN;
        for (int i = from; i < slotEnds[end - 1]; i += 4) {
            best =
                    PathCrossing.min(
                            best,
                            leg.firstOnSegment(edges[i], edges[i + 1], edges[i + 2], edges[i + 3]));
        }
        return best;
    }

    /**
     * 0 when the fence contains the point, else the smallest {@link Earth} edge distance over the
     * kept edges: the fence's distance whenever that is within the margin the piece was cut for.
     */
    @Override
    public double distanceMeters(double foldedLon, double lat) {
        if (contains(foldedLon, lat)) {
            return 0;
        }
        double lon = Earth.eastLon(foldedLon);
        return Math.min(
                Polygon.distanceToEdges(edges, 0, edges.length, lon, lat),
                Polygon.distanceToEdges(near, 0, near.length, lon, lat));
    }

    /**
     * For a point the fence contains, the smallest {@link Earth} edge distance over the kept edges
     * (edges along lon 180 or -180 left out, as {@link Polygon#boundaryMeters} does): the fence's
     * whenever that is within the margin the piece was cut for; 0 outside.
     */
    @Override
    public double boundaryMeters(double foldedLon, double lat) {
        if (!contains(foldedLon, lat)) {
            return 0;
        }
        double lon = Earth.eastLon(foldedLon);
        return Math.min(
                Polygon.boundaryToEdges(edges, 0, edges.length, lon, lat),
                Polygon.boundaryToEdges(near, 0, near.length, lon, lat));
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) {
            return true;
        }
        return o instanceof PolygonPiece p
                && Arrays.equals(
                        new double[] {minX, minY, maxX, maxY, west, south, east, north},
                        new double[] {
                            p.minX, p.minY, p.maxX, p.maxY, p.west, p.south, p.east, p.north
                        })
                && Arrays.equals(nodes, p.nodes)
                && Arrays.equals(slotEnds, p.slotEnds)
                && Arrays.equals(slotInside, p.slotInside)
                && Arrays.equals(edges, p.edges)
                && Arrays.equals(near, p.near)
                && Arrays.equals(seams, p.seams);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(edges) + Arrays.hashCode(nodes) + Double.hashCode(west);
    }

    @Override
    public String toString() {
        return "PolygonPiece[bounds "
                + bounds()
                + ", cell ["
                + west
                + ", "
                + south
                + ", "
                + east
                + ", "
                + north
                + "], "
                + nodes.length / 2
                + " nodes, "
                + edges.length / 4
                + " edges, "
                + near.length / 4
                + " near, "
                + seams.length / 4
                + " seams]";
    }
}
