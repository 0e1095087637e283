package org.quadfence.geo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cuts a polygon's edges to the cells of a {@link CellGrid}: the engine behind {@link Polygon#cut}
 * and the polygon's own lookup ({@link PolygonLookup}). See {@link PolygonPiece} for why the result
 * is exact.
 *
 * <p>Steps: (1) walk each edge through the grid row by row and record every cell whose closed box
 * it meets (exact test; rounding only picks candidates), and, for a distance, every cell that has a
 * point within that distance of the edge (a conservative superset); (2) sort these incidences by
 * row and, within a row, from east to west; (3) sweep each row from east to west carrying one
 * inside/outside bit per polygon for the reference point, emitting a piece for each cell with
 * incidences (its edges arranged in a small quadtree by {@link PolygonTree}) and a covered cell for
 * each run of cells with none while some polygon's bit is set. Cost: O(k log k) for k incidences
 * (about the number of cells the edges pass through) plus one step per covered cell emitted; rows
 * the polygon does not reach cost nothing.
 */
final class PolygonCutter {

    private static final int NEAR = 1 << 30;
    private static final int SEAM = 1 << 29;
    private static final int INDEX = SEAM - 1;
    // Widens candidate ranges computed with rounding; the exact tests then sort them out.
    private static final double PAD = 1e-9;

    private final double[] edges;
    private final int[] groupEnds;
    private final double[] seams;
    private final List<Box> reach;
    private final CellGrid grid;
    private final double margin;
    private final Polygon.CellSink sink;
    private final boolean boundaries;
    private final int c0;
    private final int c1;
    private final int r0;
    private final int r1;
    private final int[] groupOf;

    private int[] rows = new int[64];
    private int[] columns = new int[64];
    private int[] items = new int[64];
    private int count;

    private PolygonCutter(
            double[] edges,
            int[] groupEnds,
            double[] seams,
            List<Box> reach,
            CellGrid grid,
            double margin,
            boolean boundaries,
            Polygon.CellSink sink) {
        if (edges.length / 4 > INDEX) {
            throw new IllegalArgumentException("too many edges to cut: " + edges.length / 4);
        }
        this.edges = edges;
        this.groupEnds = groupEnds;
        this.seams = seams;
        this.reach = reach;
        this.grid = grid;
        this.margin = margin;
        this.sink = sink;
        this.boundaries = boundaries;
        int west = Integer.MAX_VALUE;
        int east = 0;
        double south = 90;
        double north = -90;
        for (Box b : reach) {
            west = Math.min(west, grid.firstColumn(b.minX()));
            east = Math.max(east, grid.column(b.maxX()));
            south = Math.min(south, b.minY());
            north = Math.max(north, b.maxY());
        }
        this.c0 = seams.length > 0 ? 0 : west;
        this.c1 = east;
        this.r0 = grid.firstRow(south);
        this.r1 = grid.row(north);
        this.groupOf = new int[edges.length / 4];
        for (int g = 0, i = 0; g < groupEnds.length; g++) {
            for (; i < groupEnds[g]; i += 4) {
                groupOf[i / 4] = g;
            }
        }
    }

    /**
     * Cuts and reports every cell with something to keep, rows from north to south and west to east
     * within a row.
     *
     * @param edges x1, y1, x2, y2 per edge, polygon by polygon
     * @param groupEnds where each polygon's edges end in {@code edges}
     * @param seams segments on lon -180 to keep in column 0 for the on-boundary test, or empty
     * @param reach boxes covering every point the pieces must answer for; they set the grid range
     * @param margin the distance pieces must answer for, 0 for containment only
     * @param boundaries whether pieces must also answer {@link PolygonPiece#boundaryMeters} within
     *     the margin: then a covered cell with an edge within the margin of it gets a piece that
     *     covers it and keeps those edges, and only a cell deeper inside is reported as covered
     */
    static void cut(
            double[] edges,
            int[] groupEnds,
            double[] seams,
            List<Box> reach,
            CellGrid grid,
            double margin,
            boolean boundaries,
            Polygon.CellSink sink) {
        PolygonCutter cutter =
                new PolygonCutter(edges, groupEnds, seams, reach, grid, margin, boundaries, sink);
        cutter.walkEdges();
        if (margin > 0) {
            cutter.walkNear();
        }
        cutter.walkSeams();
        cutter.sweep();
    }

