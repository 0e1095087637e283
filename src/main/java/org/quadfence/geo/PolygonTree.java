package org.quadfence.geo;

import java.util.Arrays;

/**
 * Builds the flattened quadtree of a {@link PolygonPiece}: a box is split into quarters until each
 * leaf meets at most {@value #LEAF_EDGES} edges (or the depth limit is reached); each leaf keeps,
 * per polygon that meets it, that polygon's edges meeting the leaf's closed box and the reference
 * bit at the leaf's north-east corner. A quarter that no edge of some polygon meets while its
 * reference is inside that polygon is a covered leaf, and one that no edge meets at all is an empty
 * leaf.
 *
 * <p>A child's reference bits follow from its parent's by the crossings of the path between their
 * north-east corners (see {@link Segments}): the north-east quarter shares the parent's corner; the
 * south-east one is reached down the parent's east side, the north-west one west along its north
 * side, the south-west one west from the south-east one's corner. Those paths lie in the parent's
 * closed box, so the parent's edges are all the edges they can cross. Exact, like everything else.
 */
final class PolygonTree {

    static final int LEAF_EDGES = 8;
    static final int MAX_DEPTH = 24;

    private final double[] coords;
    private final int[] groupOf;
    private int[] nodes = new int[8];
    private int nodeInts;
    private int[] slotEnds = new int[8];
    private boolean[] slotInside = new boolean[8];
    private int slots;
    private double[] edges = new double[32];
    private int edgeDoubles;

    private PolygonTree(double[] coords, int[] groupEnds) {
        this.coords = coords;
        this.groupOf = new int[coords.length / 4];
        for (int g = 0, i = 0; g < groupEnds.length; g++) {
            for (; i < groupEnds[g]; i += 4) {
                groupOf[i / 4] = g;
            }
        }
    }

    /**
     * The tree over the closed box, for edges given polygon by polygon with the reference bit of
     * each polygon at the box's north-east corner.
     *
     * @param coords x1, y1, x2, y2 per edge, every edge meeting the box
     * @param groupEnds where each polygon's edges end in {@code coords}; no polygon without edges
     * @param inside per polygon, the reference bit
     */
    private static PolygonTree build(
            double west,
            double south,
            double east,
            double north,
            double[] coords,
            int[] groupEnds,
            boolean[] inside) {
        PolygonTree tree = new PolygonTree(coords, groupEnds);
        int[] all = new int[coords.length / 4];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        tree.nodeInts = 2;
        tree.node(0, west, south, east, north, all, all.length, inside.clone(), 0);
        return tree;
    }

    /**
     * The piece of a cell: the tree over the cell built from {@link #build}'s arguments, with the
     * piece's bounds, its distance-only edges and its seams.
     */
    static PolygonPiece piece(
            Box bounds,
            Box cell,
            double[] coords,
            int[] groupEnds,
            boolean[] inside,
            double[] near,
            double[] seams) {
        PolygonTree t =
                build(
                        cell.minX(),
                        cell.minY(),
                        cell.maxX(),
                        cell.maxY(),
                        coords,
                        groupEnds,
                        inside);
        return new PolygonPiece(
                bounds.minX(),
                bounds.minY(),
                bounds.maxX(),
                bounds.maxY(),
                cell.minX(),
                cell.minY(),
                cell.maxX(),
                cell.maxY(),
                Arrays.copyOf(t.nodes, t.nodeInts),
                Arrays.copyOf(t.slotEnds, t.slots),
                Arrays.copyOf(t.slotInside, t.slots),
                Arrays.copyOf(t.edges, t.edgeDoubles),
                near,
                seams);
    }

