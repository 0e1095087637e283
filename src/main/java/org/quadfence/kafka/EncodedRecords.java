package org.quadfence.kafka;

import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.util.function.SerializableSupplier;

import org.apache.kafka.clients.producer.ProducerRecord;

import java.util.function.Function;

/**
 * A Kafka sink's records of one type, each with the key, value and timestamp of an {@link Encoding}
 * made in {@code open()} where the sink runs (codecs are not serializable).
 */
final class EncodedRecords<T> implements KafkaRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    /**
     * How a record becomes a Kafka record: its key, value and timestamp, each of which may be null
     * (no key, a tombstone, the producer's clock).
     */
    record Encoding<T>(
            Function<T, byte[]> key, Function<T, byte[]> value, Function<T, Long> timestamp) {

        /** Records of {@code value} alone: no key, stamped by the producer. */
        static <T> Encoding<T> valueOnly(Function<T, byte[]> value) {
            return new Encoding<>(r -> null, value, r -> null);
        }
    }

    private final String topic;
    private final SerializableSupplier<Encoding<T>> encodings;
    private transient Encoding<T> encoding;

    EncodedRecords(String topic, SerializableSupplier<Encoding<T>> encodings) {
        this.topic = topic;
        this.encodings = encodings;
    }

    @Override
    public void open(
            SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {
        encoding = encodings.get();
    }

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T r, KafkaSinkContext context, Long timestamp) {
        return new ProducerRecord<>(
                topic,
                null,
                encoding.timestamp().apply(r),
                encoding.key().apply(r),
                encoding.value().apply(r));
    }
}
