package org.quadfence.model;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code match} rule of a fence (contract section 11): for each attribute name, the values a
 * position's attribute of that name may have. A position matches when, for every name, its
 * attributes have that name with one of the listed values (compared exactly, case included); a
 * position without attributes matches nothing. A match without names matches every position that
 * has attributes, even none ({@code {}}). Other attribute names of the position do not matter.
 *
 * <p>Instances are immutable values, safe to share between threads.
 */
public final class AttributeMatch {

    private final SortedMap<String, Set<String>> allowed;

    /**
     * @param allowed each attribute name with its allowed values, at least one; copied
     * @throws NullPointerException when a name or a value is null
     * @throws IllegalArgumentException when a name has no values
     */
    public AttributeMatch(Map<String, Set<String>> allowed) {
        TreeMap<String, Set<String>> copy = new TreeMap<>();
        allowed.forEach(
                (name, values) -> {
                    if (values.isEmpty()) {
                        throw new IllegalArgumentException(
                                "attribute " + name + " of a match has no allowed values");
                    }
                    copy.put(name, Collections.unmodifiableSortedSet(new TreeSet<>(values)));
                });
        this.allowed = Collections.unmodifiableSortedMap(copy);
    }

    /** Each attribute name with its allowed values (unmodifiable, sorted), by name. */
    public SortedMap<String, Set<String>> allowed() {
        return allowed;
    }

    /** True when {@code attributes} (null: none) have, for every name, an allowed value. */
    public boolean matches(Map<String, String> attributes) {
        if (attributes == null) {
            return false;
        }
        for (Map.Entry<String, Set<String>> e : allowed.entrySet()) {
            String value = attributes.get(e.getKey());
            if (value == null || !e.getValue().contains(value)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AttributeMatch m && m.allowed.equals(allowed);
    }

    @Override
    public int hashCode() {
        return Objects.hash(allowed);
    }

    @Override
    public String toString() {
        return "match " + allowed;
    }
}
