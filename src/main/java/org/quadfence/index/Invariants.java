package org.quadfence.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inspection of a {@link Nodes} tree for tests and tuning: its size and shape, and a check of every
 * structural rule (canonical placement, counts, capacity, collapse), slow and thorough.
 */
final class Invariants {
    private Invariants() {}

    /** Nodes in the subtree. */
    static int nodeCount(Nodes t, int node) {
        if (t.isLeaf(node)) {
            return 1;
        }
        int f = t.child(node);
        int total = 1;
        for (int q = 0; q < 4; q++) {
            total += nodeCount(t, f + q);
        }
        return total;
    }

    /** Depth of the deepest node in the subtree, counted from the subtree's root. */
    static int height(Nodes t, int node) {
        if (t.isLeaf(node)) {
            return 0;
        }
        int f = t.child(node);
        int h = 0;
        for (int q = 0; q < 4; q++) {
            h = Math.max(h, height(t, f + q));
        }
        return h + 1;
    }

    /** Stored (id, box) pairs in the subtree, replicas and markers counted each time. */
    static long storedPairs(Nodes t, int node) {
        long total = t.markerCount(node);
        if (t.isLeaf(node)) {
            return total + t.leafSize(node);
        }
        int f = t.child(node);
        for (int q = 0; q < 4; q++) {
            total += storedPairs(t, f + q);
        }
        return total;
    }

    /**
     * Checks the whole tree: the structure below the root, the leaves' blocks in the pool (inside
     * it, apart from each other) and the id table (every item at the home it records, no other
     * ids); throws {@link IllegalStateException} naming the first broken rule.
     */
    static void check(Nodes t, Cell root, int capacity, int maxDepth) {
        List<int[]> blocks = new ArrayList<>();
        Map<Object, double[]> all = check(t, Nodes.ROOT, root, null, capacity, maxDepth, blocks);
        blocks.sort(Comparator.comparingInt(b -> b[0]));
        int end = 0;
        for (int[] b : blocks) {
            require(b[0] >= end, "leaf blocks overlap");
            end = b[0] + b[1];
        }
        require(end <= t.poolUsed() && t.poolUsed() <= t.ids.length, "leaf block outside pool");
        require(
                all.size() == t.homes.size(),
                all.size() + " items in nodes, " + t.homes.size() + " ids");
        checkHomes(t, Nodes.ROOT, root, all, root.maxX, root.maxY);
        Grid fresh = Grid.over(root, t.grid.k);
        fresh.fill(t);
        require(Arrays.equals(fresh.start, t.grid.start), "lookup table out of date");
    }

    /** Requires each item to be recorded at the node that holds it on its low corner's path. */
    private static void checkHomes(
            Nodes t, int node, Cell cell, Map<Object, double[]> all, double ex, double ey) {
        Entries m = t.markers[node];
        if (m != null) {
            for (int i = 0; i < m.size; i++) {
                requireHome(t, node, cell, m.ids[i], boxAt(m.coords, i), ex, ey);
            }
        }
        if (t.isLeaf(node)) {
            for (int i = t.leafStart(node); i < t.leafStart(node) + t.leafSize(node); i++) {
                requireHome(t, node, cell, t.ids[i], boxAt(t.co, i), ex, ey);
            }
            return;
        }
        Cell[] quads = cell.quadrants();
        for (int q = 0; q < 4; q++) {
            checkHomes(t, t.child(node) + q, quads[q], all, ex, ey);
        }
    }

    private static void requireHome(
            Nodes t, int node, Cell cell, Object id, double[] box, double ex, double ey) {
        if (cell.owns(box[0], box[1], ex, ey)) {
            require(
                    t.homes.get(id) == node,
                    "home of " + id + " is " + t.homes.get(id) + ", not " + node);
        }
    }

    /**
     * Checks the structure and returns the distinct items of the subtree with their boxes, as
     * {@code double[4]}; adds each leaf's pool block as {start, capacity} to {@code blocks}.
     */
    private static Map<Object, double[]> check(
            Nodes t,
            int node,
            Cell cell,
            Cell parent,
            int capacity,
            int maxDepth,
            List<int[]> blocks) {
        Map<Object, double[]> here = new HashMap<>();
        Entries m = t.markers[node];
        require((t.rec[2 * node] & 1) == (m == null ? 0 : 1), "marker flag out of date");
        if (m != null) {
            require(m.size > 0, "empty marker list kept");
            for (int i = 0; i < m.size; i++) {
                double[] box = boxAt(m.coords, i);
                require(cell.coveredBy(box[0], box[1], box[2], box[3]), "marker not covering");
                require(here.put(m.ids[i], box) == null, "marker twice");
                requireNotAbove(parent, box);
            }
        }
        if (t.isLeaf(node)) {
            int start = t.leafStart(node);
            int size = t.leafSize(node);
            require(0 <= size && size <= t.leafCap(node), "leaf larger than its block");
            if (t.leafCap(node) > 0) {
                blocks.add(new int[] {start, t.leafCap(node)});
            }
            for (int i = start; i < start + size; i++) {
                double[] box = boxAt(t.co, i);
                require(t.ids[i] != null, "no id in a leaf's pair");
                require(cell.meets(box[0], box[1], box[2], box[3]), "item off its cell");
                require(!cell.coveredBy(box[0], box[1], box[2], box[3]), "item should be marker");
                require(here.put(t.ids[i], box) == null, "item twice in a node");
                requireNotAbove(parent, box);
            }
            require(
                    size <= capacity || !cell.splittable(maxDepth) || size < 2 * t.refusedAt(node),
                    "leaf over capacity not split");
        } else {
            int f = t.child(node);
            require(f % 4 == 0, "child block not aligned");
            Map<Object, double[]> below = new HashMap<>();
            @SuppressWarnings("unchecked")
            Map<Object, double[]>[] sub = new Map[4];
            Cell[] quads = cell.quadrants();
            for (int q = 0; q < 4; q++) {
                sub[q] = check(t, f + q, quads[q], cell, capacity, maxDepth, blocks);
                below.putAll(sub[q]);
            }
            for (Map.Entry<Object, double[]> e : below.entrySet()) {
                double[] box = e.getValue();
                int touched = cell.touched(box[0], box[1], box[2], box[3]);
                for (int q = 0; q < 4; q++) {
                    require(
                            ((touched & (1 << q)) != 0) == sub[q].containsKey(e.getKey()),
                            "item not in exactly the children it touches: " + e.getKey());
                }
                require(here.put(e.getKey(), box) == null, "marker also below");
            }
            require(below.size() > capacity, "inner node should have collapsed");
        }
        require(t.count(node) == here.size(), "count " + t.count(node) + " != " + here.size());
        return here;
    }

    private static double[] boxAt(double[] coords, int i) {
        return Arrays.copyOfRange(coords, 4 * i, 4 * i + 4);
    }

    private static void requireNotAbove(Cell parent, double[] box) {
        require(
                parent == null || !parent.coveredBy(box[0], box[1], box[2], box[3]),
                "item stored below a cell it covers");
    }

    private static void require(boolean ok, String rule) {
        if (!ok) {
            throw new IllegalStateException(rule);
        }
    }
}
