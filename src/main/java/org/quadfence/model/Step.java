package org.quadfence.model;

import org.apache.flink.api.common.typeinfo.TypeInfo;

/**
 * A position with the entity's previous one, on its way to one tile of one tier (option {@code
 * crossing}, contract section 10): what the tile stage takes instead of a bare {@link Position}
 * when the paths between positions are tested.
 *
 * @param to the position
 * @param from the entity's previous position, where the path starts; null when no path is tested
 *     (its first position, one after it was forgotten, or a step beyond the bounds)
 * @param tile the tile of the tier this copy goes to: the position's own tile, or another tile the
 *     path meets
 */
@TypeInfo(StepSerializer.Factory.class)
public record Step(Position to, Waypoint from, long tile) {}
