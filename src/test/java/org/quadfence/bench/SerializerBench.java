package org.quadfence.bench;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.BasicArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.DoubleSerializer;
import org.apache.flink.api.common.typeutils.base.EnumSerializer;
import org.apache.flink.api.common.typeutils.base.IntSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.java.typeutils.runtime.PojoSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.stages.SequencedEvent;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.concurrent.TimeUnit;

/**
 * One record serialized and deserialized, as between two stages, by the serializer {@code
 * TypeInformation.of} gives ({@code serializer=flink}) or by Flink's POJO serializer of the same
 * record built by hand ({@code serializer=pojo}). Run with {@code mvn -B -ntp -Pbench test-compile
 * exec:exec -Dbench.args=SerializerBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class SerializerBench {

    private static final int BATCH = 1024;

    @Param({"flink", "pojo"})
    public String serializer;

    private Batch<Position> positions;
    private Batch<Membership> memberships;
    private Batch<SequencedEvent> events;

    @Setup
    public void setUp() throws ReflectiveOperationException {
        Position[] p = new Position[BATCH];
        Membership[] m = new Membership[BATCH];
        SequencedEvent[] e = new SequencedEvent[BATCH];
        for (int i = 0; i < BATCH; i++) {
            String entity = "truck-" + i;
            double lon = -73.9857 + i * 1e-4;
            double lat = 40.7484 - i * 1e-4;
            long t = 1732233600000L + i;
            p[i] = new Position(entity, lon, lat, t, Groups.DEFAULT);
            String[] in = i % 4 == 0 ? new String[0] : new String[] {"zone-" + i % 7};
            String[] near = i % 8 == 0 ? new String[] {"zone-" + i % 5} : new String[0];
            m[i] = new Membership(Groups.DEFAULT, entity, t, lon, lat, in, near);
            String properties = i % 2 == 0 ? null : "{\"name\":\"Depot " + i % 7 + "\"}";
            e[i] =
                    new SequencedEvent(
                            new GeofenceEvent(
                                    entity,
                                    "zone-" + i % 7,
                                    EventType.values()[i % 3],
                                    t,
                                    lon,
                                    lat,
                                    properties,
                                    Groups.DEFAULT),
                            i % 2);
        }
        positions = new Batch<>(serializerOf(Position.class), p);
        memberships = new Batch<>(serializerOf(Membership.class), m);
        events = new Batch<>(serializerOf(SequencedEvent.class), e);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void position(Blackhole bh) throws IOException {
        positions.roundTrip(bh);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void membership(Blackhole bh) throws IOException {
        memberships.roundTrip(bh);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void sequencedEvent(Blackhole bh) throws IOException {
        events.roundTrip(bh);
    }

    private <T> TypeSerializer<T> serializerOf(Class<T> type) throws ReflectiveOperationException {
        return serializer.equals("pojo")
                ? pojo(type)
                : TypeInformation.of(type).createSerializer(new SerializerConfigImpl());
    }

    /** Flink's POJO serializer of a record, whatever serializer the record names. */
    private static <T> TypeSerializer<T> pojo(Class<T> type) throws ReflectiveOperationException {
        RecordComponent[] components = type.getRecordComponents();
        Field[] fields = new Field[components.length];
        TypeSerializer<?>[] serializers = new TypeSerializer<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            fields[i] = type.getDeclaredField(components[i].getName());
            fields[i].setAccessible(true);
            serializers[i] = fieldSerializer(components[i].getType());
        }
        return new PojoSerializer<>(type, serializers, fields, new SerializerConfigImpl());
    }

    /** The serializer Flink's type extraction gives a POJO field of class {@code c}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static TypeSerializer<?> fieldSerializer(Class<?> c)
            throws ReflectiveOperationException {
        if (c == String.class) {
            return StringSerializer.INSTANCE;
        } else if (c == double.class) {
            return DoubleSerializer.INSTANCE;
        } else if (c == long.class) {
            return LongSerializer.INSTANCE;
        } else if (c == int.class) {
            return IntSerializer.INSTANCE;
        } else if (c == String[].class) {
            return BasicArrayTypeInfo.STRING_ARRAY_TYPE_INFO.createSerializer(
                    new SerializerConfigImpl());
        } else if (c.isEnum()) {
            return new EnumSerializer(c);
        }
        return pojo(c);
    }

    private static final class Batch<T> {
        private final TypeSerializer<T> serializer;
        private final T[] records;
        private final DataOutputSerializer out = new DataOutputSerializer(1 << 16);
        private final DataInputDeserializer in = new DataInputDeserializer();

        Batch(TypeSerializer<T> serializer, T[] records) {
            this.serializer = serializer;
            this.records = records;
        }

        void roundTrip(Blackhole bh) throws IOException {
            out.clear();
            for (T r : records) {
                serializer.serialize(r, out);
            }
            in.setBuffer(out.getSharedBuffer(), 0, out.length());
            for (int i = 0; i < records.length; i++) {
                bh.consume(serializer.deserialize(in));
            }
        }
    }
}
