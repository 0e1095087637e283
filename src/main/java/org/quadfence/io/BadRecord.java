package org.quadfence.io;

/**
 * Thrown while reading a record that breaks a rule; its message is the dead letter's error. It has
 * no stack trace: it is control flow for bad input, not a bug.
 */
final class BadRecord extends RuntimeException {

    BadRecord(String message) {
        super(message, null, false, false);
    }
}
