package org.quadfence.index;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One node of the quadtree: a cell, the markers (boxes that cover the whole cell), and either four
 * children or, for a leaf, the boxes that meet the cell without covering it.
 *
 * <p>Placement is canonical: an item is stored at every node that its insertion descent reaches and
 * where it stops, that is where it covers the cell (a marker) or where the node is a leaf. The
 * nodes holding one item never lie on one root-to-leaf path, and their cells cover the item's box.
 * Splits and collapses keep this form, so the shape of the tree alone says where an item is.
 */
final class Node {
    final Cell cell;
    // Copies of the cell's split lines: the point query reads them without loading the cell.
    final double midX;
    final double midY;

    /** Four children in quadrant order, or null for a leaf. */
    Node[] kids;

    /** A leaf's boxes that meet the cell without covering it; null for an inner node. */
    Entries items;

    /** Boxes covering the whole cell; null when there are none. */
    Entries markers;

    /** Distinct items stored in this subtree, this node's markers included. */
    int count;

    /**
     * Leaf size at which a split was last refused because it would separate nothing; 0 if never.
     */
    int refusedAt;

    Node(Cell cell) {
        this.cell = cell;
        this.midX = cell.midX;
        this.midY = cell.midY;
        this.items = new Entries();
    }

    int markerCount() {
        return markers == null ? 0 : markers.size;
    }

