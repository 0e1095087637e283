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
 * How Flink writes a {@link FenceProperties} between stages and in state (the properties join keeps
 * its versions): group, fenceId, timestamp, properties, deleted. The strings may be null.
 */
public final class FencePropertiesSerializer extends RecordSerializer<FenceProperties> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final FencePropertiesSerializer INSTANCE = new FencePropertiesSerializer();

    /**
     * The type information of {@link FenceProperties}, which {@code TypeInformation.of} returns.
     */
    private static final TypeInformation<FenceProperties> TYPE =
            new RecordTypeInfo<>(FenceProperties.class, INSTANCE, false);

    private static final FenceProperties EMPTY = new FenceProperties("", "", 0, null, true);

    private FencePropertiesSerializer() {}

    @Override
    public FenceProperties createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(FenceProperties p, DataOutputView out) throws IOException {
        writeString(p.group(), out);
        writeString(p.fenceId(), out);
        out.writeLong(p.timestamp());
        writeString(p.properties(), out);
        out.writeBoolean(p.deleted());
    }

    @Override
    public FenceProperties deserialize(DataInputView in) throws IOException {
        return new FenceProperties(
                readString(in), readString(in), in.readLong(), readString(in), in.readBoolean());
    }

    @Override
    public TypeSerializerSnapshot<FenceProperties> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static class Snapshot extends SimpleTypeSerializerSnapshot<FenceProperties> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /**
     * Gives {@link FenceProperties}, which names it in its {@code @TypeInfo}, its type information.
     */
    public static final class Factory extends TypeInfoFactory<FenceProperties> {

        @Override
        public TypeInformation<FenceProperties> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
