package org.quadfence.model;

/**
 * A reported position of an entity (contract section 1), as validated by {@code PositionCodec}.
 *
 * @param entityId the entity, 1 to 256 characters
 * @param lon longitude in degrees, finite, in [-180, 180]
 * @param lat latitude in degrees, finite, in [-90, 90]
 * @param timestamp event time in epoch milliseconds
 */
public record Position(String entityId, double lon, double lat, long timestamp) {}
