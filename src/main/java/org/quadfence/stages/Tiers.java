package org.quadfence.stages;

import org.quadfence.geo.Shape;
import org.quadfence.tiles.TileGrid;

import java.io.Serializable;

/**
 * The two tiers of tiles. A fence whose bounding boxes (grown by the exit margin) span at most
 * {@link #WIDE_TILES} tiles of the job's tile level is cut to those tiles; a wider one is cut to
 * the tiles of level {@link #WIDE_LEVEL}, the wide tier. So a fence costs at most {@value
 * #WIDE_TILES} records at the job's level, or one record per tile of level 7 that it touches
 * (16,384 for the whole world), at every tile level. When the job's level is {@value #WIDE_LEVEL}
 * or coarser there is one tier.
 */
public final class Tiers implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The level of the wide tier's tiles. */
    public static final int WIDE_LEVEL = 7;

    /** The most tiles of the job's level a fence may span and still be cut to them. */
    public static final long WIDE_TILES = 256;

    private final TileGrid fine;
    private final TileGrid wide;

    /** The tiers of a job whose tile level is {@code level}. */
    public Tiers(int level) {
        this.fine = new TileGrid(level);
        this.wide = level > WIDE_LEVEL ? new TileGrid(WIDE_LEVEL) : null;
    }

    /** The tiles of the job's tile level. */
    public TileGrid fine() {
        return fine;
    }

    /** The wide tier's tiles, or null when the job has one tier. */
    public TileGrid wide() {
        return wide;
    }

    /** The grid a fence is cut to: the wide tier's when it spans too many fine tiles. */
    public TileGrid gridFor(Shape shape, double marginMeters) {
        if (wide == null || fine.tilesSpanned(shape.boundsWithin(marginMeters)) <= WIDE_TILES) {
            return fine;
        }
        return wide;
    }

    /** True when {@code tile} is a key of the wide tier. */
    public boolean isWide(long tile) {
        return wide != null && tile >>> (2 * WIDE_LEVEL) == 1;
    }
}
