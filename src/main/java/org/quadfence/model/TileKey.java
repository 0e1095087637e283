package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import java.util.Objects;

/**
 * The key of the tile stage: one shard of a tile of one group's fences. Its hash is chosen by
 * whoever makes the key (so that the shards of a tile land on distinct key groups, spread evenly
 * over the subtasks) and travels with it, so it is the same in every JVM and in savepoints.
 */
@TypeInfo(TileKeySerializer.Factory.class)
public record TileKey(String group, long tile, int shard, int hash) {

    @Override
    public int hashCode() {
        return hash;
    }

    // Written out: a record's generated equals ran through method handles that the JIT left
    // uninlined, and every keyed-state access of the tile stage compares keys; it was a fifth of
    // that stage's time under fence churn.
    @Override
    public boolean equals(Object o) {
        return o instanceof TileKey k
                && hash == k.hash
                && tile == k.tile
                && shard == k.shard
                && Objects.equals(group, k.group);
    }
}
