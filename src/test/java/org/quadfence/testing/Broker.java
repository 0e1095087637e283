package org.quadfence.testing;

import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * A Kafka broker of the tests: in the test's JVM ({@link KafkaBroker}) or its own ({@link
 * BrokerProcess}).
 */
public interface Broker {

    /** host:port for clients. */
    String bootstrapServers();

    /** Creates a topic and waits until it takes records. */
    void createTopic(String name, int partitions, boolean compacted) throws Exception;

    /** A consumer of bytes; {@code readCommitted} sees only committed transactions. */
    KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted);
}
