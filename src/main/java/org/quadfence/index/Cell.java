package org.quadfence.index;

/**
 * The square (in general, rectangular) region of one quadtree node, and the rules that route points
 * and boxes into its four quadrants.
 *
 * <p>Quadrants are numbered {@code (x >= midX ? 1 : 0) | (y >= midY ? 2 : 0)}: 0 south-west, 1
 * south-east, 2 north-west, 3 north-east. For points the quadrants are half-open (a point on a
 * split line goes east or north, to exactly one quadrant); for closed boxes they are closed (a box
 * touching a split line touches both sides). Every comparison is exact.
 */
final class Cell {
    final double minX;
    final double minY;
    final double maxX;
    final double maxY;
    final double midX;
    final double midY;
    final int depth;

    Cell(double minX, double minY, double maxX, double maxY, int depth) {
        this.minX = minX;
        this.minY = minY;
        this.maxX = maxX;
        this.maxY = maxY;
        // The point query computes split lines with the same expression from the same bounds, so
        // every path agrees on them bit for bit.
        this.midX = mid(minX, maxX);
        this.midY = mid(minY, maxY);
        this.depth = depth;
    }

    /** The split line between two bounds. */
    static double mid(double lo, double hi) {
        return 0.5 * (lo + hi);
    }

    /** The quadrant a point goes to (half-open rule). */
    int quadrant(double x, double y) {
        return (x >= midX ? 1 : 0) | (y >= midY ? 2 : 0);
    }

    /** The cell of quadrant {@code q}. */
    Cell child(int q) {
        boolean east = (q & 1) != 0;
        boolean north = (q & 2) != 0;
        return new Cell(
                east ? midX : minX,
                north ? midY : minY,
                east ? maxX : midX,
                north ? maxY : midY,
                depth + 1);
    }

    /** The four quadrant cells, in quadrant order. */
    Cell[] quadrants() {
        return new Cell[] {child(0), child(1), child(2), child(3)};
    }

    /**
     * The quadrants that the closed box touches, as a bit set (bit q for quadrant q), assuming the
     * box meets this cell.
     */
    int touched(double bMinX, double bMinY, double bMaxX, double bMaxY) {
        boolean w = bMinX <= midX;
        boolean e = bMaxX >= midX;
        boolean s = bMinY <= midY;
        boolean n = bMaxY >= midY;
        return (w && s ? 1 : 0) | (e && s ? 2 : 0) | (w && n ? 4 : 0) | (e && n ? 8 : 0);
    }

    /** True when the closed box covers this whole cell: every point of the cell is in the box. */
    boolean coveredBy(double bMinX, double bMinY, double bMaxX, double bMaxY) {
        return bMinX <= minX && bMaxX >= maxX && bMinY <= minY && bMaxY >= maxY;
    }

    /** True when the closed box and this closed cell share a point. */
    boolean meets(double bMinX, double bMinY, double bMaxX, double bMaxY) {
        return bMinX <= maxX && bMaxX >= minX && bMinY <= maxY && bMaxY >= minY;
    }

    /**
     * True when the point lies in this cell's half-open part within an enclosing cell whose max
     * edges are {@code edgeX}, {@code edgeY}: a point on this cell's max edge belongs here only
     * when that edge is the enclosing cell's. The cells of one tree level own disjoint parts, which
     * is what makes reference-point de-duplication work.
     */
    boolean owns(double x, double y, double edgeX, double edgeY) {
        return x >= minX
                && (x < maxX || (x == maxX && maxX == edgeX))
                && y >= minY
                && (y < maxY || (y == maxY && maxY == edgeY));
    }

    /** True when this cell may split: above the maximum depth and halvable in both directions. */
    boolean splittable(int maxDepth) {
        // A cell a few ulps wide cannot be halved: its midpoint equals one of its edges.
        return depth < maxDepth && minX < midX && midX < maxX && minY < midY && midY < maxY;
    }

    @Override
    public String toString() {
        return "Cell[" + minX + ", " + minY + ", " + maxX + ", " + maxY + " @" + depth + "]";
    }
}
