package org.quadfence.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.quadfence.demo.EmbeddedKafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

/**
 * What the integration tests do with the topics of a {@link Broker}: create the job's topics, write
 * sample lines into them, read them from the beginning, and see how far the job's consumer group
 * has committed.
 */
public final class KafkaTopics {

    private static final ObjectMapper JSON = new ObjectMapper();

    private KafkaTopics() {}

    /**
     * Creates the job's topics under the names a properties file of the tests gives them:
     * "positions", "fences" (compacted), "geofence-events" (2 partitions), "geofence-dlq" (1).
     */
    public static void createJobTopics(Broker kafka, int positionPartitions, int fencePartitions)
            throws Exception {
        kafka.createTopic("positions", positionPartitions, false);
        kafka.createTopic("fences", fencePartitions, true);
        kafka.createTopic("geofence-events", 2, false);
        kafka.createTopic("geofence-dlq", 1, false);
    }

    /**
     * An idempotent producer of bytes (5 ms linger) that sends records as large as the broker
     * takes; the caller closes it.
     */
    public static KafkaProducer<byte[], byte[]> producer(Broker kafka) {
        return producer(kafka, Map.of());
    }

    /** {@link #producer(Broker)} with more settings, or other values of its own. */
    public static KafkaProducer<byte[], byte[]> producer(Broker kafka, Map<String, String> more) {
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", kafka.bootstrapServers());
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "5");
        p.put("max.request.size", String.valueOf(EmbeddedKafka.MESSAGE_MAX_BYTES));
        p.putAll(more);
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * A record of UTF-8 key and value with the Kafka timestamp {@code timestamp}; a null {@code
     * partition} leaves the partition to the key.
     */
    public static ProducerRecord<byte[], byte[]> record(
            String topic, Integer partition, String key, long timestamp, String value) {
        return new ProducerRecord<>(
                topic,
                partition,
                timestamp,
                key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A small fence (a square of 0.001 degrees at 0,0) from {@code time} on, with that Kafka
     * timestamp, into {@code partition} of {@code topic}.
     */
    public static ProducerRecord<byte[], byte[]> smallFence(
            String topic, int partition, String id, long time) {
        String line =
                "{\"fenceId\":\""
                        + id
                        + "\",\"rect\":[0,0,0.001,0.001],\"timestamp\":"
                        + time
                        + "}";
        return record(topic, partition, id, time, line);
    }

    /**
     * Sends every line of a fences file to {@code topic}, keyed by its fence id ("fenceId", else
     * "id"), with Kafka timestamp 0: fences without a time of their own hold from then. Returns the
     * sends, for the caller to wait on.
     */
    public static List<Future<RecordMetadata>> sendFences(
            KafkaProducer<byte[], byte[]> producer, String topic, Path fences) throws IOException {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (String line : Files.readAllLines(fences)) {
            JsonNode fence = JSON.readTree(line);
            String id =
                    fence.has("fenceId") ? fence.get("fenceId").asText() : fence.get("id").asText();
            sent.add(producer.send(record(topic, null, id, 0L, line)));
        }
        return sent;
    }

    /** Assigns the consumer every partition of {@code topic} at its beginning; returns them. */
    public static List<TopicPartition> assignFromBeginning(
            KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> partitions = new ArrayList<>();
        consumer.partitionsFor(topic)
                .forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        return partitions;
    }

    /** An admin client of the broker; the caller closes it. */
    public static Admin admin(Broker kafka) {
        return Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()));
    }

    /** The end offset, as of now, of each of the first {@code partitions} partitions of a topic. */
    public static Map<TopicPartition, Long> endOffsets(Admin admin, String topic, int partitions)
            throws Exception {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        for (int i = 0; i < partitions; i++) {
            latest.put(new TopicPartition(topic, i), OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(latest).all().get().forEach((tp, r) -> ends.put(tp, r.offset()));
        return ends;
    }

    /**
     * Whether consumer group {@code group} has committed at least the offset {@code ends} gives
     * each of its partitions (a Flink Kafka source commits at completed checkpoints).
     */
    public static boolean committedUpTo(Admin admin, String group, Map<TopicPartition, Long> ends)
            throws Exception {
        Map<TopicPartition, OffsetAndMetadata> committed =
                admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            OffsetAndMetadata c = committed.get(e.getKey());
            if (c == null || c.offset() < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
