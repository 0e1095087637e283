package org.quadfence.model;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.util.InstantiationUtil;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Box;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.ShapePiece;
import org.quadfence.stages.EntityState;
import org.quadfence.stages.SequencedEvent;

import java.io.IOException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The model records travel through Flink with serializers of their own (those on the path of every
 * position, and the fence changes and properties kept in state) or as POJOs, never through Kryo.
 */
class FlinkTypesTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            classes = {
                Position.class,
                Membership.class,
                GeofenceEvent.class,
                TileKey.class,
                TileUpdate.class,
                SequencedEvent.class,
                EntityState.class,
                FenceChange.class,
                org.quadfence.stages.FenceProperties.class
            })
    void theRecordsOnEveryPositionsPathAndTheFencesStateHaveTheirOwnSerializer(Class<?> type)
            throws Exception {
        TypeInformation<?> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(RecordTypeInfo.class);
        assertThat(info.getTypeClass()).isEqualTo(type);
        assertThat(info.isKeyType()).isEqualTo(type == TileKey.class);
        TypeSerializer<?> s = info.createSerializer(noKryo());
        assertThat(s.getClass().getName()).isEqualTo(type.getName() + "Serializer");
        assertThat(s.isImmutableType()).isTrue();
        assertThat(s.duplicate()).isSameAs(s);
        assertThat(TypeInformation.of(type).createSerializer(noKryo())).isSameAs(s);
        // A checkpoint keeps the snapshot's class; read back, it gives the same serializer as is.
        assertThat(s.snapshotConfiguration().getClass().getName())
                .isEqualTo(s.getClass().getName() + "$Snapshot");
        assertThat(
                        s.snapshotConfiguration()
                                .resolveSchemaCompatibility(
                                        InstantiationUtil.instantiate(
                                                s.snapshotConfiguration().getClass()))
                                .isCompatibleAsIs())
                .isTrue();
    }

    @Test
    void theOwnSerializersRoundTripNullsEmptyArraysUnicodeAndLargeProperties() throws IOException {
        List<Object[]> all =
                List.of(
                        RecordSamples.positions(),
                        RecordSamples.memberships(),
                        RecordSamples.events(),
                        RecordSamples.tileKeys(),
                        RecordSamples.tileUpdates(),
                        RecordSamples.sequencedEvents(),
                        RecordSamples.entityStates(),
                        RecordSamples.fenceChanges(),
                        RecordSamples.fenceProperties());
        for (Object[] samples : all) {
            for (Object r : samples) {
                sameAfterRoundTrip(r);
            }
        }
        GeofenceEvent large = RecordSamples.events()[2];
        assertThat(large.properties()).hasSize(65_536);
        assertThat(sameAfterRoundTrip(large).properties()).isEqualTo(large.properties());
        assertThat(sameAfterRoundTrip(RecordSamples.events()[0]).properties()).isNull();
        Membership none = sameAfterRoundTrip(RecordSamples.memberships()[0]);
        assertThat(none.fenceIds()).isEmpty();
        assertThat(none.nearIds()).isEmpty();
        Membership nulls = sameAfterRoundTrip(RecordSamples.memberships()[3]);
        assertThat(nulls.fenceIds()).isNull();
        assertThat(nulls.nearIds()).isNull();
    }

    @Test
    void everyKindOfPieceATileHoldsComesBackEqualAndAnswersAsBefore() throws IOException {
        TypeSerializer<ShapePiece> s = ShapePieceSerializer.TYPE.createSerializer(noKryo());
        assertThat(s).isSameAs(ShapePieceSerializer.INSTANCE);
        assertThat(
                        s.snapshotConfiguration()
                                .resolveSchemaCompatibility(new ShapePieceSerializer.Snapshot())
                                .isCompatibleAsIs())
                .isTrue();
        for (ShapePiece piece : RecordSamples.shapePieces()) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            s.serialize(piece, out);
            DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
            ShapePiece back = s.deserialize(in);
            assertThat(in.available()).isZero();
            assertThat(back).isEqualTo(piece).isNotSameAs(piece);
            Box b = piece.bounds();
            for (double[] p :
                    new double[][] {
                        {b.minX(), b.minY()},
                        {(b.minX() + b.maxX()) / 2, (b.minY() + b.maxY()) / 2},
                        {b.maxX(), b.maxY() - (b.maxY() - b.minY()) / 3}
                    }) {
                assertThat(back.contains(p[0], p[1])).isEqualTo(piece.contains(p[0], p[1]));
                assertThat(back.distanceMeters(p[0], p[1]))
                        .isEqualTo(piece.distanceMeters(p[0], p[1]));
            }
        }
    }

    @Test
    void aTileKeyIsWrittenTheSameWayEveryTimeAsRocksDbKeysNeed() throws IOException {
        TypeSerializer<TileKey> s = TypeInformation.of(TileKey.class).createSerializer(noKryo());
        DataOutputSerializer a = new DataOutputSerializer(16);
        DataOutputSerializer b = new DataOutputSerializer(16);
        s.serialize(new TileKey("g", 12345, 2, 99), a);
        s.serialize(new TileKey(new String("g"), 12345, 2, 99), b);
        assertThat(a.getCopyOfBuffer()).isEqualTo(b.getCopyOfBuffer());
    }

    @Test
    void tileKeysAreEqualWhenEveryPartIsAndDifferWhenAnyPartDoes() {
        TileKey key = new TileKey("g", 12345, 2, 99);
        assertThat(new TileKey(new String("g"), 12345, 2, 99))
                .isEqualTo(key)
                .hasSameHashCodeAs(key);
        assertThat(new TileKey(null, 12345, 2, 99)).isEqualTo(new TileKey(null, 12345, 2, 99));
        assertThat(
                        List.of(
                                new TileKey("h", 12345, 2, 99),
                                new TileKey(null, 12345, 2, 99),
                                new TileKey("g", 12346, 2, 99),
                                new TileKey("g", 12345, 3, 99),
                                new TileKey("g", 12345, 2, 98)))
                .allSatisfy(other -> assertThat(other).isNotEqualTo(key));
        assertThat(key).isNotEqualTo("g");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(classes = {DeadLetter.class, Rectangle.class})
    void theOtherModelRecordsArePojoTypesWhoseSerializersNeedNoKryo(Class<?> type) {
        TypeInformation<?> info = TypeInformation.of(type);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        // With generic types disabled, any field that would fall back to Kryo throws here.
        assertThat(info.createSerializer(noKryo())).isNotNull();
    }

    @Test
    void recordsSurviveFlinkSerializationIncludingNullFields() throws IOException {
        roundTrip(new Position("truck-17", -0.0, 90, Long.MIN_VALUE));
        roundTrip(FenceChange.upsert("f", new Rectangle(170, -1, -170, 1), 5, "{\"a\":1}"));
        roundTrip(FenceChange.delete("f", Long.MIN_VALUE));
        roundTrip(new GeofenceEvent("e", "f", EventType.EXIT, 7, 1e-300, 0.1, null));
        roundTrip(new DeadLetter(DeadLetter.FENCES, "missing field fenceId", "{}"));
        roundTrip(DeadLetter.repaired(DeadLetter.FENCES, "ring 0 of polygon 0 ...", "{}"));
    }

    @Test
    void parsedRecordsTravelAsPojosOfTheirValueTypeBothWhenGoodAndWhenBad() throws IOException {
        TypeInformation<Parsed<Position>> info = new TypeHint<Parsed<Position>>() {}.getTypeInfo();
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        TypeSerializer<Parsed<Position>> s = info.createSerializer(noKryo());
        for (Parsed<Position> p :
                List.of(
                        Parsed.of(new Position("e", 1, 2, 3)),
                        Parsed.of(
                                new Position("e", 1, 2, 3),
                                DeadLetter.repaired(DeadLetter.POSITIONS, "why", "raw")),
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

    /** Serializes, deserializes and copies {@code value}; returns what was deserialized. */
    @SuppressWarnings("unchecked")
    private static <T> T sameAfterRoundTrip(T value) throws IOException {
        TypeSerializer<T> s =
                ((TypeInformation<T>) TypeInformation.of(value.getClass()))
                        .createSerializer(noKryo());
        DataOutputSerializer out = new DataOutputSerializer(64);
        s.serialize(value, out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        T back = s.deserialize(in);
        assertThat(in.available()).isZero();
        // A polygon piece keeps the bytes it was written as: a memo, not part of its value.
        assertThat(back)
                .usingRecursiveComparison()
                .ignoringFieldsMatchingRegexes("(.*\\.)?serialized")
                // NaN (a fence's margin when it has none of its own) is NaN again.
                .withEqualsForType(Double::equals, Double.class)
                .isEqualTo(value);
        assertThat(s.copy(value)).isSameAs(value);
        DataOutputSerializer copied = new DataOutputSerializer(64);
        s.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
        return back;
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
