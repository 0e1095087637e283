package org.quadfence.job;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * What the entity stage keeps of one entity: the fences it is in (sorted by id) with the time each
 * fence's DWELL is due ({@link #NO_DWELL} when none is pending), and its latest position.
 */
@TypeInfo(EntityStateSerializer.Factory.class)
public record EntityState(
        String group,
        String entityId,
        String[] fenceIds,
        long[] dwellDue,
        double lon,
        double lat,
        long timestamp) {

    /** No DWELL pending for that fence. */
    public static final long NO_DWELL = Long.MIN_VALUE;
}
