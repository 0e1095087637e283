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
 * How Flink writes a {@link Position} between stages and in state: entityId, lon, lat, timestamp,
 * group. The strings may be null.
 */
public final class PositionSerializer extends RecordSerializer<Position> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final PositionSerializer INSTANCE = new PositionSerializer();

    /** The type information of {@link Position}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<Position> TYPE =
            new RecordTypeInfo<>(Position.class, INSTANCE, false);

    private static final Position EMPTY = new Position("", 0, 0, 0);

    private PositionSerializer() {}

    @Override
    public Position createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(Position p, DataOutputView out) throws IOException {
        writeString(p.entityId(), out);
        out.writeDouble(p.lon());
        out.writeDouble(p.lat());
        out.writeLong(p.timestamp());
        writeString(p.group(), out);
    }

    @Override
    public Position deserialize(DataInputView in) throws IOException {
        return new Position(
                readString(in), in.readDouble(), in.readDouble(), in.readLong(), readString(in));
    }

    @Override
    public TypeSerializerSnapshot<Position> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Position> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link Position}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<Position> {

        @Override
        public TypeInformation<Position> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
