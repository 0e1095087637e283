package org.quadfence.bench;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.util.Collector;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.quadfence.model.Membership;
import org.quadfence.model.MembershipSerializer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Memberships as Kafka records, for the harness's event path alone: the bytes Flink's serializer of
 * {@link Membership} writes between the tile stage and the entity stage.
 */
final class MembershipRecords implements KafkaRecordDeserializationSchema<Membership> {

    private static final long serialVersionUID = 1L;

    private transient DataInputDeserializer in;

    /** The record value of {@code m}. */
    static byte[] bytes(Membership m) {
        DataOutputSerializer out = new DataOutputSerializer(128);
        try {
            MembershipSerializer.INSTANCE.serialize(m, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        in = new DataInputDeserializer();
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Membership> out)
            throws IOException {
        in.setBuffer(record.value());
        out.collect(MembershipSerializer.INSTANCE.deserialize(in));
    }

    @Override
    public TypeInformation<Membership> getProducedType() {
        return TypeInformation.of(Membership.class);
    }
}
