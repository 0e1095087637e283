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
 * @param rules the rules of the fence's version (contract section 11), which travel with its
 *     pieces; {@link FenceRules#NONE} when it has none, or when the fence leaves the tile
 */
@TypeInfo(TileUpdateSerializer.Factory.class)
public record TileUpdate(
        long tile,
        String group,
        String fenceId,
        long timestamp,
        ShapePiece piece,
        int shard,
        FenceRules rules) {

    /** Null rules are none. */
    public TileUpdate {
        rules = rules == null ? FenceRules.NONE : rules;
    }

    /** An update for shard 0 of a fence without rules; {@code piece} null when it leaves. */
    public TileUpdate(long tile, String group, String fenceId, long timestamp, ShapePiece piece) {
        this(tile, group, fenceId, timestamp, piece, 0, FenceRules.NONE);
    }

    /** An update of a fence without rules. */
    public TileUpdate(
            long tile, String group, String fenceId, long timestamp, ShapePiece piece, int shard) {
        this(tile, group, fenceId, timestamp, piece, shard, FenceRules.NONE);
    }

    /** This update for another shard of its tile. */
    public TileUpdate withShard(int other) {
        return new TileUpdate(tile, group, fenceId, timestamp, piece, other, rules);
    }

    /** True when the fence leaves the tile. */
    public boolean isRemoval() {
        return piece == null;
    }
}
