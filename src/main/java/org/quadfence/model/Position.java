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
 * @param backlogWatermark for a backlog position (contract section 12, option {@code max-backlog}):
 *     the watermark of its input partition when it was read, which had passed its time; {@link
 *     #LIVE} for every other position
 */
@TypeInfo(PositionSerializer.Factory.class)
public record Position(
        String entityId,
        double lon,
        double lat,
        long timestamp,
        String group,
        double accuracy,
        Map<String, String> attributes,
        long backlogWatermark) {

    /** The {@link #backlogWatermark} of a position read ahead of its partition's watermark. */
    public static final long LIVE = Long.MIN_VALUE;

    /** A position read ahead of its partition's watermark. */
    public Position(
            String entityId,
            double lon,
            double lat,
            long timestamp,
            String group,
            double accuracy,
            Map<String, String> attributes) {
        this(entityId, lon, lat, timestamp, group, accuracy, attributes, LIVE);
    }

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
        return new Position(
                entityId, lon, lat, timestamp, other, accuracy, attributes, backlogWatermark);
    }

    /** The same position as a backlog position, read when the watermark was {@code watermark}. */
    public Position inBacklog(long watermark) {
        return new Position(entityId, lon, lat, timestamp, group, accuracy, attributes, watermark);
    }

    /** True for a backlog position (contract section 12). */
    public boolean inBacklog() {
        return backlogWatermark != LIVE;
    }
}
