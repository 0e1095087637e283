package org.quadfence.model;

/**
 * The outcome of parsing one input record: exactly one of a value and a dead letter, and, with a
 * value, possibly a notice for the dead-letter output about what was done to it (a fence repaired
 * by {@code fence-repair make-valid}, contract section 8a).
 *
 * @param value the record, or null when it was bad
 * @param deadLetter why the record was bad, or null when it was good
 * @param notice with a value: a record for the dead-letter output that says how the value was made
 *     of the input ({@link DeadLetter#repaired()}), or null; always null without a value
 */
public record Parsed<T>(T value, DeadLetter deadLetter, DeadLetter notice) {

    /**
     * @throws IllegalArgumentException unless exactly one of value and deadLetter is non-null, and
     *     a notice comes only with a value
     */
    public Parsed {
        if ((value == null) == (deadLetter == null)) {
            throw new IllegalArgumentException("exactly one of value and deadLetter must be set");
        }
        if (notice != null && value == null) {
            throw new IllegalArgumentException("a notice comes only with a value");
        }
    }

    /** A good record. */
    public static <T> Parsed<T> of(T value) {
        return new Parsed<>(value, null, null);
    }

    /** A good record, and the notice of what was done to make it (a repair). */
    public static <T> Parsed<T> of(T value, DeadLetter notice) {
        return new Parsed<>(value, null, notice);
    }

    /** A bad record. */
    public static <T> Parsed<T> failed(DeadLetter deadLetter) {
        return new Parsed<>(null, deadLetter, null);
    }

    /** True when the record was good, that is when {@link #value()} is set. */
    public boolean ok() {
        return value != null;
    }
}
