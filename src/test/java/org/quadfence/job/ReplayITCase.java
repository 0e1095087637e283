package org.quadfence.job;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quadfence.cli.Wiring;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleCheck.Event;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The whole job on a MiniCluster with file sources and sinks, against the samples. */
class ReplayITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    static final Path SAMPLES = Path.of("src/test/resources/samples");

    @TempDir Path out;

    @ParameterizedTest(name = "{0} at parallelism {1}")
    @CsvSource({"sample-clean, 1", "sample-clean, 4", "sample-nasty, 1", "sample-nasty, 4"})
    void replayOfASampleGivesExactlyItsExpectedEventsAndDeadLetters(String sample, int parallelism)
            throws Exception {
        Path events = replay(SAMPLES.resolve(sample), parallelism, "run");

        List<Event> expected = SampleCheck.read(SAMPLES.resolve(sample).resolve("expected.jsonl"));
        assertThat(SampleCheck.differences(expected, SampleCheck.read(events))).isEmpty();
        assertThat(SampleCheck.deadLetterCounts(out.resolve("run.dlq")))
                .isEqualTo(SampleCheck.expectedDeadLetters(SAMPLES.resolve(sample)));
    }

    @Test
    void parallelismOneAndFourGiveTheSameEventsInTheSameOrderPerEntity() throws Exception {
        Path sample = SAMPLES.resolve("sample-nasty");
        List<Event> one = perEntity(SampleCheck.read(replay(sample, 1, "p1")));
        List<Event> four = perEntity(SampleCheck.read(replay(sample, 4, "p4")));
        assertThat(four).isNotEmpty().isEqualTo(one);
    }

    /** Events grouped by entity, each entity's events in file order. */
    private static List<Event> perEntity(List<Event> events) {
        List<Event> s = new ArrayList<>(events);
        s.sort(Comparator.comparing(Event::entityId)); // stable: keeps each entity's order
        return s;
    }

    private Path replay(Path sample, int parallelism, String name) throws Exception {
        Path events = out.resolve(name + ".jsonl");
        JobOptions options =
                JobOptions.of(
                        Map.of(
                                "max-out-of-orderness",
                                "1000",
                                "parallelism",
                                String.valueOf(parallelism)));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        JobEnvironment.configure(env, options, false);
        GeofenceJob.build(
                env,
                options,
                Wiring.files(
                        sample.resolve("fences.jsonl"),
                        sample.resolve("positions.jsonl"),
                        events,
                        out.resolve(name + ".dlq"),
                        Wiring.rules(options)));
        env.execute("replay " + sample.getFileName());
        return events;
    }
}
