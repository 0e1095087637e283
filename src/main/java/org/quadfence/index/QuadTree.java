package org.quadfence.index;

import org.quadfence.geo.Box;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A region quadtree of items with closed bounding boxes, for finding the items whose box contains a
 * point (the broad phase of a geofence match) or meets an area.
 *
 * <p>Structure, after the quadtree-js family: a leaf splits into four equal quadrants when it holds
 * more than {@code capacity} boxes and lies above {@code maxDepth}; a box that spans several
 * quadrants is stored in each quadrant it touches (closed: a box touching a split line is on both
 * sides), so a point query follows one root-to-leaf path and needs no de-duplication. A box that
 * covers a node's whole cell stays there as a <em>marker</em>: points in that cell match it with no
 * box test, and a big box is copied only along its edge, not over its area. Markers do not count
 * towards a leaf's capacity, since splitting cannot spread them out: without that rule, a few dozen
 * boxes all covering one leaf would split it down to {@code maxDepth} for nothing. When removals
 * leave a subtree with at most {@code capacity} distinct items, it collapses back into one leaf. A
 * split that would hand all of a leaf's boxes to two or more quadrants (they share a line, such as
 * the edge of identical boxes), or copy them into more than two quadrants each on average (the cell
 * is smaller than most of its boxes), is refused and tried again when the leaf has doubled: that
 * bounds the copies along box edges, which would otherwise double with each level in dense areas.
 * So a leaf may hold more than {@code capacity} boxes above {@code maxDepth}.
 *
 * <p>Differences from quadtree-js: boxes outside the bounds are refused (quadtree-js keeps them at
 * the root, where they are found by the wrong queries); ids are unique; removal is by id. Every
 * comparison is exact on the doubles given.
 *
 * <p>Sizing: {@code capacity} 8 and {@code maxDepth} 16 suit lon/lat fences from city blocks to
 * continents (see docs/benchmarks.md). Each leaf holds its boxes as packed coordinates, so a point
 * query reads one short run of an array after the descent and allocates nothing; a lookup table
 * over the top levels lets the descent skip them. The tree keeps no {@code Box} objects and no
 * per-item objects of its own: about 56 bytes per small fence at a million
 * (docs/bench/index-issue9.md).
 *
 * <p>Not thread-safe: any number of concurrent queries is fine only while nothing changes the tree.
 *
 * @param <T> the item id, compared with {@code equals}; hold no mutable keys
 */
public final class QuadTree<T> {
    private final Box bounds;
    private final double minX;
    private final double minY;
    private final double maxX;
    private final double maxY;
    private final int capacity;
    private final int maxDepth;
    private final Cell rootCell;
    private Nodes nodes;

    /**
     * An empty tree over {@code bounds}.
     *
     * @param capacity boxes a leaf holds before it splits (markers not counted), at least 1
     * @param maxDepth depth below which no node splits (the root is at depth 0), at least 0
     */
    public QuadTree(Box bounds, int capacity, int maxDepth) {
        this(bounds, capacity, maxDepth, 0);
    }

    private QuadTree(Box bounds, int capacity, int maxDepth, int expected) {
        Objects.requireNonNull(bounds, "bounds");
        if (!Double.isFinite(bounds.minX())
                || !Double.isFinite(bounds.minY())
                || !Double.isFinite(bounds.maxX())
                || !Double.isFinite(bounds.maxY())) {
            throw new IllegalArgumentException("bounds not finite: " + bounds);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity < 1: " + capacity);
        }
        if (maxDepth < 0) {
            throw new IllegalArgumentException("maxDepth < 0: " + maxDepth);
        }
        this.bounds = bounds;
        this.minX = bounds.minX();
        this.minY = bounds.minY();
        this.maxX = bounds.maxX();
        this.maxY = bounds.maxY();
        this.capacity = capacity;
        this.maxDepth = maxDepth;
        this.rootCell = new Cell(minX, minY, maxX, maxY, 0);
        this.nodes = new Nodes(rootCell, expected);
    }

