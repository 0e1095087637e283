package org.quadfence.demo;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/** Reads one topic from its beginning in a thread of its own and hands each record over. */
final class TopicReader implements AutoCloseable {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Consumer<ConsumerRecord<byte[], byte[]>> handler;
    private final Thread thread;
    private volatile boolean running = true;

    TopicReader(
            KafkaConsumer<byte[], byte[]> consumer,
            String topic,
            Consumer<ConsumerRecord<byte[], byte[]>> handler) {
        this.consumer = consumer;
        this.handler = handler;
        consumer.subscribe(List.of(topic));
        thread = new Thread(this::run, "quadfence-demo-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                consumer.poll(Duration.ofMillis(200)).forEach(handler);
            }
        } catch (WakeupException stopping) {
            // close() asked to stop
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    /** Stops reading and closes the consumer. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
