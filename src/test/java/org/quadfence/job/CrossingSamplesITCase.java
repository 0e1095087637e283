package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.testing.CrossingScenario;
import org.quadfence.testing.MiniClusters;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.testing.SampleReplay.replayAndCheck;

/**
 * The path-crossing samples (contract section 10, CROSS events) through the whole job on a
 * MiniCluster with the options in their meta.json ({@code crossing}, its bounds, and the section 6
 * options the cases need), at parallelism 1 and 4, and with the wide tier at tile level 14, checked
 * by the samples' check.py (which compares CROSS events' {@code from} and {@code at}). The samples
 * were written from the contract alone, independently of the job's implementation: the hand-written
 * ones explain each case in sample-crossing/README.md; sample-crossing-random was made by an oracle
 * with exact arithmetic (its gen.py).
 */
class CrossingSamplesITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir Path out;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sample-crossing", "sample-crossing-expiry", "sample-crossing-random"})
    void replayReportsTheExpectedCrossingsAtParallelismOneAndFourAndAtAFineTileLevel(String name)
            throws Exception {
        List<String> one = replayAndCheck(name, out, Map.of("parallelism", "1"));
        List<String> four = replayAndCheck(name, out, Map.of("parallelism", "4"));
        List<String> fine =
                replayAndCheck(name, out, Map.of("parallelism", "2", "tile-level", "14"));
        assertThat(one).anyMatch(line -> line.matches(".*\"event\"\\s*:\\s*\"CROSS\".*"));
        assertThat(four).isEqualTo(one);
        // The fraction of a circle's first point is searched in each tile's part of the path, so
        // its last bits (1e-13 degree) may differ between tile levels: the contract holds at to
        // 1e-7 degree and its time to 1 ms.
        CrossingScenario.sameEventsInOrder(fine, one);
    }
}
