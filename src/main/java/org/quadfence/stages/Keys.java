package org.quadfence.stages;

import org.quadfence.model.Groups;

/** Keys of the stages keyed by a name within a group (fences, entities). */
final class Keys {

    // Most records are in the default group: its prefix made once (keys are made per record on
    // both sides of each keyed exchange, the int's digits included).
    private static final String DEFAULT_PREFIX = Groups.DEFAULT.length() + ":" + Groups.DEFAULT;

    private Keys() {}

    /** A key naming {@code id} in {@code group}; distinct pairs give distinct keys. */
    static String of(String group, String id) {
        return Groups.DEFAULT.equals(group)
                ? DEFAULT_PREFIX.concat(id)
                : group.length() + ":" + group + id;
    }

    /** The group of a key made by {@link #of}. */
    static String group(String key) {
        int colon = key.indexOf(':');
        return key.substring(colon + 1, colon + 1 + Integer.parseInt(key.substring(0, colon)));
    }

    /** The id of a key made by {@link #of}. */
    static String id(String key) {
        int colon = key.indexOf(':');
        return key.substring(colon + 1 + Integer.parseInt(key.substring(0, colon)));
    }
}
