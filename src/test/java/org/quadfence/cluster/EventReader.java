package org.quadfence.cluster;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleCheck.Event;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a topic from its beginning with read_committed, as a downstream consumer of the job's
 * output would, keeping every record seen (each partition's records in their order).
 */
final class EventReader implements AutoCloseable {
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final List<String> lines = new ArrayList<>();
    private final Path failureCopy;

    /** {@code failureCopy}: where the lines read go when an await fails, for a post-mortem. */
    EventReader(KafkaBroker kafka, String topic, Path failureCopy) {
        this.failureCopy = failureCopy;
        consumer = kafka.consumer("reader-" + topic, true);
        partitions.addAll(KafkaTopics.assignFromBeginning(consumer, topic));
    }

    /** Polls once (at most 200 ms); returns how many records have been read in all. */
    int poll() {
        for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
            lines.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        return lines.size();
    }

    /** The record values read so far. */
    List<String> lines() {
        return Collections.unmodifiableList(lines);
    }

    /** Polls until every one of {@code wanted} (as a multiset) has been read. */
    void awaitContaining(List<Event> wanted, Duration timeout, Path tmp) throws Exception {
        Map<String, Integer> need = counts(wanted);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            poll();
            Map<String, Integer> have = counts(events(tmp));
            List<String> missing = new ArrayList<>();
            need.forEach(
                    (k, n) -> {
                        if (have.getOrDefault(k, 0) < n) {
                            missing.add(k);
                        }
                    });
            if (missing.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                keep(failureCopy);
                throw new AssertionError(
                        missing.size()
                                + " of "
                                + need.size()
                                + " expected events not committed after "
                                + timeout
                                + " ("
                                + lines.size()
                                + " read), for example "
                                + missing.subList(0, Math.min(5, missing.size())));
            }
        }
    }

    /** Everything committed, read up to the last stable offset of every partition. */
    List<Event> readToEnd(Duration timeout, Path tmp) throws Exception {
        readLinesToEnd(timeout);
        return events(tmp);
    }

    /** As {@link #readToEnd}, the record values as they are. */
    List<String> readLinesToEnd(Duration timeout) {
        // With read_committed, endOffsets are the last stable offsets.
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            if (System.nanoTime() > deadline) {
                keep(failureCopy);
                throw new AssertionError("not read to the end after " + timeout);
            }
            poll();
        }
        return lines();
    }

    private List<Event> events(Path tmp) throws Exception {
        Path file = tmp.resolve("events-read.jsonl");
        Files.write(file, lines);
        return SampleCheck.read(file);
    }

    /** Keeps what was read where a failed run leaves it: target/. */
    void keep(Path file) {
        try {
            Files.write(file, lines);
        } catch (java.io.IOException e) {
            System.err.println("could not write " + file + ": " + e);
        }
    }

    private static Map<String, Integer> counts(List<Event> events) {
        Map<String, Integer> m = new HashMap<>();
        for (Event e : events) {
            m.merge(
                    e.entityId() + "|" + e.fenceId() + "|" + e.event() + "|" + e.timestamp(),
                    1,
                    Integer::sum);
        }
        return m;
    }

    @Override
    public void close() {
        consumer.close();
    }
}
