package org.quadfence.stages;

import org.apache.flink.util.MathUtils;

import org.quadfence.model.TileKey;

import java.io.Serializable;

/**
 * Spreads the work of a busy tile over several subtasks. Each tile is split into {@code count}
 * shards: a position goes to the shard of its entity (a hash of the entity id), and every fence of
 * the tile is copied to each shard. The shards' keys are given hashes that put them on key groups
 * spaced {@code maxParallelism / count} apart, so at any parallelism that divides {@code count} (or
 * that {@code count} divides) a tile's shards fall on distinct subtasks, as evenly as the subtasks'
 * key-group ranges allow: a whole city in one tile still keeps every subtask busy.
 *
 * <p>The price is {@code count} copies of each tile's fences (state, quadtrees and updates).
 */
public final class TileShards implements Serializable {

    private static final long serialVersionUID = 1L;

    // The cache of shard hashes is direct-mapped, each slot keeping the last tile that fell in
    // it: nothing allocated per lookup (a HashMap keyed by a record of the group and tile was 6%
    // of a harness run's samples). 65,536 slots, fewer with many shards: at most 4 MiB of hashes.
    private static final int MAX_CACHED_TILES = 1 << 16;
    private static final int MAX_CACHED_HASHES = 1 << 20;

    private final int count;
    private final int maxParallelism;
    // Each slot's tile hash (with bit 32 set: 0 is an empty slot) and its shards' hashes (count a
    // slot, a function of the tile's own hash alone); null until used.
    private transient long[] cachedNaturals;
    private transient int[] cachedHashes;

    /**
     * @param count shards per tile, at least 1
     * @param maxParallelism the job's number of key groups
     */
    public TileShards(int count, int maxParallelism) {
        if (count < 1) {
            throw new IllegalArgumentException("tile shards < 1: " + count);
        }
        this.count = count;
        this.maxParallelism = maxParallelism;
    }

    /** The number of shards per tile. */
    public int count() {
        return count;
    }

    /** The shard of the tile that takes the positions of {@code entityId}. */
    public int shardOf(String entityId) {
        return count == 1 ? 0 : Math.floorMod(MathUtils.murmurHash(entityId.hashCode()), count);
    }

    /** The key of one shard of a tile. */
    public TileKey key(String group, long tile, int shard) {
        if (count == 1) {
            return new TileKey(group, tile, 0, natural(group, tile));
        }
        if (cachedNaturals == null) {
            int slots =
                    Math.min(MAX_CACHED_TILES, Integer.highestOneBit(MAX_CACHED_HASHES / count));
            cachedNaturals = new long[slots];
            cachedHashes = new int[slots * count];
        }
        int natural = natural(group, tile);
        long cached = (1L << 32) | (natural & 0xffffffffL);
        int slot = MathUtils.murmurHash(natural) & (cachedNaturals.length - 1);
        if (cachedNaturals[slot] != cached) {
            hashes(natural, cachedHashes, slot * count);
            cachedNaturals[slot] = cached;
        }
        return new TileKey(group, tile, shard, cachedHashes[slot * count + shard]);
    }

    /**
     * Puts the hashes of the shards of the tile whose own hash is {@code natural} at {@code at}.
     */
    private void hashes(int natural, int[] out, int at) {
        out[at] = natural;
        int base = MathUtils.murmurHash(natural) % maxParallelism;
        for (int shard = 1; shard < count; shard++) {
            int target = (int) ((base + (long) shard * maxParallelism / count) % maxParallelism);
            // Hashes near the tile's own, stepped until one lands on the target key group.
            int h = natural + shard * 0x9E3779B9;
            while (MathUtils.murmurHash(h) % maxParallelism != target) {
                h++;
            }
            out[at + shard] = h;
        }
    }

    /** The hash of a tile's own key: that of its shard 0. */
    private static int natural(String group, long tile) {
        return 31 * group.hashCode() + Long.hashCode(tile);
    }
}
