package org.quadfence.model;

/**
 * Fence groups (tenants, fleets; contract section 6): a position meets only the fences of its own
 * group. An absent group and "default" are the same group.
 */
public final class Groups {

    /** The group of records that name none. */
    public static final String DEFAULT = "default";

    private Groups() {}

    /** True for the default group. */
    public static boolean isDefault(String group) {
        return DEFAULT.equals(group);
    }
}
