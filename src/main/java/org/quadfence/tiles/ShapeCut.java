package org.quadfence.tiles;

import org.quadfence.geo.ShapePiece;

/**
 * What one tile keeps of a polygon or circle fence ({@link TileGrid#cut(org.quadfence.geo.Polygon,
 * double)}, {@link TileGrid#cut(org.quadfence.geo.Circle, double)}): a marker when the fence covers
 * the whole closed cell, otherwise a piece that answers exactly like the fence for every point of
 * the cell.
 *
 * @param tile the tile key (see {@link TileGrid})
 * @param covered true when every point of the closed cell lies in the fence; then {@code piece} is
 *     null
 * @param piece when not covered, the fence's part for this tile; a {@link
 *     org.quadfence.geo.PolygonPiece} or a {@link org.quadfence.geo.CirclePiece}
 */
public record ShapeCut(long tile, boolean covered, ShapePiece piece) {

    /** Checks that a covered cut has no piece and any other cut has one. */
    public ShapeCut {
        if (covered != (piece == null)) {
            throw new IllegalArgumentException(
                    "a cut has a piece exactly when it is not covered: " + covered + ", " + piece);
        }
    }

    /**
     * The exact test for a point that belongs to this tile ({@link TileGrid#tileOf}), given with
     * its folded longitude ({@link TileGrid#foldLon}): true when the fence contains it.
     */
    public boolean contains(double foldedLon, double lat) {
        return covered || piece.contains(foldedLon, lat);
    }

    /**
     * For a point that belongs to this tile, given with its folded longitude: the fence's distance
     * ({@link org.quadfence.geo.Shape#distanceMeters}) whenever that is within the margin the fence
     * was cut for, otherwise some value above the margin.
     */
    public double distanceMeters(double foldedLon, double lat) {
        return covered ? 0 : piece.distanceMeters(foldedLon, lat);
    }
}
