package org.quadfence.api;

import org.quadfence.model.Position;

import java.io.Serializable;

/**
 * Makes a {@link Position} of a record of the user's own type. A record whose position breaks
 * contract section 1 (say a latitude of 91), or for which this throws, becomes a dead letter with
 * the record's {@code toString()} as its raw text.
 *
 * @param <T> the user's record
 */
@FunctionalInterface
public interface PositionExtractor<T> extends Serializable {

    /**
     * The record's position; {@link Position#Position(String, double, double, long)} for the
     * default group.
     */
    Position position(T record) throws Exception;
}
