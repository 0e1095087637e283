package org.quadfence.geo;

import java.util.List;

/**
 * A polygon's own point lookup over one of its bounding boxes: the polygon cut ({@link
 * PolygonCutter}) to a {@link CellGrid} of about one cell per {@value #EDGES_PER_CELL} edges, with
 * the {@link PolygonPiece} of each cell the boundary passes through and a shared marker for cells
 * wholly inside. A lookup is two cell computations and an array read, then a short descent of one
 * piece's quadtree.
 *
 * <p>The grid is made coarser, one axis at a time, until the edges pass through at most about
 * {@value #CELLS_PER_EDGE} cells each on average: long edges lying close together (a comb of long
 * teeth 1e-9 degree apart) would otherwise be kept once in every cell they cross, cells times edges
 * in all. So the cells' edge references stay within a constant times the edges, and each piece's
 * quadtree within its budget ({@link PolygonTree}).
 */
final class PolygonLookup {

    private static final int EDGES_PER_CELL = 16;
    private static final int CELLS_PER_EDGE = 4;

    private final Box box;
    private final CellGrid grid;
    private final int c0;
    private final int r0;
    private final int columns;
    private final PolygonPiece[] cells;

    /** The lookup for the polygons whose edges are given; {@code box} must hold them all. */
    PolygonLookup(Box box, double[] edges, int[] groupEnds) {
        this.box = box;
        this.grid = grid(box, edges);
        this.c0 = grid.firstColumn(box.minX());
        this.r0 = grid.firstRow(box.minY());
        this.columns = grid.column(box.maxX()) - c0 + 1;
        this.cells = new PolygonPiece[columns * (grid.row(box.maxY()) - r0 + 1)];
        PolygonCutter.cut(
                edges,
                groupEnds,
                new double[0],
                List.of(box),
                grid,
                0,
                false,
                (c, r, piece) ->
                        cells[(r - r0) * columns + c - c0] =
                                piece == null ? PolygonPiece.COVERED : piece);
    }

    // Square cells of about area / target, but never more than target along one side; then
    // coarser along the axis the edges cross more cells of, while they cross too many.
    private static CellGrid grid(Box box, double[] edges) {
        int n = edges.length / 4;
        double target = Math.max(1, n / (double) EDGES_PER_CELL);
        double w = box.maxX() - box.minX();
        double h = box.maxY() - box.minY();
        double side = Math.sqrt(w * h / target);
        int columnLevel = level(360, Math.max(side, w / target));
        int rowLevel = level(180, Math.max(side, h / target));
        double spanX = 0;
        double spanY = 0;
        for (int i = 0; i < edges.length; i += 4) {
            spanX += Math.abs(edges[i + 2] - edges[i]);
            spanY += Math.abs(edges[i + 3] - edges[i + 1]);
        }
        // An axis at level 0 adds at most n, so the other one is the larger and above level 0.
        while (crossings(spanX, 360, columnLevel) + crossings(spanY, 180, rowLevel)
                > (double) CELLS_PER_EDGE * n) {
            if (crossings(spanX, 360, columnLevel) >= crossings(spanY, 180, rowLevel)) {
                columnLevel--;
            } else {
                rowLevel--;
            }
        }
        return new CellGrid(columnLevel, rowLevel);
    }

    // The cell lines that edges of total extent 'span' along one axis cross at a level.
    private static double crossings(double span, double world, int level) {
        return span / world * Math.scalb(1.0, level);
    }

    // The level whose cells are at most 'size' wide on a span of 'world' degrees.
    private static int level(double world, double size) {
        if (!(size > 0)) {
            return 30;
        }
        return (int) Math.max(0, Math.min(30, Math.ceil(Math.log(world / size) / Math.log(2))));
    }

    /** The edge references and nodes of its pieces. */
    long size() {
        long size = 0;
        for (PolygonPiece piece : cells) {
            if (piece != null && piece != PolygonPiece.COVERED) {
                size += piece.edges().length / 4 + piece.nodes().length / 2;
            }
        }
        return size;
    }

    /** True when the point lies in the closed polygons. Exact. */
    boolean contains(double x, double y) {
        if (!box.contains(x, y)) {
            return false;
        }
        PolygonPiece piece = cells[(grid.row(y) - r0) * columns + grid.column(x) - c0];
        return piece == PolygonPiece.COVERED || (piece != null && piece.contains(x, y));
    }
}
