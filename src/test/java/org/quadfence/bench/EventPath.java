package org.quadfence.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The event path's rate in the throughput phase (issue 21, goal 4): the events topic is switched to
 * broker append time ({@code message.timestamp.type=LogAppendTime}), so that each event's record
 * time is when the job's sink wrote it; events / (last write - first write) is the rate at which
 * events left the entity stage (MembershipTracker) for the sink, through the properties join and
 * the ordering, while the job ran at full speed.
 */
final class EventPath {

    /** The events of a topic and when the first and the last were written (ms). */
    record Written(long events, long first, long last) {

        /** Events per second between the first and the last write; NaN for fewer than two. */
        double perSecond() {
            return events < 2 || last <= first ? Double.NaN : events / ((last - first) / 1e3);
        }
    }

    private EventPath() {}

    /** Makes the broker stamp the records of {@code topic} with their append time. */
    static void stampAppendTime(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            AlterConfigOp op =
                    new AlterConfigOp(
                            new ConfigEntry("message.timestamp.type", "LogAppendTime"),
                            AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(r, List.of(op))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads the whole topic (committed records when {@code c} reads read_committed). */
    static Written read(KafkaConsumer<byte[], byte[]> c, String topic) {
        List<TopicPartition> parts = new ArrayList<>();
        for (PartitionInfo pi : c.partitionsFor(topic)) {
            parts.add(new TopicPartition(topic, pi.partition()));
        }
        c.assign(parts);
        c.seekToBeginning(parts);
        Map<TopicPartition, Long> end = c.endOffsets(parts);
        long n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && !atEnd(c, parts, end)) {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                n++;
                first = Math.min(first, r.timestamp());
                last = Math.max(last, r.timestamp());
            }
        }
        return new Written(n, first, last);
    }

    private static boolean atEnd(
            KafkaConsumer<byte[], byte[]> c,
            List<TopicPartition> parts,
            Map<TopicPartition, Long> end) {
        for (TopicPartition tp : parts) {
            if (c.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }
}
