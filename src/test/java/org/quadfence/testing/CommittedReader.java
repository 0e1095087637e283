package org.quadfence.testing;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads a topic from its beginning with read_committed, on a thread of its own, for as long as it
 * is open (through outages of the broker: the consumer reconnects); what it read so far is at hand
 * at any time. The tests that kill runs or brokers read their output with it.
 */
public final class CommittedReader implements AutoCloseable {

    private final List<String> lines = Collections.synchronizedList(new ArrayList<>());
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final String leftOut;
    private final Patience patience;
    private final Duration quiet;
    private final Thread thread;
    private volatile boolean closed;

    /**
     * @param consumer a read_committed consumer, closed with this reader
     * @param leftOut records that contain it are not counted (the events of end markers)
     * @param patience how long the waits wait at most
     * @param quiet how long the topic stays the same before {@link #awaitQuiet} takes it as done
     */
    public CommittedReader(
            KafkaConsumer<byte[], byte[]> consumer,
            String topic,
            String leftOut,
            Patience patience,
            Duration quiet) {
        this.consumer = consumer;
        this.leftOut = leftOut;
        this.patience = patience;
        this.quiet = quiet;
        KafkaTopics.assignFromBeginning(consumer, topic);
        thread = new Thread(this::read, "reader-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void read() {
        try {
            while (!closed) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    lines.add(new String(r.value(), StandardCharsets.UTF_8));
                }
            }
        } catch (WakeupException e) {
            // closing
        } finally {
            consumer.close();
        }
    }

    /** The records read so far, those that contain {@code leftOut} left out. */
    public int count() {
        synchronized (lines) {
            return (int) lines.stream().filter(l -> !l.contains(leftOut)).count();
        }
    }

    public void awaitAtLeast(int count) throws InterruptedException {
        patience.await(count + " committed records", () -> count() >= count);
    }

    /**
     * Waits until at least {@code count} records were read and then nothing more for the quiet time
     * (or until the patience is over), and returns all of them.
     */
    public List<String> awaitQuiet(int count) throws InterruptedException {
        long deadline = System.nanoTime() + patience.limit().toNanos();
        int seen = -1;
        long since = System.nanoTime();
        while (System.nanoTime() < deadline) {
            int now = lines.size();
            if (now != seen) {
                seen = now;
                since = System.nanoTime();
            } else if (count() >= count && System.nanoTime() - since >= quiet.toNanos()) {
                break;
            }
            Thread.sleep(100);
        }
        synchronized (lines) {
            return new ArrayList<>(lines);
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        consumer.wakeup();
        thread.join(10_000);
    }
}
