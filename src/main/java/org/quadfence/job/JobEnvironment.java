package org.quadfence.job;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.configuration.StateChangelogOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.options.JobOptions;
import org.quadfence.options.QuadfenceOptions;
import org.quadfence.options.QuadfenceOptions.Delivery;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Applies the job options that concern the environment: parallelism, state, checkpoints and what
 * happens after a failure. The cluster's configuration wins unless an option is given: an option
 * the user gave sets its Flink key ({@link #flinkKeys()}); an option the user did not give leaves
 * the value that the environment's configuration holds for that key in force (on a cluster: its
 * config.yaml, {@code -D}, the Kubernetes operator's flinkConfiguration), and only where that holds
 * none does the option's default apply. Settings without an option of their own (the restart
 * strategies' tuning, checkpoints kept on cancellation) likewise take the cluster's value when it
 * has one.
 */
public final class JobEnvironment {

    /** The first pause of the exponential-delay restart strategy. */
    public static final Duration EXPONENTIAL_INITIAL_BACKOFF = Duration.ofSeconds(1);

    /** The longest pause of the exponential-delay restart strategy. */
    public static final Duration EXPONENTIAL_MAX_BACKOFF = Duration.ofMinutes(1);

    /** The pause between two restarts of the fixed-delay restart strategy. */
    public static final Duration FIXED_DELAY = Duration.ofSeconds(10);

    /** The option and the Flink setting it stands for. */
    private record Setting<T, F>(
            ConfigOption<T> option, ConfigOption<F> flink, Function<T, F> toFlink) {

        /**
         * Sets the Flink key in {@code conf} when the option was given or {@code cluster} has no
         * value for it; returns the value in force, as the web UI shows it.
         */
        String apply(JobOptions options, ReadableConfig cluster, Configuration conf) {
            Optional<F> theirs = cluster.getOptional(flink);
            if (options.isSet(option) || theirs.isEmpty()) {
                conf.set(flink, toFlink.apply(options.get(option)));
                return QuadfenceOptions.text(options.get(option));
            }
            return QuadfenceOptions.text(theirs.get()) + " (the cluster's " + flink.key() + ")";
        }
    }

    private static final Setting<QuadfenceOptions.StateBackend, String> STATE_BACKEND =
            new Setting<>(
                    QuadfenceOptions.STATE_BACKEND,
                    StateBackendOptions.STATE_BACKEND,
                    String::valueOf);

    private static final Setting<Duration, Duration> WATERMARK_INTERVAL =
            new Setting<>(
                    QuadfenceOptions.WATERMARK_INTERVAL,
                    PipelineOptions.AUTO_WATERMARK_INTERVAL,
                    d -> d);

    private static final List<Setting<?, ?>> CHECKPOINT_SETTINGS =
            List.of(
                    new Setting<>(
                            QuadfenceOptions.CHECKPOINT_INTERVAL,
                            CheckpointingOptions.CHECKPOINTING_INTERVAL,
                            d -> d),
                    new Setting<>(
                            QuadfenceOptions.DELIVERY,
                            CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE,
                            d ->
                                    d == Delivery.EXACTLY_ONCE
                                            ? CheckpointingMode.EXACTLY_ONCE
                                            : CheckpointingMode.AT_LEAST_ONCE),
                    new Setting<>(
                            QuadfenceOptions.CHECKPOINT_TIMEOUT,
                            CheckpointingOptions.CHECKPOINTING_TIMEOUT,
                            d -> d),
                    new Setting<>(
                            QuadfenceOptions.TOLERABLE_CHECKPOINT_FAILURES,
                            CheckpointingOptions.TOLERABLE_FAILURE_NUMBER,
                            n -> n));

    private static final List<Setting<?, ?>> CHANGELOG_SETTINGS =
            List.of(
                    new Setting<>(
                            QuadfenceOptions.STATE_CHANGELOG,
                            StateChangelogOptions.ENABLE_STATE_CHANGE_LOG,
                            b -> b),
                    new Setting<>(
                            QuadfenceOptions.CHANGELOG_MATERIALIZE_INTERVAL,
                            StateChangelogOptions.PERIODIC_MATERIALIZATION_INTERVAL,
                            d -> d));

    /** The changelog storage that keeps the changes where a restore finds them. */
    public static final String DURABLE_CHANGELOG_STORAGE = "filesystem";

    private static final Setting<QuadfenceOptions.RestartStrategy, String> RESTART_STRATEGY =
            new Setting<>(
                    QuadfenceOptions.RESTART_STRATEGY,
                    RestartStrategyOptions.RESTART_STRATEGY,
                    String::valueOf);

    private static final Setting<Integer, Integer> RESTART_ATTEMPTS =
            new Setting<>(
                    QuadfenceOptions.RESTART_ATTEMPTS,
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                    n -> n);

    private JobEnvironment() {}

    /**
     * The job options that stand for a Flink setting, each with the Flink key it sets; {@code
     * parallelism} sets the environment's parallelism, which is {@code parallelism.default} (or
     * {@code flink run -p}) when the option is empty.
     */
    public static Map<String, String> flinkKeys() {
        Map<String, String> keys = new LinkedHashMap<>();
        keys.put(STATE_BACKEND.option().key(), STATE_BACKEND.flink().key());
        keys.put(WATERMARK_INTERVAL.option().key(), WATERMARK_INTERVAL.flink().key());
        CHECKPOINT_SETTINGS.forEach(s -> keys.put(s.option().key(), s.flink().key()));
        CHANGELOG_SETTINGS.forEach(s -> keys.put(s.option().key(), s.flink().key()));
        keys.put(RESTART_STRATEGY.option().key(), RESTART_STRATEGY.flink().key());
        keys.put(RESTART_ATTEMPTS.option().key(), RESTART_ATTEMPTS.flink().key());
        keys.put(QuadfenceOptions.PARALLELISM.key(), CoreOptions.DEFAULT_PARALLELISM.key());
        return Collections.unmodifiableMap(keys);
    }

    /**
     * Configures {@code env} from {@code options} over the environment's own configuration: the
     * settings of {@link #flinkConfiguration}, and the parallelism when the options give one.
     *
     * @param checkpoints whether the job checkpoints (and then restarts after a failure)
     */
    public static void configure(
            StreamExecutionEnvironment env, JobOptions options, boolean checkpoints) {
        env.configure(flinkConfiguration(options, env.getConfiguration(), checkpoints));
        if (options.isSet(QuadfenceOptions.PARALLELISM)) {
            env.setParallelism(options.get(QuadfenceOptions.PARALLELISM));
        }
    }

    /**
     * The Flink settings the options stand for, over {@code cluster} (the environment's
     * configuration): an option given sets its key; an option not given sets it only when {@code
     * cluster} has no value for it. Without {@code checkpoints}: the state backend. With them also
     * the checkpoint interval and mode, timeout and tolerable failures, the changelog (refused when
     * the cluster's changelog storage is not durable), checkpoints retained when the job is
     * cancelled (so that a stopped job can be resumed from its last one), and the restart strategy.
     * Always: no generic types, and the options as global job parameters, which the web UI shows.
     *
     * @throws IllegalArgumentException when checkpoints are wanted but {@code cluster} turns them
     *     off (an interval of 0) and the options give no interval, or when the options ask for the
     *     changelog and {@code cluster}'s changelog storage is not {@value
     *     #DURABLE_CHANGELOG_STORAGE}
     */
    public static Configuration flinkConfiguration(
            JobOptions options, ReadableConfig cluster, boolean checkpoints) {
        Configuration conf = new Configuration();
        Map<String, String> shown = new LinkedHashMap<>(options.forDisplay());
        // A record type that falls back to Kryo is a bug here, not a slow path.
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        shown.put(STATE_BACKEND.option().key(), STATE_BACKEND.apply(options, cluster, conf));
        shown.put(
                WATERMARK_INTERVAL.option().key(),
                WATERMARK_INTERVAL.apply(options, cluster, conf));
        if (checkpoints) {
            for (Setting<?, ?> s : CHECKPOINT_SETTINGS) {
                shown.put(s.option().key(), s.apply(options, cluster, conf));
            }
            Duration interval =
                    conf.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL)
                            .or(
                                    () ->
                                            cluster.getOptional(
                                                    CheckpointingOptions.CHECKPOINTING_INTERVAL))
                            .orElseThrow();
            if (interval.isZero() || interval.isNegative()) {
                throw new IllegalArgumentException(
                        "the cluster's execution.checkpointing.interval 0 turns checkpoints off;"
                                + " the job needs them (its Kafka sinks commit at checkpoints):"
                                + " give checkpoint-interval");
            }
            changelog(options, cluster, conf, shown);
            unlessTheClusterHas(
                    conf,
                    cluster,
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            restartStrategy(options, cluster, conf, shown);
        }
        conf.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, shown);
        return conf;
    }

    /**
     * The Kafka sinks' delivery guarantee: {@code delivery} when given; else the one that goes with
     * the checkpointing mode of {@code flink} (the environment's configuration) when it sets one;
     * else {@code delivery}'s default, exactly-once. So the sinks and the checkpoints always agree:
     * a transactional sink with at-least-once checkpoints would pay for transactions and still
     * repeat records after a restore.
     */
    public static DeliveryGuarantee delivery(JobOptions options, ReadableConfig flink) {
        Delivery delivery = options.get(QuadfenceOptions.DELIVERY);
        if (!options.isSet(QuadfenceOptions.DELIVERY)) {
            Optional<CheckpointingMode> mode =
                    flink.getOptional(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE);
            if (mode.isPresent()) {
                delivery =
                        mode.get() == CheckpointingMode.EXACTLY_ONCE
                                ? Delivery.EXACTLY_ONCE
                                : Delivery.AT_LEAST_ONCE;
            }
        }
        return delivery == Delivery.EXACTLY_ONCE
                ? DeliveryGuarantee.EXACTLY_ONCE
                : DeliveryGuarantee.AT_LEAST_ONCE;
    }

    /**
     * The changelog settings. A changelog the options ask for needs the cluster's changelog storage
     * to be durable: Flink's default keeps the changes in the TaskManager's memory, where a restore
     * after a lost TaskManager cannot find them.
     */
    private static void changelog(
            JobOptions options,
            ReadableConfig cluster,
            Configuration conf,
            Map<String, String> shown) {
        for (Setting<?, ?> s : CHANGELOG_SETTINGS) {
            shown.put(s.option().key(), s.apply(options, cluster, conf));
        }
        String storage = cluster.get(StateChangelogOptions.STATE_CHANGE_LOG_STORAGE);
        if (options.isSet(QuadfenceOptions.STATE_CHANGELOG)
                && options.get(QuadfenceOptions.STATE_CHANGELOG)
                && !DURABLE_CHANGELOG_STORAGE.equalsIgnoreCase(storage)) {
            throw new IllegalArgumentException(
                    "state-changelog needs a durable changelog storage, and the cluster's "
                            + StateChangelogOptions.STATE_CHANGE_LOG_STORAGE.key()
                            + " is "
                            + storage
                            + ": set it to "
                            + DURABLE_CHANGELOG_STORAGE
                            + " and state.changelog.dstl.dfs.base-path to a directory that"
                            + " outlives the TaskManagers (docs/operations.md)");
        }
    }

    private static void restartStrategy(
            JobOptions options,
            ReadableConfig cluster,
            Configuration conf,
            Map<String, String> shown) {
        shown.put(RESTART_STRATEGY.option().key(), RESTART_STRATEGY.apply(options, cluster, conf));
        String type =
                conf.getOptional(RestartStrategyOptions.RESTART_STRATEGY)
                        .or(() -> cluster.getOptional(RestartStrategyOptions.RESTART_STRATEGY))
                        .orElseThrow();
        // Flink's own spellings of the two strategies the job tunes, as its loader reads them.
        switch (type.toLowerCase(Locale.ROOT).replace("-", "")) {
            case "exponentialdelay":
                unlessTheClusterHas(
                        conf,
                        cluster,
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
                        EXPONENTIAL_INITIAL_BACKOFF);
                unlessTheClusterHas(
                        conf,
                        cluster,
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
                        EXPONENTIAL_MAX_BACKOFF);
                unlessTheClusterHas(
                        conf,
                        cluster,
                        RestartStrategyOptions
                                .RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER,
                        2.0);
                unlessTheClusterHas(
                        conf,
                        cluster,
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS,
                        Integer.MAX_VALUE);
                break;
            case "fixeddelay":
                shown.put(
                        RESTART_ATTEMPTS.option().key(),
                        RESTART_ATTEMPTS.apply(options, cluster, conf));
                unlessTheClusterHas(
                        conf,
                        cluster,
                        RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                        FIXED_DELAY);
                break;
            default:
                // "none", or a strategy of the cluster's that the job has no settings for
        }
    }

    private static <T> void unlessTheClusterHas(
            Configuration conf, ReadableConfig cluster, ConfigOption<T> key, T value) {
        if (cluster.getOptional(key).isEmpty()) {
            conf.set(key, value);
        }
    }
}
