package org.quadfence.geo;

import java.util.List;

/**
 * Where a path first meets a shape (contract section 10): the exact predicate and the first point.
 * Both the path and the shape are closed: a path that only touches the boundary meets the shape, a
 * rectangle that is a line or a point is met when the path meets it, and lon 180 and -180 are one
 * meridian.
 *
 * <p><b>Exact, except for circles.</b> For rectangles and polygons, whether the path meets the
 * shape is decided exactly on the given doubles ({@link Orientation}, and whole shifts of 360 kept
 * out of the rounding): a polygon is met when it holds a or the path meets one of its edges, and
 * then its first point is a or the first point on an edge. Only the fraction s is computed in
 * floating point, to about 1e-15 of the path (1e-13 degree at worst). For circles the test is
 * numeric: see {@link #first(Path, Shape)}.
 */
public final class PathCrossing {

    // The rounded fractions of a cell's part of a path are widened by this much.
    private static final double CLIP_SLACK = 1e-9;

    private PathCrossing() {}

    /**
     * The fraction s in [0, 1] of the first point of the closed path that lies in the closed shape,
     * or NaN when the path does not meet it; the point is ({@link Path#lonAt}(s), {@link
     * Path#latAt}(s)). s = 0 when a itself lies in the shape.
     *
     * <p>Rectangles and polygons: the decision is exact and s is rounded (see the class comment).
     * Circles: the path meets the circle when some point of it is within the radius by {@link
     * Earth#haversineMeters}. The search steps along the path by what the distance to the circle
     * allows (the path cannot come closer faster than its speed on the sphere) and prunes each
     * stretch whose bounding box lies outside the circle, so it finds every entry deeper than 1 mm,
     * which puts the first point within 1 mm of the true one, then bisects to s within 1e-12 of the
     * path. A path that touches the circle or goes in less than 1 mm may be reported as meeting it
     * at the touch or as missing it. Near the antipode of the centre the haversine distance itself
     * loses precision (to about a decimetre for a circle of 20,000 km).
     *
     * @throws IllegalArgumentException for a shape other than {@link Rectangle}, {@link Polygon} or
     *     {@link Circle}
     */
    public static double first(Path path, Shape shape) {
        if (shape instanceof Rectangle r) {
            return firstInBoxes(path, r.bounds());
        }
        if (shape instanceof Polygon p) {
            if (p.contains(path.fromLon(), path.fromLat())) {
                return 0;
            }
            return firstOnEdges(path, p.edges(), new double[0]);
        }
        if (shape instanceof Circle c) {
            return CircleSearch.first(path, c.lon(), c.lat(), c.radiusMeters(), 0, 1);
        }
        throw new IllegalArgumentException("not a fence shape: " + shape);
    }

    /**
     * The same for what one tile holds of a fence: the fraction of the first point of the path that
     * lies in the fence and in the tile's closed cell (lon 180 being -180 there), or NaN when there
     * is none. It may also answer a point of the path outside the cell that lies in the fence (an
     * edge met just beyond the cell), never one that does not. So over the tiles whose cells the
     * path meets ({@code TileGrid.tilesOnPath}), the smallest answer is {@link #first(Path, Shape)}
     * of the whole fence, and the path meets the fence exactly when some tile answers a number.
     *
     * <p>Exact as {@link #first(Path, Shape)}: {@link Boxes} by the boxes, a {@link PolygonPiece}
     * by a (when the cell holds it) and its edges, which are the fence's own; a {@link
     * RectanglePiece} by the whole rectangle; a {@link CirclePiece} by the circle search on the
     * path's part in the cell.
     *
     * @param cell the closed cell the piece was cut for
     */
    public static double first(Path path, ShapePiece piece, Box cell) {
        if (piece instanceof Boxes b) {
            return firstInBoxes(path, b.boxes());
        }
        if (piece instanceof RectanglePiece r) {
            return firstInBoxes(path, r.rect().bounds());
        }
        if (piece instanceof CirclePiece c) {
            return firstInCircleCell(path, c, cell);
        }
        PolygonPiece p = (PolygonPiece) piece;
        // a is asked of the piece only at a longitude the tiles hand over: 180 given as -180.
        double lon = path.fromLon() == 180 ? -180 : path.fromLon();
        if (cell.contains(lon, path.fromLat()) && p.contains(lon, path.fromLat())) {
            return 0;
        }
        return firstOnEdges(path, p.edges(), p.seams());
    }

    private static double firstInBoxes(Path path, List<Box> boxes) {
        double best = Double.NaN;
        for (PathLeg leg : path.legs()) {
            for (Box b : boxes) {
                best = min(best, leg.firstInBox(b.minX(), b.minY(), b.maxX(), b.maxY()));
            }
        }
        return best;
    }

    private static double firstOnEdges(Path path, double[] edges, double[] seams) {
        double best = Double.NaN;
        for (PathLeg leg : path.legs()) {
            best = min(best, firstOnEdges(leg, edges));
            best = min(best, firstOnEdges(leg, seams));
        }
        return best;
    }

    private static double firstOnEdges(PathLeg leg, double[] edges) {
        double best = Double.NaN;
        for (int i = 0; i < edges.length; i += 4) {
            best =
                    min(
                            best,
                            leg.firstOnSegment(edges[i], edges[i + 1], edges[i + 2], edges[i + 3]));
        }
        return best;
    }

    private static double firstInCircleCell(Path path, CirclePiece c, Box cell) {
        double best = Double.NaN;
        for (PathLeg leg : path.legs()) {
            double[] part = leg.clip(cell.minX(), cell.minY(), cell.maxX(), cell.maxY());
            if (part != null) {
                double from = Math.max(0, part[0] - CLIP_SLACK);
                double to = Math.min(1, Math.max(part[0], part[1]) + CLIP_SLACK);
                best =
                        min(
                                best,
                                CircleSearch.first(
                                        path, c.lon(), c.lat(), c.radiusMeters(), from, to));
            }
        }
        return best;
    }

    // The smaller of two fractions, NaN standing for none.
    private static double min(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }
}
