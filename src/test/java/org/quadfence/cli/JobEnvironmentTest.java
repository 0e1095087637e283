package org.quadfence.cli;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.junit.jupiter.api.Test;
import org.quadfence.job.JobEnvironment;
import org.quadfence.job.JobOptions;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Flink settings that the job options stand for, as {@code ./quadfence run} and {@code flink
 * run} apply them.
 */
class JobEnvironmentTest {

    @Test
    void checkpointsHaveTheirTimeoutTolerableFailuresAndAreKeptOnCancel() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(
                                Map.of(
                                        "checkpoint-interval", "1s",
                                        "checkpoint-timeout", "45s",
                                        "tolerable-checkpoint-failures", "5")),
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
    void theDefaultsAreATwoMinuteTimeoutAndThreeTolerableFailures() {
        Configuration conf = JobEnvironment.flinkConfiguration(JobOptions.defaults(), true);
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT))
                .isEqualTo(Duration.ofMinutes(2));
        assertThat(conf.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER)).isEqualTo(3);
    }

    @Test
    void atLeastOnceDeliveryCheckpointsAtLeastOnce() {
        Configuration conf =
                JobEnvironment.flinkConfiguration(
                        JobOptions.of(Map.of("delivery", "at-least-once")), true);
        assertThat(conf.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE))
                .isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
    }

    @Test
    void exponentialDelayRestartsWithoutEndFromOneSecondToOneMinute() {
        Configuration conf = JobEnvironment.flinkConfiguration(JobOptions.defaults(), true);
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
                        JobOptions.of(Map.of("restart-strategy", "none")), true);
        assertThat(conf.get(RestartStrategyOptions.RESTART_STRATEGY)).isEqualTo("none");
        assertThat(conf.getOptional(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS))
                .isEmpty();
    }

    @Test
    void withoutCheckpointsNothingAboutCheckpointsOrRestartsIsSet() {
        Configuration conf = JobEnvironment.flinkConfiguration(JobOptions.defaults(), false);
        assertThat(conf.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEmpty();
        assertThat(conf.getOptional(CheckpointingOptions.CHECKPOINTING_TIMEOUT)).isEmpty();
        assertThat(conf.getOptional(RestartStrategyOptions.RESTART_STRATEGY)).isEmpty();
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
}
