package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInfo;

import org.quadfence.model.FenceChange;

/**
 * What the properties join keeps of a fence change: the properties the fence has from {@code
 * timestamp} on, or that it is deleted then.
 *
 * @param properties compact JSON object text, or null when the fence has none or is deleted
 */
@TypeInfo(FencePropertiesSerializer.Factory.class)
public record FenceProperties(
        String group, String fenceId, long timestamp, String properties, boolean deleted) {

    /** The properties part of a change. */
    public static FenceProperties of(FenceChange c) {
        return new FenceProperties(
                c.group(), c.fenceId(), c.timestamp(), c.properties(), c.isDelete());
    }
}
