package org.quadfence.job;

import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.Path;

import org.quadfence.io.CurrentFencesCodec;
import org.quadfence.io.DeadLetterCodec;
import org.quadfence.io.EventTimes;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.io.InputRules;
import org.quadfence.io.JsonLinesFileSink;
import org.quadfence.io.JsonLinesFormat;
import org.quadfence.io.PositionCodec;
import org.quadfence.kafka.EventTimeKafkaSource;
import org.quadfence.kafka.KafkaIo;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.options.JobOptions;

/** Plugs the job into its two kinds of input and output: JSON-lines files, or Kafka. */
public final class JobIo {

    private JobIo() {}

    /**
     * Files: JSON-lines inputs, and outputs written at parallelism 1 so each entity's events keep
     * their order. Fence changes without a timestamp hold from the beginning of time. A file is
     * never idle: positions wait until the fences file has been read up to their time.
     */
    public static GeofenceJob.Io files(
            java.nio.file.Path fences,
            java.nio.file.Path positions,
            java.nio.file.Path events,
            java.nio.file.Path deadLetters,
            InputRules rules) {
        return files(fences, positions, events, deadLetters, null, rules);
    }

    /**
     * Files, as {@link #files(java.nio.file.Path, java.nio.file.Path, java.nio.file.Path,
     * java.nio.file.Path, InputRules)}, and each entity's current fences to {@code currentFences}
     * (none when null), one JSON object per line; an empty {@code fenceIds} stands for a tombstone.
     */
    public static GeofenceJob.Io files(
            java.nio.file.Path fences,
            java.nio.file.Path positions,
            java.nio.file.Path events,
            java.nio.file.Path deadLetters,
            java.nio.file.Path currentFences,
            InputRules rules) {
        JsonLinesFormat<Position> positionLines =
                new JsonLinesFormat<>(
                        () -> new PositionCodec(rules)::parse,
                        new TypeHint<Parsed<Position>>() {}.getTypeInfo(),
                        DeadLetter.POSITIONS,
                        rules.maxRecordBytes());
        JsonLinesFormat<FenceChange> fenceLines =
                new JsonLinesFormat<>(
                        () -> {
                            FenceChangeCodec codec = new FenceChangeCodec(rules);
                            return line -> codec.parse(null, line, Long.MIN_VALUE);
                        },
                        new TypeHint<Parsed<FenceChange>>() {}.getTypeInfo(),
                        DeadLetter.FENCES,
                        rules.maxRecordBytes());
        return new GeofenceJob.Io(
                FileSource.forRecordStreamFormat(positionLines, new Path(positions.toUri()))
                        .build(),
                FileSource.forRecordStreamFormat(fenceLines, new Path(fences.toUri())).build(),
                new JsonLinesFileSink<>(events, () -> new GeofenceEventCodec()::encode),
                new JsonLinesFileSink<DeadLetter>(deadLetters, () -> new DeadLetterCodec()::encode),
                currentFences == null
                        ? null
                        : new JsonLinesFileSink<CurrentFences>(
                                currentFences, () -> new CurrentFencesCodec()::encode),
                1,
                false);
    }

    /**
     * The positions source; with option {@code max-backlog}, each position read behind its
     * partition's watermark is marked with it, for the LateFilter to judge it by its own partition
     * (contract section 12).
     */
    static EventTimeKafkaSource<Parsed<Position>> positions(
            EventTimeKafkaSource<Parsed<Position>> source, JobOptions o) {
        if (o.millis("max-backlog") == 0) {
            return source;
        }
        return source.markingBehind(
                (parsed, watermark) ->
                        parsed.ok()
                                ? new Parsed<>(
                                        parsed.value().inBacklog(watermark), null, parsed.notice())
                                : parsed);
    }

    /**
     * The sinks' transactional id prefix: the option, or else derived from the consumer group and
     * the job name, so two jobs that differ in either never share transactional ids.
     */
    public static String transactionalIdPrefix(JobOptions o) {
        String given = o.get("transactional-id-prefix");
        return given.isEmpty() ? o.get("group-id") + "-" + o.get("job-name") : given;
    }

    /**
     * Kafka, as the options say, on an environment whose configuration sets no checkpointing mode
     * (a local one): see {@link #kafka(JobOptions, ReadableConfig, boolean)}.
     */
    public static GeofenceJob.Io kafka(JobOptions o, boolean bounded) {
        return kafka(o, new Configuration(), bounded);
    }

    /**
     * Kafka, as the options say, with the sinks' delivery guarantee that goes with {@code flink},
     * the environment's configuration ({@link JobEnvironment#delivery}); {@code bounded} sources
     * stop at the offsets latest at start. The sources keep how far they had read in event time in
     * their checkpoints, so that a restored job goes on without new input ({@link
     * KafkaIo#keepingEventTime}).
     */
    public static GeofenceJob.Io kafka(JobOptions o, ReadableConfig flink, boolean bounded) {
        KafkaIo kafka =
                new KafkaIo(
                        o.get("bootstrap-servers"),
                        o.get("group-id"),
                        transactionalIdPrefix(o),
                        o.kafkaProperties(),
                        o.inputRules());
        DeliveryGuarantee delivery = JobEnvironment.delivery(o, flink);
        long bound = o.millis("max-out-of-orderness");
        return new GeofenceJob.Io(
                positions(
                        kafka.keepingEventTime(
                                kafka.positions(
                                        o.get("positions-topic"),
                                        KafkaIo.startingOffsets(o.get("starting-offsets")),
                                        bounded),
                                o.get("positions-topic"),
                                EventTimes.POSITIONS,
                                bound),
                        o),
                kafka.keepingEventTime(
                        kafka.fences(o.get("fences-topic"), bounded),
                        o.get("fences-topic"),
                        EventTimes.FENCES,
                        bound),
                kafka.events(o.get("events-topic"), delivery),
                kafka.deadLetters(o.get("dlq-topic"), delivery),
                o.get("memberships-topic").isEmpty()
                        ? null
                        : kafka.currentFences(o.get("memberships-topic"), delivery),
                0,
                !bounded);
    }
}
