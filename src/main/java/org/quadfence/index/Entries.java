package org.quadfence.index;

import java.util.Arrays;
import java.util.HashMap;

/**
 * A packed, unordered list of (id, box) pairs: the markers or the partly covering boxes of one
 * node. Boxes are stored as {@code minX, minY, maxX, maxY} runs in one {@code double[]} so that a
 * leaf scan reads consecutive memory; ids sit at the same position in an {@code Object[]}.
 *
 * <p>Removal swaps the last pair into the hole. A list that grows past {@link #INDEX_ABOVE} pairs
 * (only possible at the maximum depth, or for markers) keeps an id-to-slot map so that removal
 * stays O(1) there too.
 */
final class Entries {
    private static final Object[] NO_IDS = new Object[0];
    private static final double[] NO_COORDS = new double[0];
    static final int INDEX_ABOVE = 512;

    Object[] ids;
    double[] coords;
    int size;
    private HashMap<Object, Integer> slots;

    Entries() {
        ids = NO_IDS;
        coords = NO_COORDS;
    }

    Entries(int capacity) {
        ids = capacity == 0 ? NO_IDS : new Object[capacity];
        coords = capacity == 0 ? NO_COORDS : new double[4 * capacity];
    }

    void add(Object id, double minX, double minY, double maxX, double maxY) {
        if (size == ids.length) {
            int grown = Math.max(4, size * 2);
            ids = Arrays.copyOf(ids, grown);
            coords = Arrays.copyOf(coords, 4 * grown);
        }
        int j = 4 * size;
        ids[size] = id;
        coords[j] = minX;
        coords[j + 1] = minY;
        coords[j + 2] = maxX;
        coords[j + 3] = maxY;
        if (slots != null) {
            slots.put(id, size);
        }
        size++;
        if (slots == null && size > INDEX_ABOVE) {
            slots = new HashMap<>(2 * size);
            for (int i = 0; i < size; i++) {
                slots.put(ids[i], i);
            }
        }
    }

    /** Copies pair {@code i} of {@code from} to the end of this list. */
    void addFrom(Entries from, int i) {
        int j = 4 * i;
        double[] c = from.coords;
        add(from.ids[i], c[j], c[j + 1], c[j + 2], c[j + 3]);
    }

    /** Removes the pair with this id; false when it is not here. */
    boolean remove(Object id) {
        int i = slotOf(id);
        if (i < 0) {
            return false;
        }
        int last = --size;
        if (slots != null) {
            slots.remove(id);
        }
        if (i != last) {
            ids[i] = ids[last];
            System.arraycopy(coords, 4 * last, coords, 4 * i, 4);
            if (slots != null) {
                slots.put(ids[i], i);
            }
        }
        ids[last] = null;
        // Hysteresis: drop the map well below the threshold so add/remove at the edge stays cheap.
        if (slots != null && size < INDEX_ABOVE / 2) {
            slots = null;
        }
        if (size == 0) {
            ids = NO_IDS;
            coords = NO_COORDS;
        }
        return true;
    }

    int slotOf(Object id) {
        if (slots != null) {
            Integer i = slots.get(id);
            return i == null ? -1 : i;
        }
        for (int i = 0; i < size; i++) {
            if (id.equals(ids[i])) {
                return i;
            }
        }
        return -1;
    }

    /** Shrinks the arrays to the size, for lists that are not expected to grow. */
    void trim() {
        if (size < ids.length) {
            ids = size == 0 ? NO_IDS : Arrays.copyOf(ids, size);
            coords = size == 0 ? NO_COORDS : Arrays.copyOf(coords, 4 * size);
        }
    }
}
