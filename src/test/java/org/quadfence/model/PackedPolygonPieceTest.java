package org.quadfence.model;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.ShapePiece;
import org.quadfence.testing.Country;
import org.quadfence.tiles.TileGrid;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A polygon piece goes packed (state format 8), reads back equal bit for bit, and the layout of
 * state format 7 still reads: savepoints of format 7 restore, and their pieces are written packed
 * at the next checkpoint.
 */
class PackedPolygonPieceTest {

    private static final ShapePieceSerializer SERIALIZER = ShapePieceSerializer.INSTANCE;

    /** A piece whose numbers test the raw bits: signed zeros, NaN, shared and odd edges. */
    private static PolygonPiece oddNumbers() {
        double nan = Double.longBitsToDouble(0x7ff8_0000_0000_0123L);
        return new PolygonPiece(
                -0.0,
                0.0,
                1,
                1,
                -180,
                -90,
                180,
                90,
                new int[] {-2, 0, 0, 2, 2, 3, 3, 3, 3, 4},
                new int[] {8, 8, 16, 20},
                new boolean[] {true, false, false, true},
                new double[] {0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, -0.0, nan, 5, 5, 1, 1, 0, 0},
                new double[] {1, 1, 0, 0, 0, 0, 1, 0},
                new double[] {-180, 0, -180, 1});
    }

    private static PolygonPiece withNullArrays() {
        return new PolygonPiece(
                0, 0, 1, 1, 0, 0, 1, 1, new int[2], null, null, null, null, new double[0]);
    }

    private static ShapePiece roundTrip(ShapePiece piece) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        SERIALIZER.serialize(piece, out);
        return SERIALIZER.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
    }

    @Test
    void aPieceReadsBackEqualBitForBit() throws IOException {
        for (PolygonPiece piece :
                new PolygonPiece[] {RecordSamples.countryPiece(), oddNumbers(), withNullArrays()}) {
            PolygonPiece back = (PolygonPiece) roundTrip(piece);
            assertThat(back).isEqualTo(piece);
            assertThat(bits(back.edges())).isEqualTo(bits(piece.edges()));
            assertThat(bits(back.near())).isEqualTo(bits(piece.near()));
            assertThat(Double.doubleToRawLongBits(back.minX()))
                    .isEqualTo(Double.doubleToRawLongBits(piece.minX()));
        }
    }

    @Test
    void aPieceIsPackedOnceAndWrittenAgainFromWhatWasKept() throws IOException {
        PolygonPiece piece = RecordSamples.countryPiece();
        assertThat(piece.serialized()).isNull();
        DataOutputSerializer first = new DataOutputSerializer(64);
        SERIALIZER.serialize(piece, first);
        byte[] kept = piece.serialized();
        assertThat(kept).isNotNull();

        // What was kept is what is written: a piece that kept another piece's bytes writes those.
        PolygonPiece other = oddNumbers();
        other.keepSerialized(kept);
        DataOutputSerializer again = new DataOutputSerializer(64);
        SERIALIZER.serialize(other, again);

        assertThat(again.getCopyOfBuffer()).isEqualTo(first.getCopyOfBuffer());
        assertThat(piece.serialized()).isSameAs(kept);
    }

    @Test
    void piecesReadBackFromACheckpointStreamOneAfterTheOther() throws IOException {
        ShapePiece[] pieces = RecordSamples.shapePieces();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputViewStreamWrapper out = new DataOutputViewStreamWrapper(bytes);
        for (ShapePiece p : pieces) {
            SERIALIZER.serialize(p, out);
        }
        var in = new DataInputViewStreamWrapper(new ByteArrayInputStream(bytes.toByteArray()));
        for (ShapePiece p : pieces) {
            assertThat(SERIALIZER.deserialize(in)).isEqualTo(p);
        }
        assertThat(in.read()).as("nothing left").isEqualTo(-1);
    }

    @Test
    void copiesOfAPieceReadOneAfterTheOtherAreOneObjectAndAnyOtherPieceIsReadAnewWithItsBlock()
            throws IOException {
        PolygonPiece country = RecordSamples.countryPiece();
        PolygonPiece odd = oddNumbers();
        DataOutputSerializer out = new DataOutputSerializer(1024);
        for (PolygonPiece p : new PolygonPiece[] {country, country, odd, country}) {
            SERIALIZER.serialize(p, out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        ShapePiece first = SERIALIZER.deserialize(in);
        ShapePiece second = SERIALIZER.deserialize(in);
        ShapePiece third = SERIALIZER.deserialize(in);
        ShapePiece fourth = SERIALIZER.deserialize(in);

        assertThat(second).isSameAs(first).isEqualTo(country);
        assertThat(third).isNotSameAs(first).isEqualTo(odd);
        assertThat(fourth).isNotSameAs(first).isEqualTo(country);
        // Kept as read, so that writing it to state again packs nothing.
        assertThat(((PolygonPiece) third).serialized()).isEqualTo(odd.serialized());
    }

    @Test
    void aPolygonPieceInTheLayoutOfStateFormatSevenStillReads() throws IOException {
        for (PolygonPiece piece :
                new PolygonPiece[] {RecordSamples.countryPiece(), oddNumbers(), withNullArrays()}) {
            byte[] formatSeven = formatSeven(piece);
            ShapePiece back = SERIALIZER.deserialize(new DataInputDeserializer(formatSeven));
            assertThat(back).isEqualTo(piece);
        }
    }

    @Test
    void aPackedPieceIsLessThanHalfItsFormatSevenLayout() throws IOException {
        // A dispatch zone's size: 200 vertices, 3 km across, in one tile.
        PolygonPiece piece =
                (PolygonPiece)
                        new TileGrid(7)
                                .cut(Country.polygon(200, 10.3, 10.3, 0.015, 3), 0)
                                .get(0)
                                .piece();
        DataOutputSerializer out = new DataOutputSerializer(64);
        SERIALIZER.serialize(piece, out);
        assertThat(piece.edges().length / 4).as("edges kept in the leaves").isGreaterThan(100);
        assertThat(out.length()).isLessThan(formatSeven(piece).length / 2);
    }

    /** The piece as state format 7 wrote it: tag 2, then each field in turn. */
    private static byte[] formatSeven(PolygonPiece p) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        out.writeByte(2);
        for (double v :
                new double[] {
                    p.minX(), p.minY(), p.maxX(), p.maxY(), p.west(), p.south(), p.east(), p.north()
                }) {
            out.writeDouble(v);
        }
        writeInts(p.nodes(), out);
        writeInts(p.slotEnds(), out);
        if (p.slotInside() == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(p.slotInside().length);
            for (boolean b : p.slotInside()) {
                out.writeBoolean(b);
            }
        }
        for (double[] a : new double[][] {p.edges(), p.near(), p.seams()}) {
            out.writeInt(a == null ? -1 : a.length);
            for (int i = 0; a != null && i < a.length; i++) {
                out.writeDouble(a[i]);
            }
        }
        return out.getCopyOfBuffer();
    }

    private static void writeInts(int[] a, DataOutputSerializer out) throws IOException {
        out.writeInt(a == null ? -1 : a.length);
        for (int i = 0; a != null && i < a.length; i++) {
            out.writeInt(a[i]);
        }
    }

    private static long[] bits(double[] a) {
        return a == null ? null : Arrays.stream(a).mapToLong(Double::doubleToRawLongBits).toArray();
    }
}
