package org.quadfence.rules;

/**
 * One fence of an entity, as the rules keep it (contract section 11): whether the fence is in the
 * entity's raw set M, its confirmed set C, or both, the clock that runs while it is in one only,
 * and its visit.
 *
 * @param phase {@link #IN} (in M and C), {@link #ENTERING} (in M only: its ENTER is due at {@code
 *     clockDue}) or {@link #LEAVING} (in C only: its EXIT is due at {@code clockDue})
 * @param enteredAt the start of the visit: when the fence last joined M before it joined C; {@link
 *     #UNKNOWN} when a restored state did not keep it
 * @param dwellDue when the visit's DWELL is due, or {@link DueTimes#NONE}
 * @param clockDue when the running confirmation clock ends, or {@link DueTimes#NONE} when none runs
 * @param exitAfterMs the fence's {@code exitAfterMs}, as its latest version that answered for the
 *     entity had it: the delay of an exit clock that starts
 */
public record Visit(byte phase, long enteredAt, long dwellDue, long clockDue, long exitAfterMs) {

    /** In the raw and the confirmed set. */
    public static final byte IN = 0;

    /** In the raw set only, its ENTER to be confirmed at {@code clockDue}. */
    public static final byte ENTERING = 1;

    /** In the confirmed set only, its EXIT to be confirmed at {@code clockDue}. */
    public static final byte LEAVING = 2;

    /** {@link #enteredAt} of a visit whose start is not known. */
    public static final long UNKNOWN = Long.MIN_VALUE;

    /** True when the fence is in the entity's raw set M. */
    public boolean raw() {
        return phase != LEAVING;
    }

    /** True when the fence is in the entity's confirmed set C, which its events report. */
    public boolean confirmed() {
        return phase != ENTERING;
    }

    /** A fence in M and C since {@code enteredAt}, with its DWELL due then. */
    static Visit in(long enteredAt, long dwellDue, long exitAfterMs) {
        return new Visit(IN, enteredAt, dwellDue, DueTimes.NONE, exitAfterMs);
    }

    /** This visit with the DWELL done. */
    Visit dwelt() {
        return new Visit(phase, enteredAt, DueTimes.NONE, clockDue, exitAfterMs);
    }

    /** This visit in {@code other} phase, with the clock {@code due}. */
    Visit to(byte other, long due) {
        return new Visit(other, enteredAt, dwellDue, due, exitAfterMs);
    }

    /** This visit, its fence's {@code exitAfterMs} being {@code ms}. */
    Visit exitingAfter(long ms) {
        return ms == exitAfterMs ? this : new Visit(phase, enteredAt, dwellDue, clockDue, ms);
    }
}
