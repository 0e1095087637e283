package org.quadfence.model;

import org.quadfence.geo.Box;

/**
 * What a fence is in one tile from {@code timestamp} on: {@code clips} are the pieces of the fence
 * inside the tile's closed cell (one or two boxes; the whole cell when the tile lies wholly inside
 * the fence), or null when the fence is not in the tile from then on. {@code properties} are the
 * fence's (see {@link FenceChange#properties()}).
 */
public record TileUpdate(
        long tile, String group, String fenceId, long timestamp, Box[] clips, String properties) {

    /** The key of the tile this update is for. */
    public TileKey key() {
        return new TileKey(group, tile);
    }

    /** True when the fence leaves the tile. */
    public boolean isRemoval() {
        return clips == null;
    }
}
