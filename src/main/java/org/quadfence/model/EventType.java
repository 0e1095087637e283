package org.quadfence.model;

/** The kind of a {@link GeofenceEvent}; its name is the wire value of the event's "event" field. */
public enum EventType {
    // GeofenceEventSerializer writes a constant as its ordinal: add new ones at the end only.

    /** The entity's position is in the fence and the previous one was not. */
    ENTER,
    /** The entity's previous position was in the fence and this one is not. */
    EXIT,
    /** The entity has been in the fence for the dwell time (option {@code dwell-ms}). */
    DWELL,
    /**
     * The straight path from the entity's previous position to this one passed through the fence,
     * and neither position's set holds it (option {@code crossing}, contract section 10).
     */
    CROSS
}
