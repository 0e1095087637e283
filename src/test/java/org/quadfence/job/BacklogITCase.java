package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleReplay;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backlogs against positions on time (contract section 12): the events of a sample-backlog case
 * with {@code max-backlog}, CROSS included, are those of the same positions, its late ones taken
 * out, replayed with a bound that takes every one of them in event time.
 */
class BacklogITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir Path out;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sample-backlog/rects", "sample-backlog/dwell"})
    void aBacklogGivesTheEventsItsPositionsGiveOnTimeCrossingIncluded(String name)
            throws Exception {
        Path sample = SampleReplay.SAMPLES.resolve(name);
        Map<String, String> options = SampleReplay.engineOptions(sample);
        options.put("crossing", "true");
        options.put("parallelism", "3");
        Path events = out.resolve("backlog.jsonl");
        SampleReplay.replay(
                JobOptions.of(options),
                sample.resolve("fences.jsonl"),
                sample.resolve("positions.jsonl"),
                events,
                out.resolve("backlog.dlq"));

        Path onTime = out.resolve("on-time-positions.jsonl");
        Files.write(onTime, withoutLateLines(sample));
        Map<String, String> wide = new HashMap<>(options);
        wide.remove("max-backlog");
        wide.put("max-out-of-orderness", "1h");
        Path expected = out.resolve("on-time.jsonl");
        SampleReplay.replay(
                JobOptions.of(wide),
                sample.resolve("fences.jsonl"),
                onTime,
                expected,
                out.resolve("on-time.dlq"));

        List<String> want = Files.readAllLines(expected).stream().sorted().toList();
        assertThat(want).anyMatch(l -> l.contains("\"CROSS\""));
        assertThat(Files.readAllLines(events).stream().sorted().toList()).isEqualTo(want);
    }

    private static List<String> withoutLateLines(Path sample) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Set<Integer> late = new HashSet<>();
        for (String l : Files.readAllLines(sample.resolve("bad.jsonl"))) {
            late.add(json.readTree(l).get("line").asInt());
        }
        List<String> lines = Files.readAllLines(sample.resolve("positions.jsonl"));
        List<String> kept = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!late.contains(i + 1)) {
                kept.add(lines.get(i));
            }
        }
        return kept;
    }
}
