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
 * How Flink writes a {@link Step} between stages and in state: the position as {@link
 * PositionSerializer} writes it, whether a path starts before it (a byte), from (timestamp, lon,
 * lat) when it does, then the tile.
 */
public final class StepSerializer extends RecordSerializer<Step> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final StepSerializer INSTANCE = new StepSerializer();

    /** The type information of {@link Step}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<Step> TYPE =
            new RecordTypeInfo<>(Step.class, INSTANCE, false);

    private static final Step EMPTY =
            new Step(PositionSerializer.INSTANCE.createInstance(), null, 0);

    private StepSerializer() {}

    @Override
    public Step createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(Step s, DataOutputView out) throws IOException {
        PositionSerializer.INSTANCE.serialize(s.to(), out);
        Waypoint from = s.from();
        out.writeBoolean(from != null);
        if (from != null) {
            out.writeLong(from.timestamp());
            out.writeDouble(from.lon());
            out.writeDouble(from.lat());
        }
        out.writeLong(s.tile());
    }

    @Override
    public Step deserialize(DataInputView in) throws IOException {
        Position to = PositionSerializer.INSTANCE.deserialize(in);
        Waypoint from =
                in.readBoolean()
                        ? new Waypoint(in.readLong(), in.readDouble(), in.readDouble())
                        : null;
        return new Step(to, from, in.readLong());
    }

    @Override
    public TypeSerializerSnapshot<Step> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Step> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link Step}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<Step> {

        @Override
        public TypeInformation<Step> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
