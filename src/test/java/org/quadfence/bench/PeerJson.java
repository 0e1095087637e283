package org.quadfence.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.bench.PeerRecords.Fence;
import org.quadfence.bench.PeerRecords.Position;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.util.Arrays;

/**
 * The parsers of {@link BroadcastStrTreeJob}: Jackson streaming parsers of positions and fence
 * changes (contract sections 1, 2 and 6; a record it cannot use gives null and is skipped). Fence
 * timestamps are not read: the job applies a change when it arrives.
 */
final class PeerJson {

    private PeerJson() {}

    /** Parses lines that hold one JSON object, field by field; null when not a valid record. */
    abstract static class ObjectParser<T> implements PeerLines.Parser<T> {
        private static final long serialVersionUID = 1L;
        transient JsonFactory factory;

        @Override
        public final T parse(byte[] buffer, int offset, int length) throws IOException {
            if (factory == null) {
                factory = new JsonFactory();
            }
            T record = create();
            try (JsonParser in = factory.createParser(buffer, offset, length)) {
                if (in.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                for (String name; (name = in.nextFieldName()) != null; ) {
                    if (!field(record, name, in.nextToken(), in)) {
                        return null;
                    }
                }
            } catch (JsonProcessingException | RuntimeException e) {
                return null;
            }
            return complete(record) ? record : null;
        }

        /** A new record, before its fields. */
        abstract T create();

        /** Reads field {@code name}, at its first token {@code t}; false if the record is bad. */
        abstract boolean field(T record, String name, JsonToken t, JsonParser in)
                throws IOException;

        /** Whether the record has every field it needs. */
        abstract boolean complete(T record);
    }

    /** Parses positions; one instance per source reader. */
    static final class Positions extends ObjectParser<Position> {
        private static final long serialVersionUID = 1L;

        @Override
        Position create() {
            Position p = new Position();
            p.lon = Double.NaN;
            p.lat = Double.NaN;
            p.timestamp = -1;
            return p;
        }

        @Override
        boolean field(Position p, String name, JsonToken t, JsonParser in) throws IOException {
            switch (name) {
                case "entityId" -> p.entityId = t == JsonToken.VALUE_STRING ? in.getText() : null;
                case "lon" -> p.lon = t.isNumeric() ? within(in.getDoubleValue(), 180) : Double.NaN;
                case "lat" -> p.lat = t.isNumeric() ? within(in.getDoubleValue(), 90) : Double.NaN;
                case "timestamp" -> p.timestamp = time(in, t);
                case "group" -> {
                    if (t != JsonToken.VALUE_STRING) {
                        return false;
                    }
                    p.group = group(in.getText());
                }
                default -> in.skipChildren();
            }
            return true;
        }

        @Override
        boolean complete(Position p) {
            return p.entityId != null && p.lon == p.lon && p.lat == p.lat && p.timestamp >= 0;
        }

        /** x, or NaN when it is out of [-bound, bound]. */
        private static double within(double x, double bound) {
            return x >= -bound && x <= bound ? x : Double.NaN;
        }

        private static long time(JsonParser in, JsonToken t) throws IOException {
            if (t == JsonToken.VALUE_NUMBER_INT) {
                return in.getLongValue();
            }
            return t == JsonToken.VALUE_STRING ? Instant.parse(in.getText()).toEpochMilli() : -1;
        }
    }

    /** Parses fence changes; one instance per source reader. */
    static final class Fences extends ObjectParser<Fence> {
        private static final long serialVersionUID = 1L;
        private transient double[] xy;
        private transient int[] rings;
        private transient int[] polygons;
        private transient int points;
        private transient int ringCount;
        private transient int polygonCount;

        @Override
        Fence create() {
            if (xy == null) {
                xy = new double[1024];
                rings = new int[16];
                polygons = new int[16];
            }
            Fence f = new Fence();
            f.shape = -1;
            return f;
        }