    /** Adds an item whose box meets this cell and no ancestor's cell is covered by it. */
    void insert(Object id, double a, double b, double c, double d, int capacity, int maxDepth) {
        count++;
        if (cell.coveredBy(a, b, c, d)) {
            if (markers == null) {
                markers = new Entries();
            }
            markers.add(id, a, b, c, d);
            return;
        }
        if (kids == null) {
            items.add(id, a, b, c, d);
            if (wantsSplit(capacity, maxDepth)) {
                split(capacity, maxDepth);
            }
            return;
        }
        int touched = cell.touched(a, b, c, d);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                kids[q].insert(id, a, b, c, d, capacity, maxDepth);
            }
        }
    }

    /**
     * Removes an item known to be stored here with this box. Collapses this node back into a leaf
     * when the items below it fall to the capacity.
     */
    void remove(Object id, double a, double b, double c, double d, int capacity) {
        count--;
        if (cell.coveredBy(a, b, c, d)) {
            markers.remove(id);
            if (markers.size == 0) {
                markers = null;
            }
            return;
        }
        if (kids == null) {
            items.remove(id);
            return;
        }
        int touched = cell.touched(a, b, c, d);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                kids[q].remove(id, a, b, c, d, capacity);
            }
        }
        if (count - markerCount() <= capacity) {
            collapse();
        }
    }

    /**
     * True for a leaf over capacity that may split. After a refused split, the next try waits until
     * the leaf has doubled, so that inserts into a leaf that cannot be separated stay O(1)
     * amortized.
     */
    private boolean wantsSplit(int capacity, int maxDepth) {
        return items.size > capacity && items.size >= 2 * refusedAt && cell.splittable(maxDepth);
    }

    /**
     * False when a split would separate nothing: two or more quadrants would each get all {@code n}
     * boxes as partial boxes. Such boxes share a line across the cell (the common edge of identical
     * boxes, or lines on one meridian); splitting would only copy them, and the copies would split
     * again, into every cell along that line down to the maximum depth: 2^depth copies for a few
     * boxes. One quadrant getting everything is fine (a cluster: deeper cells separate it).
     *
     * @param idx indexes of the boxes in {@code co}, or null for the first {@code n}
     */
    static boolean splitSeparates(Cell[] quads, double[] co, int[] idx, int n) {
        int[] partial = new int[4];
        for (int i = 0; i < n; i++) {
            int j = 4 * (idx == null ? i : idx[i]);
            double a = co[j], b = co[j + 1], c = co[j + 2], d = co[j + 3];
            for (int q = 0; q < 4; q++) {
                if (quads[q].meets(a, b, c, d) && !quads[q].coveredBy(a, b, c, d)) {
                    partial[q]++;
                }
            }
        }
        int full = 0;
        for (int q = 0; q < 4; q++) {
            if (partial[q] == n) {
                full++;
            }
        }
        return full < 2;
    }

    private static Cell[] quadrants(Cell cell) {
        return new Cell[] {cell.child(0), cell.child(1), cell.child(2), cell.child(3)};
    }

    /**
     * Turns this leaf into an inner node, and any child that still holds too many boxes, without
     * recursion: thousands of identical boxes at one spot go down to the maximum depth in one pass.
     */
    private void split(int capacity, int maxDepth) {
        ArrayDeque<Node> work = new ArrayDeque<>();
        work.push(this);
        while (!work.isEmpty()) {
            Node n = work.pop();
            Entries from = n.items;
            Cell[] quads = quadrants(n.cell);
            if (!splitSeparates(quads, from.coords, null, from.size)) {
                n.refusedAt = from.size;
                continue;
            }
            Node[] k = new Node[4];
            for (int q = 0; q < 4; q++) {
                k[q] = new Node(quads[q]);
            }
            double[] co = from.coords;
            for (int i = 0, j = 0; i < from.size; i++, j += 4) {
                int touched = n.cell.touched(co[j], co[j + 1], co[j + 2], co[j + 3]);
                for (int q = 0; q < 4; q++) {
                    if ((touched & (1 << q)) != 0) {
                        k[q].place(from, i);
                    }
                }
            }
            n.items = null;
            n.kids = k;
            for (Node kid : k) {
                if (kid.wantsSplit(capacity, maxDepth)) {
                    work.push(kid);
                }
            }
        }
    }

    /** Puts pair {@code i} of {@code from} into this new leaf, as a marker or as an item. */
    private void place(Entries from, int i) {
        count++;
        int j = 4 * i;
        double[] co = from.coords;
        if (cell.coveredBy(co[j], co[j + 1], co[j + 2], co[j + 3])) {
            if (markers == null) {
                markers = new Entries();
            }
            markers.addFrom(from, i);
        } else {
            items.addFrom(from, i);
        }
    }

    /** Makes this inner node a leaf holding every distinct item stored below it, each once. */
    private void collapse() {
        Entries merged = new Entries(count - markerCount());
        for (Node kid : kids) {
            kid.gather(merged, cell);
        }
        kids = null;
        items = merged;
        refusedAt = 0;
    }

    /**
     * Adds to {@code out} each item stored in this subtree whose reference point, the low corner of
     * its box clipped to {@code top}, lies in the part of {@code top} that this node owns: each
     * distinct item exactly once over all the subtrees of {@code top}.
     */
    private void gather(Entries out, Cell top) {
        if (markers != null) {
            gatherFrom(markers, out, top);
        }
        if (kids == null) {
            gatherFrom(items, out, top);
        } else {
            for (Node kid : kids) {
                kid.gather(out, top);
            }
        }
    }

    private void gatherFrom(Entries from, Entries out, Cell top) {
        double[] co = from.coords;
        for (int i = 0, j = 0; i < from.size; i++, j += 4) {
            double rx = Math.max(co[j], top.minX);
            double ry = Math.max(co[j + 1], top.minY);
            if (cell.owns(rx, ry, top.maxX, top.maxY)) {
                out.addFrom(from, i);
            }
        }
    }

    /**
     * Reports every item stored in this subtree whose box meets the area, given that the area meets
     * this cell. An item stored in several nodes is reported only by the node that owns its
     * reference point (the low corner of box-and-area), so each is reported once with no set.
     */
    @SuppressWarnings("unchecked")
    <T> void query(
            double qa,
            double qb,
            double qc,
            double qd,
            double edgeX,
            double edgeY,
            Consumer<? super T> out) {
        if (markers != null) {
            // A marker covers this cell, which meets the area: no box test, only the owner test.
            double[] co = markers.coords;
            Object[] ids = markers.ids;
            for (int i = 0, j = 0; i < markers.size; i++, j += 4) {
                if (cell.owns(Math.max(qa, co[j]), Math.max(qb, co[j + 1]), edgeX, edgeY)) {
                    out.accept((T) ids[i]);
                }
            }
        }
        if (kids == null) {
            double[] co = items.coords;
            Object[] ids = items.ids;
            for (int i = 0, j = 0; i < items.size; i++, j += 4) {
                if (co[j] <= qc && co[j + 2] >= qa && co[j + 1] <= qd && co[j + 3] >= qb) {
                    if (cell.owns(Math.max(qa, co[j]), Math.max(qb, co[j + 1]), edgeX, edgeY)) {
                        out.accept((T) ids[i]);
                    }
                }
            }
            return;
        }
        int touched = cell.touched(qa, qb, qc, qd);
        for (int q = 0; q < 4; q++) {
            if ((touched & (1 << q)) != 0) {
                kids[q].query(qa, qb, qc, qd, edgeX, edgeY, out);
            }
        }
    }

    /**
     * Builds the subtree of a cell over the items {@code idx[0..n)} (indexes into {@code ids} and
     * {@code coords}) in one top-down pass: each item is routed once per level, and every array is
     * allocated at its final size. {@code idx} is reused as scratch.
     */
    static Node build(
            Cell cell,
            int[] idx,
            int n,
            Object[] ids,
            double[] coords,
            int capacity,
            int maxDepth) {
        Node node = new Node(cell);
        node.count = n;
        int markers = 0;
        for (int i = 0; i < n; i++) {
            int j = 4 * idx[i];
            if (cell.coveredBy(coords[j], coords[j + 1], coords[j + 2], coords[j + 3])) {
                markers++;
            }
        }
        if (markers > 0) {
            node.markers = new Entries(markers);
        }
        int partial = 0;
        for (int i = 0; i < n; i++) {
            int k = idx[i];
            int j = 4 * k;
            double a = coords[j], b = coords[j + 1], c = coords[j + 2], d = coords[j + 3];
            if (cell.coveredBy(a, b, c, d)) {
                node.markers.add(ids[k], a, b, c, d);
            } else {
                idx[partial++] = k;
            }
        }
        Cell[] quads = null;
        if (partial > capacity && cell.splittable(maxDepth)) {
            quads = quadrants(cell);
            if (!splitSeparates(quads, coords, idx, partial)) {
                quads = null;
                node.refusedAt = partial;
            }
        }
        if (quads == null) {
            Entries items = new Entries(partial);
            for (int i = 0; i < partial; i++) {
                int k = idx[i];
                int j = 4 * k;
                items.add(ids[k], coords[j], coords[j + 1], coords[j + 2], coords[j + 3]);
            }
            node.items = items;
            return node;
        }
        Node[] kids = new Node[4];
        for (int q = 0; q < 4; q++) {
            int bit = 1 << q;
            int m = 0;
            for (int i = 0; i < partial; i++) {
                int j = 4 * idx[i];
                if ((cell.touched(coords[j], coords[j + 1], coords[j + 2], coords[j + 3]) & bit)
                        != 0) {
                    m++;
                }
            }
            int[] sub = new int[m];
            m = 0;
            for (int i = 0; i < partial; i++) {
                int j = 4 * idx[i];
                if ((cell.touched(coords[j], coords[j + 1], coords[j + 2], coords[j + 3]) & bit)
                        != 0) {
                    sub[m++] = idx[i];
                }
            }
            kids[q] = build(quads[q], sub, m, ids, coords, capacity, maxDepth);
        }
        node.items = null;
        node.kids = kids;
        return node;
    }

    /** Nodes in this subtree. */
    int nodeCount() {
        if (kids == null) {
            return 1;
        }
        int total = 1;
        for (Node kid : kids) {
            total += kid.nodeCount();
        }
        return total;
    }

    /** Depth of the deepest node in this subtree. */
    int height() {
        if (kids == null) {
            return cell.depth;
        }
        int h = cell.depth;
        for (Node kid : kids) {
            h = Math.max(h, kid.height());
        }
        return h;
    }

    /** Stored (id, box) pairs in this subtree, replicas and markers counted each time. */
    long storedPairs() {
        long total = markerCount();
        if (kids == null) {
            return total + items.size;
        }
        for (Node kid : kids) {
            total += kid.storedPairs();
        }
        return total;
    }

    /**
     * Checks the structure and returns the distinct items of this subtree with their boxes, as
     * {@code double[4]}; throws {@link IllegalStateException} naming the first broken rule.
     */
    Map<Object, double[]> check(Cell parent, int capacity, int maxDepth) {
        Map<Object, double[]> here = new HashMap<>();
        if (markers != null) {
            require(markers.size > 0, "empty marker list kept");
            for (int i = 0; i < markers.size; i++) {
                double[] box = boxAt(markers, i);
                require(cell.coveredBy(box[0], box[1], box[2], box[3]), "marker not covering");
                require(here.put(markers.ids[i], box) == null, "marker twice");
                requireNotAbove(parent, box);
            }
        }
        if (kids == null) {
            require(items != null, "leaf without items");
            for (int i = 0; i < items.size; i++) {
                double[] box = boxAt(items, i);
                require(cell.meets(box[0], box[1], box[2], box[3]), "item off its cell");
                require(!cell.coveredBy(box[0], box[1], box[2], box[3]), "item should be marker");
                require(here.put(items.ids[i], box) == null, "item twice in a node");
                requireNotAbove(parent, box);
            }
            require(
                    items.size <= capacity
                            || !cell.splittable(maxDepth)
                            || items.size < 2 * refusedAt,
                    "leaf over capacity not split");
        } else {
            require(items == null, "inner node with items");
            Map<Object, double[]> below = new HashMap<>();
            @SuppressWarnings("unchecked")
            Map<Object, double[]>[] sub = new Map[4];
            for (int q = 0; q < 4; q++) {
                sub[q] = kids[q].check(cell, capacity, maxDepth);
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
        require(count == here.size(), "count " + count + " != " + here.size());
        return here;
    }

    private static double[] boxAt(Entries e, int i) {
        return java.util.Arrays.copyOfRange(e.coords, 4 * i, 4 * i + 4);
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
