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
 * floating point: the point at s lies within 1e-10 degree of the true first point (a crossing of
 * lines less than 0.06 degree apart in angle is computed exactly, then rounded). For circles the
 * test is numeric: see {@link #first(Path, Shape)}.
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
     * Earth#haversineMeters}. The distance along a lon/lat segment is not convex, so the search is
     * a branch and bound ({@link CircleSearch}): it drops each stretch of the path that provably
     * stays outside (by the path's speed on the sphere, and by the stretch's bounding box), splits
     * the others down to 1 mm of travel, and bisects the first stretch that ends inside to s within
     * 1e-12 of the path (1e-10 degree). So every entry that goes more than 1 mm deep is found and
     * its point is exact to 1e-10 degree; a stretch that only grazes the circle, less than 1 mm
     * deep, may be missed (the answer is then the next entry, or NaN). Near the antipode of the
     * centre the haversine distance itself loses precision (about a decimetre for a circle of
     * 20,000 km). Cost: a few dozen distances for a path that crosses the boundary clearly; up to
     * about sqrt(radius / 1 mm) for one that grazes it within a millimetre.
     *
     * <p>Cost for polygons: every edge (this whole-fence answer is the reference; the job asks the
     * tiles' pieces).
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
            return firstOnEdges(path, p.edges());
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
     * of the whole fence, and the path meets the fence exactly when some tile answers a number (for
     * circles, up to the search's 1 mm: a graze that shallow may be found by one and not the
     * other).
     *
     * <p>Exact as {@link #first(Path, Shape)}: {@link Boxes} by the boxes; a {@link PolygonPiece}
     * by a (when the cell holds it, at its folded longitude) and else by the edges, which are the
     * fence's own, of the leaves of its tree whose boxes the path meets, and by the boxes of its
     * covered leaves; a {@link RectanglePiece} by the whole rectangle; a {@link CirclePiece} by the
     * circle search on the path's part in the cell, widened by 1e-9 of the path against rounding.
     *
     * <p>Pieces cut with an exit margin answer the same: the margin only adds tiles and edges that
     * hold no point of the fence.
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
        double best = Double.NaN;
        for (PathLeg leg : path.legs()) {
            best = min(best, p.firstOnEdges(leg));
        }
        return best;
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

    private static double firstOnEdges(Path path, double[] edges) {
        double best = Double.NaN;
        for (PathLeg leg : path.legs()) {
            best = min(best, firstOnEdges(leg, edges));
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
    static double min(double a, double b) {
        return Double.isNaN(a) ? b : Double.isNaN(b) ? a : Math.min(a, b);
    }
}
