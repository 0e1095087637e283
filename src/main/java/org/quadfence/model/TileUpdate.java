package org.quadfence.model;

import org.quadfence.geo.Box;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.RectanglePiece;

/**
 * What a fence is in one tile from {@code timestamp} on; all three of {@code clips}, {@code
 * polygon} and {@code circle} null when the fence is not in the tile from then on. {@code clips}
 * are exact boxes: the pieces of a rectangle inside the tile's closed cell (one or two), or the
 * whole cell when the tile lies wholly inside the fence (a marker, no test). Otherwise {@code
 * polygon}, {@code circle} or {@code rect} (a rectangle when fences have an exit margin) is the
 * fence's piece for the tile, with its own exact test and distance. The fence's properties stay out
 * of tiles: they are added to its events once, by fence. {@code shard} is the shard of the tile
 * that the update goes to (each shard gets a copy).
 */
public record TileUpdate(
        long tile,
        String group,
        String fenceId,
        long timestamp,
        Box[] clips,
        PolygonPiece polygon,
        CirclePiece circle,
        RectanglePiece rect,
        int shard) {

    /** An update of exact boxes (or a removal, when {@code clips} is null), for shard 0. */
    public TileUpdate(long tile, String group, String fenceId, long timestamp, Box[] clips) {
        this(tile, group, fenceId, timestamp, clips, null, null, null, 0);
    }

    /** This update for another shard of its tile. */
    public TileUpdate withShard(int other) {
        return new TileUpdate(tile, group, fenceId, timestamp, clips, polygon, circle, rect, other);
    }

    /** True when the fence leaves the tile. */
    public boolean isRemoval() {
        return clips == null && polygon == null && circle == null && rect == null;
    }
}
