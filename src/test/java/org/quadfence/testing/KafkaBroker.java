package org.quadfence.testing;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.quadfence.demo.EmbeddedKafka;

import java.io.IOException;

/**
 * The tests' Kafka broker: {@link EmbeddedKafka} (a real KRaft broker in this JVM, on 127.0.0.1)
 * under the name the tests use.
 */
public final class KafkaBroker implements AutoCloseable {

    private final EmbeddedKafka broker;

    private KafkaBroker(EmbeddedKafka broker) {
        this.broker = broker;
    }

    /** Starts a fresh broker in a temporary directory; about four seconds. */
    public static KafkaBroker start() throws IOException {
        return new KafkaBroker(EmbeddedKafka.start());
    }

    /** host:port for clients. */
    public String bootstrapServers() {
        return broker.bootstrapServers();
    }

    /** Creates a topic and waits until it takes records. */
    public void createTopic(String name, int partitions, boolean compacted) throws Exception {
        broker.createTopic(name, partitions, compacted);
    }

    /** A consumer of bytes; {@code readCommitted} sees only committed transactions. */
    public KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted) {
        return broker.consumer(group, readCommitted);
    }

    /** Shuts the broker down and deletes its directory. */
    @Override
    public void close() throws IOException {
        broker.close();
    }
}