    private void add(int row, int column, int item) {
        if (count == rows.length) {
            rows = Arrays.copyOf(rows, 2 * count);
            columns = Arrays.copyOf(columns, 2 * count);
            items = Arrays.copyOf(items, 2 * count);
        }
        rows[count] = row;
        columns[count] = column;
        items[count] = item;
        count++;
    }

    // Every cell whose closed box the edge meets: rows it spans, then in each row the columns its
    // part in that row spans (rounded outward), each confirmed by the exact test.
    private void walkEdges() {
        double[] e = edges;
        if (c0 == c1 && r0 == r1) {
            // The reach lies in one closed cell, and every edge within the reach: each edge meets
            // that cell and no other. A dispatch zone lies in one tile, and walking its edges
            // through the grid was half of the FenceRouter's work under fence churn.
            for (int i = 0; i < e.length; i += 4) {
                add(r0, c0, i / 4);
            }
            return;
        }
        for (int i = 0; i < e.length; i += 4) {
            double ax = e[i];
            double ay = e[i + 1];
            double bx = e[i + 2];
            double by = e[i + 3];
            int first = Math.max(c0, grid.firstColumn(Math.min(ax, bx)));
            int last = Math.min(c1, grid.column(Math.max(ax, bx)));
            int top = Math.min(r1, grid.row(Math.max(ay, by)));
            for (int r = Math.max(r0, grid.firstRow(Math.min(ay, by))); r <= top; r++) {
                double south = grid.south(r);
                double north = grid.south(r + 1);
                double[] xs = xRange(ax, ay, bx, by, south, north);
                int from = Math.max(first, grid.firstColumn(xs[0] - PAD));
                int to = Math.min(last, grid.column(xs[1] + PAD));
                for (int c = from; c <= to; c++) {
                    if (Segments.touchesBox(
                            ax, ay, bx, by, grid.west(c), south, grid.west(c + 1), north)) {
                        add(r, c, i / 4);
                    }
                }
            }
        }
    }

    // Every cell with a point within the margin of the edge, by the reach of Earth.grow applied to
    // the edge's part in each row band grown by the margin's latitude reach.
    private void walkNear() {
        double dLat = Earth.latReachDegrees(margin);
        double[] e = edges;
        for (int i = 0; i < e.length; i += 4) {
            double ax = e[i];
            double ay = e[i + 1];
            double bx = e[i + 2];
            double by = e[i + 3];
            double minY = Math.min(ay, by);
            double maxY = Math.max(ay, by);
            int top = Math.min(r1, grid.row(Math.min(90, maxY + dLat)));
            for (int r = Math.max(r0, grid.firstRow(Math.max(-90, minY - dLat))); r <= top; r++) {
                double south = grid.south(r) - dLat;
                double north = grid.south(r + 1) + dLat;
                double[] xs = xRange(ax, ay, bx, by, south, north);
                double lo = Math.max(south, minY);
                double hi = Math.min(north, maxY);
                double dLon = Earth.lonReachDegrees(margin, Math.max(Math.abs(lo), Math.abs(hi)));
                double west = xs[0] - dLon - PAD;
                double east = xs[1] + dLon + PAD;
                if (east - west >= 360 || (west < -180 && east > 180)) {
                    addNear(r, -180, 180, i / 4);
                } else if (west < -180) {
                    addNear(r, -180, east, i / 4);
                    addNear(r, west + 360, 180, i / 4);
                } else if (east > 180) {
                    addNear(r, -180, east - 360, i / 4);
                    addNear(r, west, 180, i / 4);
                } else {
                    addNear(r, west, east, i / 4);
                }
            }
        }
    }

