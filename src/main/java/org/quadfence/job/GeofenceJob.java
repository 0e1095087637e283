package org.quadfence.job;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.api.GeofenceStreams;
import org.quadfence.api.Geofencing;
import org.quadfence.io.EventTimes;
import org.quadfence.kafka.EventTimeKafkaSource;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.options.JobOptions;
import org.quadfence.stages.StateOptions;

import java.time.Duration;

/**
 * The geofence job: {@link Geofencing} between JSON sources and sinks, which come in as parameters
 * ({@link JobIo}: files for tests and replay, Kafka on a cluster). Every way of running the job
 * (the command line, the demo, the tests, the benchmarks) assembles it here.
 */
public final class GeofenceJob {

    /** The layout of the job's state; checkpoints of another layout are not restored. */
    public static final String STATE_FORMAT = StateOptions.FORMAT;

    /**
     * The state formats this version restores (the stable ones, docs/operations.md, "Upgrades").
     */
    public static final java.util.Set<String> READABLE_STATE_FORMATS = StateOptions.READABLE;

    private GeofenceJob() {}

    /**
     * Where the job reads and writes.
     *
     * @param currentFences where each entity's current fences go; null: nowhere
     * @param sinkParallelism the sinks' parallelism; 0 keeps the default
     * @param live whether the inputs are unbounded: only then may a silent partition stop holding
     *     back the watermark ({@code idle-timeout}); a bounded input holds it until it is read
     */
    public record Io(
            Source<Parsed<Position>, ?, ?> positions,
            Source<Parsed<FenceChange>, ?, ?> fences,
            Sink<GeofenceEvent> events,
            Sink<DeadLetter> deadLetters,
            Sink<CurrentFences> currentFences,
            int sinkParallelism,
            boolean live) {

        /** The same, with positions from {@code source}. */
        public Io withPositions(Source<Parsed<Position>, ?, ?> source) {
            return new Io(
                    source, fences, events, deadLetters, currentFences, sinkParallelism, live);
        }
    }

    /**
     * Configures {@code env} from {@code options} ({@link JobEnvironment#configure}) and adds the
     * job to it, ready to execute under {@link #name}.
     *
     * @param checkpoints whether the job checkpoints (and then restarts after a failure)
     */
    public static void assemble(
            StreamExecutionEnvironment env, JobOptions options, Io io, boolean checkpoints) {
        JobEnvironment.configure(env, options, checkpoints);
        build(env, options, io);
    }

    /** The job's name in Flink, as the options say. */
    public static String name(JobOptions options) {
        return options.get("job-name");
    }

    /** Adds the job's operators to {@code env}, configured as it is. */
    public static void build(StreamExecutionEnvironment env, JobOptions options, Io io) {
        Duration bound = Duration.ofMillis(options.millis("max-out-of-orderness"));
        // A bounded input is never idle, only slow: taking a slow fences file as idle let
        // positions pass fences that were still being read, so the output depended on timing.
        Duration idle = io.live() ? Duration.ofMillis(options.millis("idle-timeout")) : null;
        DataStream<Parsed<Position>> positions =
                env.fromSource(
                                io.positions(),
                                watermarks(io.positions(), bound, idle, EventTimes.POSITIONS),
                                "positions source",
                                new TypeHint<Parsed<Position>>() {}.getTypeInfo())
                        .uid("positions-source");
        DataStream<Parsed<FenceChange>> fences =
                env.fromSource(
                                io.fences(),
                                watermarks(io.fences(), bound, idle, EventTimes.FENCES),
                                "fences source",
                                new TypeHint<Parsed<FenceChange>>() {}.getTypeInfo())
                        .uid("fences-source");

        Geofencing geofencing = Geofencing.of(options, io.currentFences() != null);
        // Bounded and unchecked (replay): positions wait in their file, not in memory, while the
        // fences file is read.
        if (!io.live() && !env.getCheckpointConfig().isCheckpointingEnabled()) {
            geofencing = geofencing.readingFencesFirst();
        }
        GeofenceStreams out = geofencing.applyParsed(positions, fences);

        parallelism(out.events().sinkTo(io.events()).uid("events-sink").name("events sink"), io);
        parallelism(
                out.deadLetters()
                        .map(new DeadLetterTally())
                        .returns(DeadLetter.class)
                        .uid("dead-letters-tally")
                        .name("DeadLetterTally")
                        .sinkTo(io.deadLetters())
                        .uid("dead-letters-sink")
                        .name("dead letters sink"),
                io);
        if (io.currentFences() != null) {
            parallelism(
                    out.currentFences()
                            .sinkTo(io.currentFences())
                            .uid("current-fences-sink")
                            .name("memberships sink"),
                    io);
        }
    }

    // Watermarks per source split, from the event time of the good records; idle: none. A Kafka
    // source of the job's own takes a partition for idle only while the broker answers: cut off
    // from it, the partition may still hold records behind the others'.
    private static <T> WatermarkStrategy<T> watermarks(
            Source<T, ?, ?> source,
            Duration bound,
            Duration idle,
            SerializableTimestampAssigner<T> time) {
        WatermarkStrategy<T> strategy =
                WatermarkStrategy.<T>forBoundedOutOfOrderness(bound).withTimestampAssigner(time);
        if (idle == null) {
            return strategy;
        }
        return source instanceof EventTimeKafkaSource<?> kafka
                ? kafka.idleness(strategy, idle)
                : strategy.withIdleness(idle);
    }

    private static void parallelism(DataStreamSink<?> sink, Io io) {
        if (io.sinkParallelism() > 0) {
            sink.setParallelism(io.sinkParallelism());
        }
    }
}
