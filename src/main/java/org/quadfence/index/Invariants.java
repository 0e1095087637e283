package org.quadfence.index;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Inspection of a {@link Nodes} tree for tests and tuning: its size and shape, and a check of every
 * structural rule (canonical placement, counts, capacity, collapse), slow and thorough.
 */
final class Invariants {
    private Invariants() {}

    /** Nodes in the subtree. */
    static int nodeCount(Nodes t, int node) {
        int f = t.first[node];
        if (f < 0) {
            return 1;
        }
        int total = 1;
        for (int q = 0; q < 4; q++) {
            total += nodeCount(t, f + q);
        }
        return total;
    }

    /** Depth of the deepest node in the subtree, counted from the subtree's root. */
    static int height(Nodes t, int node) {
        int f = t.first[node];
        if (f < 0) {
            return 0;
        }
        int h = 0;
        for (int q = 0; q < 4; q++) {
            h = Math.max(h, height(t, f + q));
        }
        return h + 1;
    }

    /** Stored (id, box) pairs in the subtree, replicas and markers counted each time. */
    static long storedPairs(Nodes t, int node) {
        long total = t.markerCount(node);
        int f = t.first[node];
        if (f < 0) {
            return total + t.items[node].size;
        }
        for (int q = 0; q < 4; q++) {
            total += storedPairs(t, f + q);
        }
        return total;
    }

    /**
     * Checks the structure and returns the distinct items of the subtree with their boxes, as
     * {@code double[4]}; throws {@link IllegalStateException} naming the first broken rule.
     */
    static Map<Object, double[]> check(
            Nodes t, int node, Cell cell, Cell parent, int capacity, int maxDepth) {
        Map<Object, double[]> here = new HashMap<>();
        Entries m = t.markers[node];
        if (m != null) {
            require(m.size > 0, "empty marker list kept");
            for (int i = 0; i < m.size; i++) {
                double[] box = boxAt(m, i);
                require(cell.coveredBy(box[0], box[1], box[2], box[3]), "marker not covering");
                require(here.put(m.ids[i], box) == null, "marker twice");
                requireNotAbove(parent, box);
            }
        }
        int f = t.first[node];
        if (f < 0) {
            Entries it = t.items[node];
            require(it != null, "leaf without items");
            require(
                    t.leafCoords[node] == it.coords && t.leafSize[node] == it.size,
                    "leaf mirror out of date");
            for (int i = 0; i < it.size; i++) {
                double[] box = boxAt(it, i);
                require(cell.meets(box[0], box[1], box[2], box[3]), "item off its cell");
                require(!cell.coveredBy(box[0], box[1], box[2], box[3]), "item should be marker");
                require(here.put(it.ids[i], box) == null, "item twice in a node");
                requireNotAbove(parent, box);
            }
            require(
                    it.size <= capacity
                            || !cell.splittable(maxDepth)
                            || it.size < 2 * t.refusedAt[node],
                    "leaf over capacity not split");
        } else {
            require(t.items[node] == null, "inner node with items");
            require(f % 4 == 0, "child block not aligned");
            Map<Object, double[]> below = new HashMap<>();
            @SuppressWarnings("unchecked")
            Map<Object, double[]>[] sub = new Map[4];
            Cell[] quads = cell.quadrants();
            for (int q = 0; q < 4; q++) {
                sub[q] = check(t, f + q, quads[q], cell, capacity, maxDepth);
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
        require(t.count[node] == here.size(), "count " + t.count[node] + " != " + here.size());
        return here;
    }

    private static double[] boxAt(Entries e, int i) {
        return Arrays.copyOfRange(e.coords, 4 * i, 4 * i + 4);
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