    private void addNear(int row, double west, double east, int edge) {
        int to = Math.min(c1, grid.column(east));
        for (int c = Math.max(c0, grid.firstColumn(west)); c <= to; c++) {
            add(row, c, edge | NEAR);
        }
    }

    // Seams lie on lon -180, the west edge of column 0.
    private void walkSeams() {
        for (int s = 0; s < seams.length; s += 4) {
            double lo = Math.min(seams[s + 1], seams[s + 3]);
            double hi = Math.max(seams[s + 1], seams[s + 3]);
            int top = Math.min(r1, grid.row(hi));
            for (int r = Math.max(r0, grid.firstRow(lo)); r <= top; r++) {
                add(r, 0, s / 4 | SEAM);
            }
        }
    }

    // The x-range of the part of the segment with y in [south, north], rounded: the caller pads.
    private static double[] xRange(
            double ax, double ay, double bx, double by, double south, double north) {
        if (ay == by) {
            return new double[] {Math.min(ax, bx), Math.max(ax, bx)};
        }
        double t0 = (south - ay) / (by - ay);
        double t1 = (north - ay) / (by - ay);
        double lo = Math.max(0, Math.min(1, Math.min(t0, t1)));
        double hi = Math.max(0, Math.min(1, Math.max(t0, t1)));
        double x0 = ax + lo * (bx - ax);
        double x1 = ax + hi * (bx - ax);
        return new double[] {Math.min(x0, x1), Math.max(x0, x1)};
    }

    private void sweep() {
        long[] byRow = new long[count];
        for (int k = 0; k < count; k++) {
            byRow[k] = (long) (r1 - rows[k]) << 32 | k;
        }
        Arrays.sort(byRow);
        Row row = new Row();
        for (int k = 0; k < count; ) {
            int r = r1 - (int) (byRow[k] >>> 32);
            int end = k;
            while (end < count && (int) (byRow[end] >>> 32) == r1 - r) {
                end++;
            }
            long[] cells = new long[end - k];
            for (int j = k; j < end; j++) {
                int m = (int) byRow[j];
                cells[j - k] = (long) (c1 - columns[m]) << 32 | items[m];
            }
            Arrays.sort(cells);
            row.sweep(r, cells);
            k = end;
        }
    }

    /** One row's sweep from east to west, with one reference bit per polygon. */
    private final class Row {
        private final boolean[] inside = new boolean[groupEnds.length];
        private int insideCount;
        private final List<Integer> outColumns = new ArrayList<>();
        private final List<PolygonPiece> outPieces = new ArrayList<>();

        // cells: (c1 - column) << 32 | item, sorted, so east to west and, within a cell, the
        // edges in order (polygon by polygon), then seams, then edges near the cell.
        void sweep(int r, long[] cells) {
            int previous = c1 + 1;
            for (int k = 0; k < cells.length; ) {
                int c = c1 - (int) (cells[k] >>> 32);
                int end = k;
                while (end < cells.length && c1 - (int) (cells[end] >>> 32) == c) {
                    end++;
                }
                emitRun(c + 1, previous - 1);
                cell(r, c, cells, k, end);
                previous = c;
                k = end;
            }
            emitRun(c0, previous - 1);
            for (int c = outColumns.size() - 1; c >= 0; c--) {
                sink.accept(outColumns.get(c), r, outPieces.get(c));
            }
            outColumns.clear();
            outPieces.clear();
            Arrays.fill(inside, false);
            insideCount = 0;
        }

        // Cells east of 'to' down to 'from' that no edge meets: covered while any bit is set.
        private void emitRun(int from, int to) {
            if (insideCount == 0) {
                return;
            }
            for (int c = to; c >= from; c--) {
                outColumns.add(c);
                outPieces.add(null);
            }
        }