    /**
     * A tree holding {@code items}, built top-down in one pass: faster than inserting them one at a
     * time, and with arrays at their final size.
     *
     * @throws IllegalArgumentException if a box is not inside {@code bounds}
     */
    public static <T> QuadTree<T> build(Box bounds, int capacity, int maxDepth, Map<T, Box> items) {
        int n = items.size();
        QuadTree<T> tree = new QuadTree<>(bounds, capacity, maxDepth, n);
        Object[] ids = new Object[n];
        double[] coords = new double[4 * n];
        int i = 0;
        for (Map.Entry<T, Box> e : items.entrySet()) {
            if (i == n) {
                throw new IllegalArgumentException("items changed while building");
            }
            T id = Objects.requireNonNull(e.getKey(), "id");
            Box box = tree.checkInside(e.getValue());
            ids[i] = id;
            coords[4 * i] = box.minX();
            coords[4 * i + 1] = box.minY();
            coords[4 * i + 2] = box.maxX();
            coords[4 * i + 3] = box.maxY();
            i++;
        }
        if (i != n) {
            throw new IllegalArgumentException("items changed while building");
        }
        tree.nodes.build(Nodes.ROOT, tree.rootCell, coords, ids, n, capacity, maxDepth);
        tree.nodes.finishBuild();
        return tree;
    }

    /**
     * Adds an item.
     *
     * @throws IllegalArgumentException if the box is not inside the bounds or the id is present
     */
    public void insert(T id, Box box) {
        Objects.requireNonNull(id, "id");
        checkInside(box);
        if (nodes.homes.get(id) != IdTable.ABSENT) {
            throw new IllegalArgumentException("id already present: " + id);
        }
        nodes.insert(
                Nodes.ROOT,
                rootCell,
                id,
                box.minX(),
                box.minY(),
                box.maxX(),
                box.maxY(),
                capacity,
                maxDepth);
        nodes.refreshGrid();
    }

    /** Removes an item; true if it was there. */
    public boolean remove(T id) {
        double[] b = nodes.boxOf(id);
        if (b == null) {
            return false;
        }
        // The id leaves the table first, so that a collapse on the way re-homes only the others.
        nodes.homes.remove(id);
        nodes.remove(Nodes.ROOT, rootCell, id, b[0], b[1], b[2], b[3], capacity);
        nodes.refreshGrid();
        return true;
    }

    /**
     * Inserts the item, or moves it to a new box when present.
     *
     * @throws IllegalArgumentException if the box is not inside the bounds (the tree is unchanged)
     */
    public void update(T id, Box box) {
        Objects.requireNonNull(id, "id");
        checkInside(box);
        Box old = box(id);
        if (old != null) {
            if (old.equals(box)) {
                return;
            }
            remove(id);
        }
        insert(id, box);
    }

    /**
     * Reports each item whose closed box contains the point, once. These are candidates for the
     * narrow phase: the box holds the point; whether the item's exact shape does is the caller's
     * test. Walks one root-to-leaf path and allocates nothing; the order is unspecified. A point
     * outside the bounds (or NaN) matches nothing.
     */
    @SuppressWarnings("unchecked")
    public void query(double x, double y, Consumer<? super T> out) {
        if (!(x >= minX && x <= maxX && y >= minY && y <= maxY)) {
            return;
        }
        int[] rec = nodes.rec;
        // The table gives the node where the descent starts, at most k levels down, and its cell.
        Grid g = nodes.grid;
        int gx = g.column(x);
        int gy = g.row(y);
        int e = g.start[gy * g.side + gx];
        int n = e >>> 4;
        int shift = g.k - (e & 15);
        int ix = gx >> shift << shift;
        int iy = gy >> shift << shift;
        double x0 = g.xs[ix], x1 = g.xs[ix + (1 << shift)];
        double y0 = g.ys[iy], y1 = g.ys[iy + (1 << shift)];
        int link;
        while (true) {
            link = rec[2 * n];
            if ((link & 1) != 0) {
                Entries m = nodes.markers[n];
                Object[] ids = m.ids;
                for (int i = 0, s = m.size; i < s; i++) {
                    out.accept((T) ids[i]);
                }
            }
            int f = link >> 1;
            if (f < 0) {
                break;
            }
            // Half-open quadrants: a point on a split line goes east/north; the root's max edges
            // need no rule, since no quadrant above them exists.
            double mx = Cell.mid(x0, x1);
            double my = Cell.mid(y0, y1);
            int q = 0;
            if (x >= mx) {
                q = 1;
                x0 = mx;
            } else {
                x1 = mx;
            }
            if (y >= my) {
                q |= 2;
                y0 = my;
            } else {
                y1 = my;
            }
            n = f + q;
        }
        int start = ~(link >> 1);
        int end = start + rec[2 * n + 1];
        double[] c = nodes.co;
        for (int i = start, j = 4 * start; i < end; i++, j += 4) {
            if (x >= c[j] && y >= c[j + 1] && x <= c[j + 2] && y <= c[j + 3]) {
                out.accept((T) nodes.ids[i]);
            }
        }
    }

