package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes a {@link TileKey} between stages and in state, and as the key of the tile stage:
 * group, tile, shard, hash. The group may be null. The same key always gives the same bytes, as
 * keyed state on RocksDB needs.
 */
public final class TileKeySerializer extends RecordSerializer<TileKey> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final TileKeySerializer INSTANCE = new TileKeySerializer();

    /** The type information of {@link TileKey}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<TileKey> TYPE =
            new RecordTypeInfo<>(TileKey.class, INSTANCE, true);

    private static final TileKey EMPTY = new TileKey("", 0, 0, 0);

    private TileKeySerializer() {}

    @Override
    public TileKey createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(TileKey k, DataOutputView out) throws IOException {
        writeString(k.group(), out);
        out.writeLong(k.tile());
        out.writeInt(k.shard());
        out.writeInt(k.hash());
    }

    @Override
    public TileKey deserialize(DataInputView in) throws IOException {
        return new TileKey(readString(in), in.readLong(), in.readInt(), in.readInt());
    }

    @Override
    public TypeSerializerSnapshot<TileKey> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TileKey> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link TileKey}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<TileKey> {

        @Override
        public TypeInformation<TileKey> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
