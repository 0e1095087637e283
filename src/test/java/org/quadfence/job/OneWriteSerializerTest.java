package org.quadfence.job;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.runtime.TupleSerializer;

import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.Position;
import org.quadfence.model.PositionSerializer;

/** A waiting record of a stage, written in one piece, passes Flink's own tests of a serializer. */
class OneWriteSerializerTest extends SerializerTestBase<Tuple3<String, Long, Position>> {

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected TypeSerializer<Tuple3<String, Long, Position>> createSerializer() {
        return new OneWriteSerializer<>(
                new TupleSerializer<>(
                        (Class) Tuple3.class,
                        new TypeSerializer<?>[] {
                            CompactStringSerializer.INSTANCE,
                            LongSerializer.INSTANCE,
                            PositionSerializer.INSTANCE
                        }));
    }

    @Override
    protected int getLength() {
        return -1;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected Class<Tuple3<String, Long, Position>> getTypeClass() {
        return (Class) Tuple3.class;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Tuple3<String, Long, Position>[] getTestData() {
        return new Tuple3[] {
            Tuple3.of("7:defaulttruck-17", 5L, new Position("truck-17", 1, 2, 5L)),
            Tuple3.of("", Long.MIN_VALUE, new Position("東京", -180, 90, Long.MIN_VALUE, "g")),
            Tuple3.of("x".repeat(5000), Long.MAX_VALUE, new Position("", 0, 0, 0, null))
        };
    }
}
