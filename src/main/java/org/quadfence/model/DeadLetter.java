package org.quadfence.model;

/**
 * An input record that could not be used (contract section 5), or a fence that was used only after
 * a repair ({@code fence-repair make-valid}, contract section 8a), reported so that its producer
 * can fix it.
 *
 * @param input which input it came from: {@link #POSITIONS} or {@link #FENCES}
 * @param error a sentence saying what is wrong, for a person to act on
 * @param raw the original record text, cut to a bounded length
 * @param repaired true when the record was used after a repair: then {@code error} starts with
 *     {@link #REPAIRED} and names what needed the repair
 */
public record DeadLetter(String input, String error, String raw, boolean repaired) {

    /** The {@link #input()} of a bad position record. */
    public static final String POSITIONS = "positions";

    /** The {@link #input()} of a bad fence change record. */
    public static final String FENCES = "fences";

    /** How the {@link #error()} of a repaired fence starts. */
    public static final String REPAIRED = "repaired (make-valid): ";

    /** A record that was not used. */
    public DeadLetter(String input, String error, String raw) {
        this(input, error, raw, false);
    }

    /**
     * The report of a fence that was repaired and used.
     *
     * @param reason why it needed the repair: the validity error
     */
    public static DeadLetter repaired(String input, String reason, String raw) {
        return new DeadLetter(input, REPAIRED + reason, raw, true);
    }
}
