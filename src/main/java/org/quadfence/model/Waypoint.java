package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A point of an entity's path at an event time: the {@code from} and {@code at} of a CROSS event
 * (contract section 10).
 *
 * @param timestamp event time in epoch milliseconds
 * @param lon longitude in degrees, in [-180, 180]
 * @param lat latitude in degrees, in [-90, 90]
 */
@TypeInfo(WaypointSerializer.Factory.class)
public record Waypoint(long timestamp, double lon, double lat) {}
