package org.quadfence.job;

/**
 * The fences an entity is in, sorted by id, with each fence's properties (or null) in the same
 * order: the entity stage's state.
 */
public record Inside(String[] fenceIds, String[] properties) {

    static final Inside NONE = new Inside(new String[0], new String[0]);
}
