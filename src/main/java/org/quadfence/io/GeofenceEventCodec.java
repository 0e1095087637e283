package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Groups;
import org.quadfence.model.Waypoint;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Writes and reads geofence events (contract section 4):
 *
 * <pre>{"entityId":"truck-17","fenceId":"depot-1","event":"ENTER","timestamp":1732233600000,
 * "lon":-73.9857,"lat":40.7484,"properties":{"name":"Depot"}}</pre>
 *
 * <p>Doubles are written in their shortest form that reads back to the same double ({@link
 * Double#toString(double)}, so -0.0 stays -0.0). {@code properties} is embedded as an object, not a
 * string, and only when the event has them. A CROSS (contract section 10) has {@code from} and
 * {@code at} after {@code lat}, each {@code {"timestamp":..,"lon":..,"lat":..}}. An ENTER, DWELL or
 * EXIT has {@code enteredAt} (the start of its visit, contract section 11) after {@code lat}, and
 * an EXIT then {@code durationMs}. Instances are immutable and thread-safe.
 */
public final class GeofenceEventCodec {

    private final JsonFactory factory = Limits.jsonFactory();

    /**
     * The event as one compact JSON object in UTF-8. The event's {@code properties}, when not null,
     * must be JSON object text such as {@link FenceChangeCodec} produces; it is copied as is.
     */
    public byte[] encode(GeofenceEvent e) {
        byte[] plain = plain(e);
        return plain != null ? plain : encodeWithJackson(e);
    }

    /** {@link #encode}, always with the JSON generator: the reference of the plain writer. */
    byte[] encodeWithJackson(GeofenceEvent e) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(160);
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("entityId", e.entityId());
            g.writeStringField("fenceId", e.fenceId());
            g.writeStringField("event", e.event().name());
            g.writeNumberField("timestamp", e.timestamp());
            g.writeNumberField("lon", e.lon());
            g.writeNumberField("lat", e.lat());
            if (e.hasVisit()) {
                g.writeNumberField("enteredAt", e.enteredAt());
                if (e.event() == EventType.EXIT) {
                    g.writeNumberField("durationMs", e.durationMs());
                }
            }
            if (e.from() != null) {
                waypoint(g, "from", e.from());
            }
            if (e.at() != null) {
                waypoint(g, "at", e.at());
            }
            if (!Groups.isDefault(e.group())) {
                g.writeStringField("group", e.group());
            }
            if (e.properties() != null) {
                g.writeFieldName("properties");
                g.writeRawValue(e.properties());
            }
            g.writeEndObject();
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        return out.toByteArray();
    }

    private static void waypoint(JsonGenerator g, String name, Waypoint w) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("timestamp", w.timestamp());
        g.writeNumberField("lon", w.lon());
        g.writeNumberField("lat", w.lat());
        g.writeEndObject();
    }

    private static void waypoint(StringBuilder s, String name, Waypoint w) {
        s.append(",\"")
                .append(name)
                .append("\":{\"timestamp\":")
                .append(w.timestamp())
                .append(",\"lon\":")
                .append(w.lon())
                .append(",\"lat\":")
                .append(w.lat())
                .append('}');
    }

    /**
     * The event written without the JSON generator when every string in it is printable ASCII
     * without quotes or backslashes (the properties: any ASCII), which then need no escapes; the
     * same bytes as Jackson writes ({@code GeofenceEventCodecTest} compares them). Null otherwise.
     */
    private static byte[] plain(GeofenceEvent e) {
        boolean grouped = !Groups.isDefault(e.group());
        if (!plain(e.entityId())
                || !plain(e.fenceId())
                || (grouped && !plain(e.group()))
                || (e.properties() != null && !ascii(e.properties()))) {
            return null;
        }
        StringBuilder s = new StringBuilder(plainLength(e, grouped));
        s.append("{\"entityId\":\"")
                .append(e.entityId())
                .append("\",\"fenceId\":\"")
                .append(e.fenceId())
                .append("\",\"event\":\"")
                .append(e.event().name())
                .append("\",\"timestamp\":")
                .append(e.timestamp())
                .append(",\"lon\":")
                .append(e.lon())
                .append(",\"lat\":")
                .append(e.lat());
        if (e.hasVisit()) {
            s.append(",\"enteredAt\":").append(e.enteredAt());
            if (e.event() == EventType.EXIT) {
                s.append(",\"durationMs\":").append(e.durationMs());
            }
        }
        if (e.from() != null) {
            waypoint(s, "from", e.from());
        }
        if (e.at() != null) {
            waypoint(s, "at", e.at());
        }
        if (grouped) {
            s.append(",\"group\":\"").append(e.group()).append('"');
        }
        if (e.properties() != null) {
            s.append(",\"properties\":").append(e.properties());
        }
        s.append('}');
        // Every char is ASCII here: copied straight to the bytes, not through a String.
        byte[] out = new byte[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) s.charAt(i);
        }
        return out;
    }

    /**
     * Room for the plain form of {@code e}: its strings, the field names and the most a number
     * takes (20 chars a long, 24 a double), so that the builder never grows.
     */
    private static int plainLength(GeofenceEvent e, boolean grouped) {
        int n = 90 + e.entityId().length() + e.fenceId().length() + 20 + 2 * 24 + 2 * (14 + 20);
        if (e.from() != null) {
            n += 2 * (40 + 20 + 2 * 24);
        }
        if (grouped) {
            n += 11 + e.group().length();
        }
        if (e.properties() != null) {
            n += 14 + e.properties().length();
        }
        return n;
    }

    private static boolean plain(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    private static boolean ascii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0x7f) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads an event written by {@link #encode}; fields it does not know are ignored, and {@code
     * properties} comes back as compact text.
     *
     * @throws IllegalArgumentException naming what is wrong, for anything else
     */
    public GeofenceEvent decode(byte[] utf8) {
        try {
            return Json.read(factory, utf8, this::read);
        } catch (BadRecord e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private GeofenceEvent read(JsonParser p) throws IOException {
        String entityId = null;
        String fenceId = null;
        EventType event = null;
        Long timestamp = null;
        Double lon = null;
        Double lat = null;
        String properties = null;
        String group = Groups.DEFAULT;
        Waypoint from = null;
        Waypoint at = null;
        long enteredAt = GeofenceEvent.NO_VISIT;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "entityId" -> entityId = Json.id(p, name);
                case "fenceId" -> fenceId = Json.id(p, name);
                case "event" -> event = event(p);
                case "timestamp" -> timestamp = Timestamps.read(p);
                case "lon" -> lon = Json.finite(p, name);
                case "lat" -> lat = Json.finite(p, name);
                case "properties" -> properties = Json.properties(factory, p);
                case "group" -> group = Json.group(p);
                case "from" -> from = waypoint(p, name);
                case "at" -> at = waypoint(p, name);
                case "enteredAt" -> enteredAt = Timestamps.read(p);
                default -> p.skipChildren();
            }
        }
        if (entityId == null
                || fenceId == null
                || event == null
                || timestamp == null
                || lon == null
                || lat == null) {
            throw new BadRecord("an event needs entityId, fenceId, event, timestamp, lon and lat");
        }
        if ((event == EventType.CROSS) != (from != null && at != null)) {
            throw new BadRecord("a CROSS event, and only a CROSS event, has from and at");
        }
        return new GeofenceEvent(
                entityId,
                fenceId,
                event,
                timestamp,
                lon,
                lat,
                properties,
                group,
                from,
                at,
                enteredAt);
    }

    private static Waypoint waypoint(JsonParser p, String field) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(field + " must be an object, got " + Json.describe(p));
        }
        Long timestamp = null;
        Double lon = null;
        Double lat = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "timestamp" -> timestamp = Timestamps.read(p);
                case "lon" -> lon = Json.finite(p, name);
                case "lat" -> lat = Json.finite(p, name);
                default -> p.skipChildren();
            }
        }
        if (timestamp == null || lon == null || lat == null) {
            throw new BadRecord(field + " needs timestamp, lon and lat");
        }
        return new Waypoint(timestamp, lon, lat);
    }

    private static EventType event(JsonParser p) throws IOException {
        String s = Json.string(p, "event");
        for (EventType t : EventType.values()) {
            if (t.name().equals(s)) {
                return t;
            }
        }
        throw new BadRecord(
                "event must be one of "
                        + Arrays.toString(EventType.values())
                        + ", got "
                        + Json.describe(p));
    }
}
