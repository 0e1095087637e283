package org.quadfence.time;

/** Arithmetic on event times that cannot overflow. */
public final class Times {

    private Times() {}

    /** {@code t + d} for {@code d >= 0}, or {@link Long#MAX_VALUE} when that does not fit. */
    public static long plus(long t, long d) {
        return t > Long.MAX_VALUE - d ? Long.MAX_VALUE : t + d;
    }
}
