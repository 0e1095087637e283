package org.quadfence.job;

import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.BusyCores;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleReplay;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.testing.SampleReplay.replayAndCheck;

/**
 * Published boundaries against real storm tracks (sample-realworld: GraphHopper's countries and
 * subdivisions, NOAA best tracks; see its README for sources and licences), through the whole job
 * on a MiniCluster, checked by check.py: at parallelism 1 and 4, and with a fences file that takes
 * long to read and cut while every core is busy.
 */
class RealWorldSampleITCase {

    private static final String SAMPLE = "sample-realworld";

    // Copies of the sample's fences in the loaded run: about 18 MB that take seconds to read.
    private static final int COPIES = 20;

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    @TempDir Path out;

    @Test
    void publishedBoundariesGiveTheExpectedEventsAtParallelismOneAndFour() throws Exception {
        List<String> one = replayAndCheck(SAMPLE, out, Map.of("parallelism", "1"));
        List<String> four = replayAndCheck(SAMPLE, out, Map.of("parallelism", "4"));
        assertThat(four).isNotEmpty().isEqualTo(one);
    }

    /**
     * Contract section 3: fence changes at or before t reach a position at t whatever the machine
     * is doing. A replay whose fences file is still being read long after the positions file ended
     * must not match positions against the fences read so far, even when a silent input would be
     * taken as idle after 50 ms and busy loops take every core.
     */
    @Test
    void aSlowFencesFileOnABusyMachineGivesTheSameEventsAsOnAQuietOne() throws Exception {
        Path sample = copies(SampleReplay.SAMPLES.resolve(SAMPLE), out.resolve("copies"));
        JobOptions options =
                JobOptions.of(
                        Map.of(
                                "parallelism", "2",
                                "max-out-of-orderness", "1000",
                                "idle-timeout", "50ms"));
        Path events = out.resolve("loaded.jsonl");
        Path dlq = out.resolve("loaded.dlq");
        try (BusyCores busy = BusyCores.everyCoreTwice()) {
            SampleReplay.replay(
                    options,
                    sample.resolve("fences.jsonl"),
                    sample.resolve("positions.jsonl"),
                    events,
                    dlq);
        }
        SampleReplay.checkPy(sample, events, dlq);
    }

    /**
     * The sample with its fences {@link #COPIES} times under other ids ({@code gh:DE#3}), and the
     * expected events and dead letters multiplied to match.
     */
    private static Path copies(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        ObjectMapper json = new ObjectMapper();
        List<String> fences = Files.readAllLines(from.resolve("fences.jsonl"));
        List<String> expected = Files.readAllLines(from.resolve("expected.jsonl"));
        try (Writer f = Files.newBufferedWriter(to.resolve("fences.jsonl"));
                Writer e = Files.newBufferedWriter(to.resolve("expected.jsonl"))) {
            for (int copy = 0; copy < COPIES; copy++) {
                for (String line : fences) {
                    ObjectNode fence = (ObjectNode) json.readTree(line);
                    fence.put("id", fence.get("id").asText() + "#" + copy);
                    f.write(json.writeValueAsString(fence) + "\n");
                }
                for (String line : expected) {
                    ObjectNode event = (ObjectNode) json.readTree(line);
                    event.put("fenceId", event.get("fenceId").asText() + "#" + copy);
                    e.write(json.writeValueAsString(event) + "\n");
                }
            }
        }
        ObjectNode counts =
                (ObjectNode) json.readTree(from.resolve("expected_dlq_counts.json").toFile());
        counts.fieldNames().forEachRemaining(k -> counts.put(k, counts.get(k).asInt() * COPIES));
        json.writeValue(to.resolve("expected_dlq_counts.json").toFile(), counts);
        Files.copy(from.resolve("positions.jsonl"), to.resolve("positions.jsonl"));
        Files.copy(from.resolve("meta.json"), to.resolve("meta.json"));
        return to;
    }
}
