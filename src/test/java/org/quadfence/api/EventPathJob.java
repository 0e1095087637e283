package org.quadfence.api;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.io.EventTimes;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobEnvironment;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Membership;
import org.quadfence.model.Parsed;
import org.quadfence.options.JobOptions;

import java.time.Duration;

/**
 * The event path alone as a job, for the job harness's phase {@code eventpath} (issue 21, goal 4):
 * memberships from a source of the harness's, through the job's entity stage, properties join and
 * ordering ({@link Geofencing#eventPath}), to the job's events sink; the fences' properties from
 * the job's fences source. Configured as the job is ({@link JobEnvironment#configure}).
 */
public final class EventPathJob {

    private EventPathJob() {}

    /** Adds the event path to {@code env}, reading memberships from {@code memberships}. */
    public static void assemble(
            StreamExecutionEnvironment env,
            JobOptions options,
            Source<Membership, ?, ?> memberships,
            GeofenceJob.Io io) {
        JobEnvironment.configure(env, options, true);
        Duration bound = Duration.ofMillis(options.millis("max-out-of-orderness"));
        DataStream<Membership> answers =
                env.fromSource(
                                memberships,
                                WatermarkStrategy.<Membership>forBoundedOutOfOrderness(bound)
                                        .withTimestampAssigner((m, t) -> m.timestamp()),
                                "memberships source",
                                TypeInformation.of(Membership.class))
                        .uid("memberships-source");
        DataStream<Parsed<FenceChange>> fences =
                env.fromSource(
                                io.fences(),
                                WatermarkStrategy.<Parsed<FenceChange>>forBoundedOutOfOrderness(
                                                bound)
                                        .withTimestampAssigner(EventTimes.FENCES),
                                "fences source",
                                new TypeHint<Parsed<FenceChange>>() {}.getTypeInfo())
                        .uid("fences-source");
        Geofencing.of(options, false)
                .eventPath(answers, fences)
                .sinkTo(io.events())
                .uid("events-sink")
                .name("events sink");
    }
}
