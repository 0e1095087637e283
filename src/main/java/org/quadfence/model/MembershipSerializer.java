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
 *
 * <p>A membership with a path (option {@code crossing}) writes nearIds' length as {@code -2 -
 * length} and, after nearIds, pathFrom (timestamp, lon, lat), pathIds and pathAt; its nearIds are
 * never null. Without a path the layout is that of state format 7, byte for byte (which never wrote
 * a length below -1), so every membership of an earlier savepoint reads as it was written and the
 * serializer stays compatible as is. A membership with timings (contract section 11) writes
 * fenceIds' length as {@code -2 - length} and its timings last. One for a backlog position
 * (contract section 12) starts with the {@link #EXTENDED} mark and ends with its backlog watermark.
 */
public final class MembershipSerializer extends RecordSerializer<Membership> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final MembershipSerializer INSTANCE = new MembershipSerializer();

    /** The type information of {@link Membership}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<Membership> TYPE =
            new RecordTypeInfo<>(Membership.class, INSTANCE, false);

    private static final String[] NO_IDS = new String[0];
    private static final double[] NO_FRACTIONS = new double[0];

    private static final Membership EMPTY = new Membership("", "", 0, 0, 0, new String[0]);

    private MembershipSerializer() {}

    @Override
    public Membership createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(Membership m, DataOutputView out) throws IOException {
        boolean backlog = m.backlogWatermark() != Position.LIVE;
        if (backlog) {
            writeExtended(out);
        }
        writeString(m.group(), out);
        writeString(m.entityId(), out);
        out.writeLong(m.timestamp());
        out.writeDouble(m.lon());
        out.writeDouble(m.lat());
        if (m.timings() == null) {
            writeStrings(m.fenceIds(), out);
        } else {
            // Below -1, which a length never is: the timings follow at the end.
            String[] ids = m.fenceIds() == null ? NO_IDS : m.fenceIds();
            out.writeInt(-2 - ids.length);
            for (String id : ids) {
                writeString(id, out);
            }
        }
        Waypoint from = m.pathFrom();
        if (from == null) {
            writeStrings(m.nearIds(), out);
        } else {
            writePath(m, from, out);
        }
        if (m.timings() != null) {
            writeLongs(m.timings(), out);
        }
        if (backlog) {
            out.writeLong(m.backlogWatermark());
        }
    }

    private static void writePath(Membership m, Waypoint from, DataOutputView out)
            throws IOException {
        String[] near = m.nearIds() == null ? NO_IDS : m.nearIds();
        out.writeInt(-2 - near.length);
        for (String id : near) {
            writeString(id, out);
        }
        out.writeLong(from.timestamp());
        out.writeDouble(from.lon());
        out.writeDouble(from.lat());
        writeStrings(m.pathIds(), out);
        writeDoubles(m.pathAt(), out);
    }

    private static String[] readIds(int n, DataInputView in) throws IOException {
        String[] ids = new String[n];
        for (int i = 0; i < n; i++) {
            ids[i] = readString(in);
        }
        return ids;
    }

    @Override
    public Membership deserialize(DataInputView in) throws IOException {
        int first = readVarInt(in);
        boolean backlog = first == EXTENDED;
        String group = readString(backlog ? readVarInt(in) : first, in);
        String entityId = readString(in);
        long timestamp = in.readLong();
        double lon = in.readDouble();
        double lat = in.readDouble();
        int ids = in.readInt();
        boolean timed = ids < -1;
        String[] fenceIds = ids == -1 ? null : readIds(timed ? -2 - ids : ids, in);
        int n = in.readInt();
        String[] near;
        Waypoint from = null;
        String[] pathIds = NO_IDS;
        double[] pathAt = NO_FRACTIONS;
        if (n >= -1) {
            near = n >= 0 ? readIds(n, in) : null;
        } else {
            near = readIds(-2 - n, in);
            from = new Waypoint(in.readLong(), in.readDouble(), in.readDouble());
            pathIds = readStrings(in);
            pathAt = readDoubles(in);
        }
        long[] timings = timed ? readLongs(in) : null;
        return new Membership(
                group,
                entityId,
                timestamp,
                lon,
                lat,
                fenceIds,
                near,
                from,
                pathIds,
                pathAt,
                timings,
                backlog ? in.readLong() : Position.LIVE);
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