    // idx[0, n) are the edges meeting this node's closed box, in order, so in runs of one polygon
    // each; inside holds the reference bit of each run.
    private void node(
            int k,
            double x0,
            double y0,
            double x1,
            double y1,
            int[] idx,
            int n,
            boolean[] inside,
            int depth) {
        double mx = (x0 + x1) * 0.5;
        double my = (y0 + y1) * 0.5;
        if (n <= LEAF_EDGES || depth >= MAX_DEPTH || !(mx > x0 && mx < x1 && my > y0 && my < y1)) {
            leaf(k, idx, n, inside);
            return;
        }
        int first = nodeInts / 2;
        if (nodeInts + 8 > nodes.length) {
            nodes = Arrays.copyOf(nodes, 2 * (nodeInts + 8));
        }
        nodeInts += 8;
        nodes[2 * k] = -first - 1;
        // Reference bits at the quarters' north-east corners: NE = parent, SE down the east side,
        // NW west along the north side, SW west from SE's corner.
        boolean[] se = inside.clone();
        boolean[] nw = inside.clone();
        boolean[] sw = inside.clone();
        for (int j = 0, run = -1; j < n; j++) {
            run += j == 0 || groupOf[idx[j]] != groupOf[idx[j - 1]] ? 1 : 0;
            int i = 4 * idx[j];
            double ax = coords[i];
            double ay = coords[i + 1];
            double bx = coords[i + 2];
            double by = coords[i + 3];
            if (Segments.crossesNorth(ax, ay, bx, by, my, x1, y1)) {
                se[run] = !se[run];
                sw[run] = !sw[run];
            }
            if (Segments.crossesEast(ax, ay, bx, by, mx, y1, x1)) {
                nw[run] = !nw[run];
            }
            if (Segments.crossesEast(ax, ay, bx, by, mx, my, x1)) {
                sw[run] = !sw[run];
            }
        }
        child(first, x0, y0, mx, my, idx, n, sw, depth);
        child(first + 1, mx, y0, x1, my, idx, n, se, depth);
        child(first + 2, x0, my, mx, y1, idx, n, nw, depth);
        child(first + 3, mx, my, x1, y1, idx, n, inside, depth);
    }

    // The parent's edges that meet this quarter, run by run; a run with no edge here whose bit is
    // set, or whose edges here stay out of the open box around an inside centre, covers it.
    private void child(
            int k,
            double x0,
            double y0,
            double x1,
            double y1,
            int[] idx,
            int n,
            boolean[] inside,
            int depth) {
        int[] mine = new int[n];
        boolean[] bits = new boolean[inside.length];
        int m = 0;
        int runs = 0;
        for (int j = 0, run = 0; j < n; run++) {
            int g = groupOf[idx[j]];
            int from = m;
            boolean enters = false;
            for (; j < n && groupOf[idx[j]] == g; j++) {
                int i = 4 * idx[j];
                double ax = coords[i];
                double ay = coords[i + 1];
                double bx = coords[i + 2];
                double by = coords[i + 3];
                if (Segments.touchesBox(ax, ay, bx, by, x0, y0, x1, y1)) {
                    mine[m++] = idx[j];
                    enters = enters || Segments.entersOpenBox(ax, ay, bx, by, x0, y0, x1, y1);
                }
            }
            boolean covered =
                    m == from
                            ? inside[run]
                            : !enters && centreInside(mine, from, m, inside[run], x0, y0, x1, y1);
            if (covered) {
                nodes[2 * k] = slots;
                addSlot(true);
                nodes[2 * k + 1] = slots;
                return;
            }
            if (m > from) {
                bits[runs++] = inside[run];
            }
        }
        node(k, x0, y0, x1, y1, mine, m, Arrays.copyOf(bits, runs), depth + 1);
    }

    // The bit of the box's centre for one polygon whose edges here (mine[from, to)) stay out of
    // the open box: then the whole closed box is inside exactly when the centre is.
    private boolean centreInside(
            int[] mine, int from, int to, boolean in, double x0, double y0, double x1, double y1) {
        double x = (x0 + x1) * 0.5;
        double y = (y0 + y1) * 0.5;
        if (!(x > x0 && x < x1 && y > y0 && y < y1)) {
            return false;
        }
        for (int j = from; j < to; j++) {
            int i = 4 * mine[j];
            double ax = coords[i];
            double ay = coords[i + 1];
            double bx = coords[i + 2];
            double by = coords[i + 3];
            if (Segments.crossesEast(ax, ay, bx, by, x, y, x1)) {
                in = !in;
            }
            if (Segments.crossesNorth(ax, ay, bx, by, y, x1, y1)) {
                in = !in;
            }
        }
        return in;
    }

    private void leaf(int k, int[] idx, int n, boolean[] inside) {
        nodes[2 * k] = slots;
        for (int j = 0, run = 0; j < n; j++) {
            int e = idx[j];
            if (edgeDoubles + 4 > edges.length) {
                edges = Arrays.copyOf(edges, 2 * edges.length);
            }
            System.arraycopy(coords, 4 * e, edges, edgeDoubles, 4);
            edgeDoubles += 4;
            if (j == n - 1 || groupOf[idx[j + 1]] != groupOf[e]) {
                addSlot(inside[run++]);
            }
        }
        nodes[2 * k + 1] = slots;
    }

    private void addSlot(boolean inside) {
        if (slots == slotEnds.length) {
            slotEnds = Arrays.copyOf(slotEnds, 2 * slots);
            slotInside = Arrays.copyOf(slotInside, 2 * slots);
        }
        slotEnds[slots] = edgeDoubles;
        slotInside[slots] = inside;
        slots++;
    }
}
