package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.testing.MiniClusters;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.testing.SampleReplay.replayAndCheck;

/**
 * The hostile sample (contract section 8: a comb of slots 1e-9 degree wide, a 40,000-vertex star,
 * repeated and overlapping MultiPolygon members, a world fence with large properties, properties
 * over the limit, timestamps out of range or far in the future, a burst of 20,000 positions at one
 * millisecond) agrees with its expected events and dead-letter counts at parallelism 1 and 4, on
 * heap and on RocksDB state, with the same events per entity every time.
 */
class HostileSampleITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    private static final String SAMPLE = "sample-hostile";

    @TempDir Path out;

    @Test
    void theHostileSampleAgreesAtParallelismOneAndFourOnHeapAndOnRocksDb() throws Exception {
        List<String> heap1 =
                replayAndCheck(SAMPLE, out, Map.of("parallelism", "1", "state-backend", "hashmap"));
        List<String> heap4 =
                replayAndCheck(SAMPLE, out, Map.of("parallelism", "4", "state-backend", "hashmap"));
        List<String> rocks1 =
                replayAndCheck(SAMPLE, out, Map.of("parallelism", "1", "state-backend", "rocksdb"));
        List<String> rocks4 =
                replayAndCheck(SAMPLE, out, Map.of("parallelism", "4", "state-backend", "rocksdb"));
        assertThat(heap1).isNotEmpty();
        assertThat(heap4).isEqualTo(heap1);
        assertThat(rocks1).isEqualTo(heap1);
        assertThat(rocks4).isEqualTo(heap1);
    }
}
