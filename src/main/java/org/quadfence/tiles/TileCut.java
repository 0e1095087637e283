package org.quadfence.tiles;

import org.quadfence.geo.Boxes;
import org.quadfence.geo.ShapePiece;

/**
 * One tile of a fence cut to the tiles ({@link TileGrid#cut(org.quadfence.geo.Shape, double)}): the
 * tile, whether the fence covers its whole closed cell, and the piece the tile holds ({@link
 * ShapePiece}), which for a covered tile is the cell itself as {@link Boxes}.
 *
 * @param tile the tile key (see {@link TileGrid})
 * @param covered true when every point of the closed cell lies in the fence
 * @param piece what the tile holds of the fence; test points of the tile with their folded
 *     longitude ({@link TileGrid#foldLon})
 */
public record TileCut(long tile, boolean covered, ShapePiece piece) {

    /** Checks that there is a piece, and that a covered tile holds exact boxes. */
    public TileCut {
        if (piece == null || (covered && !(piece instanceof Boxes))) {
            throw new IllegalArgumentException(
                    "a cut holds a piece, exact boxes when covered: " + covered + ", " + piece);
        }
    }
}
