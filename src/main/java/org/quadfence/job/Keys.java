package org.quadfence.job;

/** Keys of the stages keyed by a name within a group (fences, entities). */
final class Keys {

    private Keys() {}

    /** A key naming {@code id} in {@code group}; distinct pairs give distinct keys. */
    static String of(String group, String id) {
        return group.length() + ":" + group + id;
    }
}
