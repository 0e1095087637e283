package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.model.GeofenceEventSerializer;
import org.quadfence.model.RecordSerializer;
import org.quadfence.model.RecordTypeInfo;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes a {@link SequencedEvent} between stages and in state: the event as {@link
 * GeofenceEventSerializer} writes it, then seq. The event may not be null.
 */
public final class SequencedEventSerializer extends RecordSerializer<SequencedEvent> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final SequencedEventSerializer INSTANCE = new SequencedEventSerializer();

    /** The type information of {@link SequencedEvent}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<SequencedEvent> TYPE =
            new RecordTypeInfo<>(SequencedEvent.class, INSTANCE, false);

    private static final SequencedEvent EMPTY =
            new SequencedEvent(GeofenceEventSerializer.INSTANCE.createInstance(), 0);

    private SequencedEventSerializer() {}

    @Override
    public SequencedEvent createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(SequencedEvent e, DataOutputView out) throws IOException {
        GeofenceEventSerializer.INSTANCE.serialize(e.event(), out);
        out.writeInt(e.seq());
    }

    @Override
    public SequencedEvent deserialize(DataInputView in) throws IOException {
        return new SequencedEvent(GeofenceEventSerializer.INSTANCE.deserialize(in), in.readInt());
    }

    @Override
    public TypeSerializerSnapshot<SequencedEvent> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static class Snapshot extends SimpleTypeSerializerSnapshot<SequencedEvent> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /**
     * Gives {@link SequencedEvent}, which names it in its {@code @TypeInfo}, its type information.
     */
    public static final class Factory extends TypeInfoFactory<SequencedEvent> {

        @Override
        public TypeInformation<SequencedEvent> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
