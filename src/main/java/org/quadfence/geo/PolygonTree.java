package org.quadfence.geo;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;

/**
 * Builds the flattened quadtree of a {@link PolygonPiece}: a box is split into quarters until each
 * leaf meets at most {@value #LEAF_EDGES} edges, the depth limit is reached, or the budget is
 * spent; each leaf keeps, per polygon that meets it, that polygon's edges meeting the leaf's closed
 * box and the reference bit at the leaf's north-east corner. A quarter that no edge of some polygon
 * meets while its reference is inside that polygon is a covered leaf, and one that no edge meets at
 * all is an empty leaf.
 *
 * <p><b>Budget.</b> A tree built from e edges keeps at most {@value #REFS_PER_EDGE} e + {@value
 * #SPARE} edge references (an edge kept in two leaves counts twice) and at most {@value
 * #NODES_PER_EDGE} e + {@value #SPARE} nodes, whatever the edges look like: edges 1e-9 degree apart
 * would otherwise be split apart down to the depth limit, doubling their copies at every level.
 * Nodes are split level by level (breadth first), so the budget goes to the coarse levels
 * everywhere before any fine level; a node the budget cannot split stays a leaf with all its edges.
 * Lookups stay exact, as they test every edge of a leaf, only slower in such a leaf. Building costs
 * O(e) per level, so O(e) in all. Country borders of 2,000 to 100,000 vertices cut to tile levels 5
 * to 16 keep at most 2.1 e references and 2.5 e nodes in any piece: the budget binds only where
 * edges crowd.
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
    static final int REFS_PER_EDGE = 4;
    static final int NODES_PER_EDGE = 4;
    static final int SPARE = 64;

    /**
     * A node still to be made a leaf or split: node k of the tree, its closed box, the edges
     * meeting it in runs of one polygon each and the reference bit of each run; no edges and a null
     * bit array for a covered quarter.
     */
    private record Part(
            int k,
            int depth,
            double x0,
            double y0,
            double x1,
            double y1,
            int[] idx,
            boolean[] inside) {

        boolean covered() {
            return inside == null;
        }
    }

    private final double[] coords;
    private final int[] groupOf;
    private final long maxRefs;
    private final long maxNodes;
    private long refs;
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
        this.maxRefs = (long) REFS_PER_EDGE * groupOf.length + SPARE;
        this.maxNodes = (long) NODES_PER_EDGE * groupOf.length + SPARE;
    }

    /**
     * The piece of a cell: the tree over the closed cell, with the piece's bounds, its
     * distance-only edges and its seams.
     *
     * @param coords x1, y1, x2, y2 per edge, every edge meeting the cell
     * @param groupEnds where each polygon's edges end in {@code coords}; no polygon without edges
     * @param inside per polygon, the reference bit at the cell's north-east corner
     */
    static PolygonPiece piece(
            Box bounds,
            Box cell,
            double[] coords,
            int[] groupEnds,
            boolean[] inside,
            double[] near,
            double[] seams) {
        PolygonTree t = new PolygonTree(coords, groupEnds);
        int[] all = new int[coords.length / 4];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        t.grow(
                new Part(
                        0,
                        0,
                        cell.minX(),
                        cell.minY(),
                        cell.maxX(),
                        cell.maxY(),
                        all,
                        inside.clone()));
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

    // Breadth first: a queue holds each level's nodes before the next level's.
    private void grow(Part root) {
        nodeInts = 2;
        refs = root.idx().length;
        Deque<Part> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty()) {
            Part p = queue.poll();
            Part[] quarters = split(p);
            if (quarters == null) {
                leaf(p);
                continue;
            }
            for (Part q : quarters) {
                if (q.covered()) {
                    leaf(q);
                } else {
                    queue.add(q);
                }
            }
        }
    }

    // The quarters of p with its split made, or null when p stays a leaf: it meets few edges, is
    // at the depth limit, too small to halve, or the budget cannot pay for its quarters.
    private Part[] split(Part p) {
        double mx = (p.x0() + p.x1()) * 0.5;
        double my = (p.y0() + p.y1()) * 0.5;
        int first = nodeInts / 2;
        if (p.idx().length <= LEAF_EDGES
                || p.depth() >= MAX_DEPTH
                || first + 4 > maxNodes
                || !(mx > p.x0() && mx < p.x1() && my > p.y0() && my < p.y1())) {
            return null;
        }
        boolean[][] bits = quarterBits(p, mx, my);
        Part[] quarters = {
            quarter(first, p, p.x0(), p.y0(), mx, my, bits[0]),
            quarter(first + 1, p, mx, p.y0(), p.x1(), my, bits[1]),
            quarter(first + 2, p, p.x0(), my, mx, p.y1(), bits[2]),
            quarter(first + 3, p, mx, my, p.x1(), p.y1(), p.inside())
        };
        long after = refs - p.idx().length;
        for (Part q : quarters) {
            after += q.idx().length;
        }
        if (after > maxRefs) {
            return null;
        }
        refs = after;
        if (nodeInts + 8 > nodes.length) {
            nodes = Arrays.copyOf(nodes, 2 * (nodeInts + 8));
        }
        nodeInts += 8;
        nodes[2 * p.k()] = -first - 1;
        return quarters;
    }

    // Reference bits at the quarters' north-east corners, south-west, south-east, north-west:
    // SE down the parent's east side, NW west along its north side, SW west from SE's corner.
    private boolean[][] quarterBits(Part p, double mx, double my) {
        int[] idx = p.idx();
        boolean[] se = p.inside().clone();
        boolean[] nw = p.inside().clone();
        boolean[] sw = p.inside().clone();
        for (int j = 0, run = -1; j < idx.length; j++) {
            run += j == 0 || groupOf[idx[j]] != groupOf[idx[j - 1]] ? 1 : 0;
            int i = 4 * idx[j];
            double ax = coords[i];
            double ay = coords[i + 1];
            double bx = coords[i + 2];
            double by = coords[i + 3];
            if (Segments.crossesNorth(ax, ay, bx, by, my, p.x1(), p.y1())) {
                se[run] = !se[run];
                sw[run] = !sw[run];
            }
            if (Segments.crossesEast(ax, ay, bx, by, mx, p.y1(), p.x1())) {
                nw[run] = !nw[run];
            }
            if (Segments.crossesEast(ax, ay, bx, by, mx, my, p.x1())) {
                sw[run] = !sw[run];
            }
        }
        return new boolean[][] {sw, se, nw};
    }

    // The parent's edges that meet this quarter, run by run; a run with no edge here whose bit is
    // set, or whose edges here stay out of the open box around an inside centre, covers it.
    private Part quarter(
            int k, Part parent, double x0, double y0, double x1, double y1, boolean[] inside) {
        int[] idx = parent.idx();
        int n = idx.length;
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
                return new Part(k, parent.depth() + 1, x0, y0, x1, y1, new int[0], null);
            }
            if (m > from) {
                bits[runs++] = inside[run];
            }
        }
        return new Part(
                k,
                parent.depth() + 1,
                x0,
                y0,
                x1,
                y1,
                Arrays.copyOf(mine, m),
                Arrays.copyOf(bits, runs));
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

    // A covered part becomes one slot with no edges and its bit set.
    private void leaf(Part p) {
        int k = p.k();
        nodes[2 * k] = slots;
        if (p.covered()) {
            addSlot(true);
        }
        int[] idx = p.idx();
        for (int j = 0, run = 0; j < idx.length; j++) {
            int e = idx[j];
            if (edgeDoubles + 4 > edges.length) {
                edges = Arrays.copyOf(edges, 2 * edges.length);
            }
            System.arraycopy(coords, 4 * e, edges, edgeDoubles, 4);
            edgeDoubles += 4;
            if (j == idx.length - 1 || groupOf[idx[j + 1]] != groupOf[e]) {
                addSlot(p.inside()[run++]);
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
