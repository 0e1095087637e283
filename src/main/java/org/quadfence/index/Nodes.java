package org.quadfence.index;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The nodes of one quadtree, stored column-wise: a node is an index into parallel arrays, and the
 * four children of a node occupy four consecutive indexes. Each node has markers (boxes that cover
 * its whole cell) and either children or, as a leaf, the boxes that meet its cell without covering
 * it.
 *
 * <p>Why arrays and not one object per node: a point query is a chain of dependent loads down the
 * tree, and at a million fences it is bound by cache misses. Here the walk reads two dense arrays
 * ({@link #first} and {@link #markers}, 8 bytes a node, so the upper levels stay in cache) and
 * computes each cell from its parent's instead of loading it; then the leaf's packed coordinates
 * through {@link #leafCoords}. An object per node, with its cell and child array, made the same
 * walk about as slow as JTS's HPRtree (710 against 750 ns at a million uniform fences; 490 against
 * 913 ns now, see docs/benchmarks.md).
 *
 * <p>Placement is canonical: an item is stored at every node that its insertion descent reaches and
 * where it stops, that is where it covers the cell (a marker) or where the node is a leaf. The
 * nodes holding one item never lie on one root-to-leaf path, and their cells cover the item's box.
 * Splits and collapses keep this form, so the shape of the tree alone says where an item is.
 */
final class Nodes {
    static final int ROOT = 0;

    /** A split may copy a leaf's boxes into at most this many quadrants each, on average. */
    static final int COPY_LIMIT = 2;

    /** Per node: the index of its first child (quadrant 0), or -1 for a leaf. */
    int[] first;

    /** Per node: boxes covering its whole cell, or null when there are none. */
    Entries[] markers;

    /** Per leaf: the boxes that meet its cell without covering it; null for an inner node. */
    Entries[] items;

    /**
     * Per leaf: {@code items[node].coords} and {@code .size}, mirrored so that the point query goes
     * from the node index straight to the coordinates: one dependent load (a cache miss, at a
     * million fences) fewer than through the list object.
     */
    double[][] leafCoords;

    int[] leafSize;

    /** Per node: distinct items stored in its subtree, its own markers included. */
    int[] count;

    /** Per leaf: its size when a split was last refused for separating nothing; 0 if never. */
    int[] refusedAt;

    private int used;
    private int[] freeBlocks = new int[16];
    private int freeCount;

    Nodes() {
        int n = 64;
        first = new int[n];
        markers = new Entries[n];
        items = new Entries[n];
        leafCoords = new double[n][];
        leafSize = new int[n];
        count = new int[n];
        refusedAt = new int[n];
        // The root takes a block of its own, so that every block starts at a multiple of 4.
        used = 4;
        makeLeaf(ROOT, new Entries());
    }

    private void makeLeaf(int node, Entries list) {
        first[node] = -1;
        items[node] = list;
        refusedAt[node] = 0;
        sync(node);
    }

    /** Updates the point query's mirror of a node's leaf list, after any change to it. */
    private void sync(int node) {
        Entries e = items[node];
        leafCoords[node] = e == null ? null : e.coords;
        leafSize[node] = e == null ? 0 : e.size;
    }

    /** Four fresh empty leaves at consecutive indexes; returns the first. */
    private int allocBlock() {
        int b;
        if (freeCount > 0) {
            b = freeBlocks[--freeCount];
        } else {
            if (used + 4 > first.length) {
                int n = first.length + (first.length >> 1) + 4;
                first = Arrays.copyOf(first, n);
                markers = Arrays.copyOf(markers, n);
                items = Arrays.copyOf(items, n);
                leafCoords = Arrays.copyOf(leafCoords, n);
                leafSize = Arrays.copyOf(leafSize, n);
                count = Arrays.copyOf(count, n);
                refusedAt = Arrays.copyOf(refusedAt, n);
            }
            b = used;
            used += 4;
        }
        for (int k = b; k < b + 4; k++) {
            makeLeaf(k, new Entries());
            markers[k] = null;
            count[k] = 0;
        }
        return b;
    }

    private void freeBlock(int b) {
        for (int k = b; k < b + 4; k++) {
            if (first[k] >= 0) {
                freeBlock(first[k]);
            }
            first[k] = -1;
            items[k] = null;
            markers[k] = null;
            sync(k);
        }
        if (freeCount == freeBlocks.length) {
            freeBlocks = Arrays.copyOf(freeBlocks, 2 * freeCount);
        }
        freeBlocks[freeCount++] = b;
    }

    int markerCount(int node) {
        Entries m = markers[node];
        return m == null ? 0 : m.size;
    }

    private void addMarker(int node, Object id, double a, double b, double c, double d) {
        if (markers[node] == null) {
            markers[node] = new Entries();
        }
        markers[node].add(id, a, b, c, d);
    }

    /** Adds an item whose box meets the cell and covers no ancestor's cell. */
    void insert(
            int node,
            Cell cell,
            Object id,
            double a,
            double b,
            double c,
            double d,
            int capacity,
            int maxDepth) {
        count[node]++;
        if (cell.coveredBy(a, b, c, d)) {
            addMarker(node, id, a, b, c, d);
            return;
        }
        int f = first[node];
        if (f < 0) {
            items[node].add(id, a, b, c, d);
            sync(node);
            if (wantsSplit(node, cell, capacity, maxDepth)) {
                split(node, cell, capacity, maxDepth);
            }
            return;
        }
        int touched = cell.touched(a, b, c, d);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                insert(f + q, cell.child(q), id, a, b, c, d, capacity, maxDepth);
            }
        }
    }

    /**
     * Removes an item known to be stored under this node with this box. Collapses the node back
     * into a leaf when the items below it fall to the capacity.
     */
    void remove(
            int node, Cell cell, Object id, double a, double b, double c, double d, int capacity) {
        count[node]--;
        if (cell.coveredBy(a, b, c, d)) {
            Entries m = markers[node];
            m.remove(id);
            if (m.size == 0) {
                markers[node] = null;
            }
            return;
        }
        int f = first[node];
        if (f < 0) {
            items[node].remove(id);
            sync(node);
            return;
        }
        int touched = cell.touched(a, b, c, d);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                remove(f + q, cell.child(q), id, a, b, c, d, capacity);
            }
        }
        if (count[node] - markerCount(node) <= capacity) {
            collapse(node, cell);
        }
    }

    /**
     * True for a leaf over capacity that may split. After a refused split, the next try waits until
     * the leaf has doubled, so that inserts into a leaf that cannot be separated stay O(1)
     * amortized.
     */
    private boolean wantsSplit(int node, Cell cell, int capacity, int maxDepth) {
        int size = items[node].size;
        return size > capacity && size >= 2 * refusedAt[node] && cell.splittable(maxDepth);
    }

    /**
     * False when a split would not pay for its copies. Two rules:
     *
     * <ul>
     *   <li>Two or more quadrants would each get all {@code n} boxes as partial boxes: the boxes
     *       share a line across the cell (the common edge of identical boxes, or lines on one
     *       meridian); splitting would only copy them, and the copies would split again, into every
     *       cell along that line down to the maximum depth. One quadrant getting everything is fine
     *       (a cluster: deeper cells separate it).
     *   <li>The boxes would go to more than {@link #COPY_LIMIT} quadrants each on average: the cell
     *       is already smaller than most of its boxes, and each further level would double the
     *       copies along their edges. Measured on 100k clustered fences of city-block to 5 km: 58
     *       stored copies per fence without this rule, 4 with it, for point queries about 1.7 times
     *       slower (still many times faster than the JTS trees).
     * </ul>
     *
     * @param co the boxes, packed; the first {@code n} are the leaf's
     */
    static boolean splitPays(Cell[] quads, double[] co, int n) {
        int[] partialIn = new int[4];
        long copies = 0;
        for (int i = 0, j = 0; i < n; i++, j += 4) {
            double a = co[j], b = co[j + 1], c = co[j + 2], d = co[j + 3];
            for (int q = 0; q < 4; q++) {
                if (quads[q].meets(a, b, c, d)) {
                    copies++;
                    if (!quads[q].coveredBy(a, b, c, d)) {
                        partialIn[q]++;
                    }
                }
            }
        }
        return pays(partialIn, copies, n);
    }

    /** The rules above, given how many of the n boxes each quadrant gets as partial boxes. */
    private static boolean pays(int[] partialIn, long copies, int n) {
        int full = 0;
        for (int q = 0; q < 4; q++) {
            if (partialIn[q] == n) {
                full++;
            }
        }
        return full < 2 && copies <= (long) COPY_LIMIT * n;
    }

    private record Pending(int node, Cell cell) {}

    /**
     * Turns a leaf into an inner node, and any new child that still holds too many boxes, without
     * recursion: thousands of identical boxes at one spot go down to the maximum depth in one pass.
     */
    private void split(int leaf, Cell leafCell, int capacity, int maxDepth) {
        ArrayDeque<Pending> work = new ArrayDeque<>();
        work.push(new Pending(leaf, leafCell));
        while (!work.isEmpty()) {
            Pending p = work.pop();
            int n = p.node();
            Entries from = items[n];
            Cell[] quads = p.cell().quadrants();
            if (!splitPays(quads, from.coords, from.size)) {
                refusedAt[n] = from.size;
                continue;
            }
            int f = allocBlock();
            double[] co = from.coords;
            for (int i = 0, j = 0; i < from.size; i++, j += 4) {
                double a = co[j], b = co[j + 1], c = co[j + 2], d = co[j + 3];
                int touched = p.cell().touched(a, b, c, d);
                for (int q = 0; q < 4; q++) {
                    if ((touched & (1 << q)) != 0) {
                        count[f + q]++;
                        if (quads[q].coveredBy(a, b, c, d)) {
                            addMarker(f + q, from.ids[i], a, b, c, d);
                        } else {
                            items[f + q].add(from.ids[i], a, b, c, d);
                        }
                    }
                }
            }
            items[n] = null;
            first[n] = f;
            sync(n);
            for (int q = 0; q < 4; q++) {
                sync(f + q);
            }
            for (int q = 0; q < 4; q++) {
                if (wantsSplit(f + q, quads[q], capacity, maxDepth)) {
                    work.push(new Pending(f + q, quads[q]));
                }
            }
        }
    }

    /** Makes an inner node a leaf holding every distinct item stored below it, each once. */
    private void collapse(int node, Cell cell) {
        Entries merged = new Entries(count[node] - markerCount(node));
        int f = first[node];
        Cell[] quads = cell.quadrants();
        for (int q = 0; q < 4; q++) {
            gather(f + q, quads[q], merged, cell);
        }
        freeBlock(f);
        makeLeaf(node, merged);
    }

    /**
     * Adds to {@code out} each item stored in this subtree whose reference point, the low corner of
     * its box clipped to {@code top}, lies in the part of {@code top} that this node owns: each
     * distinct item exactly once over all the subtrees of {@code top}.
     */
    private void gather(int node, Cell cell, Entries out, Cell top) {
        if (markers[node] != null) {
            gatherFrom(markers[node], cell, out, top);
        }
        int f = first[node];
        if (f < 0) {
            gatherFrom(items[node], cell, out, top);
        } else {
            Cell[] quads = cell.quadrants();
            for (int q = 0; q < 4; q++) {
                gather(f + q, quads[q], out, top);
            }
        }
    }

    private static void gatherFrom(Entries from, Cell cell, Entries out, Cell top) {
        double[] co = from.coords;
        for (int i = 0, j = 0; i < from.size; i++, j += 4) {
            double rx = Math.max(co[j], top.minX);
            double ry = Math.max(co[j + 1], top.minY);
            if (cell.owns(rx, ry, top.maxX, top.maxY)) {
                out.add(from.ids[i], co[j], co[j + 1], co[j + 2], co[j + 3]);
            }
        }
    }

    /**
     * Reports every item stored in this subtree whose box meets the area, given that the area meets
     * the cell. An item stored in several nodes is reported only by the node that owns its
     * reference point (the low corner of box-and-area), so each is reported once with no set.
     */
    @SuppressWarnings("unchecked")
    <T> void query(
            int node,
            Cell cell,
            double qa,
            double qb,
            double qc,
            double qd,
            double edgeX,
            double edgeY,
            Consumer<? super T> out) {
        Entries m = markers[node];
        if (m != null) {
            // A marker covers this cell, which meets the area: no box test, only the owner test.
            double[] co = m.coords;
            for (int i = 0, j = 0; i < m.size; i++, j += 4) {
                if (cell.owns(Math.max(qa, co[j]), Math.max(qb, co[j + 1]), edgeX, edgeY)) {
                    out.accept((T) m.ids[i]);
                }
            }
        }
        int f = first[node];
        if (f < 0) {
            Entries it = items[node];
            double[] co = it.coords;
            for (int i = 0, j = 0; i < it.size; i++, j += 4) {
                if (co[j] <= qc && co[j + 2] >= qa && co[j + 1] <= qd && co[j + 3] >= qb) {
                    if (cell.owns(Math.max(qa, co[j]), Math.max(qb, co[j + 1]), edgeX, edgeY)) {
                        out.accept((T) it.ids[i]);
                    }
                }
            }
            return;
        }
        int touched = cell.touched(qa, qb, qc, qd);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                query(f + q, cell.child(q), qa, qb, qc, qd, edgeX, edgeY, out);
            }
        }
    }

    /**
     * Fills an empty leaf with {@code n} items ({@code ids[i]} with its box at {@code
     * co[4i..4i+4)}) in one top-down pass. Each level copies its items' boxes into packed arrays
     * per quadrant, so every pass reads memory in order (routing indexes into one big array instead
     * made each level a round of cache misses, slower than inserting one at a time); every list is
     * allocated at its final size, and siblings' subtrees are laid out one after the other.
     */
    void build(int node, Cell cell, double[] co, Object[] ids, int n, int capacity, int maxDepth) {
        count[node] = n;
        Cell[] quads = cell.quadrants();
        // Per item: -1 for a marker, else the quadrants its box touches.
        byte[] route = new byte[n];
        int[] partialIn = new int[4];
        long copies = 0;
        int nMarkers = 0;
        for (int i = 0, j = 0; i < n; i++, j += 4) {
            double a = co[j], b = co[j + 1], c = co[j + 2], d = co[j + 3];
            if (cell.coveredBy(a, b, c, d)) {
                route[i] = -1;
                nMarkers++;
                continue;
            }
            int touched = cell.touched(a, b, c, d);
            route[i] = (byte) touched;
            for (int q = 0; q < 4; q++) {
                if ((touched & (1 << q)) != 0) {
                    copies++;
                    if (!quads[q].coveredBy(a, b, c, d)) {
                        partialIn[q]++;
                    }
                }
            }
        }
        if (nMarkers > 0) {
            Entries m = new Entries(nMarkers);
            for (int i = 0, j = 0; i < n; i++, j += 4) {
                if (route[i] < 0) {
                    m.add(ids[i], co[j], co[j + 1], co[j + 2], co[j + 3]);
                }
            }
            markers[node] = m;
        }
        int partial = n - nMarkers;
        boolean split = partial > capacity && cell.splittable(maxDepth);
        if (split && !pays(partialIn, copies, partial)) {
            split = false;
            refusedAt[node] = partial;
        }
        if (!split) {
            Entries list = new Entries(partial);
            for (int i = 0, j = 0; i < n; i++, j += 4) {
                if (route[i] >= 0) {
                    list.add(ids[i], co[j], co[j + 1], co[j + 2], co[j + 3]);
                }
            }
            items[node] = list;
            sync(node);
            return;
        }
        int f = allocBlock();
        items[node] = null;
        first[node] = f;
        sync(node);
        for (int q = 0; q < 4; q++) {
            int bit = 1 << q;
            int k = 0;
            for (int i = 0; i < n; i++) {
                if (route[i] > 0 && (route[i] & bit) != 0) {
                    k++;
                }
            }
            double[] subCo = new double[4 * k];
            Object[] subIds = new Object[k];
            k = 0;
            for (int i = 0; i < n; i++) {
                if (route[i] > 0 && (route[i] & bit) != 0) {
                    System.arraycopy(co, 4 * i, subCo, 4 * k, 4);
                    subIds[k++] = ids[i];
                }
            }
            build(f + q, quads[q], subCo, subIds, k, capacity, maxDepth);
        }
    }
}
