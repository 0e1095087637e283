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
 * @param group the fence's group ({@link Groups#DEFAULT} when the record names none)
 */
public record FenceChange(
        String fenceId, Rectangle rect, long timestamp, String properties, String group) {

    /** A change that creates the fence or replaces it. */
    public static FenceChange upsert(
            String fenceId, Rectangle rect, long timestamp, String properties) {
        return new FenceChange(fenceId, rect, timestamp, properties, Groups.DEFAULT);
    }

    /** A change that removes the fence; deleting an unknown fence is a no-op. */
    public static FenceChange delete(String fenceId, long timestamp) {
        return new FenceChange(fenceId, null, timestamp, null, Groups.DEFAULT);
    }

    /** The same change for the fence of that name in {@code group}. */
    public FenceChange inGroup(String group) {
        return new FenceChange(fenceId, rect, timestamp, properties, group);
    }

    /** True for a delete, that is when there is no rectangle. */
    public boolean isDelete() {
        return rect == null;
    }
}
