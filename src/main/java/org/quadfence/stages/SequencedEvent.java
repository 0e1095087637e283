package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.model.GeofenceEvent;

/**
 * An event on its way from the entity stage to the sink, with its place among the events of its
 * entity at its time: the properties join regroups events by fence, and the event orderer puts each
 * entity's events back in this order.
 *
 * @param seq 0, 1, 2, ... in the order the entity stage emitted the events of one entity at one
 *     time
 */
@TypeInfo(SequencedEventSerializer.Factory.class)
public record SequencedEvent(GeofenceEvent event, int seq) {}
