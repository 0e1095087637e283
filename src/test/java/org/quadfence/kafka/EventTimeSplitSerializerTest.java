package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventTimeSplitSerializerTest {

    private final KafkaPartitionSplitSerializer kafka = new KafkaPartitionSplitSerializer();
    private final EventTimeSplitSerializer serializer = new EventTimeSplitSerializer(kafka);

    private static final KafkaPartitionSplit SPLIT =
            new KafkaPartitionSplit(new TopicPartition("positions", 3), 1234L);

    @Test
    void aSplitKeepsItsLatestEventTimeThroughACheckpoint() throws Exception {
        KafkaPartitionSplit read =
                serializer.deserialize(
                        serializer.getVersion(),
                        serializer.serialize(new EventTimeSplit(SPLIT, 1_732_233_600_000L)));
        assertThat(read).isEqualTo(SPLIT);
        assertThat(read.getStartingOffset()).isEqualTo(1234L);
        assertThat(EventTimeSplit.of(read)).isEqualTo(1_732_233_600_000L);
    }

    @Test
    void aSplitWithoutAnEventTimeRestoresWithout() throws Exception {
        KafkaPartitionSplit read =
                serializer.deserialize(serializer.getVersion(), serializer.serialize(SPLIT));
        assertThat(read).isEqualTo(SPLIT);
        assertThat(EventTimeSplit.of(read)).isEqualTo(EventTimeSplit.NONE);
    }

    @Test
    void aSplitOfACheckpointWrittenByKafkasSerializerIsReadAsItWas() throws Exception {
        KafkaPartitionSplit bounded =
                new KafkaPartitionSplit(new TopicPartition("fences", 0), 7L, 99L);
        KafkaPartitionSplit read =
                serializer.deserialize(kafka.getVersion(), kafka.serialize(bounded));
        assertThat(read).isEqualTo(bounded);
        assertThat(read.getStoppingOffset()).contains(99L);
        assertThat(EventTimeSplit.of(read)).isEqualTo(EventTimeSplit.NONE);
    }

    @Test
    void theVersionIsNotOneOfKafkas() {
        assertThat(serializer.getVersion()).isNotEqualTo(kafka.getVersion());
    }
}
