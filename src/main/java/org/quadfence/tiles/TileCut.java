package org.quadfence.tiles;

import org.quadfence.geo.Box;

import java.util.List;

/**
 * What one tile keeps of one fence: a marker when the fence covers the whole tile, otherwise the
 * part of the fence that falls in the tile's closed cell.
 *
 * <p>The part is a list of planar boxes in the cell's own coordinates, because it is not always one
 * box: an antimeridian-crossing rectangle whose gap lies inside one cell leaves two pieces there
 * (one on each side of the gap), and at level 0 a rectangle that touches lon 180 also keeps its
 * folded copy at lon -180. There are at most two pieces, and neither lies inside the other.
 *
 * @param tile the tile key (see {@link TileGrid})
 * @param covered true when every point of the closed cell lies in the fence; then {@code clips} is
 *     empty
 * @param clips when not covered, the fence's part within the closed cell (one or two boxes)
 */
public record TileCut(long tile, boolean covered, List<Box> clips) {

    /** Checks that a covered cut has no clips and any other cut has some. */
    public TileCut {
        clips = List.copyOf(clips);
        if (covered != clips.isEmpty()) {
            throw new IllegalArgumentException(
                    "a cut has clips exactly when it is not covered: " + covered + ", " + clips);
        }
    }

    /**
     * The exact test for a point that belongs to this tile ({@link TileGrid#tileOf}), given with
     * its folded longitude ({@link TileGrid#foldLon}): true when the fence contains it.
     */
    public boolean contains(double foldedLon, double lat) {
        if (covered) {
            return true;
        }
        for (Box clip : clips) {
            if (clip.contains(foldedLon, lat)) {
                return true;
            }
        }
        return false;
    }
}
