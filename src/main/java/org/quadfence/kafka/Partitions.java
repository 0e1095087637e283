package org.quadfence.kafka;

import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.TopicPartition;

import java.util.HashMap;
import java.util.Map;

/** The partitions of a topic, as an admin client asks about them. */
public final class Partitions {

    private Partitions() {}

    /** Every partition of {@code topic} with {@link OffsetSpec#latest()}: for listOffsets. */
    public static Map<TopicPartition, OffsetSpec> latest(TopicDescription topic) {
        Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
        topic.partitions()
                .forEach(
                        p ->
                                ends.put(
                                        new TopicPartition(topic.name(), p.partition()),
                                        OffsetSpec.latest()));
        return ends;
    }
}
