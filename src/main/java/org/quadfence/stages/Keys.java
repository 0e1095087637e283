package org.quadfence.stages;

/** Keys of the stages keyed by a name within a group (fences, entities). */
final class Keys {

    private Keys() {}

    /** A key naming {@code id} in {@code group}; distinct pairs give distinct keys. */
    static String of(String group, String id) {
        return group.length() + ":" + group + id;
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
