package org.quadfence.job;

import org.apache.flink.configuration.ConfigConstants;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quadfence.options.JobOptions;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flink truncates an operator's or a chain's name longer than 80 characters in its metrics and logs
 * a warning for each (MetricUtils): the job's names stay within that, in every shape of the job
 * (files or Kafka, one tier or two, with current fences or without, one subtask or more, with
 * crossing or without).
 */
class OperatorNamesTest {

    @ParameterizedTest(name = "kafka={0}, tile-level={1}, parallelism={2}, crossing={3}")
    @CsvSource({
        "true, 7, 1, false",
        "true, 7, 2, false",
        "true, 12, 1, false",
        "true, 12, 3, false",
        "false, 7, 1, false",
        "false, 12, 2, false",
        "true, 7, 1, true",
        "true, 12, 3, true",
        "false, 12, 1, true"
    })
    void noOperatorOrChainNameIsLongerThanFlinkKeepsInItsMetrics(
            boolean kafka, int tileLevel, int parallelism, boolean crossing) {
        JobOptions options =
                JobOptions.of(
                        Map.of(
                                "tile-level", String.valueOf(tileLevel),
                                "parallelism", String.valueOf(parallelism),
                                "memberships-topic", "memberships",
                                "crossing", String.valueOf(crossing)));
        Path dir = Path.of("target", "operator-names");
        GeofenceJob.Io io =
                kafka
                        ? JobIo.kafka(options, false)
                        : JobIo.files(
                                dir.resolve("fences"),
                                dir.resolve("positions"),
                                dir.resolve("events"),
                                dir.resolve("dlq"),
                                dir.resolve("memberships"),
                                options.inputRules());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GeofenceJob.assemble(env, options, io, true);
        StreamGraph graph = env.getStreamGraph();

        List<String> names = new ArrayList<>();
        graph.getStreamNodes().stream().map(StreamNode::getOperatorName).forEach(names::add);
        graph.getJobGraph().getVertices().forEach((JobVertex v) -> names.add(v.getName()));

        assertThat(names)
                .hasSizeGreaterThan(10)
                .allSatisfy(
                        n ->
                                assertThat(n.length())
                                        .as(n)
                                        .isLessThanOrEqualTo(
                                                ConfigConstants.METRICS_OPERATOR_NAME_MAX_LENGTH));
    }
}