        private void cell(int r, int c, long[] cells, int from, int to) {
            double west = grid.west(c);
            double east = grid.west(c + 1);
            double south = grid.south(r);
            double north = grid.south(r + 1);
            int plain = from;
            while (plain < to && (int) cells[plain] < SEAM) {
                plain++;
            }
            boolean covered = coveredByUntouched(cells, from, plain);
            for (int k = from; k < plain && !covered; ) {
                int g = groupOf[(int) cells[k]];
                int end = k;
                while (end < plain && groupOf[(int) cells[end]] == g) {
                    end++;
                }
                covered = covers(cells, k, end, inside[g], west, south, east, north);
                k = end;
            }
            if (covered && boundaries) {
                outColumns.add(c);
                outPieces.add(coveredPiece(cells, from, plain, to, west, south, east, north));
            } else if (covered) {
                outColumns.add(c);
                outPieces.add(null);
            } else {
                PolygonPiece piece = piece(cells, from, plain, to, west, south, east, north);
                if (piece != null) {
                    outColumns.add(c);
                    outPieces.add(piece);
                }
            }
            for (int k = from; k < plain; k++) {
                int i = 4 * (int) cells[k];
                if (Segments.crossesEast(
                        edges[i], edges[i + 1], edges[i + 2], edges[i + 3], west, north, east)) {
                    int g = groupOf[i / 4];
                    inside[g] = !inside[g];
                    insideCount += inside[g] ? 1 : -1;
                }
            }
        }

        // True when a polygon with no edge in the cell has its bit set: it holds the whole cell.
        private boolean coveredByUntouched(long[] cells, int from, int to) {
            int set = 0;
            int last = -1;
            for (int k = from; k < to; k++) {
                int g = groupOf[(int) cells[k]];
                if (g != last && inside[g]) {
                    set++;
                }
                last = g;
            }
            return insideCount > set;
        }

        // True when no edge of this polygon enters the open cell and the cell's centre is
        // inside: then the whole closed cell is inside this polygon.
        private boolean covers(
                long[] cells,
                int from,
                int to,
                boolean in,
                double west,
                double south,
                double east,
                double north) {
            double x = (west + east) / 2;
            double y = (south + north) / 2;
            if (!(x > west && x < east && y > south && y < north)) {
                return false;
            }
            for (int k = from; k < to; k++) {
                int i = 4 * (int) cells[k];
                double ax = edges[i];
                double ay = edges[i + 1];
                double bx = edges[i + 2];
                double by = edges[i + 3];
                if (Segments.entersOpenBox(ax, ay, bx, by, west, south, east, north)) {
                    return false;
                }
                if (Segments.crossesEast(ax, ay, bx, by, x, y, east)) {
                    in = !in;
                }
                if (Segments.crossesNorth(ax, ay, bx, by, y, east, north)) {
                    in = !in;
                }
            }
            return in;
        }

        // A cell wholly inside whose boundary distances matter: one covered leaf, with every edge
        // that meets the cell or comes within the margin of it kept for distances only.
        private PolygonPiece coveredPiece(
                long[] cells,
                int from,
                int plain,
                int to,
                double west,
                double south,
                double east,
                double north) {
            int seamEnd = plain;
            while (seamEnd < to && (int) cells[seamEnd] < NEAR) {
                seamEnd++;
            }
            int[] near = nearEdges(cells, from, plain, seamEnd, to);
            double[] kept = new double[4 * (plain - from + near.length)];
            for (int k = from; k < plain; k++) {
                System.arraycopy(edges, 4 * (int) cells[k], kept, 4 * (k - from), 4);
            }
            for (int k = 0; k < near.length; k++) {
                System.arraycopy(edges, 4 * near[k], kept, 4 * (plain - from + k), 4);
            }
            double[] seamCoords = new double[4 * (seamEnd - plain)];
            for (int k = plain; k < seamEnd; k++) {
                System.arraycopy(
                        seams, 4 * ((int) cells[k] & INDEX), seamCoords, 4 * (k - plain), 4);
            }
            return new PolygonPiece(
                    west,
                    south,
                    east,
                    north,
                    west,
                    south,
                    east,
                    north,
                    new int[] {0, 1},
                    new int[] {0},
                    new boolean[] {true},
                    new double[0],
                    kept,
                    seamCoords);
        }

