package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.Groups;

/**
 * Writes an entity's current fences (contract section 9): the record key {@code
 * ["<group>","<entityId>"]} and the value
 *
 * <pre>{"entityId":"truck-17","fenceIds":["depot-1","zone-9"],"timestamp":1732233600000,
 * "lon":-73.9857,"lat":40.7484}</pre>
 *
 * <p>{@code "group"} is added for a non-default group. Instances are immutable and thread-safe.
 */
public final class CurrentFencesCodec {

    private final JsonFactory factory = Limits.jsonFactory();

    /** The record key: the JSON array of the entity's group and id, in UTF-8. */
    public byte[] key(CurrentFences c) {
        return Json.write(
                factory,
                g -> {
                    g.writeStartArray();
                    g.writeString(c.group());
                    g.writeString(c.entityId());
                    g.writeEndArray();
                });
    }

    /** The value as one compact JSON object in UTF-8; for a tombstone, {@code "fenceIds":[]}. */
    public byte[] encode(CurrentFences c) {
        return Json.write(
                factory,
                g -> {
                    g.writeStartObject();
                    g.writeStringField("entityId", c.entityId());
                    g.writeArrayFieldStart("fenceIds");
                    for (String id : c.fenceIds()) {
                        g.writeString(id);
                    }
                    g.writeEndArray();
                    g.writeNumberField("timestamp", c.timestamp());
                    g.writeNumberField("lon", c.lon());
                    g.writeNumberField("lat", c.lat());
                    if (!Groups.isDefault(c.group())) {
                        g.writeStringField("group", c.group());
                    }
                    g.writeEndObject();
                });
    }
}
