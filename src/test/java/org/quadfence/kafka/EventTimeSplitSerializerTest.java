package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplitSerializer;

import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;

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
                        serializer.serialize(new EventTimeSplit(SPLIT, 1_732_233_600_000L, false)));
        assertThat(read).isEqualTo(SPLIT);
        assertThat(read.getStartingOffset()).isEqualTo(1234L);
        assertThat(EventTimeSplit.of(read)).isEqualTo(1_732_233_600_000L);
    }

    @Test
    void aSplitKeepsWhetherItWasIdleThroughACheckpoint() throws Exception {
        KafkaPartitionSplit read =
                serializer.deserialize(
                        serializer.getVersion(),
                        serializer.serialize(new EventTimeSplit(SPLIT, EventTimeSplit.NONE, true)));
        assertThat(EventTimeSplit.idle(read)).isTrue();
        assertThat(EventTimeSplit.of(read)).isEqualTo(EventTimeSplit.NONE);
        assertThat(read.getStartingOffset()).isEqualTo(1234L);
    }

    @Test
    void aSplitOfACheckpointThatKeptTheEventTimeOnlyRestoresAsNotIdle() throws Exception {
        byte[] inner = kafka.serialize(SPLIT);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(kafka.getVersion());
            out.writeInt(inner.length);
            out.write(inner);
            out.writeLong(42L);
        }
        KafkaPartitionSplit read =
                serializer.deserialize(
                        EventTimeSplitSerializer.EVENT_TIME_ONLY, bytes.toByteArray());
        assertThat(EventTimeSplit.of(read)).isEqualTo(42L);
        assertThat(EventTimeSplit.idle(read)).isFalse();
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
