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
 *
 * <p>Fences with rules of their own (contract section 11) tell the entity stage their timing:
 * {@code timings} holds {@link #TIMING} longs per fence, for the fences of {@code fenceIds} and
 * then those of {@code nearIds}, in their order: {@code enterAfterMs}, {@code exitAfterMs} and the
 * fence's DWELL time ({@code FenceRules.JOB_DWELL} for the job's {@code dwell-ms}); null when every
 * fence of the answer keeps the job's timing.
 *
 * <p>The answer for a backlog position (contract section 12) carries its {@code backlogWatermark}
 * ({@link Position#backlogWatermark()}): the entity stage takes it once its watermark has passed
 * that one, when every answer for it and for the entity's earlier positions has come. {@link
 * Position#LIVE} for every other answer.
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
        double[] pathAt,
        long[] timings,
        long backlogWatermark) {

    /** The longs per fence in {@link #timings}. */
    public static final int TIMING = 3;

    /** The answer for a position read ahead of its partition's watermark. */
    public Membership(
            String group,
            String entityId,
            long timestamp,
            double lon,
            double lat,
            String[] fenceIds,
            String[] nearIds,
            Waypoint pathFrom,
            String[] pathIds,
            double[] pathAt,
            long[] timings) {
        this(
                group,
                entityId,
                timestamp,
                lon,
                lat,
                fenceIds,
                nearIds,
                pathFrom,
                pathIds,
                pathAt,
                timings,
                Position.LIVE);
    }

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

    /** A membership whose fences keep the job's timing. */
    public Membership(
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
        this(
                group, entityId, timestamp, lon, lat, fenceIds, nearIds, pathFrom, pathIds, pathAt,
                null);
    }

    /** The same answer with {@code other} timings (null: the job's for every fence). */
    public Membership withTimings(long[] other) {
        return with(other, backlogWatermark);
    }

    /** The same answer for a backlog position read when the watermark was {@code watermark}. */
    public Membership inBacklog(long watermark) {
        return with(timings, watermark);
    }

    private Membership with(long[] otherTimings, long watermark) {
        return new Membership(
                group,
                entityId,
                timestamp,
                lon,
                lat,
                fenceIds,
                nearIds,
                pathFrom,
                pathIds,
                pathAt,
                otherTimings,
                watermark);
    }

    /**
     * When the entity stage may take this answer: its time, or for a backlog position the first
     * time after the watermark it was read behind.
     */
    public long takenAt() {
        return backlogWatermark == Position.LIVE
                ? timestamp
                : Math.max(timestamp, backlogWatermark + 1);
    }

    /** A membership with no fences near the position. */
    public Membership(
            String group, String entityId, long timestamp, double lon, double lat, String[] ids) {
        this(group, entityId, timestamp, lon, lat, ids, NONE);
    }
}
