package org.quadfence.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.KafkaProducer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Writes a sample's positions to a topic, keyed by entity, in file order, with Kafka timestamp 0,
 * in chunks with a pause between them, on a thread of its own; then, once allowed ({@link
 * #allowEnd}), one end marker to each partition. Each chunk is written before the next: while the
 * broker is away, the feeder waits.
 */
public final class PositionFeeder implements AutoCloseable {

    /**
     * The entity of the end markers: one position per partition, a minute after the sample, that
     * moves the watermark past the sample's last positions (a running job never sees its input
     * end). The markers themselves wait for a later watermark, so they make no events.
     */
    public static final String END = "zz-end-of-sample";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Supplier<KafkaProducer<byte[], byte[]>> producers;
    private final String topic;
    private final int partitions;
    private final int chunk;
    private final Duration pause;
    private final Duration patience;
    private final List<String> lines;
    private final AtomicInteger fed = new AtomicInteger();
    private final CountDownLatch endAllowed = new CountDownLatch(1);
    private final CountDownLatch done = new CountDownLatch(1);
    private final Thread thread;
    private volatile Exception failure;

    /**
     * @param producers makes the producer the feeder writes with (and closes)
     * @param partitions the topic's partitions, each of which gets an end marker
     * @param patience how long a record may take to be written, and the whole feed to finish
     */
    public PositionFeeder(
            Supplier<KafkaProducer<byte[], byte[]>> producers,
            String topic,
            int partitions,
            Path positions,
            int chunk,
            Duration pause,
            Duration patience)
            throws IOException {
        this.producers = producers;
        this.topic = topic;
        this.partitions = partitions;
        this.chunk = chunk;
        this.pause = pause;
        this.patience = patience;
        this.lines = Files.readAllLines(positions);
        this.thread = new Thread(this::feed, "feeder-" + topic);
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Lets the end markers be written once the positions are. */
    public void allowEnd() {
        endAllowed.countDown();
    }

    /** Positions written so far. */
    public int fed() {
        return fed.get();
    }

    /** Positions of the sample. */
    public int total() {
        return lines.size();
    }

    /**
     * Whether {@code count} positions (or all, when there are fewer) are written.
     *
     * @throws AssertionError with what stopped the feed, if something did
     */
    public boolean hasFed(int count) {
        if (failure != null) {
            throw new AssertionError("the feed failed", failure);
        }
        return fed.get() >= Math.min(count, lines.size());
    }

    private void feed() {
        try (KafkaProducer<byte[], byte[]> producer = producers.get()) {
            long last = Long.MIN_VALUE;
            for (int i = 0; i < lines.size(); i += chunk) {
                if (i > 0) {
                    Thread.sleep(pause.toMillis());
                }
                List<String> part = lines.subList(i, Math.min(lines.size(), i + chunk));
                List<Future<?>> sent = new ArrayList<>();
                for (String line : part) {
                    JsonNode p = JSON.readTree(line);
                    JsonNode t = p.get("timestamp");
                    last =
                            Math.max(
                                    last,
                                    t.isNumber()
                                            ? t.asLong()
                                            : Instant.parse(t.asText()).toEpochMilli());
                    sent.add(
                            producer.send(
                                    KafkaTopics.record(
                                            topic, null, p.get("entityId").asText(), 0L, line)));
                }
                for (Future<?> f : sent) {
                    f.get(patience.toMillis(), TimeUnit.MILLISECONDS);
                }
                fed.addAndGet(part.size());
            }
            endAllowed.await();
            for (int partition = 0; partition < partitions; partition++) {
                String marker =
                        String.format(
                                "{\"entityId\":\"%s-%d\",\"lon\":0.5,\"lat\":0.5,"
                                        + "\"timestamp\":%d}",
                                END, partition, last + 60_000);
                producer.send(KafkaTopics.record(topic, partition, END, 0L, marker))
                        .get(patience.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure = e;
        } finally {
            done.countDown();
        }
    }

    /** Waits until every position and end marker is written; throws what stopped the feed. */
    public void awaitDone() throws Exception {
        if (!done.await(patience.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("positions not written within " + patience);
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(10_000);
    }
}
