package org.quadfence.io;

import java.io.Serializable;

/**
 * The limits the input codecs enforce beyond the record formats (contract section 8): how many
 * vertices a polygon fence may have, and how far ahead of this machine's clock an event time may
 * be.
 *
 * @param maxVertices polygon fences with more vertices are dead letters
 * @param maxFutureMs a record whose event time is more than this ahead of the wall clock is a dead
 *     letter ("future"); 0 turns the rule off
 */
public record InputRules(int maxVertices, long maxFutureMs) implements Serializable {

    /** The job's defaults: 100,000 vertices, one hour. */
    public static final InputRules DEFAULTS = new InputRules(100_000, 3_600_000L);

    /**
     * Throws the "future" dead letter when {@code timestamp} is more than {@link #maxFutureMs}
     * ahead of the wall clock. Records like this would move the watermark far ahead and make every
     * later record late.
     */
    void checkFuture(long timestamp) {
        if (isFuture(timestamp)) {
            long now = System.currentTimeMillis();
            throw new BadRecord(
                    "future: event time "
                            + Timestamps.format(timestamp)
                            + " is "
                            + Timestamps.describeDuration(timestamp - now)
                            + " ahead of this machine's clock, more than max-future ("
                            + maxFutureMs
                            + " ms); check the producer's clock and that the time is in"
                            + " milliseconds");
        }
    }

    /** True when {@code timestamp} is more than {@link #maxFutureMs} ahead of the wall clock. */
    boolean isFuture(long timestamp) {
        if (maxFutureMs <= 0) {
            return false;
        }
        long now = System.currentTimeMillis();
        return timestamp > now && timestamp - now > maxFutureMs;
    }
}
