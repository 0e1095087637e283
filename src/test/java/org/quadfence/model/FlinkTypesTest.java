package org.quadfence.model;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Rectangle;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The model records travel through Flink as POJOs, never through Kryo. */
class FlinkTypesTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            classes = {
                Position.class,
                FenceChange.class,
                GeofenceEvent.class,
                DeadLetter.class,
                Rectangle.class,
                TileUpdate.class,
                TileKey.class,
                Membership.class,
                org.quadfence.job.TileFence.class,
                org.quadfence.job.EntityState.class,
                org.quadfence.job.SequencedEvent.class,
                org.quadfence.job.FenceProperties.class
            })
    void everyModelRecordIsAPojoTypeWhoseSerializerNeedsNoKryo(Class<?> type) {
        TypeInformation<?> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        // With generic types disabled, any field that would fall back to Kryo throws here.
        assertThat(info.createSerializer(noKryo())).isNotNull();
    }

    @Test
    void fenceChangeHasOnlyItsRecordComponentsAsPojoFields() {
        PojoTypeInfo<FenceChange> info =
                (PojoTypeInfo<FenceChange>) TypeInformation.of(FenceChange.class);
        assertThat(info.getFieldNames())
                .containsExactlyInAnyOrder(
                        "fenceId",
                        "rect",
                        "timestamp",
                        "properties",
                        "group",
                        "circle",
                        "polygons");
    }

    @Test
    void recordsSurviveFlinkSerializationIncludingNullFields() throws IOException {
        roundTrip(new Position("truck-17", -0.0, 90, Long.MIN_VALUE));
        roundTrip(FenceChange.upsert("f", new Rectangle(170, -1, -170, 1), 5, "{\"a\":1}"));
        roundTrip(FenceChange.delete("f", Long.MIN_VALUE));
        roundTrip(new GeofenceEvent("e", "f", EventType.EXIT, 7, 1e-300, 0.1, null));
        roundTrip(new DeadLetter(DeadLetter.FENCES, "missing field fenceId", "{}"));
    }

    @Test
    void parsedRecordsTravelAsPojosOfTheirValueTypeBothWhenGoodAndWhenBad() throws IOException {
        TypeInformation<Parsed<Position>> info = new TypeHint<Parsed<Position>>() {}.getTypeInfo();
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        TypeSerializer<Parsed<Position>> s = info.createSerializer(noKryo());
        for (Parsed<Position> p :
                List.of(
                        Parsed.of(new Position("e", 1, 2, 3)),
                        Parsed.<Position>failed(
                                new DeadLetter(DeadLetter.POSITIONS, "empty record", "")))) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            s.serialize(p, out);
            assertThat(s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                    .isEqualTo(p);
            assertThat(s.copy(p)).isEqualTo(p);
            DataOutputSerializer again = new DataOutputSerializer(64);
            s.serialize(p, again);
            assertThat(
                            s.deserialize(
                                    s.createInstance(),
                                    new DataInputDeserializer(again.getCopyOfBuffer())))
                    .isEqualTo(p);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> void roundTrip(T value) throws IOException {
        TypeSerializer<T> s =
                ((TypeInformation<T>) TypeInformation.of(value.getClass()))
                        .createSerializer(noKryo());
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        assertThat(s.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isEqualTo(value);
    }

    private static SerializerConfigImpl noKryo() {
        SerializerConfigImpl config = new SerializerConfigImpl();
        config.setGenericTypes(false);
        return config;
    }
}
