package org.quadfence.geo;

import java.util.List;

/**
 * A polygon's own point lookup over one of its bounding boxes: the polygon cut ({@link
 * PolygonCutter}) to a {@link CellGrid} of about one cell per {@value #EDGES_PER_CELL} edges, with
 * the {@link PolygonPiece} of each cell the boundary passes through and a shared marker for cells
 * wholly inside. A lookup is two cell computations and an array read, then a short descent of one
 * piece's quadtree.
 */
final class PolygonLookup {

    private static final int EDGES_PER_CELL = 16;
    private static final PolygonPiece COVERED =
            new PolygonPiece(
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    new int[2],
                    new int[0],
                    new boolean[0],
                    new double[0],
                    new double[0],
                    new double[0]);

    private final Box box;
    private final CellGrid grid;
    private final int c0;
    private final int r0;
    private final int columns;
    private final PolygonPiece[] cells;

    /** The lookup for the polygons whose edges are given; {@code box} must hold them all. */
    PolygonLookup(Box box, double[] edges, int[] groupEnds) {
        this.box = box;
        double target = Math.max(1, edges.length / 4.0 / EDGES_PER_CELL);
        double w = box.maxX() - box.minX();
        double h = box.maxY() - box.minY();
        // Square cells of about area / target, but never more than target along one side.
        double side = Math.sqrt(w * h / target);
        this.grid =
                new CellGrid(
                        level(360, Math.max(side, w / target)),
                        level(180, Math.max(side, h / target)));
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
                (c, r, piece) ->
                        cells[(r - r0) * columns + c - c0] = piece == null ? COVERED : piece);
    }

    // The level whose cells are at most 'size' wide on a span of 'world' degrees.
    private static int level(double world, double size) {
        if (!(size > 0)) {
            return 30;
        }
        return (int) Math.max(0, Math.min(30, Math.ceil(Math.log(world / size) / Math.log(2))));
    }

    /** True when the point lies in the closed polygons. Exact. */
    boolean contains(double x, double y) {
        if (!box.contains(x, y)) {
            return false;
        }
        PolygonPiece piece = cells[(grid.row(y) - r0) * columns + grid.column(x) - c0];
        return piece == COVERED || (piece != null && piece.contains(x, y));
    }
}
