package org.quadfence.io;

import java.io.Serializable;

/**
 * The limits the input codecs enforce beyond the record formats (contract sections 8 and 8a): how
 * many vertices a polygon fence may have, how far ahead of this machine's clock an event time may
 * be, how long a record may be, and whether a polygon that is not valid is repaired.
 *
 * @param maxVertices polygon fences with more vertices are dead letters
 * @param maxFutureMs a record whose event time is more than this ahead of the wall clock is a dead
 *     letter ("future"); 0 turns the rule off
 * @param maxRecordBytes a record of more bytes is a dead letter ("record too large"), not parsed
 * @param makeValid whether a Polygon or MultiPolygon that is not valid is repaired ({@code
 *     fence-repair make-valid}) instead of being a dead letter
 */
public record InputRules(int maxVertices, long maxFutureMs, int maxRecordBytes, boolean makeValid)
        implements Serializable {

    /** The job's defaults: 100,000 vertices, one hour, 16 MiB, no repair. */
    public static final InputRules DEFAULTS =
            new InputRules(100_000, 3_600_000L, Limits.DEFAULT_MAX_RECORD_BYTES, false);

    /**
     * @throws IllegalArgumentException when {@code maxRecordBytes} is not 1 to {@link
     *     Limits#MOST_RECORD_BYTES}
     */
    public InputRules {
        if (maxRecordBytes < 1 || maxRecordBytes > Limits.MOST_RECORD_BYTES) {
            throw new IllegalArgumentException(
                    "maxRecordBytes must be 1 to "
                            + Limits.MOST_RECORD_BYTES
                            + ": "
                            + maxRecordBytes);
        }
    }

    /** Rules of the default record size, without repair. */
    public InputRules(int maxVertices, long maxFutureMs) {
        this(maxVertices, maxFutureMs, Limits.DEFAULT_MAX_RECORD_BYTES, false);
    }

    /** These rules with records of at most {@code bytes}. */
    public InputRules withMaxRecordBytes(int bytes) {
        return new InputRules(maxVertices, maxFutureMs, bytes, makeValid);
    }

    /** These rules, repairing polygons that are not valid or not. */
    public InputRules withMakeValid(boolean repair) {
        return new InputRules(maxVertices, maxFutureMs, maxRecordBytes, repair);
    }

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
