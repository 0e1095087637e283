package org.quadfence.model;

/**
 * The outcome of parsing one input record: exactly one of a value and a dead letter.
 *
 * @param value the record, or null when it was bad
 * @param deadLetter why the record was bad, or null when it was good
 */
public record Parsed<T>(T value, DeadLetter deadLetter) {

    /**
     * @throws IllegalArgumentException unless exactly one of the two is non-null
     */
    public Parsed {
        if ((value == null) == (deadLetter == null)) {
            throw new IllegalArgumentException("exactly one of value and deadLetter must be set");
        }
    }

    /** A good record. */
    public static <T> Parsed<T> of(T value) {
        return new Parsed<>(value, null);
    }

    /** A bad record. */
    public static <T> Parsed<T> failed(DeadLetter deadLetter) {
        return new Parsed<>(null, deadLetter);
    }

    /** True when the record was good, that is when {@link #value()} is set. */
    public boolean ok() {
        return value != null;
    }
}
