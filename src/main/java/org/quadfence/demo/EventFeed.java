package org.quadfence.demo;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Reads the job's events back from Kafka with read_committed, as any consumer of the events topic
 * would, hands each to a listener, and keeps what the status line and the map show: counts, the
 * latest events and how long after their position they were read.
 */
final class EventFeed implements AutoCloseable {

    private static final int RECENT = 400;

    private final Consumer<GeofenceEvent> listener;
    private final GeofenceEventCodec codec = new GeofenceEventCodec();
    private final TopicReader reader;
    private final ArrayDeque<GeofenceEvent> recent = new ArrayDeque<>();
    private long enters;
    private long exits;
    private double latencyMillis = Double.NaN;

    /** Starts reading {@code topic} from its beginning in a thread of its own. */
    EventFeed(
            KafkaConsumer<byte[], byte[]> consumer,
            String topic,
            Consumer<GeofenceEvent> listener) {
        this.listener = listener;
        this.reader = new TopicReader(consumer, topic, this::read);
    }

    private void read(ConsumerRecord<byte[], byte[]> r) {
        GeofenceEvent e = codec.decode(r.value());
        remember(e, System.currentTimeMillis());
        listener.accept(e);
    }

    private synchronized void remember(GeofenceEvent e, long now) {
        if (e.event() == EventType.ENTER) {
            enters++;
        } else if (e.event() == EventType.EXIT) {
            exits++;
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
        reader.close();
    }
}
