package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import org.quadfence.geo.Circle;
import org.quadfence.geo.Rectangle;

import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;

/**
 * How Flink writes a {@link FenceChange} between stages and in state (the fence stage keeps its
 * versions): fenceId, timestamp, properties, group, then a byte saying which of rect, circle and
 * polygons follow (and, in its bit 3, whether rules do), and those; then the rules as {@link
 * FenceRulesSerializer} writes them. The strings and shapes may be null.
 */
public final class FenceChangeSerializer extends RecordSerializer<FenceChange> {

    private static final long serialVersionUID = 1L;

    /** The serializer; it has no state. */
    public static final FenceChangeSerializer INSTANCE = new FenceChangeSerializer();

    /** The type information of {@link FenceChange}, which {@code TypeInformation.of} returns. */
    private static final TypeInformation<FenceChange> TYPE =
            new RecordTypeInfo<>(FenceChange.class, INSTANCE, false);

    private static final int RECT = 1;
    private static final int CIRCLE = 2;
    private static final int POLYGONS = 4;
    private static final int RULES = 8;

    private static final FenceChange EMPTY = FenceChange.delete("", 0);

    private FenceChangeSerializer() {}

    @Override
    public FenceChange createInstance() {
        return EMPTY;
    }

    @Override
    public void serialize(FenceChange c, DataOutputView out) throws IOException {
        writeString(c.fenceId(), out);
        out.writeLong(c.timestamp());
        writeString(c.properties(), out);
        writeString(c.group(), out);
        Rectangle r = c.rect();
        Circle circle = c.circle();
        double[][][] polygons = c.polygons();
        out.writeByte(
                (r == null ? 0 : RECT)
                        | (circle == null ? 0 : CIRCLE)
                        | (polygons == null ? 0 : POLYGONS)
                        | (c.rules().isNone() ? 0 : RULES));
        if (r != null) {
            out.writeDouble(r.minLon());
            out.writeDouble(r.minLat());
            out.writeDouble(r.maxLon());
            out.writeDouble(r.maxLat());
        }
        if (circle != null) {
            out.writeDouble(circle.lon());
            out.writeDouble(circle.lat());
            out.writeDouble(circle.radiusMeters());
        }
        if (polygons != null) {
            out.writeInt(polygons.length);
            for (double[][] polygon : polygons) {
                out.writeInt(polygon.length);
                for (double[] ring : polygon) {
                    out.writeInt(ring.length);
                    for (double v : ring) {
                        out.writeDouble(v);
                    }
                }
            }
        }
        if (!c.rules().isNone()) {
            FenceRulesSerializer.write(c.rules(), out);
        }
    }

    @Override
    public FenceChange deserialize(DataInputView in) throws IOException {
        String fenceId = readString(in);
        long timestamp = in.readLong();
        String properties = readString(in);
        String group = readString(in);
        int shapes = in.readByte();
        Rectangle r =
                (shapes & RECT) == 0
                        ? null
                        : new Rectangle(
                                in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble());
        Circle circle =
                (shapes & CIRCLE) == 0
                        ? null
                        : new Circle(in.readDouble(), in.readDouble(), in.readDouble());
        double[][][] polygons = null;
        if ((shapes & POLYGONS) != 0) {
            polygons = new double[in.readInt()][][];
            for (int p = 0; p < polygons.length; p++) {
                polygons[p] = new double[in.readInt()][];
                for (int ring = 0; ring < polygons[p].length; ring++) {
                    double[] v = new double[in.readInt()];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = in.readDouble();
                    }
                    polygons[p][ring] = v;
                }
            }
        }
        FenceRules rules = (shapes & RULES) == 0 ? FenceRules.NONE : FenceRulesSerializer.read(in);
        return new FenceChange(fenceId, r, timestamp, properties, group, circle, polygons, rules);
    }

    @Override
    public TypeSerializerSnapshot<FenceChange> snapshotConfiguration() {
        return new Snapshot();
    }

    /** What a checkpoint keeps of the serializer: only its class, as it has no configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<FenceChange> {

        /** Flink makes the snapshot reflectively when it reads a checkpoint. */
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** Gives {@link FenceChange}, which names it in its {@code @TypeInfo}, its type information. */
    public static final class Factory extends TypeInfoFactory<FenceChange> {

        @Override
        public TypeInformation<FenceChange> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return TYPE;
        }
    }
}
