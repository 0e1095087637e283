package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.testing.MiniClusters;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.testing.SampleReplay.replayAndCheck;

/**
 * The whole job on a MiniCluster with file sources and sinks, against the rectangle samples:
 * exactly their expected events and dead letters, the same per entity at parallelism 1 and 4, and
 * with the records waiting for the watermark in keyed state instead of memory.
 */
class ReplayITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir Path out;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sample-clean", "sample-nasty"})
    void replayGivesExactlyTheExpectedEventsAndTheSameOrderPerEntityAtParallelismOneAndFour(
            String sample) throws Exception {
        List<String> one = replayAndCheck(sample, out, Map.of("parallelism", "1"));
        List<String> four = replayAndCheck(sample, out, Map.of("parallelism", "4"));
        assertThat(four).isNotEmpty().isEqualTo(one);
        // Every waiting record past the first of a subtask goes the keyed-state way.
        List<String> spilled =
                replayAndCheck(sample, out, Map.of("parallelism", "4", "max-waiting-records", "1"));
        assertThat(spilled).isEqualTo(one);
    }
}
