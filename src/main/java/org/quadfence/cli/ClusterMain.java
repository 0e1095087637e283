package org.quadfence.cli;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.job.JobOptions;

import java.util.Arrays;

/**
 * The job jar's entry point for {@code flink run target/quadfence.jar --config FILE [--key value
 * ...]}: the geofence job against Kafka, on whatever cluster runs it.
 */
public final class ClusterMain {

    private ClusterMain() {}

    public static void main(String[] args) throws Exception {
        if (Arrays.asList(args).contains("--help")) {
            System.out.println(
                    "usage: flink run target/quadfence.jar [--config FILE] [--key value ...]"
                            + System.lineSeparator()
                            + JobOptions.describe());
            return;
        }
        JobOptions options = JobOptions.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        GeofenceJob.assemble(env, options, JobIo.kafka(options, false), true);
        env.execute(GeofenceJob.name(options));
    }
}
