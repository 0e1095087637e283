package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;

import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Properties;

/**
 * The parts of Flink's Kafka connector (5.0) that {@link EventTimeKafkaSource} builds its reader
 * from and that the connector keeps to itself: a source's consumer properties and deserializer, and
 * a split reader's consumer. Each is looked up once; {@link #check} fails a job at its build, not
 * at its run, on a connector without them.
 */
final class KafkaInternals {

    private static final Field PROPS = field(KafkaSource.class, "props");
    private static final Field DESERIALIZER = field(KafkaSource.class, "deserializationSchema");
    private static final Method CONSUMER = method(KafkaPartitionSplitReader.class, "consumer");

    private KafkaInternals() {}

    /** Loads this class, so that a connector without these parts fails here. */
    static void check() {}

    static Properties properties(KafkaSource<?> source) {
        return (Properties) get(PROPS, source);
    }

    @SuppressWarnings("unchecked")
    static <T> KafkaRecordDeserializationSchema<T> deserializer(KafkaSource<T> source) {
        return (KafkaRecordDeserializationSchema<T>) get(DESERIALIZER, source);
    }

    @SuppressWarnings("unchecked")
    static KafkaConsumer<byte[], byte[]> consumer(KafkaPartitionSplitReader reader) {
        try {
            return (KafkaConsumer<byte[], byte[]>) CONSUMER.invoke(reader);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the Kafka split reader's consumer", e);
        }
    }

    private static Object get(Field field, Object of) {
        try {
            return field.get(of);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read KafkaSource." + field.getName(), e);
        }
    }

    private static Field field(Class<?> type, String name) {
        try {
            Field f = type.getDeclaredField(name);
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(unsupported(type, name), e);
        }
    }

    private static Method method(Class<?> type, String name) {
        try {
            Method m = type.getDeclaredMethod(name);
            m.setAccessible(true);
            return m;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(unsupported(type, name), e);
        }
    }

    private static String unsupported(Class<?> type, String name) {
        return type.getName()
                + " has no "
                + name
                + ": this Kafka connector is not the one quadfence's source is built on (5.0)";
    }
}