        private PolygonPiece piece(
                long[] cells,
                int from,
                int plain,
                int to,
                double west,
                double south,
                double east,
                double north) {
            Box cell = new Box(west, south, east, north);
            double minX = Double.POSITIVE_INFINITY;
            double minY = Double.POSITIVE_INFINITY;
            double maxX = Double.NEGATIVE_INFINITY;
            double maxY = Double.NEGATIVE_INFINITY;
            for (Box b : reach) {
                Box part = b.intersection(cell);
                if (part != null) {
                    minX = Math.min(minX, part.minX());
                    minY = Math.min(minY, part.minY());
                    maxX = Math.max(maxX, part.maxX());
                    maxY = Math.max(maxY, part.maxY());
                }
            }
            int seamEnd = plain;
            while (seamEnd < to && (int) cells[seamEnd] < NEAR) {
                seamEnd++;
            }
            double[] seamCoords = new double[4 * (seamEnd - plain)];
            for (int k = plain; k < seamEnd; k++) {
                int s = 4 * ((int) cells[k] & INDEX);
                System.arraycopy(seams, s, seamCoords, 4 * (k - plain), 4);
                minX = -180;
                maxX = Math.max(maxX, -180);
                minY = Math.min(minY, Math.max(south, Math.min(seams[s + 1], seams[s + 3])));
                maxY = Math.max(maxY, Math.min(north, Math.max(seams[s + 1], seams[s + 3])));
            }
            if (minX > maxX || minY > maxY) {
                // Only near the margin's conservative cover, outside the grown bounds.
                return null;
            }
            double[] coords = new double[4 * (plain - from)];
            int groups = 0;
            for (int k = from; k < plain; k++) {
                int edge = (int) cells[k];
                System.arraycopy(edges, 4 * edge, coords, 4 * (k - from), 4);
                groups += k == from || groupOf[edge] != groupOf[(int) cells[k - 1]] ? 1 : 0;
            }
            int[] ends = new int[groups];
            boolean[] bits = new boolean[groups];
            for (int k = from, g = 0; k < plain; k++) {
                int edge = (int) cells[k];
                if (k == plain - 1 || groupOf[(int) cells[k + 1]] != groupOf[edge]) {
                    ends[g] = 4 * (k + 1 - from);
                    bits[g++] = inside[groupOf[edge]];
                }
            }
            int[] near = nearEdges(cells, from, plain, seamEnd, to);
            double[] nearCoords = new double[4 * near.length];
            for (int k = 0; k < near.length; k++) {
                System.arraycopy(edges, 4 * near[k], nearCoords, 4 * k, 4);
            }
            return PolygonTree.piece(
                    new Box(minX, minY, maxX, maxY),
                    cell,
                    coords,
                    ends,
                    bits,
                    nearCoords,
                    seamCoords);
        }

        // The near edges of the cell, sorted, without repeats and without the cell's own edges.
        private int[] nearEdges(long[] cells, int from, int plain, int nearFrom, int to) {
            int[] near = new int[to - nearFrom];
            int n = 0;
            int own = from;
            for (int k = nearFrom; k < to; k++) {
                int edge = (int) cells[k] & INDEX;
                if (n > 0 && near[n - 1] == edge) {
                    continue;
                }
                while (own < plain && (int) cells[own] < edge) {
                    own++;
                }
                if (own < plain && (int) cells[own] == edge) {
                    continue;
                }
                near[n++] = edge;
            }
            return Arrays.copyOf(near, n);
        }
    }
}
