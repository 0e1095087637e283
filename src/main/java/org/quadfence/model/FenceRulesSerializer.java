package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How Flink writes a fence's {@link FenceRules} (contract section 11), on its own in a tile's state
 * and inside the records that carry them: one byte that says which rules differ from {@link
 * FenceRules#NONE}, then those rules in the order of the record; a schedule as its zone id and its
 * windows (days as a bit set, from and to in minutes), a match as its names, each with its values.
 */
public final class FenceRulesSerializer extends RecordSerializer<FenceRules> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final FenceRulesSerializer INSTANCE = new FenceRulesSerializer();

    /** The type information of {@link FenceRules}, for state descriptors. */
    public static final TypeInformation<FenceRules> TYPE =
            new RecordTypeInfo<>(FenceRules.class, INSTANCE, false);

    private static final int DWELL = 1;
    private static final int MARGIN = 2;
    private static final int ENTER_AFTER = 4;
    private static final int EXIT_AFTER = 8;
    private static final int VALID_UNTIL = 16;
    private static final int SCHEDULE = 32;
    private static final int MATCH = 64;

    private FenceRulesSerializer() {}

    @Override
    public FenceRules createInstance() {
        return FenceRules.NONE;
    }

    @Override
    public void serialize(FenceRules r, DataOutputView out) throws IOException {
        write(r, out);
    }

    @Override
    public FenceRules deserialize(DataInputView in) throws IOException {
        return read(in);
    }

    /** Writes {@code r}, not null. */
    static void write(FenceRules r, DataOutputView out) throws IOException {
        FenceRules n = FenceRules.NONE;
        int which =
                (r.dwellMs() != n.dwellMs() ? DWELL : 0)
                        | (!Double.isNaN(r.exitMarginMeters()) ? MARGIN : 0)
                        | (r.enterAfterMs() != 0 ? ENTER_AFTER : 0)
                        | (r.exitAfterMs() != 0 ? EXIT_AFTER : 0)
                        | (r.validUntil() != FenceRules.NO_END ? VALID_UNTIL : 0)
                        | (r.schedule() != null ? SCHEDULE : 0)
                        | (r.match() != null ? MATCH : 0);
        out.writeByte(which);
        if ((which & DWELL) != 0) {
            out.writeLong(r.dwellMs());
        }
        if ((which & MARGIN) != 0) {
            out.writeDouble(r.exitMarginMeters());
        }
        if ((which & ENTER_AFTER) != 0) {
            out.writeLong(r.enterAfterMs());
        }
        if ((which & EXIT_AFTER) != 0) {
            out.writeLong(r.exitAfterMs());
        }
        if ((which & VALID_UNTIL) != 0) {
            out.writeLong(r.validUntil());
        }
        if ((which & SCHEDULE) != 0) {
            writeString(r.schedule().zone().getId(), out);
            List<WeeklySchedule.Window> windows = r.schedule().windows();
            writeVarInt(windows.size(), out);
            for (WeeklySchedule.Window w : windows) {
                out.writeByte(w.days());
                out.writeShort(w.fromMinute());
                out.writeShort(w.toMinute());
            }
        }
        if ((which & MATCH) != 0) {
            Map<String, Set<String>> allowed = r.match().allowed();
            writeVarInt(allowed.size(), out);
            for (var e : allowed.entrySet()) {
                writeString(e.getKey(), out);
                writeVarInt(e.getValue().size(), out);
                for (String v : e.getValue()) {
                    writeString(v, out);
                }
            }
        }
    }

    /** Reads what {@link #write} wrote. */
    static FenceRules read(DataInputView in) throws IOException {
        int which = in.readByte();
        if (which == 0) {
            return FenceRules.NONE;
        }
        long dwell = (which & DWELL) != 0 ? in.readLong() : FenceRules.JOB_DWELL;
        double margin = (which & MARGIN) != 0 ? in.readDouble() : Double.NaN;
        long enter = (which & ENTER_AFTER) != 0 ? in.readLong() : 0;
        long exit = (which & EXIT_AFTER) != 0 ? in.readLong() : 0;
        long until = (which & VALID_UNTIL) != 0 ? in.readLong() : FenceRules.NO_END;
        WeeklySchedule schedule = null;
        if ((which & SCHEDULE) != 0) {
            ZoneId zone = ZoneId.of(readString(in));
            int n = readVarInt(in);
            List<WeeklySchedule.Window> windows = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                windows.add(
                        new WeeklySchedule.Window(in.readByte(), in.readShort(), in.readShort()));
            }
            schedule = new WeeklySchedule(zone, windows);
        }
        AttributeMatch match = null;
        if ((which & MATCH) != 0) {
            int names = readVarInt(in);
            Map<String, Set<String>> allowed = new TreeMap<>();
            for (int i = 0; i < names; i++) {
                String name = readString(in);
                int k = readVarInt(in);
                Set<String> values = new LinkedHashSet<>();
                for (int j = 0; j < k; j++) {
                    values.add(readString(in));
                }
                allowed.put(name, values);
            }
            match = new AttributeMatch(allowed);
        }
        return new FenceRules(dwell, margin, enter, exit, until, schedule, match);
    }

    @Override
    public TypeSerializerSnapshot<FenceRules> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<FenceRules> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
