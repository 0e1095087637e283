package org.quadfence.demo;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Reads the job's events back from Kafka with read_committed, as any consumer of the events topic
 * would, hands each to a listener, and keeps what the status line and the map show: counts, the
 * fences each vehicle is in, the latest events and how long after their position they were read.
 */
final class EventFeed implements AutoCloseable {

    private static final int RECENT = 400;

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Consumer<GeofenceEvent> listener;
    private final GeofenceEventCodec codec = new GeofenceEventCodec();
    private final Thread thread;
    private final Map<String, Set<String>> inside = new HashMap<>();
    private final ArrayDeque<GeofenceEvent> recent = new ArrayDeque<>();
    private long enters;
    private long exits;
    private double latencyMillis = Double.NaN;
    private volatile boolean running = true;

    /** Starts reading {@code topic} from its beginning in a thread of its own. */
    EventFeed(
            KafkaConsumer<byte[], byte[]> consumer,
            String topic,
            Consumer<GeofenceEvent> listener) {
        this.consumer = consumer;
        this.listener = listener;
        consumer.subscribe(List.of(topic));
        thread = new Thread(this::run, "quadfence-demo-events");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    GeofenceEvent e = codec.decode(r.value());
                    remember(e, System.currentTimeMillis());
                    listener.accept(e);
                }
            }
        } catch (WakeupException stopping) {
            // close() asked to stop
        } finally {
            consumer.close(Duration.ofSeconds(2));
        }
    }

    private synchronized void remember(GeofenceEvent e, long now) {
        Set<String> fences = inside.computeIfAbsent(e.entityId(), k -> new HashSet<>());
        if (e.event() == EventType.ENTER) {
            enters++;
            fences.add(e.fenceId());
        } else {
            exits++;
            fences.remove(e.fenceId());
        }
        recent.addLast(e);
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
        // Smoothed over the last few dozen events.
        double latency = now - e.timestamp();
        latencyMillis =
                Double.isNaN(latencyMillis) ? latency : 0.95 * latencyMillis + 0.05 * latency;
    }

    synchronized long enters() {
        return enters;
    }

    synchronized long exits() {
        return exits;
    }

    /** Vehicles inside at least one fence, by the events read so far. */
    synchronized int vehiclesInside() {
        return (int) inside.values().stream().filter(s -> !s.isEmpty()).count();
    }

    /** Time from a position to reading its event (ms), smoothed; NaN before the first event. */
    synchronized double latencyMillis() {
        return latencyMillis;
    }

    /** The latest events, oldest first. */
    synchronized List<GeofenceEvent> recent() {
        return new ArrayList<>(recent);
    }

    /** Stops reading and closes the consumer. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(5_000);
    }
}
