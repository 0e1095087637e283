package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.rules.Entity;
import org.quadfence.rules.Visit;

/**
 * What the entity stage keeps of one entity, as the rules see it ({@link Entity}): the fences in
 * its raw or confirmed set (sorted by id) with their visits, and its latest position. The entity
 * and its group are the state's key, not kept again.
 */
@TypeInfo(EntityStateSerializer.Factory.class)
public record EntityState(String[] fenceIds, Visit[] visits, double lon, double lat, long timestamp)
        implements Entity {}
