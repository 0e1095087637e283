package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.geo.ShapePiece;

/**
 * What a fence is in one tile from {@code timestamp} on: the piece the tile holds of it, or none
 * when the fence leaves the tile. The fence's properties stay out of tiles: they are added to its
 * events once, by fence.
 *
 * @param piece what the tile holds of the fence ({@link ShapePiece}); null when the fence is not in
 *     the tile from then on
 * @param shard the shard of the tile that the update goes to (each shard gets a copy)
 */
@TypeInfo(TileUpdateSerializer.Factory.class)
public record TileUpdate(
        long tile, String group, String fenceId, long timestamp, ShapePiece piece, int shard) {

    /** An update for shard 0; {@code piece} null when the fence leaves the tile. */
    public TileUpdate(long tile, String group, String fenceId, long timestamp, ShapePiece piece) {
        this(tile, group, fenceId, timestamp, piece, 0);
    }

    /** This update for another shard of its tile. */
    public TileUpdate withShard(int other) {
        return new TileUpdate(tile, group, fenceId, timestamp, piece, other);
    }

    /** True when the fence leaves the tile. */
    public boolean isRemoval() {
        return piece == null;
    }
}
