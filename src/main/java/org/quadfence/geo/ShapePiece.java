package org.quadfence.geo;

/**
 * What a tile holds of a fence: enough to answer exactly like the whole fence for every point of
 * the tile's closed cell, and as little of the fence as that takes. It is one of
 *
 * <ul>
 *   <li>{@link Boxes}: exact boxes, where a box holding the point is the whole test: the whole cell
 *       when the fence covers the tile (whatever its shape), or else the one or two parts of a
 *       rectangle fence in the cell;
 *   <li>{@link PolygonPiece}: the edges of a polygon fence that meet the cell, with its own exact
 *       test;
 *   <li>{@link CirclePiece}: a circle fence, whose bounds are the part in the cell of its bounding
 *       boxes grown by the margin;
 *   <li>{@link RectanglePiece}: a rectangle fence when fences have an exit margin, whose distance
 *       the tile must answer.
 * </ul>
 *
 * <p>Points are given as the tiling hands them over: a longitude of 180 folded to -180 (the same
 * meridian). A tile's quadtree indexes each box of {@link Boxes} as an entry that needs no further
 * test, and any other piece as one entry by its {@link #bounds()}, tested with {@link #contains}
 * (and, with a margin, {@link #distanceMeters}) when a point falls in that box. In state and
 * between the job's stages a piece travels with a serializer of its own ({@code
 * org.quadfence.model.ShapePieceSerializer}: a tag, then the variant's fields, a polygon piece
 * packed).
 */
public sealed interface ShapePiece permits Boxes, PolygonPiece, CirclePiece, RectanglePiece {

    /**
     * A box in the cell outside which the piece contains no point and has no point within the
     * distance it was cut for.
     */
    Box bounds();

    /**
     * For a point of the piece's closed cell: true exactly when the whole fence contains it.
     *
     * @param foldedLon the point's longitude, 180 given as -180
     */
    boolean contains(double foldedLon, double lat);

    /**
     * For a point of the piece's closed cell: the fence's {@link Shape#distanceMeters}, exactly as
     * the whole fence computes it whenever that is at most the distance the piece was cut for, and
     * otherwise some value above that distance.
     *
     * @param foldedLon the point's longitude, 180 given as -180
     */
    double distanceMeters(double foldedLon, double lat);

    /**
     * For a point of the piece's closed cell: the fence's {@link Shape#boundaryMeters}, exactly as
     * the whole fence computes it whenever that is at most the distance the piece was cut for, and
     * otherwise some value above that distance (infinity for a cell the fence covers deeper than
     * that distance).
     *
     * @param foldedLon the point's longitude, 180 given as -180
     */
    double boundaryMeters(double foldedLon, double lat);
}
