package org.quadfence.job;

import org.apache.flink.api.common.typeutils.CompositeTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;

/**
 * Writes what {@code inner} writes, in one write per value: the value goes to a buffer first. For
 * state written to a checkpoint stream, where each small write of a value (a long, a double) is a
 * synchronized call through several streams. The bytes are the inner serializer's, so reading is
 * its reading.
 *
 * @param <T> the values
 */
final class OneWriteSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> inner;
    private transient DataOutputSerializer buffer;

    OneWriteSerializer(TypeSerializer<T> inner) {
        this.inner = inner;
    }

    @Override
    public boolean isImmutableType() {
        return inner.isImmutableType();
    }

    @Override
    public TypeSerializer<T> duplicate() {
        // The buffer is this instance's: every thread gets an instance of its own.
        return new OneWriteSerializer<>(inner.duplicate());
    }

    @Override
    public T createInstance() {
        return inner.createInstance();
    }

    @Override
    public T copy(T from) {
        return inner.copy(from);
    }

    @Override
    public T copy(T from, T reuse) {
        return inner.copy(from, reuse);
    }

    @Override
    public int getLength() {
        return inner.getLength();
    }

    @Override
    public void serialize(T value, DataOutputView out) throws IOException {
        if (buffer == null) {
            buffer = new DataOutputSerializer(256);
        }
        buffer.clear();
        inner.serialize(value, buffer);
        out.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    @Override
    public T deserialize(DataInputView in) throws IOException {
        return inner.deserialize(in);
    }

    @Override
    public T deserialize(T reuse, DataInputView in) throws IOException {
        return inner.deserialize(reuse, in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        inner.copy(in, out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OneWriteSerializer<?> other && inner.equals(other.inner);
    }

    @Override
    public int hashCode() {
        return inner.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<T> snapshotConfiguration() {
        return new Snapshot<>(this);
    }

    /** What a checkpoint keeps of the serializer: the inner serializer's snapshot. */
    public static final class Snapshot<T>
            extends CompositeTypeSerializerSnapshot<T, OneWriteSerializer<T>> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {}

        Snapshot(OneWriteSerializer<T> serializer) {
            super(serializer);
        }

        @Override
        protected int getCurrentOuterSnapshotVersion() {
            return 1;
        }

        @Override
        protected TypeSerializer<?>[] getNestedSerializers(OneWriteSerializer<T> outer) {
            return new TypeSerializer<?>[] {outer.inner};
        }

        @Override
        @SuppressWarnings("unchecked")
        protected OneWriteSerializer<T> createOuterSerializerWithNestedSerializers(
                TypeSerializer<?>[] nested) {
            return new OneWriteSerializer<>((TypeSerializer<T>) nested[0]);
        }
    }
}
