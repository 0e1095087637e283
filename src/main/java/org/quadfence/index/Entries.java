package org.quadfence.index;

import java.util.Arrays;

/**
 * A packed, unordered list of (id, box) pairs: the markers of one node. Boxes are stored as {@code
 * minX, minY, maxX, maxY} runs in one {@code double[]} so that a scan reads consecutive memory; ids
 * sit at the same position in an {@code Object[]}. Removal swaps the last pair into the hole.
 */
final class Entries {
    private static final Object[] NO_IDS = new Object[0];
    private static final double[] NO_COORDS = new double[0];

    Object[] ids;
    double[] coords;
    int size;

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
        size++;
    }

    /** The position of the pair with this id, or -1. */
    int indexOf(Object id) {
        for (int i = 0; i < size; i++) {
            if (id.equals(ids[i])) {
                return i;
            }
        }
        return -1;
    }

    /** Removes the pair with this id and box; false when it is not here. */
    boolean remove(Object id, double a, double b, double c, double d) {
        int i = Nodes.find(ids, coords, 0, size, id, a, b, c, d);
        if (i < 0) {
            return false;
        }
        int last = --size;
        if (i != last) {
            ids[i] = ids[last];
            System.arraycopy(coords, 4 * last, coords, 4 * i, 4);
        }
        ids[last] = null;
        if (size == 0) {
            ids = NO_IDS;
            coords = NO_COORDS;
        }
        return true;
    }
}
