package org.quadfence.rules;

/**
 * When an entity's timers fall due (contract section 6): a DWELL {@code dwell-ms} after the ENTER
 * that started its clock, an expiry {@code entity-ttl} after the entity's latest position. Times
 * computed from event times never overflow (contract section 8): a sum past {@link Long#MAX_VALUE}
 * is {@link Long#MAX_VALUE}.
 */
public final class DueTimes {

    /** No time: the option is off. */
    public static final long NONE = Long.MIN_VALUE;

    private final long dwellMs;
    private final long ttlMs;

    /**
     * @param dwellMs option {@code dwell-ms}, at least 0; 0 for no DWELLs
     * @param ttlMs option {@code entity-ttl}, at least 0; 0 for entities never forgotten
     */
    public DueTimes(long dwellMs, long ttlMs) {
        this.dwellMs = dwellMs;
        this.ttlMs = ttlMs;
    }

    /** When the DWELL of a fence entered at {@code enteredAt} is due, or {@link #NONE}. */
    public long dwell(long enteredAt) {
        return dwellMs > 0 ? plus(enteredAt, dwellMs) : NONE;
    }

    /**
     * When an entity whose latest position is at {@code lastPosition} is forgotten, or {@link
     * #NONE}.
     */
    public long expiry(long lastPosition) {
        return ttlMs > 0 ? plus(lastPosition, ttlMs) : NONE;
    }

    /** {@code t + d} for {@code d >= 0}, or {@link Long#MAX_VALUE} when that does not fit. */
    public static long plus(long t, long d) {
        return t > Long.MAX_VALUE - d ? Long.MAX_VALUE : t + d;
    }
}
