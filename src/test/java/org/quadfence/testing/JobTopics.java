package org.quadfence.testing;

import org.apache.kafka.clients.producer.KafkaProducer;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** The four topics of one job of a test, named after the test: positions, fences, events, dlq. */
public record JobTopics(String positions, String fences, String events, String dlq) {

    /**
     * {@code <name>-positions}, {@code <name>-fences}, {@code <name>-events}, {@code <name>-dlq}.
     */
    public static JobTopics named(String name) {
        return new JobTopics(
                name + "-positions", name + "-fences", name + "-events", name + "-dlq");
    }

    /** Creates the topics on {@code kafka}: the fences compacted, the dlq of one partition. */
    public JobTopics create(
            Broker kafka, int positionPartitions, int fencePartitions, int eventPartitions)
            throws Exception {
        kafka.createTopic(positions, positionPartitions, false);
        kafka.createTopic(fences, fencePartitions, true);
        kafka.createTopic(events, eventPartitions, false);
        kafka.createTopic(dlq, 1, false);
        return this;
    }

    /**
     * The job's options for these topics on {@code kafka}, in this order: group and job named
     * {@code name}, positions from the earliest offsets, checkpoints every second.
     */
    public Map<String, String> options(Broker kafka, String name) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bootstrap-servers", kafka.bootstrapServers());
        o.put("positions-topic", positions);
        o.put("fences-topic", fences);
        o.put("events-topic", events);
        o.put("dlq-topic", dlq);
        o.put("group-id", name);
        o.put("job-name", name);
        o.put("starting-offsets", "earliest");
        o.put("checkpoint-interval", "1s");
        return o;
    }

    /** Sends the lines of a fences file ({@link KafkaTopics#sendFences}) and waits for each. */
    public void sendFences(KafkaProducer<byte[], byte[]> producer, Path file) throws Exception {
        List<? extends Future<?>> sent = KafkaTopics.sendFences(producer, fences, file);
        for (Future<?> f : sent) {
            f.get(30, TimeUnit.SECONDS);
        }
    }
}
