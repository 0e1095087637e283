package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * An entity entering, leaving, dwelling in or crossing a fence (contract sections 4, 6 and 10). The
 * timestamp and coordinates of an ENTER, EXIT or CROSS are those of the position that caused it; a
 * DWELL, or an EXIT on expiry, has the time it fell due and the entity's latest position before it.
 * A CROSS also has {@code from} and {@code at}.
 *
 * @param entityId the entity
 * @param fenceId the fence
 * @param event ENTER, EXIT, DWELL or CROSS
 * @param timestamp the position's event time in epoch milliseconds
 * @param lon the position's longitude
 * @param lat the position's latitude
 * @param properties the fence's properties as compact JSON object text (as {@link
 *     FenceChange#properties()}), or null when the fence has none
 * @param group the entity's and fence's group; written out only when not {@link Groups#DEFAULT}
 * @param from of a CROSS: the entity's previous position, where the crossed path starts; else null
 * @param at of a CROSS: the first point of the path in the fence, with its interpolated time; else
 *     null
 * @param enteredAt of an ENTER, DWELL or EXIT: the start of the visit it belongs to (contract
 *     section 11), the time the entity last joined the fence's raw set before the ENTER; {@link
 *     #NO_VISIT} for a CROSS, or for a visit whose start is not known (begun before a restore of a
 *     state that did not keep it)
 */
@TypeInfo(GeofenceEventSerializer.Factory.class)
public record GeofenceEvent(
        String entityId,
        String fenceId,
        EventType event,
        long timestamp,
        double lon,
        double lat,
        String properties,
        String group,
        Waypoint from,
        Waypoint at,
        long enteredAt) {

    /** {@link #enteredAt} of an event without a visit. */
    public static final long NO_VISIT = Long.MIN_VALUE;

    /** An event without a visit start. */
    public GeofenceEvent(
            String entityId,
            String fenceId,
            EventType event,
            long timestamp,
            double lon,
            double lat,
            String properties,
            String group,
            Waypoint from,
            Waypoint at) {
        this(entityId, fenceId, event, timestamp, lon, lat, properties, group, from, at, NO_VISIT);
    }

    /** An ENTER, EXIT or DWELL of the visit that started at {@code enteredAt}. */
    public GeofenceEvent(
            String entityId,
            String fenceId,
            EventType event,
            long timestamp,
            double lon,
            double lat,
            String group,
            long enteredAt) {
        this(entityId, fenceId, event, timestamp, lon, lat, null, group, null, null, enteredAt);
    }

    /** True when the event knows the start of its visit. */
    public boolean hasVisit() {
        return enteredAt != NO_VISIT;
    }

    /** Of an EXIT that knows its visit's start: how long the visit lasted, in ms. */
    public long durationMs() {
        return timestamp - enteredAt;
    }

    /** An ENTER, EXIT or DWELL event. */
    public GeofenceEvent(
            String entityId,
            String fenceId,
            EventType event,
            long timestamp,
            double lon,
            double lat,
            String properties,
            String group) {
        this(entityId, fenceId, event, timestamp, lon, lat, properties, group, null, null);
    }

    /** This event with the fence's {@code properties} (null: none). */
    public GeofenceEvent withProperties(String properties) {
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

    /** An event of the default group. */
    public GeofenceEvent(
            String entityId,
            String fenceId,
            EventType event,
            long timestamp,
            double lon,
            double lat,
            String properties) {
        this(entityId, fenceId, event, timestamp, lon, lat, properties, Groups.DEFAULT);
    }
}
