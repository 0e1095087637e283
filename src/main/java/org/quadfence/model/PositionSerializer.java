package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How Flink writes a {@link Position} between stages and in state: entityId, lon, lat, timestamp,
 * group. The strings may be null. A position with an accuracy or attributes (contract section 11)
 * starts with the {@link #EXTENDED} mark and ends with the accuracy and the attributes (their
 * number, -1 for none, then name and value each); one without has the layout of state format 8. A
 * backlog position (contract section 12) is extended too: it writes the number of its attributes as
 * {@code -3 - number} (below -1, which a number never is) and its backlog watermark last.
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
        boolean more = p.accuracy() != 0 || p.attributes() != null || p.inBacklog();
        if (more) {
            writeExtended(out);
        }
        writeString(p.entityId(), out);
        out.writeDouble(p.lon());
        out.writeDouble(p.lat());
        out.writeLong(p.timestamp());
        writeString(p.group(), out);
        if (more) {
            out.writeDouble(p.accuracy());
            Map<String, String> attributes = p.attributes();
            int n = attributes == null ? -1 : attributes.size();
            out.writeInt(p.inBacklog() ? -3 - n : n);
            if (attributes != null) {
                for (var e : attributes.entrySet()) {
                    writeString(e.getKey(), out);
                    writeString(e.getValue(), out);
                }
            }
            if (p.inBacklog()) {
                out.writeLong(p.backlogWatermark());
            }
        }
    }

    @Override
    public Position deserialize(DataInputView in) throws IOException {
        int first = readVarInt(in);
        boolean more = first == EXTENDED;
        String entityId = readString(more ? readVarInt(in) : first, in);
        double lon = in.readDouble();
        double lat = in.readDouble();
        long t = in.readLong();
        String group = readString(in);
        if (!more) {
            return new Position(entityId, lon, lat, t, group);
        }
        double accuracy = in.readDouble();
        int written = in.readInt();
        boolean backlog = written < -1;
        int n = backlog ? -3 - written : written;
        SortedMap<String, String> attributes = null;
        if (n >= 0) {
            attributes = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                attributes.put(readString(in), readString(in));
            }
            attributes = Collections.unmodifiableSortedMap(attributes);
        }
        long watermark = backlog ? in.readLong() : Position.LIVE;
        return new Position(entityId, lon, lat, t, group, accuracy, attributes, watermark);
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
