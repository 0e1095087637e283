package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import java.util.Map;

/**
 * A reported position of an entity (contract sections 1 and 11), as validated by {@code
 * PositionCodec}.
 *
 * @param entityId the entity, 1 to 256 characters
 * @param lon longitude in degrees, finite, in [-180, 180]
 * @param lat latitude in degrees, finite, in [-90, 90]
 * @param timestamp event time in epoch milliseconds
 * @param group the entity's group ({@link Groups#DEFAULT} when the record names none)
 * @param accuracy the radius in metres in which the device places itself, 0 to 1000000; 0 when the
 *     record has none
 * @param attributes the record's {@code attributes} by name (unmodifiable, sorted), or null when it
 *     has none; fences with a {@code match} rule apply only to positions whose attributes match
 */
@TypeInfo(PositionSerializer.Factory.class)
public record Position(
        String entityId,
        double lon,
        double lat,
        long timestamp,
        String group,
        double accuracy,
        Map<String, String> attributes) {

    /** A position of the default group. */
    public Position(String entityId, double lon, double lat, long timestamp) {
        this(entityId, lon, lat, timestamp, Groups.DEFAULT);
    }

    /** A position without accuracy or attributes. */
    public Position(String entityId, double lon, double lat, long timestamp, String group) {
        this(entityId, lon, lat, timestamp, group, 0, null);
    }

    /** The same position in {@code other} group. */
    public Position inGroup(String other) {
        return new Position(entityId, lon, lat, timestamp, other, accuracy, attributes);
    }
}
