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
 * would (as JSON, with {@link GeofenceEventCodec}), hands each to a listener, and keeps what the
 * status line and the map show: counts, the latest events, the crossings of the last minute and how
 * long after their position they were read.
 */
final class EventFeed implements AutoCloseable {

    private static final int RECENT = 400;

    /** How long the map shows a crossing, in ms of event time. */
    static final long CROSSINGS_MS = 60_000;

    private static final int MAX_CROSSINGS = 500;

    private final GeofenceEventCodec codec = new GeofenceEventCodec();
    private final Consumer<GeofenceEvent> listener;
    private final TopicReader reader;
    private final ArrayDeque<GeofenceEvent> recent = new ArrayDeque<>();
    private final ArrayDeque<GeofenceEvent> crossings = new ArrayDeque<>();
    private long enters;
    private long exits;
    private long dwells;
    private long crosses;
    private long unreadable;
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
        GeofenceEvent e;
        try {
            e = codec.decode(r.value());
        } catch (IllegalArgumentException notAnEvent) {
            synchronized (this) {
                unreadable++;
            }
            return;
        }
        remember(e, System.currentTimeMillis());
        listener.accept(e);
    }

    private synchronized void remember(GeofenceEvent e, long now) {
        switch (e.event()) {
            case ENTER -> enters++;
            case EXIT -> exits++;
            case DWELL -> dwells++;
            case CROSS -> crosses++;
        }
        recent.addLast(e);
        if (recent.size() > RECENT) {
            recent.removeFirst();
        }
        if (e.event() == EventType.CROSS) {
            crossings.addLast(e);
            while (crossings.size() > MAX_CROSSINGS
                    || crossings.peekFirst().timestamp() < e.timestamp() - CROSSINGS_MS) {
                crossings.removeFirst();
            }
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

    synchronized long dwells() {
        return dwells;
    }

    synchronized long crosses() {
        return crosses;
    }

    /** Records of the topic that were not events (not counted, not shown). */
    synchronized long unreadable() {
        return unreadable;
    }

    /** Time from a position to reading its event (ms), smoothed; NaN before the first event. */
    synchronized double latencyMillis() {
        return latencyMillis;
    }

    /** The latest events, oldest first. */
    synchronized List<GeofenceEvent> recent() {
        return new ArrayList<>(recent);
    }

    /**
     * The CROSS events of the last minute before {@code now} (event time), oldest first; at most a
     * few hundred.
     */
    synchronized List<GeofenceEvent> crossings(long now) {
        List<GeofenceEvent> out = new ArrayList<>();
        for (GeofenceEvent e : crossings) {
            if (e.timestamp() >= now - CROSSINGS_MS) {
                out.add(e);
            }
        }
        return out;
    }

    /** Stops reading and closes the consumer. */
    @Override
    public void close() throws InterruptedException {
        reader.close();
    }
}
