package org.quadfence.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Applies the job options that concern the environment: parallelism, checkpoints, state. */
public final class JobEnvironment {

    private JobEnvironment() {}

    /** Configures {@code env} from {@code options}; checkpointing only when {@code checkpoints}. */
    public static void configure(
            StreamExecutionEnvironment env, JobOptions options, boolean checkpoints) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, options.get("state-backend"));
        // A record type that falls back to Kryo is a bug here, not a slow path.
        conf.set(PipelineOptions.GENERIC_TYPES, false);
        env.configure(conf);
        if (!options.get("parallelism").isEmpty()) {
            env.setParallelism(options.intValue("parallelism"));
        }
        if (checkpoints) {
            env.enableCheckpointing(
                    options.millis("checkpoint-interval"),
                    options.get("delivery").equals("exactly-once")
                            ? CheckpointingMode.EXACTLY_ONCE
                            : CheckpointingMode.AT_LEAST_ONCE);
        }
    }
}
