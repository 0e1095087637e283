package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * How the job writes the strings that key its stages and its map states: as {@link
 * RecordSerializer} writes a string field, in one write instead of one per character, which is what
 * a heap checkpoint of many short keys spends its time on with Flink's own string serializer. The
 * same string always gives the same bytes, as keyed state on RocksDB needs.
 */
public final class CompactStringSerializer extends RecordSerializer<String> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final CompactStringSerializer INSTANCE = new CompactStringSerializer();

    /** Type information of strings written by this serializer, fit to key a stream. */
    public static final TypeInformation<String> TYPE =
            new RecordTypeInfo<>(String.class, INSTANCE, true);

    private CompactStringSerializer() {}

    @Override
    public String createInstance() {
        return "";
    }

    @Override
    public void serialize(String s, DataOutputView out) throws IOException {
        writeString(s, out);
    }

    @Override
    public String deserialize(DataInputView in) throws IOException {
        return readString(in);
    }

    @Override
    public TypeSerializerSnapshot<String> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<String> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
