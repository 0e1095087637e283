package org.quadfence.time;

import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.ListSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.util.List;

/**
 * Writes a list of values as {@link ListSerializer} does, in one write per list: the list goes to a
 * buffer first. For operator state, where each small write (a long, a double) to a checkpoint
 * stream is a call through several streams, and each list element costs the checkpoint an offset (a
 * file position query, and eight bytes in the checkpoint's metadata): a stage stores a few long
 * lists rather than many records.
 *
 * <p>A list handed to state must not change afterwards: it is then an immutable value, so Flink's
 * copy of the operator state at a checkpoint shares it instead of copying every element.
 *
 * @param <E> the elements
 */
public final class FrozenListSerializer<E> extends TypeSerializer<List<E>> {

    private static final long serialVersionUID = 1L;

    private final ListSerializer<E> inner;
    private transient DataOutputSerializer buffer;

    FrozenListSerializer(TypeSerializer<E> element) {
        this.inner = new ListSerializer<>(element);
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<List<E>> duplicate() {
        // The buffer is this instance's: every thread gets an instance of its own.
        return new FrozenListSerializer<>(inner.getElementSerializer().duplicate());
    }

    @Override
    public List<E> createInstance() {
        return inner.createInstance();
    }

    @Override
    public List<E> copy(List<E> from) {
        return from;
    }

    @Override
    public List<E> copy(List<E> from, List<E> reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(List<E> value, DataOutputView out) throws IOException {
        if (buffer == null) {
            buffer = new DataOutputSerializer(4096);
        }
        buffer.clear();
        inner.serialize(value, buffer);
        out.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    @Override
    public List<E> deserialize(DataInputView in) throws IOException {
        return inner.deserialize(in);
    }

    @Override
    public List<E> deserialize(List<E> reuse, DataInputView in) throws IOException {
        return inner.deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        inner.copy(in, out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FrozenListSerializer<?> other && inner.equals(other.inner);
    }

    @Override
    public int hashCode() {
        return inner.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<List<E>> snapshotConfiguration() {
        return new Snapshot<>(this);
    }

    /** What a checkpoint keeps of the serializer: the element serializer's snapshot. */
    public static class Snapshot<E>
            extends CompositeTypeSerializerSnapshot<List<E>, FrozenListSerializer<E>> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {}

        Snapshot(FrozenListSerializer<E> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return 1;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(FrozenListSerializer<E> outer) {
            return new TypeSerializer<?>[] {outer.inner.getElementSerializer()};
        }

        @Override
        @SuppressWarnings("unchecked")
        protected FrozenListSerializer<E> createOuterSerializerWithNestedSerializers(
                TypeSerializer<?>[] nested) {
            return new FrozenListSerializer<>((TypeSerializer<E>) nested[0]);
        }
    }
}
