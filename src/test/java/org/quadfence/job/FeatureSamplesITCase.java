package org.quadfence.job;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.cli.Wiring;
import org.quadfence.testing.MiniClusters;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The feature samples (polygons, circles, groups, hysteresis, DWELL, expiry) through the whole job
 * on a MiniCluster with the options in their meta.json, at parallelism 1 and 4, checked by the
 * samples' own check.py (which knows DWELL, groups and timer order).
 */
class FeatureSamplesITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    private static final Path SAMPLES = Path.of("src/test/resources/samples");

    @TempDir Path out;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sample-features", "sample-features-nasty"})
    void replayAgreesWithTheExpectedEventsAtParallelismOneAndFour(String name) throws Exception {
        Path sample = SAMPLES.resolve(name);
        List<String> one = replay(sample, 1);
        List<String> four = replay(sample, 4);
        assertThat(four).isNotEmpty().isEqualTo(one);
    }

    /** Runs the sample, checks it with check.py, and returns its events grouped by entity. */
    private List<String> replay(Path sample, int parallelism) throws Exception {
        Map<String, String> o = new HashMap<>();
        JsonNode meta = new ObjectMapper().readTree(sample.resolve("meta.json").toFile());
        meta.get("engine_options")
                .fields()
                .forEachRemaining(e -> o.put(e.getKey(), e.getValue().asText()));
        o.put("parallelism", String.valueOf(parallelism));
        JobOptions options = JobOptions.of(o);
        Path events = out.resolve(parallelism + ".jsonl");
        Path dlq = out.resolve(parallelism + ".dlq");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobEnvironment.configure(env, options, false);
        GeofenceJob.build(
                env,
                options,
                Wiring.files(
                        sample.resolve("fences.jsonl"),
                        sample.resolve("positions.jsonl"),
                        events,
                        dlq,
                        Wiring.rules(options)));
        env.execute("replay " + sample.getFileName());

        Process check =
                new ProcessBuilder(
                                "python3",
                                SAMPLES.resolve("check.py").toString(),
                                sample.toString(),
                                events.toString(),
                                dlq.toString())
                        .redirectErrorStream(true)
                        .start();
        String report = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(report).isZero();
        assertThat(report).contains(" expected events matched, 0 unexpected");

        return Files.readAllLines(events).stream()
                .sorted(java.util.Comparator.comparing(FeatureSamplesITCase::entityOf))
                .collect(Collectors.toList());
    }

    /** The entity and its group: each one's events keep their file order. */
    private static String entityOf(String line) {
        int i = line.indexOf("\"fenceId\"");
        int g = line.indexOf("\"group\":");
        String group =
                g < 0 ? "" : line.substring(g, line.indexOf('"', g + "\"group\":\"".length()));
        return line.substring(0, i) + group;
    }
}
