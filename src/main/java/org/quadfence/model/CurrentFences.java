package org.quadfence.model;

import java.util.Arrays;
import java.util.Objects;

/**
 * Which fences an entity is in now (contract section 9): written each time its set changes, after
 * the EXITs and ENTERs of the position that changed it. An empty {@code fenceIds} means the entity
 * is in no fence any more, or was forgotten ({@code entity-ttl}): a tombstone on Kafka.
 *
 * @param group the entity's group ({@link Groups#DEFAULT} when it names none)
 * @param fenceIds the fences it is in, sorted ascending, each once; empty for none
 * @param timestamp event time of the position that changed the set, or of the expiry
 * @param lon longitude of that position (for an expiry: of the entity's last position)
 * @param lat latitude of that position (for an expiry: of the entity's last position)
 */
public record CurrentFences(
        String group, String entityId, String[] fenceIds, long timestamp, double lon, double lat) {

    /** True when the entity is in no fence: the record that deletes its key on Kafka. */
    public boolean isTombstone() {
        return fenceIds.length == 0;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CurrentFences c
                && group.equals(c.group)
                && entityId.equals(c.entityId)
                && Arrays.equals(fenceIds, c.fenceIds)
                && timestamp == c.timestamp
                && Double.compare(lon, c.lon) == 0
                && Double.compare(lat, c.lat) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(group, entityId, Arrays.hashCode(fenceIds), timestamp, lon, lat);
    }

    @Override
    public String toString() {
        return "CurrentFences[group="
                + group
                + ", entityId="
                + entityId
                + ", fenceIds="
                + Arrays.toString(fenceIds)
                + ", timestamp="
                + timestamp
                + ", lon="
                + lon
                + ", lat="
                + lat
                + "]";
    }
}
