package org.quadfence.stages;

import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

import org.junit.jupiter.api.Test;
import org.quadfence.model.TileKey;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class TileShardsTest {

    private static final int MAX_PARALLELISM = 128;

    @Test
    void theShardsOfATileFallOnDistinctSubtasksEvenlyAtEveryParallelismThatDividesThem() {
        TileShards shards = new TileShards(8, MAX_PARALLELISM);
        Random random = new Random(42);
        for (int i = 0; i < 1000; i++) {
            long tile = random.nextLong() >>> 20;
            String group = random.nextBoolean() ? "default" : "g" + random.nextInt(50);
            for (int parallelism : new int[] {1, 2, 4, 8}) {
                int[] perSubtask = new int[parallelism];
                for (int shard = 0; shard < 8; shard++) {
                    perSubtask[subtask(shards.key(group, tile, shard), parallelism)]++;
                }
                assertThat(perSubtask).containsOnly(8 / parallelism);
            }
        }
    }

    @Test
    void aTileShardKeyIsTheSameWhoeverMakesIt() {
        TileKey a = new TileShards(8, MAX_PARALLELISM).key("g", 12345, 5);
        TileKey b = new TileShards(8, MAX_PARALLELISM).key("g", 12345, 5);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a.shard()).isEqualTo(5);
    }

    @Test
    void aKeyStaysTheSameAfterManyOtherTilesHaveBeenSeen() {
        TileShards shards = new TileShards(4, MAX_PARALLELISM);
        TileKey first = shards.key("default", 1, 3);
        for (long tile = 2; tile < 70_000; tile++) {
            shards.key("default", tile, 1);
        }
        assertThat(shards.key("default", 1, 3)).isEqualTo(first);
    }

    @Test
    void aKeyIsTheOneAFreshInstanceMakesWhateverTilesCameBefore() {
        // More tiles than the cache has slots, some seen again, in two groups: slots are reused.
        // (A key equal to another has its hash too: TileKey compares it.)
        assertKeysAsFresh(4, 300_000, 100_000);
        // Many shards: fewer slots.
        assertKeysAsFresh(128, 20_000, 20_000);
    }

    private static void assertKeysAsFresh(int count, int keys, int tiles) {
        TileShards shards = new TileShards(count, MAX_PARALLELISM);
        Random random = new Random(7);
        for (int i = 0; i < keys; i++) {
            long tile = random.nextInt(tiles);
            String group = random.nextBoolean() ? "" : "fleet";
            int shard = random.nextInt(count);
            TileKey key = shards.key(group, tile, shard);
            if (i % 97 == 0) {
                assertThat(key)
                        .isEqualTo(new TileShards(count, MAX_PARALLELISM).key(group, tile, shard));
            }
        }
    }

    @Test
    void theShardsOfATileHaveDistinctHashes() {
        TileShards shards = new TileShards(8, MAX_PARALLELISM);
        Set<Integer> hashes = new HashSet<>();
        for (int shard = 0; shard < 8; shard++) {
            hashes.add(shards.key("default", 99, shard).hashCode());
        }
        assertThat(hashes).hasSize(8);
    }

    @Test
    void entitiesSpreadEvenlyOverTheShards() {
        TileShards shards = new TileShards(8, MAX_PARALLELISM);
        int[] counts = new int[8];
        for (int i = 0; i < 80_000; i++) {
            counts[shards.shardOf("truck-" + i)]++;
        }
        for (int c : counts) {
            assertThat(c).isBetween(9_500, 10_500);
        }
    }

    @Test
    void oneShardKeepsTheTilesOwnHashAndEveryEntityInIt() {
        TileShards one = new TileShards(1, MAX_PARALLELISM);
        assertThat(one.key("default", 7, 0).hashCode()).isEqualTo(31 * "default".hashCode() + 7);
        assertThat(one.shardOf("anyone")).isZero();
    }

    private static int subtask(TileKey key, int parallelism) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(
                key, MAX_PARALLELISM, parallelism);
    }
}
