package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.function.SerializableSupplier;

import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.quadfence.io.CurrentFencesCodec;
import org.quadfence.io.DeadLetterCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.io.InputRules;
import org.quadfence.io.RecordParser;
import org.quadfence.kafka.EncodedRecords.Encoding;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Kafka sources and sinks of the job's records. Records are parsed in the source, so that
 * watermarks are made per partition from event time; a record that does not parse becomes a dead
 * letter. Events are keyed by entity id and stamped with their event time, or with the wall clock
 * when that is earlier.
 */
public final class KafkaIo {

    /** Kafka's largest transaction timeout by default (15 min): Flink's default (1 h) fails. */
    public static final String TRANSACTION_TIMEOUT_MS = "900000";

    /**
     * The consumer's default fetch.max.bytes (50 MiB): the sources fetch at least this much, and at
     * least one record of max-record-bytes.
     */
    static final int FETCH_MAX_BYTES = 50 << 20;

    /**
     * The sinks' max.request.size (16 MiB, Kafka's default is 1 MiB): room for the largest record
     * the job writes, the current fences of an entity in very many fences; events (properties at
     * most 65,536 characters) and dead letters (raw text at most 4,096 characters) are far smaller.
     */
    static final String MAX_REQUEST_SIZE = String.valueOf(16 << 20);

    private final String bootstrapServers;
    private final String groupId;
    private final String transactionalIdPrefix;
    private final Properties clientProperties;
    private final InputRules rules;

    /**
     * @param transactionalIdPrefix the prefix of the sinks' transactional ids; unique per job on a
     *     Kafka cluster (two jobs with one prefix abort each other's transactions)
     * @param clientProperties passed to every Kafka client as is (security.protocol, sasl.*, ...)
     * @param rules what the source codecs enforce beyond the record formats
     */
    public KafkaIo(
            String bootstrapServers,
            String groupId,
            String transactionalIdPrefix,
            Properties clientProperties,
            InputRules rules) {
        this.bootstrapServers = bootstrapServers;
        this.groupId = groupId;
        this.transactionalIdPrefix = transactionalIdPrefix;
        this.clientProperties = clientProperties;
        this.rules = rules;
    }

    /**
     * {@code source}, which reads {@code topic}, with the latest event time per partition kept in
     * its checkpoints, so that a restored job goes on from the watermark its sources had reached
     * ({@link EventTimeKafkaSource}), and with partitions idle only while the broker answers
     * ({@link EventTimeKafkaSource#idleness}).
     *
     * @param eventTime the timestamp assigner of the source's watermark strategy
     * @param boundMs that strategy's bound of out-of-orderness
     */
    public <T> EventTimeKafkaSource<T> keepingEventTime(
            KafkaSource<T> source,
            String topic,
            SerializableTimestampAssigner<T> eventTime,
            long boundMs) {
        Map<String, String> client = new HashMap<>();
        client.put("bootstrap.servers", bootstrapServers);
        clientProperties.forEach((k, v) -> client.put(k.toString(), v.toString()));
        return new EventTimeKafkaSource<>(source, topic, client, eventTime, boundMs);
    }

    /** Where positions are read from without a checkpoint: earliest, latest or committed. */
    public static OffsetsInitializer startingOffsets(String name) {
        switch (name) {
            case "earliest":
                return OffsetsInitializer.earliest();
            case "latest":
                return OffsetsInitializer.latest();
            case "committed":
                return OffsetsInitializer.committedOffsets(OffsetResetStrategy.EARLIEST);
            default:
                throw new IllegalArgumentException("unknown starting offsets: " + name);
        }
    }

    /** Positions from {@code topic}; {@code bounded} stops at the offsets latest at start. */
    public KafkaSource<Parsed<Position>> positions(
            String topic, OffsetsInitializer start, boolean bounded) {
        return positions(topic, start, bounded, positionRecords(rules));
    }

    /** Positions from {@code topic}, read with the given deserializer. */
    public KafkaSource<Parsed<Position>> positions(
            String topic,
            OffsetsInitializer start,
            boolean bounded,
            KafkaRecordDeserializationSchema<Parsed<Position>> deserializer) {
        return source(topic, start, bounded, deserializer);
    }

