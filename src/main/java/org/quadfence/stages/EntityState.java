package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What the entity stage keeps of one entity: the fences it is in (sorted by id) with the time each
 * fence's DWELL is due ({@link #NO_DWELL} when none is pending; {@code dwellDue} null when none of
 * them is), and its latest position. The entity and its group are the state's key, not kept again.
 */
@TypeInfo(EntityStateSerializer.Factory.class)
public record EntityState(
        String[] fenceIds, long[] dwellDue, double lon, double lat, long timestamp) {

    /** No DWELL pending for that fence. */
    public static final long NO_DWELL = Long.MIN_VALUE;

    /** When the DWELL of the {@code i}-th fence is due, or {@link #NO_DWELL}. */
    public long dueAt(int i) {
        return dwellDue == null ? NO_DWELL : dwellDue[i];
    }
}
