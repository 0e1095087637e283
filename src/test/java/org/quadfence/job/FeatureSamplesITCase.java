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
 * The feature samples (polygons, circles, groups, hysteresis, DWELL, expiry, and the rules per
 * fence and position accuracy of sample-rules, the backlogs of trackers that were offline of
 * sample-backlog) through the whole job on a MiniCluster with the options in their meta.json, at
 * parallelism 1 and 4, and with the wide tier at tile level 14, checked by the samples' own
 * check.py (which knows DWELL, groups and timer order).
 */
class FeatureSamplesITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir Path out;

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "sample-features",
                "sample-features-nasty",
                "sample-rules",
                "sample-backlog/rects",
                "sample-backlog/dwell"
            })
    void replayAgreesWithTheExpectedEventsAtParallelismOneAndFourAndAtAFineTileLevel(String name)
            throws Exception {
        List<String> one = replayAndCheck(name, out, Map.of("parallelism", "1"));
        List<String> four = replayAndCheck(name, out, Map.of("parallelism", "4"));
        List<String> fine =
                replayAndCheck(name, out, Map.of("parallelism", "2", "tile-level", "14"));
        assertThat(four).isNotEmpty().isEqualTo(one);
        assertThat(fine).isEqualTo(one);
    }
}
