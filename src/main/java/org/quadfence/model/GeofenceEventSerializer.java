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
 * How Flink writes a {@link GeofenceEvent} between stages and in state: entityId, fenceId, the
 * event type as its ordinal in one byte, timestamp, lon, lat, properties, group; then, for a CROSS
 * only, from and at (each timestamp, lon, lat). The strings may be null (properties is when the
 * fence has none), and of any length; the event type may not.
 *
 * <p>The layout of ENTER, EXIT and DWELL is that of state format 7, byte for byte: CROSS (ordinal
 * 3) came later with its own tail, so every event of an earlier savepoint reads as it was written,
 * and the serializer stays compatible as is. An event that knows its visit's start (contract
 * section 11) sets bit 6 of the type's byte and writes {@code enteredAt} last.
 */
public final class GeofenceEventSerializer extends RecordSerializer<GeofenceEvent> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final GeofenceEventSerializer INSTANCE = new GeofenceEventSerializer();

    /** The type information of {@link GeofenceEvent}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<GeofenceEvent> TYPE =
            new RecordTypeInfo<>(GeofenceEvent.class, INSTANCE, false);

    // The ordinal is what is written: EventType's constants may only be added at its end.
    private static final EventType[] TYPES = EventType.values();
    // Set in the type's byte when the visit's start follows (contract section 11).
    private static final int VISIT = 0x40;

    private static final GeofenceEvent EMPTY =
            new GeofenceEvent("", "", EventType.ENTER, 0, 0, 0, null);

    private GeofenceEventSerializer() {}

    @Override
    public GeofenceEvent createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(GeofenceEvent e, DataOutputView out) throws IOException {
        writeString(e.entityId(), out);
        writeString(e.fenceId(), out);
        out.writeByte(e.event().ordinal() | (e.hasVisit() ? VISIT : 0));
        out.writeLong(e.timestamp());
        out.writeDouble(e.lon());
        out.writeDouble(e.lat());
        writeString(e.properties(), out);
        writeString(e.group(), out);
        if (e.event() == EventType.CROSS) {
            writeWaypoint(e.from(), out);
            writeWaypoint(e.at(), out);
        }
        if (e.hasVisit()) {
            out.writeLong(e.enteredAt());
        }
    }

    private static void writeWaypoint(Waypoint w, DataOutputView out) throws IOException {
        out.writeLong(w.timestamp());
        out.writeDouble(w.lon());
        out.writeDouble(w.lat());
    }

    private static Waypoint readWaypoint(DataInputView in) throws IOException {
        return new Waypoint(in.readLong(), in.readDouble(), in.readDouble());
    }

    @Override
    public GeofenceEvent deserialize(DataInputView in) throws IOException {
        String entityId = readString(in);
        String fenceId = readString(in);
        int tag = in.readByte();
        EventType type = TYPES[tag & ~VISIT];
        long timestamp = in.readLong();
        double lon = in.readDouble();
        double lat = in.readDouble();
        String properties = readString(in);
        String group = readString(in);
        Waypoint from = type == EventType.CROSS ? readWaypoint(in) : null;
        Waypoint at = type == EventType.CROSS ? readWaypoint(in) : null;
        long enteredAt = (tag & VISIT) != 0 ? in.readLong() : GeofenceEvent.NO_VISIT;
        return new GeofenceEvent(
                entityId,
                fenceId,
                type,
                timestamp,
                lon,
                lat,
                properties,
                group,
                from,
                at,
                enteredAt);
    }

    @Override
    public TypeSerializerSnapshot<GeofenceEvent> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<GeofenceEvent> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /**
     * Gives {@link GeofenceEvent}, which names it in its {@code @TypeInfo}, its type information.
     */
    public static final class Factory extends TypeInfoFactory<GeofenceEvent> {

        @Override
        public TypeInformation<GeofenceEvent> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
