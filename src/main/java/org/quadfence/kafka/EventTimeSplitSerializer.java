package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

/**
 * Kafka's split serializer with each split's latest event time and whether it was idle after its
 * bytes. Splits of earlier checkpoints, written by Kafka's serializer under its own version, are
 * read by it: they restore without an event time; those written before idleness was kept restore as
 * not idle.
 */
final class EventTimeSplitSerializer implements SimpleVersionedSerializer<KafkaPartitionSplit> {

    // Far above the versions of Kafka's serializer (0 in connector 5.0), which are read by it.
    static final int VERSION = 1_000_001;

    /** The version that kept the event time only. */
    static final int EVENT_TIME_ONLY = 1_000_000;

    private final SimpleVersionedSerializer<KafkaPartitionSplit> kafka;

    EventTimeSplitSerializer(SimpleVersionedSerializer<KafkaPartitionSplit> kafka) {
        this.kafka = kafka;
    }

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(KafkaPartitionSplit split) throws IOException {
        byte[] inner = kafka.serialize(split);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(inner.length + 16);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(kafka.getVersion());
            out.writeInt(inner.length);
            out.write(inner);
            out.writeLong(EventTimeSplit.of(split));
            out.writeBoolean(EventTimeSplit.idle(split));
        }
        return bytes.toByteArray();
    }

    @Override
    public KafkaPartitionSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION && version != EVENT_TIME_ONLY) {
            return kafka.deserialize(version, serialized);
        }
        try (DataInputStream in =
                new DataInputStream(new java.io.ByteArrayInputStream(serialized))) {
            int innerVersion = in.readInt();
            byte[] inner = new byte[in.readInt()];
            in.readFully(inner);
            long maxEventTime = in.readLong();
            boolean idle = version == VERSION && in.readBoolean();
            KafkaPartitionSplit split = kafka.deserialize(innerVersion, inner);
            return maxEventTime == EventTimeSplit.NONE && !idle
                    ? split
                    : new EventTimeSplit(split, maxEventTime, idle);
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    "cannot read a Kafka split of "
                            + serialized.length
                            + " bytes: "
                            + Arrays.toString(Arrays.copyOf(serialized, 16)),
                    e);
        }
    }
}
