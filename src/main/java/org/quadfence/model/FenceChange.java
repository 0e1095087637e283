package org.quadfence.model;

import org.quadfence.geo.Rectangle;

/**
 * An upsert or a delete of a fence (contract section 2), as validated by {@code FenceChangeCodec}.
 *
 * @param fenceId the fence, 1 to 256 characters
 * @param rect the fence's rectangle, or null for a delete
 * @param timestamp event time from which the change holds, in epoch milliseconds; {@link
 *     Long#MIN_VALUE} means the beginning of time
 * @param properties the fence's "properties" JSON object as compact text, or null when it has none
 *     (always null for a delete)
 */
public record FenceChange(String fenceId, Rectangle rect, long timestamp, String properties) {

    /** A change that creates the fence or replaces it. */
    public static FenceChange upsert(
            String fenceId, Rectangle rect, long timestamp, String properties) {
        return new FenceChange(fenceId, rect, timestamp, properties);
    }

    /** A change that removes the fence; deleting an unknown fence is a no-op. */
    public static FenceChange delete(String fenceId, long timestamp) {
        return new FenceChange(fenceId, null, timestamp, null);
    }

    /** True for a delete, that is when there is no rectangle. */
    public boolean isDelete() {
        return rect == null;
    }
}
