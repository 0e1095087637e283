package org.quadfence.testing;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.quadfence.demo.EmbeddedKafka;

import java.io.IOException;

/**
 * The tests' Kafka broker: {@link EmbeddedKafka} (a real KRaft broker in this JVM, on 127.0.0.1)
 * under the name the tests use. One for a whole test class is a static field with
 * {@code @RegisterExtension} and {@link #perClass()}.
 */
public final class KafkaBroker
        implements Broker, AutoCloseable, BeforeAllCallback, AfterAllCallback {

    private EmbeddedKafka broker;

    private KafkaBroker(EmbeddedKafka broker) {
        this.broker = broker;
    }

    /** Starts a fresh broker in a temporary directory; about four seconds. */
    public static KafkaBroker start() throws IOException {
        return new KafkaBroker(EmbeddedKafka.start());
    }

    /**
     * A broker that starts before the first test of the class that registers it and is closed after
     * the last.
     */
    public static KafkaBroker perClass() {
        return new KafkaBroker(null);
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        broker = EmbeddedKafka.start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        close();
    }

    @Override
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    @Override
    public void createTopic(String name, int partitions, boolean compacted) throws Exception {
        broker.createTopic(name, partitions, compacted);
    }

    @Override
    public KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted) {
        return broker.consumer(group, readCommitted);
    }

    /** Shuts the broker down and deletes its directory. */
    @Override
    public void close() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }
}
