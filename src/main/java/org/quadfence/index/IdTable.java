package org.quadfence.index;

/**
 * A map from item ids (by {@code equals}) to non-negative ints, for a quadtree's id-to-node index:
 * open addressing with linear probing over two parallel arrays, so an entry costs two array slots
 * and no object (a {@code HashMap} entry with a boxed value costs about 50 bytes). The table length
 * need not be a power of two: a multiply-and-shift maps the mixed hash onto it, so a table built
 * for n ids takes about {@code 4n / 3} slots.
 */
final class IdTable {
    /** The value of an absent id. */
    static final int ABSENT = -1;

    private static final int MIN_LENGTH = 8;

    private Object[] keys;
    private int[] values;
    private int size;

    /** An empty table that holds {@code expected} ids before it grows. */
    IdTable(int expected) {
        allocate(lengthFor(expected));
    }

    int size() {
        return size;
    }

    /** The id's value, or {@link #ABSENT}. */
    int get(Object id) {
        Object[] ks = keys;
        for (int i = slot(id, ks.length); ; i = next(i, ks.length)) {
            Object k = ks[i];
            if (k == null) {
                return ABSENT;
            }
            if (k == id || k.equals(id)) {
                return values[i];
            }
        }
    }

    /** Sets the id's value, adding the id when absent (keeping the stored key when present). */
    void put(Object id, int value) {
        Object[] ks = keys;
        int i = slot(id, ks.length);
        for (; ks[i] != null; i = next(i, ks.length)) {
            if (ks[i] == id || ks[i].equals(id)) {
                values[i] = value;
                return;
            }
        }
        if (size + 1 > ks.length - (ks.length >> 2)) {
            grow();
            put(id, value);
            return;
        }
        ks[i] = id;
        values[i] = value;
        size++;
    }

    /** Removes the id; true if it was there. */
    boolean remove(Object id) {
        Object[] ks = keys;
        int n = ks.length;
        int i = slot(id, n);
        while (true) {
            Object k = ks[i];
            if (k == null) {
                return false;
            }
            if (k == id || k.equals(id)) {
                break;
            }
            i = next(i, n);
        }
        // Backward-shift deletion: move up each later key of the run whose probe would otherwise
        // pass the hole, so that lookups never need tombstones.
        int hole = i;
        for (int j = next(i, n); ks[j] != null; j = next(j, n)) {
            int home = slot(ks[j], n);
            boolean homeAfterHole = hole <= j ? home > hole && home <= j : home > hole || home <= j;
            if (!homeAfterHole) {
                ks[hole] = ks[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        ks[hole] = null;
        size--;
        return true;
    }

    void clear() {
        allocate(MIN_LENGTH);
        size = 0;
    }

    private void grow() {
        Object[] oldKeys = keys;
        int[] oldValues = values;
        allocate(2 * oldKeys.length);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }

    private void allocate(int length) {
        keys = new Object[length];
        values = new int[length];
    }

    private static int lengthFor(int expected) {
        return (int) Math.max(MIN_LENGTH, Math.min(Integer.MAX_VALUE - 8, expected * 4L / 3 + 1));
    }

    private static int slot(Object id, int length) {
        // The multiplication carries every bit of the hash into the high half, which the
        // multiply-and-shift below uses to pick a slot in [0, length).
        int h = id.hashCode() * 0x9E3779B9;
        return (int) (((h & 0xFFFFFFFFL) * length) >>> 32);
    }

    private static int next(int i, int length) {
        return i + 1 == length ? 0 : i + 1;
    }
}