        @Override
        boolean field(Fence f, String name, JsonToken t, JsonParser in) throws IOException {
            switch (name) {
                case "fenceId", "id" -> f.fenceId = t.isScalarValue() ? in.getText() : null;
                case "deleted" -> f.deleted = t == JsonToken.VALUE_TRUE;
                case "group" -> {
                    if (t != JsonToken.VALUE_STRING) {
                        return false;
                    }
                    f.group = group(in.getText());
                }
                case "rect" -> numbers(in, f, Fence.RECT, 4);
                case "circle" -> circle(in, f);
                case "geometry" -> geometry(in, f);
                case "properties" -> f.properties = properties(in, t);
                default -> in.skipChildren();
            }
            return true;
        }

        @Override
        boolean complete(Fence f) {
            return f.fenceId != null && (f.deleted || f.coords != null);
        }

        private static void numbers(JsonParser in, Fence f, byte shape, int count)
                throws IOException {
            double[] c = new double[count];
            for (int i = 0; i < count; i++) {
                in.nextToken();
                c[i] = in.getDoubleValue();
            }
            if (in.nextToken() == JsonToken.END_ARRAY) {
                f.shape = shape;
                f.coords = c;
            }
        }

        private static void circle(JsonParser in, Fence f) throws IOException {
            double[] c = new double[3];
            for (String name; (name = in.nextFieldName()) != null; ) {
                in.nextToken();
                int i = name.equals("lon") ? 0 : name.equals("lat") ? 1 : 2;
                c[i] = in.getDoubleValue();
            }
            f.shape = Fence.CIRCLE;
            f.coords = c;
        }

        private void geometry(JsonParser in, Fence f) throws IOException {
            String type = null;
            int level = -1;
            points = 0;
            ringCount = 0;
            polygonCount = 0;
            for (String name; (name = in.nextFieldName()) != null; ) {
                JsonToken t = in.nextToken();
                if (name.equals("type")) {
                    type = in.getText();
                } else if (name.equals("coordinates") && t == JsonToken.START_ARRAY) {
                    level = coordinates(in);
                } else {
                    in.skipChildren();
                }
            }
            if ("Polygon".equals(type) && level == 2 || "MultiPolygon".equals(type) && level == 3) {
                f.shape = Fence.POLYGON;
                f.coords = Arrays.copyOf(xy, 2 * points);
                f.ringPoints = Arrays.copyOf(rings, ringCount);
                f.polygonRings = Arrays.copyOf(polygons, polygonCount);
            }
        }

        /** Reads the array at the current token: 0 a point, 1 a ring, 2 a polygon, 3 a multi. */
        private int coordinates(JsonParser in) throws IOException {
            JsonToken t = in.nextToken();
            if (t.isNumeric()) {
                if (2 * points + 2 > xy.length) {
                    xy = Arrays.copyOf(xy, 2 * xy.length);
                }
                xy[2 * points] = in.getDoubleValue();
                in.nextToken();
                xy[2 * points++ + 1] = in.getDoubleValue();
                while (in.nextToken() != JsonToken.END_ARRAY) {
                    in.skipChildren(); // an altitude
                }
                return 0;
            }
            int child = -1;
            int count = 0;
            for (; t == JsonToken.START_ARRAY; t = in.nextToken(), count++) {
                int level = coordinates(in);
                if (count > 0 && level != child) {
                    throw new IllegalArgumentException("arrays of mixed depth");
                }
                child = level;
            }
            if (t != JsonToken.END_ARRAY || count == 0) {
                throw new IllegalArgumentException("not an array of positions");
            }
            if (child == 0) {
                rings = add(rings, ringCount++, count);
            } else if (child == 1) {
                polygons = add(polygons, polygonCount++, count);
            }
            return child + 1;
        }

        private static int[] add(int[] to, int at, int value) {
            int[] grown = at < to.length ? to : Arrays.copyOf(to, 2 * to.length);
            grown[at] = value;
            return grown;
        }

        private String properties(JsonParser in, JsonToken t) throws IOException {
            if (t != JsonToken.START_OBJECT) {
                return null;
            }
            StringWriter text = new StringWriter(64);
            try (JsonGenerator g = factory.createGenerator(text)) {
                g.copyCurrentStructure(in);
            }
            return text.toString();
        }
    }

    private static String group(String g) {
        return g.equals("default") ? null : g;
    }
}
