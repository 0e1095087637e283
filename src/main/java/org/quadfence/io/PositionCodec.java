package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Groups;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads and writes position records (contract section 1):
 *
 * <pre>{"entityId":"truck-17","lon":-73.9857,"lat":40.7484,"timestamp":1732233600000}</pre>
 *
 * <ul>
 *   <li>{@code entityId}: a string of 1 to {@link Limits#MAX_ID_CHARS} characters;
 *   <li>{@code lon}, {@code lat}: JSON numbers (not strings, not booleans) with finite values in
 *       [-180, 180] and [-90, 90];
 *   <li>{@code timestamp}: in [0, 253402300799999] and at most {@link InputRules#maxFutureMs} ahead
 *       of this machine's clock; epoch milliseconds as a JSON number with an integral value that
 *       fits a long (exponent and ".0" forms included, as JSON does not tell integers from other
 *       numbers; a fraction of a millisecond is a dead letter, as it is most likely seconds sent by
 *       mistake), or an ISO-8601 date-time string with an offset, such as "2024-11-22T00:00:00Z" or
 *       "2024-11-22T02:00:00.250+02:00";
 *   <li>{@code group}: optional; when present it must be a string (contract section 6); absent, the
 *       position is in {@link Groups#DEFAULT};
 *   <li>{@code accuracy}: optional (contract section 11); a finite JSON number of metres, 0 to
 *       {@link Limits#MAX_ACCURACY_METERS}; absent, 0;
 *   <li>{@code attributes}: optional (contract section 11); a JSON object of at most {@link
 *       Limits#MAX_ATTRIBUTES} names with string values, of at most {@link
 *       Limits#MAX_ATTRIBUTES_CHARS} characters of compact JSON; absent, none (null);
 *   <li>other fields are ignored; a field given twice is a dead letter, as is anything over the
 *       {@link Limits}.
 * </ul>
 *
 * <p>{@link #encode} writes these fields in this order, {@code group} only when not the default,
 * {@code accuracy} only when not 0, {@code attributes} only when the position has them (by name),
 * and doubles in their shortest form that reads back to the same double.
 *
 * <p>Instances are immutable and thread-safe; create one per operator in {@code open()}.
 */
public final class PositionCodec {

    // Writes attributes that might be too large, to measure them; factories are thread-safe.
    private static final JsonFactory MEASURE = Limits.jsonFactory();

    private final JsonFactory factory;
    private final InputRules rules;

    /** A codec with the job's default {@link InputRules}. */
    public PositionCodec() {
        this(InputRules.DEFAULTS);
    }

    /** A codec that enforces {@code rules}: the record's size, the event time's distance. */
    public PositionCodec(InputRules rules) {
        this.rules = rules;
        this.factory = Limits.jsonFactory(rules.maxRecordBytes());
    }

    /**
     * Parses one record from its UTF-8 bytes. Never throws: any byte sequence, null included, gives
     * either a position or a dead letter for input {@link DeadLetter#POSITIONS}.
     */
    public Parsed<Position> parse(byte[] utf8) {
        Position plain = PlainPositionReader.read(utf8, rules);
        return plain != null ? Parsed.of(plain) : parseWithJackson(utf8);
    }

    /**
     * {@link #parse}, always with the JSON parser: the reference of {@link PlainPositionReader}.
     */
    Parsed<Position> parseWithJackson(byte[] utf8) {
        try {
            return Parsed.of(Json.read(factory, utf8, this::read));
        } catch (BadRecord e) {
            return Parsed.failed(
                    new DeadLetter(
                            DeadLetter.POSITIONS, e.getMessage(), DeadLetterCodec.raw(utf8)));
        }
    }

    /** Parses one record from text; the same as {@code parse(text.getBytes(UTF_8))}. */
    public Parsed<Position> parse(String text) {
        return parse(text == null ? null : text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The position as one compact JSON object in UTF-8, such as a dead letter keeps of a position
     * whose text is gone; {@link #parse} reads a valid position back as it was.
     */
    public byte[] encode(Position p) {
        return Json.write(
                factory,
                g -> {
                    g.writeStartObject();
                    g.writeStringField("entityId", p.entityId());
                    g.writeNumberField("lon", p.lon());
                    g.writeNumberField("lat", p.lat());
                    g.writeNumberField("timestamp", p.timestamp());
                    if (!Groups.isDefault(p.group())) {
                        g.writeStringField("group", p.group());
                    }
                    if (p.accuracy() != 0) {
                        g.writeNumberField("accuracy", p.accuracy());
                    }
                    if (p.attributes() != null) {
                        g.writeFieldName("attributes");
                        writeAttributes(g, p.attributes());
                    }
                    g.writeEndObject();
                });
    }

    private Position read(JsonParser p) throws IOException {
        String entityId = null;
        double lon = Double.NaN;
        double lat = Double.NaN;
        long timestamp = 0;
        boolean hasTimestamp = false;
        String group = Groups.DEFAULT;
        double accuracy = 0;
        SortedMap<String, String> attributes = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "entityId" -> entityId = Json.id(p, "entityId");
                case "lon" -> lon = Json.coordinate(p, "lon", 180);
                case "lat" -> lat = Json.coordinate(p, "lat", 90);
                case "timestamp" -> {
                    timestamp = Timestamps.readEventTime(p);
                    hasTimestamp = true;
                }
                case "group" -> group = Json.group(p);
                case "accuracy" -> accuracy = accuracy(p);
                case "attributes" -> attributes = attributes(p);
                default -> p.skipChildren();
            }
        }
        if (entityId == null) {
            throw new BadRecord("missing field entityId");
        }
        // Json.coordinate never returns NaN, so NaN still means absent.
        if (Double.isNaN(lon)) {
            throw new BadRecord("missing field lon");
        }
        if (Double.isNaN(lat)) {
            throw new BadRecord("missing field lat");
        }
        if (!hasTimestamp) {
            throw new BadRecord("missing field timestamp");
        }
        rules.checkFuture(timestamp);
        return new Position(entityId, lon, lat, timestamp, group, accuracy, attributes);
    }

    /** The rule of {@code accuracy}, for messages. */
    static String accuracyRule() {
        return "accuracy must be a number of metres from 0 to "
                + Limits.MAX_ACCURACY_METERS
                + ", got ";
    }

    /** The rule of {@code attributes}, for messages. */
    static String attributesRule() {
        return "attributes must be an object of at most "
                + Limits.MAX_ATTRIBUTES
                + " names with string values, got ";
    }

    private static double accuracy(JsonParser p) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_INT && t != JsonToken.VALUE_NUMBER_FLOAT) {
            throw new BadRecord(accuracyRule() + Json.describe(p));
        }
        double v = p.getDoubleValue();
        if (!(v >= 0 && v <= Limits.MAX_ACCURACY_METERS)) {
            throw new BadRecord(accuracyRule() + p.getText());
        }
        // -0.0 is 0: one value, so that equal positions are equal records.
        return v + 0.0;
    }

    private static SortedMap<String, String> attributes(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(attributesRule() + Json.describe(p));
        }
        TreeMap<String, String> attributes = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            if (attributes.size() == Limits.MAX_ATTRIBUTES) {
                throw new BadRecord(attributesRule() + "more than " + Limits.MAX_ATTRIBUTES);
            }
            String name = p.currentName();
            if (p.nextToken() != JsonToken.VALUE_STRING) {
                throw new BadRecord(
                        attributesRule() + Json.describe(p) + " for " + Json.quote(name));
            }
            attributes.put(name, p.getText());
        }
        checkAttributesSize(attributes);
        return Collections.unmodifiableSortedMap(attributes);
    }

    /**
     * Throws the dead letter "attributes too large" when {@code attributes} take more than {@link
     * Limits#MAX_ATTRIBUTES_CHARS} characters as compact JSON, counted as for {@code properties}.
     */
    static void checkAttributesSize(Map<String, String> attributes) {
        // Every character takes at most 6 as an escape: only a map that might be too large is
        // written out to be measured.
        long most = 2;
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            most += 6L * (e.getKey().length() + e.getValue().length()) + 6;
        }
        if (most <= Limits.MAX_ATTRIBUTES_CHARS) {
            return;
        }
        int chars =
                new String(
                                Json.write(MEASURE, g -> writeAttributes(g, attributes)),
                                StandardCharsets.UTF_8)
                        .length();
        if (chars > Limits.MAX_ATTRIBUTES_CHARS) {
            throw new BadRecord(
                    "attributes too large: "
                            + chars
                            + " characters of compact JSON, the limit is "
                            + Limits.MAX_ATTRIBUTES_CHARS);
        }
    }

    private static void writeAttributes(JsonGenerator g, Map<String, String> attributes)
            throws IOException {
        g.writeStartObject();
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            g.writeStringField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }
}
