package org.quadfence.testing;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.options.JobOptions;
import org.quadfence.stages.StageLoad;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the integration tests run the job and check it against a sample: the one place that runs the
 * whole job on the current MiniCluster ({@link #run}), replays over JSON-lines files, and runs the
 * samples' check.py (events, their order per entity, and dead-letter counts) on what a run wrote.
 * {@link #replayAndCheck} does all of it for a sample of src/test/resources/samples, with the
 * options of its meta.json (its bound_ms as max-out-of-orderness, its engine_options).
 */
public final class SampleReplay {

    /** The samples copied from shared/data, with their check.py. */
    public static final Path SAMPLES = Path.of("src/test/resources/samples");

    private SampleReplay() {}

    /**
     * Runs the sample with its options plus {@code extra}, asserts that check.py agrees, and
     * returns the events grouped by entity (each entity's in file order), to compare runs.
     */
    public static List<String> replayAndCheck(String name, Path out, Map<String, String> extra)
            throws Exception {
        Path sample = SAMPLES.resolve(name);
        Map<String, String> o = engineOptions(sample);
        o.putAll(extra);
        JobOptions options = JobOptions.of(o);
        String tag = String.join("-", extra.values()).replaceAll("[^A-Za-z0-9-]", "_");
        Path events = out.resolve(name + "-" + tag + ".jsonl");
        Path dlq = out.resolve(name + "-" + tag + ".dlq");
        Path memberships = out.resolve(name + "-" + tag + ".memberships");
        Files.createDirectories(events.getParent());
        JobExecutionResult result =
                replay(
                        options,
                        sample.resolve("fences.jsonl"),
                        sample.resolve("positions.jsonl"),
                        events,
                        dlq,
                        memberships);
        assertThat(StageLoad.summary(result.getAllAccumulatorResults()))
                .as("the per-stage summary of the keyed stages")
                .anyMatch(l -> l.startsWith("TileMatcher: "))
                .anyMatch(l -> l.startsWith("MembershipTracker: "))
                .allMatch(
                        l -> l.contains(" records in " + options.get("parallelism") + " subtasks"));
        checkPy(sample, events, dlq);
        assertThat(
                        MembershipsCheck.differences(
                                events,
                                memberships,
                                options.millis("entity-ttl") > 0
                                        && !options.booleanValue("exit-on-expiry")))
                .as("current fences against the events")
                .isEmpty();
        return Files.readAllLines(events).stream()
                .sorted(Comparator.comparing(SampleReplay::entityOf))
                .collect(Collectors.toList());
    }

    /** The options a sample's meta.json says to run it with. */
    public static Map<String, String> engineOptions(Path sample) throws IOException {
        Map<String, String> o = new HashMap<>();
        JsonNode meta = new ObjectMapper().readTree(sample.resolve("meta.json").toFile());
        o.put("max-out-of-orderness", meta.path("bound_ms").asText("1000"));
        meta.path("engine_options")
                .fields()
                .forEachRemaining(e -> o.put(e.getKey(), e.getValue().asText()));
        return o;
    }

    /** Runs the job over JSON-lines files on the current MiniCluster and waits for its end. */
    public static JobExecutionResult replay(
            JobOptions options, Path fences, Path positions, Path events, Path dlq)
            throws Exception {
        return replay(options, fences, positions, events, dlq, null);
    }

    /**
     * Runs the job as {@link #replay(JobOptions, Path, Path, Path, Path)} does, and writes each
     * entity's current fences to {@code memberships} (none when null).
     */
    public static JobExecutionResult replay(
            JobOptions options,
            Path fences,
            Path positions,
            Path events,
            Path dlq,
            Path memberships)
            throws Exception {
        return run(
                options,
                JobIo.files(fences, positions, events, dlq, memberships, options.inputRules()),
                false);
    }

    /**
     * Runs the job with these sources and sinks on the current MiniCluster and waits for its end.
     *
     * @param checkpoints whether the job checkpoints (and then restarts after a failure)
     */
    public static JobExecutionResult run(JobOptions options, GeofenceJob.Io io, boolean checkpoints)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GeofenceJob.assemble(env, options, io, checkpoints);
        return env.execute(GeofenceJob.name(options));
    }

    /**
     * Runs the samples' check.py on a run's events and dead letters, asserts that it agrees (no
     * expected event missing, none unexpected), and returns its report.
     */
    public static String checkPy(Path sample, Path events, Path dlq)
            throws IOException, InterruptedException {
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
        return report;
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
