package org.quadfence.index;

import java.util.Arrays;

/**
 * A lookup table over the top {@code k} levels of a quadtree, so that a point query starts its
 * descent at depth up to {@code k} instead of at the root: for each cell of the {@code 2^k x 2^k}
 * grid of depth-{@code k} cells, the node where the descent to that cell first stops or must look,
 * that is the first node on the path that is a leaf, has markers, or lies at depth {@code k}.
 *
 * <p>The grid lines are computed with the same halving as the tree's cells, so a point's grid cell,
 * found by arithmetic and then corrected against the lines, is exactly the cell that the descent
 * from the root reaches (half-open, as in {@link Cell#quadrant}). The owner of the tree refreshes
 * the entries under any node at depth below {@code k} whose link or markers change.
 */
final class Grid {
    /** The deepest table, 4^MAX_K entries. */
    static final int MAX_K = 10;

    final int k;
    final int side;
    final double[] xs;
    final double[] ys;
    final double scaleX;
    final double scaleY;

    /** Per grid cell (row-major, y then x): {@code node << 4 | depth} of the starting node. */
    final int[] start;

    private final double minX;
    private final double minY;

    /** A table of depth {@code k}, or shallower where the bounds cannot be halved that often. */
    static Grid over(Cell root, int k) {
        while (k > 0
                && !(increasing(lines(root.minX, root.maxX, k))
                        && increasing(lines(root.minY, root.maxY, k)))) {
            k--;
        }
        return new Grid(root, k);
    }

    /**
     * The depth suited to a tree of {@code nodes} nodes: a table with at most one entry per node
     * (measured on a million uniform fences: 298 ns a query with depth 8, against 414 with no
     * table; a table of a quarter of the nodes was slower at 100k fences, 152 against 133 ns).
     */
    static int depthFor(int nodes) {
        int k = 0;
        while (k < MAX_K && 4L << (2 * k) <= nodes) {
            k++;
        }
        return k;
    }

    private Grid(Cell root, int k) {
        this.k = k;
        this.side = 1 << k;
        this.minX = root.minX;
        this.minY = root.minY;
        this.xs = lines(root.minX, root.maxX, k);
        this.ys = lines(root.minY, root.maxY, k);
        this.scaleX = side / (root.maxX - root.minX);
        this.scaleY = side / (root.maxY - root.minY);
        this.start = new int[side * side];
    }

    /** The column of x, which lies in the root's bounds. */
    int column(double x) {
        return index(xs, x, (int) ((x - minX) * scaleX));
    }

    /** The row of y, which lies in the root's bounds. */
    int row(double y) {
        return index(ys, y, (int) ((y - minY) * scaleY));
    }

    /** The guess corrected against the lines: a value on a line goes to the cell above it. */
    private int index(double[] lines, double v, int guess) {
        int i = Math.min(Math.max(guess, 0), side - 1);
        while (i > 0 && v < lines[i]) {
            i--;
        }
        while (i < side - 1 && v >= lines[i + 1]) {
            i++;
        }
        return i;
    }

    /** Fills the whole table from the tree. */
    void fill(Nodes t) {
        fill(t, Nodes.ROOT, 0, 0, 0);
    }

    /** Refreshes the entries under a cell whose node changed (or was removed by a collapse). */
    void refresh(Nodes t, Cell cell) {
        if (cell.depth >= k) {
            return;
        }
        int span = side >> cell.depth;
        int gx = Arrays.binarySearch(xs, cell.minX);
        int gy = Arrays.binarySearch(ys, cell.minY);
        int node = Nodes.ROOT;
        for (int d = 0; d < cell.depth; d++) {
            if (stopsAt(t, node)) {
                set(node, d, gx, gy, span);
                return;
            }
            int s = side >> (d + 1);
            node = t.child(node) + ((gx & s) != 0 ? 1 : 0) + ((gy & s) != 0 ? 2 : 0);
        }
        fill(t, node, cell.depth, gx, gy);
    }

    private void fill(Nodes t, int node, int depth, int gx, int gy) {
        int span = side >> depth;
        if (depth == k || stopsAt(t, node)) {
            set(node, depth, gx, gy, span);
            return;
        }
        int half = span >> 1;
        int f = t.child(node);
        fill(t, f, depth + 1, gx, gy);
        fill(t, f + 1, depth + 1, gx + half, gy);
        fill(t, f + 2, depth + 1, gx, gy + half);
        fill(t, f + 3, depth + 1, gx + half, gy + half);
    }

    private static boolean stopsAt(Nodes t, int node) {
        return t.isLeaf(node) || t.markers[node] != null;
    }

    private void set(int node, int depth, int gx, int gy, int span) {
        int e = node << 4 | depth;
        for (int y = gy; y < gy + span; y++) {
            Arrays.fill(start, y * side + gx, y * side + gx + span, e);
        }
    }

    /** The 2^k + 1 split lines of [lo, hi] at depth k, halved as the tree halves its cells. */
    private static double[] lines(double lo, double hi, int k) {
        double[] a = new double[(1 << k) + 1];
        a[0] = lo;
        a[a.length - 1] = hi;
        halve(a, 0, a.length - 1);
        return a;
    }

    private static void halve(double[] a, int i, int j) {
        if (j - i < 2) {
            return;
        }
        int m = (i + j) >>> 1;
        a[m] = Cell.mid(a[i], a[j]);
        halve(a, i, m);
        halve(a, m, j);
    }

    private static boolean increasing(double[] a) {
        for (int i = 1; i < a.length; i++) {
            if (!(a[i - 1] < a[i])) {
                return false;
            }
        }
        return true;
    }
}
