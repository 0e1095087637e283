package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;

/**
 * An event as the demo reads it from the events topic, as JSON, like any consumer of the topic
 * would (contract section 4; CROSS: section 10): ENTER, EXIT, DWELL or CROSS, and for a CROSS the
 * previous position ({@code from}) and the first point of the path between the two that lies in the
 * fence ({@code at}). Kinds it does not know are kept by name.
 *
 * @param event the event's kind by name: ENTER, EXIT, DWELL, CROSS
 * @param timestamp the time of the position that caused it (for a CROSS: the one after the fence)
 * @param lon that position's longitude
 * @param lat that position's latitude
 * @param from for a CROSS, the position before the fence; null otherwise
 * @param at for a CROSS, where the path from {@code from} first meets the fence; null otherwise
 */
record FeedEvent(
        String entityId,
        String fenceId,
        String event,
        long timestamp,
        double lon,
        double lat,
        Point from,
        Point at) {

    static final String CROSS = "CROSS";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A point in time and space: the "from" and "at" of a CROSS. */
    record Point(long timestamp, double lon, double lat) {}

    /** An event without a path: ENTER, EXIT, DWELL. */
    FeedEvent(
            String entityId, String fenceId, String event, long timestamp, double lon, double lat) {
        this(entityId, fenceId, event, timestamp, lon, lat, null, null);
    }

    boolean isCross() {
        return CROSS.equals(event);
    }

    /**
     * The event of one record's value.
     *
     * @throws IllegalArgumentException when it is not an event's JSON object
     */
    static FeedEvent parse(byte[] json) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (n == null
                || !n.isObject()
                || !n.path("entityId").isTextual()
                || !n.path("fenceId").isTextual()
                || !n.path("event").isTextual()
                || !n.path("timestamp").isIntegralNumber()
                || !n.path("lon").isNumber()
                || !n.path("lat").isNumber()) {
            throw new IllegalArgumentException(
                    "an event needs entityId, fenceId, event, timestamp, lon and lat");
        }
        return new FeedEvent(
                n.get("entityId").asText(),
                n.get("fenceId").asText(),
                n.get("event").asText(),
                n.get("timestamp").asLong(),
                n.get("lon").asDouble(),
                n.get("lat").asDouble(),
                point(n.get("from")),
                point(n.get("at")));
    }

    private static Point point(JsonNode n) {
        if (n == null
                || !n.path("timestamp").isIntegralNumber()
                || !n.path("lon").isNumber()
                || !n.path("lat").isNumber()) {
            return null;
        }
        return new Point(
                n.get("timestamp").asLong(), n.get("lon").asDouble(), n.get("lat").asDouble());
    }
}
