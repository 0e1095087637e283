package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.model.RecordSerializer;
import org.quadfence.model.RecordTypeInfo;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes an {@link EntityState}, the entity stage's keyed state: group, entityId,
 * fenceIds, dwellDue, lon, lat, timestamp. The strings and the arrays may be null.
 */
public final class EntityStateSerializer extends RecordSerializer<EntityState> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final EntityStateSerializer INSTANCE = new EntityStateSerializer();

    /** The type information of {@link EntityState}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<EntityState> TYPE =
            new RecordTypeInfo<>(EntityState.class, INSTANCE, false);

    private static final EntityState EMPTY = new EntityState(new String[0], new long[0], 0, 0, 0);

    private EntityStateSerializer() {}

    @Override
    public EntityState createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(EntityState s, DataOutputView out) throws IOException {
        writeStrings(s.fenceIds(), out);
        writeLongs(s.dwellDue(), out);
        out.writeDouble(s.lon());
        out.writeDouble(s.lat());
        out.writeLong(s.timestamp());
    }

    @Override
    public EntityState deserialize(DataInputView in) throws IOException {
        return new EntityState(
                readStrings(in), readLongs(in), in.readDouble(), in.readDouble(), in.readLong());
    }

    @Override
    public TypeSerializerSnapshot<EntityState> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static class Snapshot extends SimpleTypeSerializerSnapshot<EntityState> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link EntityState}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<EntityState> {

        @Override
        public TypeInformation<EntityState> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
