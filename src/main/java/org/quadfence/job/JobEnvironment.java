package org.quadfence.job;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.time.Duration;

/**
 * Applies the job options that concern the environment: parallelism, state, checkpoints and what
 * happens after a failure.
 */
public final class JobEnvironment {

    /** The first pause of the exponential-delay restart strategy. */
    public static final Duration EXPONENTIAL_INITIAL_BACKOFF = Duration.ofSeconds(1);

    /** The longest pause of the exponential-delay restart strategy. */
    public static final Duration EXPONENTIAL_MAX_BACKOFF = Duration.ofMinutes(1);

    /** The pause between two restarts of the fixed-delay restart strategy. */
    public static final Duration FIXED_DELAY = Duration.ofSeconds(10);

    private JobEnvironment() {}

    /**
     * Configures {@code env} from {@code options}: the settings of {@link #flinkConfiguration}, and
     * the parallelism when the options give one.
     *
     * @param checkpoints whether the job checkpoints (and then restarts after a failure)
     */
    public static void configure(
            StreamExecutionEnvironment env, JobOptions options, boolean checkpoints) {
        env.configure(flinkConfiguration(options, checkpoints));
        if (!options.get("parallelism").isEmpty()) {
            env.setParallelism(options.intValue("parallelism"));
        }
    }

    /**
     * The Flink settings the options stand for. Without {@code checkpoints}: the state backend and
     * no generic types. With them also the checkpoint interval and mode, timeout and tolerable
     * failures, checkpoints retained when the job is cancelled (so that a stopped job can be
     * resumed from its last one), and the restart strategy.
     */
    public static Configuration flinkConfiguration(JobOptions options, boolean checkpoints) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, options.get("state-backend"));
        // A record type that falls back to Kryo is a bug here, not a slow path.
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        if (checkpoints) {
            conf.set(
                    CheckpointingOptions.CHECKPOINTING_INTERVAL,
                    Duration.ofMillis(options.millis("checkpoint-interval")));
            conf.set(
                    CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE,
                    options.get("delivery").equals("exactly-once")
                            ? CheckpointingMode.EXACTLY_ONCE
                            : CheckpointingMode.AT_LEAST_ONCE);
            conf.set(
                    CheckpointingOptions.CHECKPOINTING_TIMEOUT,
                    Duration.ofMillis(options.millis("checkpoint-timeout")));
            conf.set(
                    CheckpointingOptions.TOLERABLE_FAILURE_NUMBER,
                    options.intValue("tolerable-checkpoint-failures"));
            conf.set(
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            restartStrategy(options, conf);
        }
        return conf;
    }

    private static void restartStrategy(JobOptions options, Configuration conf) {
        String strategy = options.get("restart-strategy");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, strategy);
        switch (strategy) {
            case "exponential-delay":
                conf.set(
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
                        EXPONENTIAL_INITIAL_BACKOFF);
                conf.set(
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
                        EXPONENTIAL_MAX_BACKOFF);
                conf.set(
                        RestartStrategyOptions
                                .RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER,
                        2.0);
                conf.set(
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS,
                        Integer.MAX_VALUE);
                break;
            case "fixed-delay":
                conf.set(
                        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                        options.intValue("restart-attempts"));
                conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, FIXED_DELAY);
                break;
            default:
                // "none": the type alone says it
        }
    }
}
