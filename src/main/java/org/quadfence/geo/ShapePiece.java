package org.quadfence.geo;

/**
 * What one cell (a tile) keeps of a polygon or circle fence: enough to answer exactly like the
 * whole fence for every point of that cell. Points are given as the tiling hands them over: a
 * longitude of 180 folded to -180 (the same meridian).
 *
 * <p>The implementations are records of primitives and primitive arrays only, so Flink keeps them
 * in state with its POJO serializer.
 */
public interface ShapePiece {

    /**
     * A box in the cell outside which the piece contains no point and has no point within the
     * distance it was cut for: what the tile's quadtree indexes.
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
}
