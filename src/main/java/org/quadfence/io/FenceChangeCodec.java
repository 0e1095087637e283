package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Rectangle;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Groups;
import org.quadfence.model.Parsed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Reads fence change records (contract section 2), from Kafka (record key and value) or from a file
 * (a line as the value, no key):
 *
 * <pre>
 * {"fenceId":"depot-1","rect":[minLon,minLat,maxLon,maxLat],"timestamp":1732233000000,"properties":{"name":"Depot"}}
 * {"fenceId":"depot-1","deleted":true,"timestamp":1732233900000}
 * </pre>
 *
 * <ul>
 *   <li>{@code fenceId}: a string of 1 to {@link Limits#MAX_ID_CHARS} characters;
 *   <li>{@code rect}: an array of exactly 4 finite JSON numbers, checked by {@link Rectangle}
 *       (whose message becomes the error);
 *   <li>{@code deleted}: true or false; true makes a delete, which must have no {@code rect}; false
 *       (as a producer that always writes the flag would send) is an upsert and needs a {@code
 *       rect};
 *   <li>{@code timestamp}: as for positions ({@link PositionCodec}); when absent, the {@code
 *       defaultTimestamp} given to {@link #parse};
 *   <li>{@code properties}: a JSON object, kept as compact text; JSON null is the same as absent
 *       (as in GeoJSON); ignored on a delete;
 *   <li>{@code group}: optional; when present it must be a string (contract section 6); absent, the
 *       fence is in the default group;
 *   <li>{@code rules}: optional, at the top level (for a GeoJSON Feature too, beside {@code id}):
 *       the version's rules (contract section 11) as {@link FenceRulesCodec} reads them, malformed
 *       rules a dead letter that names the rule; absent, the upsert has {@link FenceRules#NONE}; a
 *       delete ignores them, malformed or not;
 *   <li>{@code properties} of more than {@link Limits#MAX_PROPERTIES_CHARS} characters of compact
 *       JSON are a dead letter ("properties too large");
 *   <li>GeoJSON Features (Polygon, MultiPolygon) and circles as in contract section 6; other fields
 *       are ignored; a field given twice is a dead letter.
 * </ul>
 *
 * <p>{@link #encodeIdentity} writes what a dead letter keeps of a fence change. Instances are
 * immutable and thread-safe; create one per operator in {@code open()}.
 */
public final class FenceChangeCodec {

    private final JsonFactory factory;
    private final InputRules rules;

    /** A codec with the job's default {@link InputRules}. */
    public FenceChangeCodec() {
        this(InputRules.DEFAULTS);
    }

    /**
     * A codec that enforces {@code rules}: the record's size, polygon vertices, the event time's
     * distance, and whether polygons that are not valid are repaired.
     */
    public FenceChangeCodec(InputRules rules) {
        this.rules = rules;
        this.factory = Limits.jsonFactory(rules.maxRecordBytes());
    }

    /** A change as read, and why its polygon had to be repaired (null: it had not). */
    private record Read(FenceChange change, String repairedBecause) {}

    /**
     * Parses one fence change. Never throws: any input gives either a change or a dead letter for
     * input {@link DeadLetter#FENCES}.
     *
     * <p>On Kafka, {@code key} is the record key and {@code defaultTimestamp} the record timestamp.
     * A null value with a key is a tombstone: a delete of fence {@code key}. When both are present,
     * the value's fenceId must equal the key: on a compacted topic the key decides which records
     * compaction keeps, so a record filed under another fence's key would be kept or dropped by the
     * wrong fence's history, and the fences after a replay would depend on when compaction ran.
     *
     * <p>From a file, pass a null key and {@link Long#MIN_VALUE} (the beginning of time).
     *
     * <p>A polygon fence repaired under {@link InputRules#makeValid()} gives the repaired change
     * and, as {@link Parsed#notice()}, its {@link DeadLetter#repaired} report with the raw text.
     *
     * @param key the UTF-8 record key, or null
     * @param value the UTF-8 record value, or null
     * @param defaultTimestamp the change's time when the value has no timestamp field
     */
    public Parsed<FenceChange> parse(byte[] key, byte[] value, long defaultTimestamp) {
        try {
            if (value == null) {
                return Parsed.of(FenceChange.delete(tombstoneId(key), defaultTimestamp));
            }
            Read read = Json.read(factory, value, p -> read(p, defaultTimestamp));
            if (key != null) {
                checkKey(key, read.change().fenceId());
            }
            return read.repairedBecause() == null
                    ? Parsed.of(read.change())
                    : Parsed.of(
                            read.change(),
                            DeadLetter.repaired(
                                    DeadLetter.FENCES,
                                    read.repairedBecause(),
                                    DeadLetterCodec.raw(value)));
        } catch (BadRecord e) {
            return Parsed.failed(
                    new DeadLetter(DeadLetter.FENCES, e.getMessage(), DeadLetterCodec.raw(value)));
        }
    }

    /**
     * The change's fenceId, timestamp and group (only when not the default) as one compact JSON
     * object in UTF-8: what a dead letter keeps of a fence whose record text is gone.
     */
    public byte[] encodeIdentity(FenceChange c) {
        return Json.write(
                factory,
                g -> {
                    g.writeStartObject();
                    g.writeStringField("fenceId", c.fenceId());
                    g.writeNumberField("timestamp", c.timestamp());
                    if (!Groups.isDefault(c.group())) {
                        g.writeStringField("group", c.group());
                    }
                    g.writeEndObject();
                });
    }

    private String tombstoneId(byte[] key) {
        if (key == null) {
            throw new BadRecord("empty record: no value and no key");
        }
        String id = decodeKey(key);
        int chars = id.codePointCount(0, id.length());
        if (chars < 1 || chars > Limits.MAX_ID_CHARS) {
            throw new BadRecord(
                    "the key of a tombstone must be a fence id of 1 to "
                            + Limits.MAX_ID_CHARS
                            + " characters, got "
                            + chars
                            + " characters");
        }
        return id;
    }

    private void checkKey(byte[] key, String fenceId) {
        String id = decodeKey(key);
        if (!id.equals(fenceId)) {
            throw new BadRecord(
                    "record key \""
                            + DeadLetterCodec.cut(id, Limits.MAX_ID_CHARS)
                            + "\" differs from fenceId \""
                            + fenceId
                            + "\"; the key of a fence change must be its fenceId");
        }
    }

    private String decodeKey(byte[] key) {
        if (key.length > rules.maxRecordBytes()) {
            throw new BadRecord("record key of " + key.length + " bytes is too long");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(key)).toString();
        } catch (CharacterCodingException e) {
            throw new BadRecord("record key is not valid UTF-8");
        }
    }

    private Read read(JsonParser p, long defaultTimestamp) throws IOException {
        String fenceId = null;
        String featureId = null;
        String type = null;
        boolean hasGeometry = false;
        double[][][] polygons = null;
        String repairedBecause = null;
        Rectangle rect = null;
        Circle circle = null;
        long timestamp = defaultTimestamp;
        String properties = null;
        boolean deleted = false;
        String group = Groups.DEFAULT;
        FenceRules fenceRules = FenceRules.NONE;
        BadRecord badRules = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "fenceId" -> fenceId = Json.id(p, name);
                case "id" -> featureId = Json.id(p, name);
                case "type" -> type = Json.string(p, name);
                case "geometry" -> {
                    hasGeometry = true;
                    Geometries.Read geometry = Geometries.read(p, rules);
                    polygons = geometry == null ? null : geometry.polygons();
                    repairedBecause = geometry == null ? null : geometry.repairedBecause();
                }
                case "rect" -> rect = rect(p);
                case "circle" -> circle = circle(p);
                case "timestamp" -> {
                    timestamp = Timestamps.readEventTime(p);
                    rules.checkFuture(timestamp);
                }
                case "properties" -> properties = Json.properties(factory, p);
                case "deleted" -> deleted = deleted(p);
                case "group" -> group = Json.group(p);
                case "rules" -> {
                    try {
                        fenceRules = FenceRulesCodec.read(p);
                    } catch (BadRecord e) {
                        // Whether that is an error depends on "deleted", which may come later.
                        badRules = e;
                        skipRules(p);
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (type != null) {
            if (!type.equals("Feature")) {
                throw new BadRecord(
                        "type must be \"Feature\" (a GeoJSON Feature), got " + Json.quote(type));
            }
            if (featureId == null) {
                throw new BadRecord("a GeoJSON Feature fence needs an \"id\": the fence id");
            }
            fenceId = featureId;
        } else if (hasGeometry) {
            throw new BadRecord(
                    "a fence with a geometry must be a GeoJSON Feature (\"type\": \"Feature\")");
        }
        if (fenceId == null) {
            throw new BadRecord("missing field fenceId");
        }
        int shapes = (rect != null ? 1 : 0) + (circle != null ? 1 : 0) + (polygons != null ? 1 : 0);
        if (deleted) {
            if (shapes > 0) {
                throw new BadRecord("a delete (\"deleted\": true) must not have a shape");
            }
            return new Read(FenceChange.delete(fenceId, timestamp).inGroup(group), null);
        }
        if (badRules != null) {
            throw badRules;
        }
        if (shapes == 0) {
            throw new BadRecord(
                    type != null
                            ? "a Feature fence needs a Polygon or MultiPolygon geometry (or"
                                    + " \"deleted\": true)"
                            : "missing field rect or circle (or \"deleted\": true for a delete)");
        }
        if (shapes > 1) {
            throw new BadRecord("a fence has one shape: rect, circle or geometry, not several");
        }
        return new Read(
                new FenceChange(
                        fenceId, rect, timestamp, properties, group, circle, polygons, fenceRules),
                repairedBecause);
    }

    /**
     * Moves the parser, wherever {@link FenceRulesCodec#read} left it, to the last token of the
     * {@code rules} value, so that the rest of the record can be read.
     */
    private static void skipRules(JsonParser p) throws IOException {
        // The record's object is the one context below the root.
        JsonStreamContext record = p.getParsingContext();
        while (record.getParent() != null && record.getParent().getParent() != null) {
            record = record.getParent();
        }
        // Jackson reports end-of-input inside an object as an error, so this loop ends.
        while (p.getParsingContext() != record) {
            p.nextToken();
        }
    }

    private static Circle circle(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(
                    "circle must be an object {\"lon\":..,\"lat\":..,\"radiusMeters\":..}, got "
                            + Json.describe(p));
        }
        double lon = Double.NaN;
        double lat = Double.NaN;
        double radius = Double.NaN;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "lon" -> lon = Json.coordinate(p, "circle lon", 180);
                case "lat" -> lat = Json.coordinate(p, "circle lat", 90);
                case "radiusMeters" -> radius = Json.finite(p, "circle radiusMeters");
                default -> p.skipChildren();
            }
        }
        if (Double.isNaN(lon) || Double.isNaN(lat) || Double.isNaN(radius)) {
            throw new BadRecord("circle needs lon, lat and radiusMeters");
        }
        try {
            return new Circle(lon, lat, radius);
        } catch (IllegalArgumentException e) {
            throw new BadRecord("circle " + e.getMessage());
        }
    }

    private static Rectangle rect(JsonParser p) throws IOException {
        String rule = "rect must be an array of 4 numbers [minLon, minLat, maxLon, maxLat]";
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRecord(rule + ", got " + Json.describe(p));
        }
        double[] c = new double[4];
        int n = 0;
        // Jackson reports end-of-input inside an array as an error, so this loop ends.
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n < 4) {
                c[n] = Json.finite(p, "rect[" + n + "]");
            } else {
                p.skipChildren();
            }
            n++;
        }
        if (n != 4) {
            throw new BadRecord(rule + ", got " + n + " values");
        }
        try {
            return new Rectangle(c[0], c[1], c[2], c[3]);
        } catch (IllegalArgumentException e) {
            throw new BadRecord(e.getMessage());
        }
    }

    private static boolean deleted(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_TRUE -> true;
            case VALUE_FALSE -> false;
            default ->
                    throw new BadRecord("deleted must be true or false, got " + Json.describe(p));
        };
    }
}
