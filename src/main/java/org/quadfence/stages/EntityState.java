package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.rules.Entity;

/**
 * What the entity stage keeps of one entity, as the rules see it ({@link Entity}): the fences it is
 * in (sorted by id) with the time each fence's DWELL is due, and its latest position. The entity
 * and its group are the state's key, not kept again.
 */
@TypeInfo(EntityStateSerializer.Factory.class)
public record EntityState(
        String[] fenceIds, long[] dwellDue, double lon, double lat, long timestamp)
        implements Entity {}
