package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * The fences that contain one position, and those near it: what the tile stage tells the entity
 * stage. {@code fenceIds} is sorted ascending and holds each id once. {@code nearIds}, sorted, are
 * the other fences within the exit margin of the position (option {@code exit-margin-meters}); an
 * entity already in one of them stays in it.
 */
@TypeInfo(MembershipSerializer.Factory.class)
public record Membership(
        String group,
        String entityId,
        long timestamp,
        double lon,
        double lat,
        String[] fenceIds,
        String[] nearIds) {

    private static final String[] NONE = new String[0];

    /** A membership with no fences near the position. */
    public Membership(
            String group, String entityId, long timestamp, double lon, double lat, String[] ids) {
        this(group, entityId, timestamp, lon, lat, ids, NONE);
    }
}
