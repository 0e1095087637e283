package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.geo.ShapePiece;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes a {@link TileUpdate} between stages and in state: tile, group, fenceId,
 * timestamp, the piece as {@link ShapePieceSerializer} writes it (a removal's null included),
 * shard. The strings may be null. An update of a fence with rules (contract section 11) has the
 * {@link #EXTENDED} mark after the tile and its rules last, as {@link FenceRulesSerializer} writes
 * them; an update without has the layout of state format 8.
 */
public final class TileUpdateSerializer extends RecordSerializer<TileUpdate> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final TileUpdateSerializer INSTANCE = new TileUpdateSerializer();

    /** The type information of {@link TileUpdate}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<TileUpdate> TYPE =
            new RecordTypeInfo<>(TileUpdate.class, INSTANCE, false);

    private static final TileUpdate EMPTY = new TileUpdate(0, "", "", 0, null);

    private TileUpdateSerializer() {}

    @Override
    public TileUpdate createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(TileUpdate u, DataOutputView out) throws IOException {
        out.writeLong(u.tile());
        boolean rules = !u.rules().isNone();
        if (rules) {
            writeExtended(out);
        }
        writeString(u.group(), out);
        writeString(u.fenceId(), out);
        out.writeLong(u.timestamp());
        ShapePieceSerializer.INSTANCE.serialize(u.piece(), out);
        out.writeInt(u.shard());
        if (rules) {
            FenceRulesSerializer.write(u.rules(), out);
        }
    }

    @Override
    public TileUpdate deserialize(DataInputView in) throws IOException {
        long tile = in.readLong();
        int first = readVarInt(in);
        boolean rules = first == EXTENDED;
        String group = readString(rules ? readVarInt(in) : first, in);
        String fenceId = readString(in);
        long timestamp = in.readLong();
        ShapePiece piece = ShapePieceSerializer.INSTANCE.deserialize(in);
        int shard = in.readInt();
        if (!rules) {
            return new TileUpdate(tile, group, fenceId, timestamp, piece, shard);
        }
        return new TileUpdate(
                tile, group, fenceId, timestamp, piece, shard, FenceRulesSerializer.read(in));
    }

    @Override
    public TypeSerializerSnapshot<TileUpdate> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TileUpdate> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link TileUpdate}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<TileUpdate> {

        @Override
        public TypeInformation<TileUpdate> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
