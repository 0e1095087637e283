package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.geo.Circle;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.Shape;

/**
 * An upsert or a delete of a fence (contract section 2), as validated by {@code FenceChangeCodec}.
 *
 * @param fenceId the fence, 1 to 256 characters
 * @param rect the fence's rectangle, or null for a delete
 * @param timestamp event time from which the change holds, in epoch milliseconds; {@link
 *     Long#MIN_VALUE} means the beginning of time
 * @param properties the fence's "properties" JSON object as compact text, or null when it has none
 *     (always null for a delete)
 * @param group the fence's group ({@link Groups#DEFAULT} when the record names none)
 * @param circle the fence's circle, or null
 * @param polygons the fence's (multi)polygon as {@link Polygon#coordinates()}, or null
 * @param rules the version's rules (contract section 11), {@link FenceRules#NONE} when it has none
 *     (always for a delete)
 */
@TypeInfo(FenceChangeSerializer.Factory.class)
public record FenceChange(
        String fenceId,
        Rectangle rect,
        long timestamp,
        String properties,
        String group,
        Circle circle,
        double[][][] polygons,
        FenceRules rules) {

    /** Null rules are none. */
    public FenceChange {
        rules = rules == null ? FenceRules.NONE : rules;
    }

    /** A change without rules. */
    public FenceChange(
            String fenceId,
            Rectangle rect,
            long timestamp,
            String properties,
            String group,
            Circle circle,
            double[][][] polygons) {
        this(fenceId, rect, timestamp, properties, group, circle, polygons, FenceRules.NONE);
    }

    /** A change that creates the fence or replaces it. */
    public static FenceChange upsert(
            String fenceId, Rectangle rect, long timestamp, String properties) {
        return new FenceChange(fenceId, rect, timestamp, properties, Groups.DEFAULT, null, null);
    }

    /** A change that creates or replaces the fence with a circle. */
    public static FenceChange upsert(
            String fenceId, Circle circle, long timestamp, String properties) {
        return new FenceChange(fenceId, null, timestamp, properties, Groups.DEFAULT, circle, null);
    }

    /**
     * A change that creates or replaces the fence with a (multi)polygon, given as {@link
     * Polygon#coordinates()} of a validated polygon.
     */
    public static FenceChange upsert(
            String fenceId, Polygon polygon, long timestamp, String properties) {
        return new FenceChange(
                fenceId, null, timestamp, properties, Groups.DEFAULT, null, polygon.coordinates());
    }

    /** A change that removes the fence; deleting an unknown fence is a no-op. */
    public static FenceChange delete(String fenceId, long timestamp) {
        return new FenceChange(fenceId, null, timestamp, null, Groups.DEFAULT, null, null);
    }

    /** The same change for the fence of that name in {@code group}. */
    public FenceChange inGroup(String group) {
        return new FenceChange(
                fenceId, rect, timestamp, properties, group, circle, polygons, rules);
    }

    /** The same upsert with {@code other} rules ({@link FenceRules#NONE}: none). */
    public FenceChange withRules(FenceRules other) {
        return new FenceChange(
                fenceId, rect, timestamp, properties, group, circle, polygons, other);
    }

    /** The same change without its properties (its shape and time only). */
    public FenceChange withoutProperties() {
        return properties == null
                ? this
                : new FenceChange(fenceId, rect, timestamp, null, group, circle, polygons, rules);
    }

    /** True for a delete, that is when there is no shape. */
    public boolean isDelete() {
        return rect == null && circle == null && polygons == null;
    }

    /**
     * The fence's shape; null for a delete. A polygon is rebuilt from its coordinates, which were
     * checked when the change was read, without checking them again or limiting its vertices.
     */
    public Shape shape() {
        if (rect != null) {
            return rect;
        }
        if (circle != null) {
            return circle;
        }
        return polygons == null ? null : Polygon.fromCoordinates(polygons);
    }
}
