package org.quadfence.job;

import java.util.ArrayList;
import java.util.List;

/** Lists kept as keyed state values. */
final class StateLists {

    private StateLists() {}

    /**
     * A new list of {@code list}'s items (none when null) and then {@code item}. State values are
     * replaced, never changed in place: the heap backend's snapshots share them.
     */
    static <T> List<T> appended(List<T> list, T item) {
        List<T> copy = new ArrayList<>(list == null ? 1 : list.size() + 1);
        if (list != null) {
            copy.addAll(list);
        }
        copy.add(item);
        return copy;
    }
}
