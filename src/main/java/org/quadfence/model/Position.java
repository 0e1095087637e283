package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A reported position of an entity (contract section 1), as validated by {@code PositionCodec}.
 *
 * @param entityId the entity, 1 to 256 characters
 * @param lon longitude in degrees, finite, in [-180, 180]
 * @param lat latitude in degrees, finite, in [-90, 90]
 * @param timestamp event time in epoch milliseconds
 * @param group the entity's group ({@link Groups#DEFAULT} when the record names none)
 */
@TypeInfo(PositionSerializer.Factory.class)
public record Position(String entityId, double lon, double lat, long timestamp, String group) {

    /** A position of the default group. */
    public Position(String entityId, double lon, double lat, long timestamp) {
        this(entityId, lon, lat, timestamp, Groups.DEFAULT);
    }
}
