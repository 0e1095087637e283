package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.RectanglePiece;
import org.quadfence.geo.ShapePiece;

import java.io.IOException;
import java.util.Arrays;

/**
 * How Flink writes a {@link ShapePiece}, what a tile holds of a fence, in state and in tile
 * updates: a tag byte for the variant, then the variant's fields in the order of its record
 * components (a box as minX, minY, maxX, maxY; {@link Boxes} as its count in one byte, then its
 * boxes; a polygon piece packed as {@link PackedPolygonPiece} says, after its length: packed once
 * and kept with the piece, which checkpoints write again and again). Null is the tag alone. Tag 2,
 * the polygon layout of state format 7 (each field in turn, arrays as their length and elements),
 * is still read: a restored piece is written packed at the next checkpoint. {@code ShapePiece}
 * lives in {@code geo}, which has no Flink, so it names no type information of its own: use {@link
 * #TYPE}.
 */
public final class ShapePieceSerializer extends RecordSerializer<ShapePiece> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final ShapePieceSerializer INSTANCE = new ShapePieceSerializer();

    /** The type information of {@link ShapePiece}, for state descriptors. */
    public static final TypeInformation<ShapePiece> TYPE =
            new RecordTypeInfo<>(ShapePiece.class, INSTANCE, false);

    private static final int NONE = 0;
    private static final int BOXES = 1;
    private static final int POLYGON = 2;
    private static final int CIRCLE = 3;
    private static final int RECTANGLE = 4;
    private static final int PACKED_POLYGON = 5;

    private static final ShapePiece EMPTY = Boxes.of(Box.WORLD);
    // The copies of a tile update for a tile's shards come one after the other: read as one piece,
    // which keeps its block, as a piece written once does (a tile stage writes it to state again).
    private static final BlockReader<ShapePiece> UNPACK =
            (block, length) -> {
                PolygonPiece p = PackedPolygonPiece.unpack(block, length);
                p.keepSerialized(Arrays.copyOf(block, length));
                return p;
            };

    private ShapePieceSerializer() {}

    @Override
    public ShapePiece createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(ShapePiece piece, DataOutputView out) throws IOException {
        if (piece == null) {
            out.writeByte(NONE);
        } else if (piece instanceof Boxes b) {
            out.writeByte(BOXES);
            out.writeByte(b.boxes().size());
            for (Box box : b.boxes()) {
                writeBox(box.minX(), box.minY(), box.maxX(), box.maxY(), out);
            }
        } else if (piece instanceof PolygonPiece p) {
            out.writeByte(PACKED_POLYGON);
            byte[] block = p.serialized();
            if (block == null) {
                PackedPolygonPiece packed = PackedPolygonPiece.pack(p, scratch(bound(p)));
                block = Arrays.copyOf(packed.bytes(), packed.length());
                p.keepSerialized(block);
            }
            writeVarInt(block.length, out);
            out.write(block, 0, block.length);
        } else if (piece instanceof CirclePiece c) {
            out.writeByte(CIRCLE);
            out.writeDouble(c.lon());
            out.writeDouble(c.lat());
            out.writeDouble(c.radiusMeters());
            writeBox(c.minX(), c.minY(), c.maxX(), c.maxY(), out);
        } else {
            RectanglePiece r = (RectanglePiece) piece;
            out.writeByte(RECTANGLE);
            Rectangle rect = r.rect();
            writeBox(rect.minLon(), rect.minLat(), rect.maxLon(), rect.maxLat(), out);
            Box b = r.bounds();
            writeBox(b.minX(), b.minY(), b.maxX(), b.maxY(), out);
        }
    }

    @Override
    public ShapePiece deserialize(DataInputView in) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case NONE -> null;
            case BOXES ->
                    in.readUnsignedByte() == 1
                            ? Boxes.of(readBox(in))
                            : Boxes.of(readBox(in), readBox(in));
            case PACKED_POLYGON -> readShared(in, readVarInt(in), UNPACK);
            case POLYGON ->
                    new PolygonPiece(
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            readInts(in),
                            readInts(in),
                            readBooleans(in),
                            readDoubles(in),
                            readDoubles(in),
                            readDoubles(in));
            case CIRCLE ->
                    new CirclePiece(
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble(),
                            in.readDouble());
            case RECTANGLE ->
                    new RectanglePiece(
                            new Rectangle(
                                    in.readDouble(),
                                    in.readDouble(),
                                    in.readDouble(),
                                    in.readDouble()),
                            readBox(in));
            default -> throw new IOException("not a shape piece: tag " + tag);
        };
    }

    /** At least the packed size of {@code p}: every edge distinct and alone in its run. */
    private static int bound(PolygonPiece p) {
        return 128
                + 5 * (p.nodes() == null ? 0 : p.nodes().length)
                + 5 * (p.slotEnds() == null ? 0 : p.slotEnds().length)
                + (p.slotInside() == null ? 0 : p.slotInside().length / 8)
                + 11 * (p.edges() == null ? 0 : p.edges().length)
                + 11 * (p.near() == null ? 0 : p.near().length)
                + 8 * (p.seams() == null ? 0 : p.seams().length);
    }

    private static void writeBox(double w, double s, double e, double n, DataOutputView out)
            throws IOException {
        out.writeDouble(w);
        out.writeDouble(s);
        out.writeDouble(e);
        out.writeDouble(n);
    }

    private static Box readBox(DataInputView in) throws IOException {
        return new Box(in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
    }

    @Override
    public TypeSerializerSnapshot<ShapePiece> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<ShapePiece> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
