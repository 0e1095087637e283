package org.quadfence.model;

import java.util.Map;

/**
 * The rules of one fence version (contract section 11), as the fence change carried them under
 * {@code "rules"}: its own DWELL time and hysteresis margin, how long an entity must stay in (or
 * out) before it counts as entered (or gone), when the fence holds ({@code validUntil}, a weekly
 * schedule) and for which positions ({@code match} on their attributes). A fence without rules has
 * none of this: {@link #NONE}, whose values are the job's options.
 *
 * @param dwellMs this fence's DWELL time in ms, 0 for no DWELL; {@link #JOB_DWELL} for the job's
 *     {@code dwell-ms}
 * @param exitMarginMeters this fence's hysteresis margin in metres; NaN for the job's {@code
 *     exit-margin-meters}
 * @param enterAfterMs how long an entity stays in the fence before its ENTER, 0 for at once
 * @param exitAfterMs how long an entity stays out of the fence before its EXIT, 0 for at once
 * @param validUntil the first event time at which the fence no longer holds; {@link #NO_END} for
 *     none
 * @param schedule the weekly windows in which the fence holds, or null for always
 * @param match the attributes a position must have for the fence to apply to it, or null for any
 *     position
 */
public record FenceRules(
        long dwellMs,
        double exitMarginMeters,
        long enterAfterMs,
        long exitAfterMs,
        long validUntil,
        WeeklySchedule schedule,
        AttributeMatch match) {

    /** {@link #dwellMs} of a fence that keeps the job's {@code dwell-ms}. */
    public static final long JOB_DWELL = -1;

    /** {@link #validUntil} of a fence that holds until it is deleted or replaced. */
    public static final long NO_END = Long.MAX_VALUE;

    /** The rules of a fence that has none: the job's options, always, for every position. */
    public static final FenceRules NONE =
            new FenceRules(JOB_DWELL, Double.NaN, 0, 0, NO_END, null, null);

    /**
     * True when the fence applies at event time {@code t} to a position with {@code attributes}
     * (null: the position has none): before {@link #validUntil}, in a window of the schedule, and
     * with the attributes {@link #match} asks for.
     */
    public boolean applies(long t, Map<String, String> attributes) {
        return t < validUntil
                && (schedule == null || schedule.contains(t))
                && (match == null || match.matches(attributes));
    }

    /** True when the timing rules are the job's: no own DWELL time, no confirmation times. */
    public boolean jobTiming() {
        return dwellMs == JOB_DWELL && enterAfterMs == 0 && exitAfterMs == 0;
    }

    /** The fence's margin: its own, else {@code jobMargin}. */
    public double marginOr(double jobMargin) {
        return Double.isNaN(exitMarginMeters) ? jobMargin : exitMarginMeters;
    }

    /** True when these are the rules of a fence that has none. */
    public boolean isNone() {
        return equals(NONE);
    }
}
