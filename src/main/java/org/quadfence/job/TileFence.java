package org.quadfence.job;

import org.quadfence.geo.Box;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.RectanglePiece;
import org.quadfence.geo.ShapePiece;
import org.quadfence.model.TileUpdate;

/**
 * What a tile keeps of one fence: exact boxes, or a polygon or circle piece (see {@link
 * TileUpdate}).
 */
public record TileFence(
        Box[] clips, PolygonPiece polygon, CirclePiece circle, RectanglePiece rect) {

    static TileFence of(TileUpdate u) {
        return new TileFence(u.clips(), u.polygon(), u.circle(), u.rect());
    }

    /** The fence's piece with an exact test of its own, or null for exact boxes. */
    ShapePiece piece() {
        return polygon != null ? polygon : circle != null ? circle : rect;
    }
}