    /** Parses the value of each record as a position (contract section 1). */
    public static KafkaRecordDeserializationSchema<Parsed<Position>> positionRecords(
            InputRules rules) {
        return new ParsedRecords<>(RecordParser.positions(rules));
    }

    /**
     * Fence changes from the compacted {@code topic}, always from its beginning when there is no
     * checkpoint: the fence set is the whole topic. A tombstone deletes the fence its key names.
     */
    public KafkaSource<Parsed<FenceChange>> fences(String topic, boolean bounded) {
        return source(
                topic,
                OffsetsInitializer.earliest(),
                bounded,
                new ParsedRecords<>(RecordParser.fences(rules)));
    }

    private <T> KafkaSource<T> source(
            String topic,
            OffsetsInitializer start,
            boolean bounded,
            KafkaRecordDeserializationSchema<T> deserializer) {
        var b =
                KafkaSource.<T>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setGroupId(groupId)
                        .setTopics(topic)
                        .setStartingOffsets(start)
                        .setDeserializer(deserializer)
                        // Records up to max-record-bytes in one fetch, unless the user says.
                        .setProperty(
                                "max.partition.fetch.bytes",
                                String.valueOf(Math.max(1 << 20, rules.maxRecordBytes())))
                        .setProperty(
                                "fetch.max.bytes",
                                String.valueOf(Math.max(FETCH_MAX_BYTES, rules.maxRecordBytes())))
                        .setProperties(clientProperties)
                        .setProperty("isolation.level", "read_committed");
        if (bounded) {
            b.setBounded(OffsetsInitializer.latest());
        }
        return b.build();
    }

    /** Events to {@code topic}, keyed by entity id. */
    public Sink<GeofenceEvent> events(String topic, DeliveryGuarantee delivery) {
        return sink(
                topic,
                delivery,
                "events",
                () ->
                        new Encoding<GeofenceEvent>(
                                e -> e.entityId().getBytes(StandardCharsets.UTF_8),
                                new GeofenceEventCodec()::encode,
                                e -> notAhead(e.timestamp())));
    }

    /** Dead letters to {@code topic}. */
    public Sink<DeadLetter> deadLetters(String topic, DeliveryGuarantee delivery) {
        return sink(
                topic, delivery, "dlq", () -> Encoding.valueOnly(new DeadLetterCodec()::encode));
    }

    /**
     * Each entity's current fences to the compacted {@code topic} (contract section 9), keyed by
     * {@code ["<group>","<entityId>"]}; an empty set is a tombstone.
     */
    public Sink<CurrentFences> currentFences(String topic, DeliveryGuarantee delivery) {
        return sink(
                topic,
                delivery,
                "memberships",
                () -> {
                    CurrentFencesCodec codec = new CurrentFencesCodec();
                    return new Encoding<CurrentFences>(
                            codec::key,
                            c -> c.isTombstone() ? null : codec.encode(c),
                            c -> notAhead(c.timestamp()));
                });
    }

    private <T> Sink<T> sink(
            String topic,
            DeliveryGuarantee delivery,
            String name,
            SerializableSupplier<Encoding<T>> encodings) {
        Properties p = new Properties();
        p.setProperty("transaction.timeout.ms", TRANSACTION_TIMEOUT_MS);
        p.setProperty("max.request.size", MAX_REQUEST_SIZE);
        p.putAll(clientProperties);
        // Closes also while the broker is away (OutageTolerantKafkaSink).
        return new OutageTolerantKafkaSink<>(
                KafkaSink.<T>builder()
                        .setBootstrapServers(bootstrapServers)
                        .setKafkaProducerConfig(p)
                        .setRecordSerializer(new EncodedRecords<>(topic, encodings))
                        .setDeliveryGuarantee(delivery)
                        .setTransactionalIdPrefix(transactionalIdPrefix + "-" + name)
                        .build());
    }

    /**
     * A time for a record the broker accepts (message.timestamp.after.max.ms): the JSON keeps the
     * event time, so a DWELL due far ahead is stamped now.
     */
    private static Long notAhead(long timestamp) {
        return Math.min(timestamp, System.currentTimeMillis());
    }
}
