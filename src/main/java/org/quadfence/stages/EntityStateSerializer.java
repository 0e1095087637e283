package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.model.RecordSerializer;
import org.quadfence.model.RecordTypeInfo;
import org.quadfence.rules.DueTimes;
import org.quadfence.rules.Visit;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes an {@link EntityState}, the entity stage's keyed state: a marker (-2), fenceIds,
 * each fence's visit (phase, enteredAt, dwellDue, clockDue, exitAfterMs), lon, lat, timestamp.
 *
 * <p>State format 8 wrote fenceIds (whose length is never below -1), the DWELL due times, lon, lat
 * and timestamp: such a state reads as fences in both sets without clocks, whose visits' starts are
 * unknown (the rules take them from a pending DWELL's due time).
 */
public final class EntityStateSerializer extends RecordSerializer<EntityState> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final EntityStateSerializer INSTANCE = new EntityStateSerializer();

    /** The type information of {@link EntityState}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<EntityState> TYPE =
            new RecordTypeInfo<>(EntityState.class, INSTANCE, false);

    private static final EntityState EMPTY = new EntityState(new String[0], new Visit[0], 0, 0, 0);

    // Below -1, which state format 8's first int (a length) never is.
    private static final int VISITS = -2;

    private EntityStateSerializer() {}

    @Override
    public EntityState createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(EntityState s, DataOutputView out) throws IOException {
        out.writeInt(VISITS);
        writeStrings(s.fenceIds(), out);
        for (Visit v : s.visits()) {
            out.writeByte(v.phase());
            out.writeLong(v.enteredAt());
            out.writeLong(v.dwellDue());
            out.writeLong(v.clockDue());
            out.writeLong(v.exitAfterMs());
        }
        out.writeDouble(s.lon());
        out.writeDouble(s.lat());
        out.writeLong(s.timestamp());
    }

    @Override
    public EntityState deserialize(DataInputView in) throws IOException {
        int first = in.readInt();
        if (first != VISITS) {
            return formatEight(first, in);
        }
        String[] ids = readStrings(in);
        Visit[] visits = new Visit[ids.length];
        for (int i = 0; i < visits.length; i++) {
            visits[i] =
                    new Visit(
                            in.readByte(),
                            in.readLong(),
                            in.readLong(),
                            in.readLong(),
                            in.readLong());
        }
        return new EntityState(ids, visits, in.readDouble(), in.readDouble(), in.readLong());
    }

    // State format 8: fenceIds (its length already read), then the DWELL due times, or -1.
    private static EntityState formatEight(int fences, DataInputView in) throws IOException {
        String[] ids = new String[Math.max(0, fences)];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = readString(in);
        }
        long[] dwellDue = readLongs(in);
        Visit[] visits = new Visit[ids.length];
        for (int i = 0; i < visits.length; i++) {
            visits[i] =
                    new Visit(
                            Visit.IN,
                            Visit.UNKNOWN,
                            dwellDue == null ? DueTimes.NONE : dwellDue[i],
                            DueTimes.NONE,
                            0);
        }
        return new EntityState(ids, visits, in.readDouble(), in.readDouble(), in.readLong());
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
