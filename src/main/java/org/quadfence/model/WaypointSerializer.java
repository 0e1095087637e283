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
 * How Flink writes a {@link Waypoint} between stages and in state (the path stage's previous
 * position of each entity): timestamp, lon, lat.
 */
public final class WaypointSerializer extends RecordSerializer<Waypoint> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final WaypointSerializer INSTANCE = new WaypointSerializer();

    /** The type information of {@link Waypoint}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<Waypoint> TYPE =
            new RecordTypeInfo<>(Waypoint.class, INSTANCE, false);

    private static final Waypoint EMPTY = new Waypoint(0, 0, 0);

    private WaypointSerializer() {}

    @Override
    public Waypoint createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(Waypoint w, DataOutputView out) throws IOException {
        out.writeLong(w.timestamp());
        out.writeDouble(w.lon());
        out.writeDouble(w.lat());
    }

    @Override
    public Waypoint deserialize(DataInputView in) throws IOException {
        return new Waypoint(in.readLong(), in.readDouble(), in.readDouble());
    }

    @Override
    public TypeSerializerSnapshot<Waypoint> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<Waypoint> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link Waypoint}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<Waypoint> {

        @Override
        public TypeInformation<Waypoint> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
