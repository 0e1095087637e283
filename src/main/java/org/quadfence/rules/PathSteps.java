package org.quadfence.rules;

import org.quadfence.geo.Earth;
import org.quadfence.model.Waypoint;

/**
 * Which steps between an entity's positions have their path tested for CROSS (contract section 10):
 * a (at ta) and b (at tb) are consecutive when b directly follows a in the order of section 3, the
 * entity was not forgotten between them ({@code entity-ttl}: forgotten at ta + entity-ttl, so a
 * position at exactly that time finds it forgotten, as {@link DueTimes#expiry} and the entity stage
 * have it), tb - ta is at most {@code crossing-max-gap} (0: no limit) and the haversine distance
 * from a to b is at most {@code crossing-max-meters}. A step of consecutive positions beyond either
 * bound is not tested: it is {@link Verdict#SKIPPED}, and counted.
 */
public final class PathSteps {

    /** What becomes of the step from an entity's previous position to the next. */
    public enum Verdict {
        /** No path: the entity's first position, or the first after it was forgotten. */
        NONE,
        /** Consecutive, but beyond {@code crossing-max-gap} or {@code crossing-max-meters}. */
        SKIPPED,
        /** The path is tested. */
        TESTED
    }

    private final DueTimes times;
    private final long maxGapMs;
    private final double maxMeters;

    /**
     * @param ttlMs option {@code entity-ttl}; 0 for entities never forgotten
     * @param maxGapMs option {@code crossing-max-gap}; 0 for no limit
     * @param maxMeters option {@code crossing-max-meters}, more than 0
     */
    public PathSteps(long ttlMs, long maxGapMs, double maxMeters) {
        this.times = new DueTimes(0, ttlMs);
        this.maxGapMs = maxGapMs;
        this.maxMeters = maxMeters;
    }

    /**
     * The step from {@code a} (null: none kept) to the position b at {@code tb}, which follows it
     * in the order of section 3 ({@code tb >= a.timestamp()}).
     */
    public Verdict step(Waypoint a, long tb, double lon, double lat) {
        if (a == null || !kept(a, tb)) {
            return Verdict.NONE;
        }
        if (maxGapMs > 0 && tb - a.timestamp() > maxGapMs) {
            return Verdict.SKIPPED;
        }
        if (Earth.haversineMeters(a.lon(), a.lat(), lon, lat) > maxMeters) {
            return Verdict.SKIPPED;
        }
        return Verdict.TESTED;
    }

    /** True when an entity whose latest position is {@code a} is not forgotten at {@code t}. */
    public boolean kept(Waypoint a, long t) {
        long expiry = times.expiry(a.timestamp());
        return expiry == DueTimes.NONE || t < expiry;
    }

    /** When an entity whose latest position is {@code a} is forgotten, or {@link DueTimes#NONE}. */
    public long forgottenAt(Waypoint a) {
        return times.expiry(a.timestamp());
    }

    /**
     * True when the position (t, lon, lat) comes after {@code a} in the order of section 3:
     * ascending time, equal times by lat, then lon; an exact duplicate does not.
     */
    public static boolean after(Waypoint a, long t, double lon, double lat) {
        if (t != a.timestamp()) {
            return t > a.timestamp();
        }
        return lat != a.lat() ? lat > a.lat() : lon > a.lon();
    }
}
