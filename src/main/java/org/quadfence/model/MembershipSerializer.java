package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes a {@link Membership} between stages and in state: group, entityId, timestamp,
 * lon, lat, fenceIds, nearIds. The strings and the arrays (and their elements) may be null; a null
 * array comes back null, an empty one empty.
 */
public final class MembershipSerializer extends RecordSerializer<Membership> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final MembershipSerializer INSTANCE = new MembershipSerializer();

    /** The type information of {@link Membership}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<Membership> TYPE =
            new RecordTypeInfo<>(Membership.class, INSTANCE, false);

    private static final Membership EMPTY = new Membership("", "", 0, 0, 0, new String[0]);

    private MembershipSerializer() {}

    @Override
    public Membership createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(Membership m, DataOutputView out) throws IOException {
        writeString(m.group(), out);
        writeString(m.entityId(), out);
        out.writeLong(m.timestamp());
        out.writeDouble(m.lon());
        out.writeDouble(m.lat());
        writeStrings(m.fenceIds(), out);
        writeStrings(m.nearIds(), out);
    }

    @Override
    public Membership deserialize(DataInputView in) throws IOException {
        return new Membership(
                readString(in),
                readString(in),
                in.readLong(),
                in.readDouble(),
                in.readDouble(),
                readStrings(in),
                readStrings(in));
    }

    @Override
    public TypeSerializerSnapshot<Membership> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Membership> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link Membership}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<Membership> {

        @Override
        public TypeInformation<Membership> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
