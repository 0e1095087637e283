package org.quadfence.cli;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.options.Help;
import org.quadfence.options.JobOptions;

import java.util.List;

/**
 * The job jar's entry point for {@code flink run target/quadfence.jar --config FILE [--key value
 * ...]}: the geofence job against Kafka, on whatever cluster runs it.
 */
public final class ClusterMain {

    /** The synopsis. */
    static final String USAGE = "flink run target/quadfence.jar [--config FILE] [--key value ...]";

    private ClusterMain() {}

    public static void main(String[] args) throws Exception {
        if (Help.asked(args)) {
            System.out.println(Help.of(USAGE, List.of(Help.CONFIG)));
            return;
        }
        JobOptions options = JobOptions.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GeofenceJob.assemble(
                env, options, JobIo.kafka(options, env.getConfiguration(), false), true);
        env.execute(GeofenceJob.name(options));
    }
}
