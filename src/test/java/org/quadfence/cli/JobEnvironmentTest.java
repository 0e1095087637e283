package org.quadfence.cli;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateChangelogOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.junit.jupiter.api.Test;
import org.quadfence.job.JobEnvironment;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.ReadmeTable;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Flink settings that the job options stand for, as {@code ./quadfence run} and {@code flink
 * run} apply them over the environment's own configuration (on a cluster: the cluster's).
 */
class JobEnvironmentTest {

    /** An environment without settings of its own, as a local one. */
    private static final Configuration NO_CLUSTER = new Configuration();

    /** A cluster's configuration that sets every key the options stand for. */
    private static Configuration cluster() {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "rocksdb");
        c.setString("pipeline.auto-watermark-interval", "250 ms");
        c.setString("execution.checkpointing.interval", "30 s");
        c.setString("execution.checkpointing.mode", "AT_LEAST_ONCE");
        c.setString("execution.checkpointing.timeout", "5 min");
        c.setString("execution.checkpointing.tolerable-failed-checkpoints", "7");
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "2");
        c.setString("restart-strategy.fixed-delay.delay", "3 s");
        c.setString("state.changelog.enabled", "true");
        c.setString("state.changelog.periodic-materialize.interval", "5 min");
        return c;
    }

    @Test
    void checkpointsHaveTheirTimeoutTolerableFailuresAndAreKeptOnCancel() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(
                                Map.of(
                                        "checkpoint-interval", "1s",
                                        "checkpoint-timeout", "45s",
                                        "tolerable-checkpoint-failures", "5")),
                        NO_CLUSTER,
                        true);
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE))
                .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT))
                .isEqualTo(Duration.ofSeconds(45));
        assertThat(conf.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER)).isEqualTo(5);
        assertThat(conf.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION))
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    }

    @Test
    void withoutAClusterValueTheDefaultsApply() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(JobOptions.defaults(), NO_CLUSTER, true);
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
        assertThat(conf.get(PipelineOptions.AUTO_WATERMARK_INTERVAL))
                .isEqualTo(Duration.ofMillis(100));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(10));
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE))
                .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT))
                .isEqualTo(Duration.ofMinutes(2));
        assertThat(conf.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER)).isEqualTo(3);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("exponential-delay");
        assertThat(JobEnvironment.delivery(JobOptions.defaults(), NO_CLUSTER))
                .isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    }

    @Test
    void theClustersValueStandsForEachOptionNotGiven() {
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(cluster());
        JobEnvironment.configure(env, JobOptions.defaults(), true);

        CheckpointConfig checkpoints = env.getCheckpointConfig();
        assertThat(checkpoints.getCheckpointInterval()).isEqualTo(30_000);
        assertThat(checkpoints.getCheckpointingConsistencyMode())
                .isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        assertThat(checkpoints.getCheckpointTimeout()).isEqualTo(300_000);
        assertThat(checkpoints.getTolerableCheckpointFailureNumber()).isEqualTo(7);
        assertThat(env.getConfiguration().get(StateBackendOptions.STATE_BACKEND))
                .isEqualTo("rocksdb");
        assertThat(env.getConfig().getAutoWatermarkInterval()).isEqualTo(250);
        assertThat(env.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("fixed-delay");
        assertThat(
                        env.getConfiguration()
                                .get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(2);
        assertThat(
                        env.getConfiguration()
                                .get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY))
                .isEqualTo(Duration.ofSeconds(3));
        // No delivery given: the sinks go with the cluster's checkpointing mode.
        assertThat(JobEnvironment.delivery(JobOptions.defaults(), env.getConfiguration()))
                .isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(
                        JobEnvironment.flinkConfiguration(JobOptions.defaults(), cluster(), true)
                                .toMap())
                .doesNotContainKeys(JobEnvironment.flinkKeys().values().toArray(new String[0]));
    }

    @Test
    void anOptionGivenWinsOverTheCluster() {
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(cluster());
        JobOptions options =
                JobOptions.of(
                        Map.of(
                                "state-backend", "hashmap",
                                "watermark-interval", "50ms",
                                "checkpoint-interval", "10s",
                                "delivery", "exactly-once",
                                "checkpoint-timeout", "2min",
                                "tolerable-checkpoint-failures", "3",
                                "restart-strategy", "fixed-delay",
                                "restart-attempts", "10",
                                "parallelism", "3"));
        JobEnvironment.configure(env, options, true);

        CheckpointConfig checkpoints = env.getCheckpointConfig();
        assertThat(checkpoints.getCheckpointInterval()).isEqualTo(10_000);
        assertThat(checkpoints.getCheckpointingConsistencyMode())
                .isEqualTo(CheckpointingMode.EXACTLY_ONCE);
        assertThat(checkpoints.getCheckpointTimeout()).isEqualTo(120_000);
        assertThat(checkpoints.getTolerableCheckpointFailureNumber()).isEqualTo(3);
        assertThat(env.getConfiguration().get(StateBackendOptions.STATE_BACKEND))
                .isEqualTo("hashmap");
        assertThat(env.getConfig().getAutoWatermarkInterval()).isEqualTo(50);
        assertThat(
                        env.getConfiguration()
                                .get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(10);
        assertThat(env.getParallelism()).isEqualTo(3);
        assertThat(JobEnvironment.delivery(options, env.getConfiguration()))
                .isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        // The strategy's pause has no option: the cluster's stands.
        assertThat(
                        env.getConfiguration()
                                .get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY))
                .isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aGivenDeliveryAlsoSetsTheCheckpointingMode() {
        Configuration exactly = new Configuration();
        exactly.set(
                CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE,
                CheckpointingMode.EXACTLY_ONCE);
        JobOptions atLeastOnce = JobOptions.of(Map.of("delivery", "at-least-once"));
        assertThat(
                        JobEnvironment.flinkConfiguration(atLeastOnce, exactly, true)
                                .get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE))
                .isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        assertThat(JobEnvironment.delivery(atLeastOnce, exactly))
                .isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(JobEnvironment.delivery(JobOptions.defaults(), exactly))
                .isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
    }

    @Test
    void theClustersRestartTuningStandsAndTheJobsFillsTheRest() {
        Configuration c = new Configuration();
        c.setString("restart-strategy.exponential-delay.max-backoff", "5 min");
        Configuration conf = JobEnvironment.flinkConfiguration(JobOptions.defaults(), c, true);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("exponential-delay");
        assertThat(
                        conf.getOptional(
                                RestartStrategyOptions
                                        .RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
                .isEmpty();
        assertThat(
                        conf.get(
                                RestartStrategyOptions
                                        .RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF))
                .isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void aClusterWithoutCheckpointsIsRefusedUnlessTheOptionGivesAnInterval() {
        Configuration off = new Configuration();
        off.setString("execution.checkpointing.interval", "0");
        assertThatThrownBy(
                        () -> JobEnvironment.flinkConfiguration(JobOptions.defaults(), off, true))
                .hasMessageStartingWith(
                        "the cluster's execution.checkpointing.interval 0 turns checkpoints off");
        assertThat(
                        JobEnvironment.flinkConfiguration(
                                        JobOptions.of(Map.of("checkpoint-interval", "5s")),
                                        off,
                                        true)
                                .get(CheckpointingOptions.CHECKPOINTING_INTERVAL))
                .isEqualTo(Duration.ofSeconds(5));
        // A replay does not checkpoint: nothing to refuse.
        JobEnvironment.flinkConfiguration(JobOptions.defaults(), off, false);
    }

    @Test
    void theWebUiShowsEachOptionAsItStands() {
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(cluster());
        JobEnvironment.configure(env, JobOptions.of(Map.of("checkpoint-interval", "1s")), true);
        Map<String, String> shown = env.getConfig().getGlobalJobParameters().toMap();
        assertThat(shown)
                .containsEntry("tile-level", "7")
                .containsEntry("checkpoint-interval", "1s")
                .containsEntry("state-backend", "rocksdb (the cluster's state.backend.type)")
                .containsEntry(
                        "checkpoint-timeout",
                        "5min (the cluster's execution.checkpointing.timeout)")
                .containsEntry(
                        "restart-attempts",
                        "2 (the cluster's restart-strategy.fixed-delay.attempts)")
                .containsKeys(JobOptions.KNOWN.keySet().toArray(new String[0]));
    }

    @Test
    void exponentialDelayRestartsWithoutEndFromOneSecondToOneMinute() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(JobOptions.defaults(), NO_CLUSTER, true);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("exponential-delay");
        assertThat(
                        conf.get(
                                RestartStrategyOptions
                                        .RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF))
                .isEqualTo(Duration.ofSeconds(1));
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF))
                .isEqualTo(Duration.ofMinutes(1));
        assertThat(
                        conf.get(
                                RestartStrategyOptions
                                        .RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER))
                .isEqualTo(2.0);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS))
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void fixedDelayRestartsTheGivenNumberOfTimesTenSecondsApart() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(
                                Map.of("restart-strategy", "fixed-delay", "restart-attempts", "4")),
                        NO_CLUSTER,
                        true);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("fixed-delay");
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEqualTo(4);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY))
                .isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void noneNeverRestarts() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(Map.of("restart-strategy", "none")), NO_CLUSTER, true);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("none");
        assertThat(conf.getOptional(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEmpty();
    }

    @Test
    void aChangelogIsOffUnlessAskedFor() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(JobOptions.defaults(), NO_CLUSTER, true);
        assertThat(conf.get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isFalse();
    }

    @Test
    void aChangelogAskedForIsMaterializedEveryMinuteByDefault() {
        Configuration durable = new Configuration();
        durable.set(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE, "filesystem");
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(Map.of("state-changelog", "true")), durable, true);
        assertThat(conf.get(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isTrue();
        assertThat(conf.get(StateChangelogOptions.PERIODIC_MATERIALIZATION_INTERVAL))
                .isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aChangelogAskedForIsRefusedWhenTheClustersStorageIsItsMemory() {
        for (Configuration cluster : List.of(NO_CLUSTER, cluster())) {
            assertThatThrownBy(
                            () ->
                                    JobEnvironment.flinkConfiguration(
                                            JobOptions.of(Map.of("state-changelog", "true")),
                                            cluster,
                                            true))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("state.changelog.storage is memory")
                    .hasMessageContaining("state.changelog.dstl.dfs.base-path");
        }
    }

    @Test
    void aMaterializeIntervalUnderOneSecondIsRefused() {
        assertThatThrownBy(() -> JobOptions.of(Map.of("changelog-materialize-interval", "999ms")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("changelog-materialize-interval must be at least 1s, got 999ms");
    }

    @Test
    void withoutCheckpointsNothingAboutCheckpointsOrRestartsIsSet() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(JobOptions.defaults(), NO_CLUSTER, false);
        assertThat(conf.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEmpty();
        assertThat(conf.getOptional(CheckpointingOptions.CHECKPOINTING_TIMEOUT)).isEmpty();
        assertThat(conf.getOptional(RestartStrategyOptions.RESTART_STRATEGY)).isEmpty();
        assertThat(conf.getOptional(StateChangelogOptions.ENABLE_STATE_CHANGE_LOG)).isEmpty();
    }

    @Test
    void theEnvironmentTakesTheSettings() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment();
        JobEnvironment.configure(
                env,
                JobOptions.of(
                        Map.of(
                                "checkpoint-timeout", "30s",
                                "restart-strategy", "fixed-delay",
                                "parallelism", "3")),
                true);
        CheckpointConfig checkpoints = env.getCheckpointConfig();
        assertThat(checkpoints.getCheckpointTimeout()).isEqualTo(30_000);
        assertThat(checkpoints.getTolerableCheckpointFailureNumber()).isEqualTo(3);
        assertThat(checkpoints.getExternalizedCheckpointRetention())
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(env.getParallelism()).isEqualTo(3);
        assertThat(env.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("fixed-delay");
    }

    @Test
    void theOperationsPageMapsEachOptionToItsFlinkKey() throws Exception {
        Map<String, String> rows = new LinkedHashMap<>();
        for (List<String> row : ReadmeTable.rows("docs/operations.md", "| option | Flink key |")) {
            rows.put(row.get(0), row.get(1).split(" ")[0]);
        }
        assertThat(rows).containsExactlyEntriesOf(JobEnvironment.flinkKeys());
    }
}
