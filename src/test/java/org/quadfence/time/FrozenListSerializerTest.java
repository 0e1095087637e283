package org.quadfence.time;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.runtime.TupleSerializer;

import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.Position;
import org.quadfence.model.PositionSerializer;

import java.util.ArrayList;
import java.util.List;

/** A key group's waiting records, written in one piece, pass Flink's own tests of a serializer. */
class FrozenListSerializerTest extends SerializerTestBase<List<Tuple3<String, Long, Position>>> {

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected TypeSerializer<List<Tuple3<String, Long, Position>>> createSerializer() {
        return new FrozenListSerializer<>(
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
    protected Class<List<Tuple3<String, Long, Position>>> getTypeClass() {
        return (Class) List.class;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected List<Tuple3<String, Long, Position>>[] getTestData() {
        List<Tuple3<String, Long, Position>> many = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            many.add(Tuple3.of("7:default" + i, (long) i, new Position("e" + i, i % 180, 0, i)));
        }
        return new List[] {
            List.of(Tuple3.of("7:defaulttruck-17", 5L, new Position("truck-17", 1, 2, 5L))),
            List.of(
                    Tuple3.of(
                            "", Long.MIN_VALUE, new Position("東京", -180, 90, Long.MIN_VALUE, "g")),
                    Tuple3.of("x".repeat(5000), Long.MAX_VALUE, new Position("", 0, 0, 0, null))),
            new ArrayList<>(),
            many
        };
    }
}
