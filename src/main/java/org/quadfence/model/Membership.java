package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * The fences that contain one position, and those near it: what the tile stage tells the entity
 * stage. {@code fenceIds} is sorted ascending and holds each id once. {@code nearIds}, sorted, are
 * the other fences within the exit margin of the position (option {@code exit-margin-meters}); an
 * entity already in one of them stays in it.
 *
 * <p>With option {@code crossing} (contract section 10), the answer also tells what the path from
 * the entity's previous position {@code pathFrom} to this one meets in the tile: {@code pathIds},
 * ascending, each once, with {@code pathAt[i]} the fraction s in [0, 1] of the path at which it
 * first meets fence {@code pathIds[i]}. {@code pathFrom} is null when the position has no path
 * tested (its entity's first, or a step beyond the bounds), and then the path arrays are empty. An
 * answer from a tile the path crosses but the position is not in has no {@code fenceIds} and no
 * {@code nearIds}.
 */
@TypeInfo(MembershipSerializer.Factory.class)
public record Membership(
        String group,
        String entityId,
        long timestamp,
        double lon,
        double lat,
        String[] fenceIds,
        String[] nearIds,
        Waypoint pathFrom,
        String[] pathIds,
        double[] pathAt) {

    private static final String[] NONE = new String[0];
    private static final double[] NO_FRACTIONS = new double[0];

    /** A membership with no path. */
    public Membership(
            String group,
            String entityId,
            long timestamp,
            double lon,
            double lat,
            String[] fenceIds,
            String[] nearIds) {
        this(group, entityId, timestamp, lon, lat, fenceIds, nearIds, null, NONE, NO_FRACTIONS);
    }

    /** A membership with no fences near the position. */
    public Membership(
            String group, String entityId, long timestamp, double lon, double lat, String[] ids) {
        this(group, entityId, timestamp, lon, lat, ids, NONE);
    }
}
