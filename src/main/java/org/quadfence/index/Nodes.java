package org.quadfence.index;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * The nodes of one quadtree, stored column-wise: a node is an index into parallel arrays, and the
 * four children of a node occupy four consecutive indexes. Each node has markers (boxes that cover
 * its whole cell) and either children or, as a leaf, the boxes that meet its cell without covering
 * it.
 *
 * <p>Why arrays and not one object per node: a point query is a chain of dependent loads down the
 * tree, and at a million fences it is bound by cache misses. Here the walk reads one int per level
 * from {@link #rec}, which says both where the children are and whether the node has markers, and
 * computes each cell from its parent's instead of loading it; at the leaf, the same record gives
 * the position of its boxes in the pool. An object per node, with its cell and child array, made
 * the same walk about as slow as JTS's HPRtree.
 *
 * <p>The leaves' (id, box) pairs live in one pool ({@link #co}, {@link #ids}), each leaf's in one
 * block, so a leaf costs no objects of its own. A leaf that outgrows its block moves to a bigger
 * one at the end of the pool; the pool is compacted when the blocks left behind would otherwise be
 * most of it.
 *
 * <p>Placement is canonical: an item is stored at every node that its insertion descent reaches and
 * where it stops, that is where it covers the cell (a marker) or where the node is a leaf. The
 * nodes holding one item never lie on one root-to-leaf path, and their cells cover the item's box.
 * Splits and collapses keep this form, so the shape of the tree alone says where an item is. Along
 * the path of the box's low corner exactly one node holds the item: its <em>home</em>, which {@link
 * #homes} records, so that the box of an id can be found without keeping it twice.
 */
final class Nodes {
    static final int ROOT = 0;

    /** A split may copy a leaf's boxes into at most this many quadrants each, on average. */
    static final int COPY_LIMIT = 2;

    /**
     * Two ints per node. {@code rec[2n]} is the link: {@code first << 1 | m} for an inner node
     * whose children are {@code first .. first + 3}, {@code ~start << 1 | m} (negative) for a leaf
     * whose pairs are at pool positions {@code start .. start + size}; {@code m} is 1 when the node
     * has markers. {@code rec[2n + 1]} is the leaf's size, or the number of distinct items in the
     * inner node's subtree, its own markers included.
     */
    int[] rec;

    /** Per node: boxes covering its whole cell, or null when there are none. */
    Entries[] markers;

    /** Per leaf: pool positions its block holds. */
    private int[] cap;

    /** Per leaf: its size when a split was last refused for separating nothing; 0 if never. */
    private int[] refusedAt;

    /** The pool of leaf pairs: boxes as {@code minX, minY, maxX, maxY} runs, ids alongside. */
    double[] co;

    Object[] ids;

    private int poolUsed;

    /** Pool positions inside [0, poolUsed) that no leaf holds. */
    private int garbage;

    private int used;
    private int[] freeBlocks = new int[16];
    private int freeCount;

    /** Per item: its home node, the one holding it on the path of its box's low corner. */
    final IdTable homes;

    private final double edgeX;
    private final double edgeY;
    private final Cell root;

    /** The lookup table for the top levels, and the cells whose entries it must refresh. */
    Grid grid;

    private final List<Cell> gridChanges = new ArrayList<>();

    /** An empty tree over {@code root}, sized for {@code expected} items. */
    Nodes(Cell root, int expected) {
        this.root = root;
        edgeX = root.maxX;
        edgeY = root.maxY;
        homes = new IdTable(expected);
        int n = 64;
        rec = new int[2 * n];
        markers = new Entries[n];
        cap = new int[n];
        refusedAt = new int[n];
        ids = new Object[16];
        co = new double[4 * 16];
        // The root takes a block of its own, so that every block starts at a multiple of 4.
        used = 4;
        for (int k = 0; k < 4; k++) {
            setLeaf(k, 0, 0, 0);
        }
        grid = Grid.over(root, 0);
        grid.fill(this);
    }

    /** Notes that the node of this cell changed its link or gained or lost all its markers. */
    private void changed(Cell cell) {
        if (cell.depth < grid.k) {
            gridChanges.add(cell);
        }
    }

    /**
     * Brings the lookup table up to date after a change to the tree, growing it when the tree has
     * outgrown it.
     */
    void refreshGrid() {
        if (Grid.depthFor(used) > grid.k) {
            grid = Grid.over(root, Grid.depthFor(used));
            grid.fill(this);
        } else {
            for (Cell c : gridChanges) {
                grid.refresh(this, c);
            }
        }
        gridChanges.clear();
    }

    boolean isLeaf(int node) {
        return rec[2 * node] < 0;
    }

    /** The first child of an inner node. */
    int child(int node) {
        return rec[2 * node] >> 1;
    }

    int leafStart(int node) {
        return ~(rec[2 * node] >> 1);
    }

    int leafSize(int node) {
        return rec[2 * node + 1];
    }

    int leafCap(int node) {
        return cap[node];
    }

    int refusedAt(int node) {
        return refusedAt[node];
    }

    int poolUsed() {
        return poolUsed;
    }

    /** Distinct items stored in the subtree, the node's own markers included. */
    int count(int node) {
        return isLeaf(node) ? leafSize(node) + markerCount(node) : rec[2 * node + 1];
    }

    int markerCount(int node) {
        Entries m = markers[node];
        return m == null ? 0 : m.size;
    }

    private int markerBit(int node) {
        return markers[node] == null ? 0 : 1;
    }

    private void setLeaf(int node, int start, int size, int capacity) {
        rec[2 * node] = ~start << 1 | markerBit(node);
        rec[2 * node + 1] = size;
        cap[node] = capacity;
    }

    private void setInner(int node, int first, int count) {
        rec[2 * node] = first << 1 | markerBit(node);
        rec[2 * node + 1] = count;
        cap[node] = 0;
        refusedAt[node] = 0;
    }

    /**
     * The position in {@code ids} of the pair with this id and box in [from, from + size), or -1.
     */
    static int find(
            Object[] ids,
            double[] co,
            int from,
            int size,
            Object id,
            double a,
            double b,
            double c,
            double d) {
        // Coordinates first: they are read in order, while each equals may be a cache miss.
        for (int i = from, j = 4 * from; i < from + size; i++, j += 4) {
            if (co[j] == a
                    && co[j + 1] == b
                    && co[j + 2] == c
                    && co[j + 3] == d
                    && id.equals(ids[i])) {
                return i;
            }
        }
        return -1;
    }

    /** The box of an item as {@code double[4]}, read at its home; null when the id is absent. */
    double[] boxOf(Object id) {
        int h = homes.get(id);
        if (h == IdTable.ABSENT) {
            return null;
        }
        Entries m = markers[h];
        int i = m == null ? -1 : m.indexOf(id);
        if (i >= 0) {
            return Arrays.copyOfRange(m.coords, 4 * i, 4 * i + 4);
        }
        int start = leafStart(h);
        for (int k = start; k < start + leafSize(h); k++) {
            if (id.equals(ids[k])) {
                return Arrays.copyOfRange(co, 4 * k, 4 * k + 4);
            }
        }
        throw new IllegalStateException("item not at its home node: " + id);
    }

    /** Records the node as the item's home when the node's cell owns the box's low corner. */
    private void placed(int node, Cell cell, Object id, double a, double b) {
        if (cell.owns(a, b, edgeX, edgeY)) {
            homes.put(id, node);
        }
    }

    /** Pool positions for {@code k} pairs, at the end of the pool. */
    private int alloc(int k) {
        if (poolUsed + k > ids.length) {
            if (garbage > poolUsed / 2) {
                compact(k);
            }
            if (poolUsed + k > ids.length) {
                growPool(k);
            }
        }
        int at = poolUsed;
        poolUsed += k;
        return at;
    }

    private void growPool(int k) {
        int n = Math.max(poolUsed + k, ids.length + (ids.length >> 1) + 16);
        ids = Arrays.copyOf(ids, n);
        co = Arrays.copyOf(co, 4 * n);
    }

    /**
     * Copies every leaf's pairs into new arrays, blocks trimmed to their sizes, with room for k.
     */
    private void compact(int k) {
        int live = poolUsed - garbage;
        int n = live + k + (live >> 1) + 16;
        Object[] newIds = new Object[n];
        double[] newCo = new double[4 * n];
        int p = 0;
        for (int node = 0; node < used; node++) {
            if (isLeaf(node)) {
                int s = leafSize(node);
                int from = leafStart(node);
                System.arraycopy(ids, from, newIds, p, s);
                System.arraycopy(co, 4 * from, newCo, 4 * p, 4 * s);
                setLeaf(node, p, s, s);
                p += s;
            }
        }
        ids = newIds;
        co = newCo;
        poolUsed = p;
        garbage = 0;
    }

    private void release(int start, int capacity) {
        Arrays.fill(ids, start, start + capacity, null);
        garbage += capacity;
    }

    /** Makes the node a leaf with an empty block of {@code capacity} pool positions. */
    private void newLeaf(int node, int capacity) {
        // Empty first: the allocation may compact the pool, which reads every leaf.
        setLeaf(node, 0, 0, 0);
        int at = alloc(capacity);
        setLeaf(node, at, 0, capacity);
        refusedAt[node] = 0;
    }

    private void leafAppend(int node, Object id, double a, double b, double c, double d) {
        int s = leafSize(node);
        if (s == cap[node]) {
            growLeaf(node);
        }
        int at = leafStart(node) + s;
        ids[at] = id;
        int j = 4 * at;
        co[j] = a;
        co[j + 1] = b;
        co[j + 2] = c;
        co[j + 3] = d;
        rec[2 * node + 1] = s + 1;
    }

    private void growLeaf(int node) {
        int oldCap = cap[node];
        int newCap = Math.max(4, 2 * oldCap);
        int start = leafStart(node);
        if (start + oldCap == poolUsed) {
            if (start + newCap > ids.length) {
                growPool(newCap - oldCap);
            }
            poolUsed = start + newCap;
            cap[node] = newCap;
            return;
        }
        int to = alloc(newCap);
        // Read after the allocation, which may have compacted the pool and moved this leaf.
        int from = leafStart(node);
        int s = leafSize(node);
        System.arraycopy(ids, from, ids, to, s);
        System.arraycopy(co, 4 * from, co, 4 * to, 4 * s);
        release(from, cap[node]);
        setLeaf(node, to, s, newCap);
    }

    private void leafRemoveAt(int node, int at) {
        int last = leafStart(node) + leafSize(node) - 1;
        if (at != last) {
            ids[at] = ids[last];
            System.arraycopy(co, 4 * last, co, 4 * at, 4);
        }
        ids[last] = null;
        rec[2 * node + 1]--;
    }

    /** Four fresh empty leaves at consecutive indexes; returns the first. */
    private int allocBlock() {
        int b;
        if (freeCount > 0) {
            b = freeBlocks[--freeCount];
        } else {
            if (used + 4 > markers.length) {
                int n = markers.length + (markers.length >> 1) + 4;
                rec = Arrays.copyOf(rec, 2 * n);
                markers = Arrays.copyOf(markers, n);
                cap = Arrays.copyOf(cap, n);
                refusedAt = Arrays.copyOf(refusedAt, n);
            }
            b = used;
            used += 4;
        }
        for (int k = b; k < b + 4; k++) {
            markers[k] = null;
            setLeaf(k, 0, 0, 0);
            refusedAt[k] = 0;
        }
        return b;
    }

    private void freeBlock(int b) {
        for (int k = b; k < b + 4; k++) {
            if (isLeaf(k)) {
                release(leafStart(k), cap[k]);
            } else {
                freeBlock(child(k));
            }
            markers[k] = null;
            setLeaf(k, 0, 0, 0);
        }
        if (freeCount == freeBlocks.length) {
            freeBlocks = Arrays.copyOf(freeBlocks, 2 * freeCount);
        }
        freeBlocks[freeCount++] = b;
    }

    /** Shrinks every array to its contents and fills the lookup table, for a tree just built. */
    void finishBuild() {
        gridChanges.clear();
        grid = Grid.over(root, Grid.depthFor(used));
        grid.fill(this);
        rec = Arrays.copyOf(rec, 2 * used);
        markers = Arrays.copyOf(markers, used);
        cap = Arrays.copyOf(cap, used);
        refusedAt = Arrays.copyOf(refusedAt, used);
        if (garbage > 0) {
            compact(0);
        }
        ids = Arrays.copyOf(ids, poolUsed);
        co = Arrays.copyOf(co, 4 * poolUsed);
    }

    private void addMarker(int node, Object id, double a, double b, double c, double d) {
        if (markers[node] == null) {
            markers[node] = new Entries();
            rec[2 * node] |= 1;
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
        if (cell.coveredBy(a, b, c, d)) {
            if (!isLeaf(node)) {
                rec[2 * node + 1]++;
            }
            if (markers[node] == null) {
                changed(cell);
            }
            addMarker(node, id, a, b, c, d);
            placed(node, cell, id, a, b);
            return;
        }
        if (isLeaf(node)) {
            leafAppend(node, id, a, b, c, d);
            placed(node, cell, id, a, b);
            if (wantsSplit(node, cell, capacity, maxDepth)) {
                split(node, cell, capacity, maxDepth);
            }
            return;
        }
        rec[2 * node + 1]++;
        int f = child(node);
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
        if (cell.coveredBy(a, b, c, d)) {
            if (!isLeaf(node)) {
                rec[2 * node + 1]--;
            }
            Entries m = markers[node];
            m.remove(id, a, b, c, d);
            if (m.size == 0) {
                markers[node] = null;
                rec[2 * node] &= ~1;
                changed(cell);
            }
            return;
        }
        if (isLeaf(node)) {
            leafRemoveAt(node, find(ids, co, leafStart(node), leafSize(node), id, a, b, c, d));
            return;
        }
        rec[2 * node + 1]--;
        int f = child(node);
        int touched = cell.touched(a, b, c, d);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                remove(f + q, cell.child(q), id, a, b, c, d, capacity);
            }
        }
        if (count(node) - markerCount(node) <= capacity) {
            collapse(node, cell);
        }
    }

    /**
     * True for a leaf over capacity that may split. After a refused split, the next try waits until
     * the leaf has doubled, so that inserts into a leaf that cannot be separated stay O(1)
     * amortized.
     */
    private boolean wantsSplit(int node, Cell cell, int capacity, int maxDepth) {
        int size = leafSize(node);
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
     * @param co the boxes, packed; the {@code n} boxes of the leaf start at box {@code from}
     */
    static boolean splitPays(Cell[] quads, double[] co, int from, int n) {
        int[] partialIn = new int[4];
        long copies = 0;
        for (int j = 4 * from; j < 4 * (from + n); j += 4) {
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
            int s = leafSize(n);
            int start = leafStart(n);
            Cell[] quads = p.cell().quadrants();
            if (!splitPays(quads, co, start, s)) {
                refusedAt[n] = s;
                continue;
            }
            Object[] fromIds = Arrays.copyOfRange(ids, start, start + s);
            double[] fromCo = Arrays.copyOfRange(co, 4 * start, 4 * (start + s));
            release(start, cap[n]);
            setLeaf(n, 0, 0, 0);
            int f = allocBlock();
            fill(f, p.cell(), quads, fromCo, fromIds, s);
            setInner(n, f, s + markerCount(n));
            changed(p.cell());
            for (int q = 0; q < 4; q++) {
                if (wantsSplit(f + q, quads[q], capacity, maxDepth)) {
                    work.push(new Pending(f + q, quads[q]));
                }
            }
        }
    }

    /** Hands n boxes that meet the cell and do not cover it to the four fresh leaves at f. */
    private void fill(int f, Cell cell, Cell[] quads, double[] from, Object[] fromIds, int n) {
        byte[] route = new byte[n];
        int[] partialIn = new int[4];
        for (int i = 0, j = 0; i < n; i++, j += 4) {
            int touched = cell.touched(from[j], from[j + 1], from[j + 2], from[j + 3]);
            route[i] = (byte) touched;
            for (int q = 0; q < 4; q++) {
                if ((touched & (1 << q)) != 0
                        && !quads[q].coveredBy(from[j], from[j + 1], from[j + 2], from[j + 3])) {
                    partialIn[q]++;
                }
            }
        }
        for (int q = 0; q < 4; q++) {
            newLeaf(f + q, partialIn[q]);
        }
        for (int i = 0, j = 0; i < n; i++, j += 4) {
            double a = from[j], b = from[j + 1], c = from[j + 2], d = from[j + 3];
            for (int q = 0; q < 4; q++) {
                if ((route[i] & (1 << q)) != 0) {
                    if (quads[q].coveredBy(a, b, c, d)) {
                        addMarker(f + q, fromIds[i], a, b, c, d);
                    } else {
                        leafAppend(f + q, fromIds[i], a, b, c, d);
                    }
                    placed(f + q, quads[q], fromIds[i], a, b);
                }
            }
        }
    }

    /** Makes an inner node a leaf holding every distinct item stored below it, each once. */
    private void collapse(int node, Cell cell) {
        Entries merged = new Entries(count(node) - markerCount(node));
        int f = child(node);
        Cell[] quads = cell.quadrants();
        for (int q = 0; q < 4; q++) {
            gather(f + q, quads[q], merged, cell);
        }
        freeBlock(f);
        newLeaf(node, merged.size);
        changed(cell);
        double[] mc = merged.coords;
        for (int i = 0, j = 0; i < merged.size; i++, j += 4) {
            leafAppend(node, merged.ids[i], mc[j], mc[j + 1], mc[j + 2], mc[j + 3]);
            placed(node, cell, merged.ids[i], mc[j], mc[j + 1]);
        }
    }

    /**
     * Adds to {@code out} each item stored in this subtree whose reference point, the low corner of
     * its box clipped to {@code top}, lies in the part of {@code top} that this node owns: each
     * distinct item exactly once over all the subtrees of {@code top}.
     */
    private void gather(int node, Cell cell, Entries out, Cell top) {
        Entries m = markers[node];
        if (m != null) {
            gatherFrom(m.ids, m.coords, 0, m.size, cell, out, top);
        }
        if (isLeaf(node)) {
            gatherFrom(ids, co, leafStart(node), leafSize(node), cell, out, top);
        } else {
            int f = child(node);
            Cell[] quads = cell.quadrants();
            for (int q = 0; q < 4; q++) {
                gather(f + q, quads[q], out, top);
            }
        }
    }

    private static void gatherFrom(
            Object[] ids, double[] co, int from, int size, Cell cell, Entries out, Cell top) {
        for (int i = from, j = 4 * from; i < from + size; i++, j += 4) {
            double rx = Math.max(co[j], top.minX);
            double ry = Math.max(co[j + 1], top.minY);
            if (cell.owns(rx, ry, top.maxX, top.maxY)) {
                out.add(ids[i], co[j], co[j + 1], co[j + 2], co[j + 3]);
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
            Consumer<? super T> out) {
        Entries m = markers[node];
        if (m != null) {
            // A marker covers this cell, which meets the area: no box test, only the owner test.
            double[] mc = m.coords;
            for (int i = 0, j = 0; i < m.size; i++, j += 4) {
                if (cell.owns(Math.max(qa, mc[j]), Math.max(qb, mc[j + 1]), edgeX, edgeY)) {
                    out.accept((T) m.ids[i]);
                }
            }
        }
        if (isLeaf(node)) {
            int start = leafStart(node);
            for (int i = start, j = 4 * start; i < start + leafSize(node); i++, j += 4) {
                if (co[j] <= qc && co[j + 2] >= qa && co[j + 1] <= qd && co[j + 3] >= qb) {
                    if (cell.owns(Math.max(qa, co[j]), Math.max(qb, co[j + 1]), edgeX, edgeY)) {
                        out.accept((T) ids[i]);
                    }
                }
            }
            return;
        }
        int f = child(node);
        int touched = cell.touched(qa, qb, qc, qd);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                query(f + q, cell.child(q), qa, qb, qc, qd, out);
            }
        }
    }

    /**
     * Fills an empty leaf with {@code n} items ({@code ids[i]} with its box at {@code
     * co[4i..4i+4)}) in one top-down pass. Each level copies its items' boxes into packed arrays
     * per quadrant, so every pass reads memory in order (routing indexes into one big array instead
     * made each level a round of cache misses, slower than inserting one at a time); every leaf's
     * block is allocated at its final size, and siblings' subtrees are laid out one after the
     * other.
     */
    void build(
            int node, Cell cell, double[] bco, Object[] bids, int n, int capacity, int maxDepth) {
        Cell[] quads = cell.quadrants();
        // Per item: -1 for a marker, else the quadrants its box touches.
        byte[] route = new byte[n];
        int[] partialIn = new int[4];
        long copies = 0;
        int nMarkers = 0;
        for (int i = 0, j = 0; i < n; i++, j += 4) {
            double a = bco[j], b = bco[j + 1], c = bco[j + 2], d = bco[j + 3];
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
                    m.add(bids[i], bco[j], bco[j + 1], bco[j + 2], bco[j + 3]);
                    placed(node, cell, bids[i], bco[j], bco[j + 1]);
                }
            }
            markers[node] = m;
            rec[2 * node] |= 1;
        }
        int partial = n - nMarkers;
        boolean split = partial > capacity && cell.splittable(maxDepth);
        if (split && !pays(partialIn, copies, partial)) {
            split = false;
        }
        if (!split) {
            newLeaf(node, partial);
            if (partial > capacity && cell.splittable(maxDepth)) {
                refusedAt[node] = partial;
            }
            for (int i = 0, j = 0; i < n; i++, j += 4) {
                if (route[i] >= 0) {
                    leafAppend(node, bids[i], bco[j], bco[j + 1], bco[j + 2], bco[j + 3]);
                    placed(node, cell, bids[i], bco[j], bco[j + 1]);
                }
            }
            return;
        }
        int f = allocBlock();
        setInner(node, f, n);
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
                    System.arraycopy(bco, 4 * i, subCo, 4 * k, 4);
                    subIds[k++] = bids[i];
                }
            }
            build(f + q, quads[q], subCo, subIds, k, capacity, maxDepth);
        }
    }
}