    /** The candidates of {@link #query(double, double, Consumer)} as a new list. */
    public List<T> query(double x, double y) {
        List<T> out = new ArrayList<>();
        query(x, y, out::add);
        return out;
    }

    /**
     * Reports each item whose closed box meets the closed area (touching counts), once, in time
     * proportional to the nodes visited plus the boxes tested: duplicates are told apart by a
     * reference point, not by a set. The order is unspecified.
     */
    public void query(Box area, Consumer<? super T> out) {
        Objects.requireNonNull(out, "out");
        if (!rootCell.meets(area.minX(), area.minY(), area.maxX(), area.maxY())) {
            return;
        }
        nodes.query(Nodes.ROOT, rootCell, area.minX(), area.minY(), area.maxX(), area.maxY(), out);
    }

    /**
     * The item's box, or null if absent: a new {@code Box} equal to the one given, since the tree
     * keeps only its coordinates.
     */
    public Box box(T id) {
        double[] b = nodes.boxOf(id);
        return b == null ? null : new Box(b[0], b[1], b[2], b[3]);
    }

    public int size() {
        return nodes.homes.size();
    }

    /**
     * The cells of the tree's leaves, each once: where the tree has split so far (for pictures and
     * inspection; it allocates a Box per leaf).
     */
    public void leafCells(Consumer<Box> out) {
        leafCells(Nodes.ROOT, rootCell, out);
    }

    private void leafCells(int node, Cell cell, Consumer<Box> out) {
        if (nodes.isLeaf(node)) {
            out.accept(new Box(cell.minX, cell.minY, cell.maxX, cell.maxY));
            return;
        }
        int first = nodes.child(node);
        for (int q = 0; q < 4; q++) {
            leafCells(first + q, cell.child(q), out);
        }
    }

    /** Removes every item. */
    public void clear() {
        nodes = new Nodes(rootCell, 0);
    }

    /** The region this tree covers. */
    public Box bounds() {
        return bounds;
    }

    @Override
    public String toString() {
        return "QuadTree["
                + bounds
                + ", capacity "
                + capacity
                + ", maxDepth "
                + maxDepth
                + ", "
                + size()
                + " items]";
    }

    /** Nodes in the tree, for tests and tuning. */
    int nodeCount() {
        return Invariants.nodeCount(nodes, Nodes.ROOT);
    }

    /** Depth of the deepest node (0 for a lone root), for tests and tuning. */
    int height() {
        return Invariants.height(nodes, Nodes.ROOT);
    }

    /** Stored (id, box) pairs, replicas and markers included, for tests and tuning. */
    long storedPairs() {
        return Invariants.storedPairs(nodes, Nodes.ROOT);
    }

    /** The node arrays, for tests. */
    Nodes nodes() {
        return nodes;
    }

    /** Checks every structural rule; throws {@link IllegalStateException} on the first broken. */
    void checkInvariants() {
        Invariants.check(nodes, rootCell, capacity, maxDepth);
    }

    private Box checkInside(Box box) {
        Objects.requireNonNull(box, "box");
        if (!bounds.covers(box)) {
            throw new IllegalArgumentException("box " + box + " not inside bounds " + bounds);
        }
        return box;
    }
}
