package org.quadfence.model;

/**
 * An input record that could not be used (contract section 5).
 *
 * @param input which input it came from: {@link #POSITIONS} or {@link #FENCES}
 * @param error a sentence saying what is wrong, for a person to act on
 * @param raw the original record text, cut to a bounded length
 */
public record DeadLetter(String input, String error, String raw) {

    /** The {@link #input()} of a bad position record. */
    public static final String POSITIONS = "positions";

    /** The {@link #input()} of a bad fence change record. */
    public static final String FENCES = "fences";
}
