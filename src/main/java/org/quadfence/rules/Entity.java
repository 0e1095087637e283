package org.quadfence.rules;

/**
 * What the rules keep of one entity between its positions: the fences it is in, sorted by id, each
 * with the time its DWELL is due ({@link #NO_DWELL} when none is pending; {@code dwellDue} null
 * when none of them is), and its latest position. The caller chooses the type that holds it (the
 * Flink stage keeps its own state record) and gives the rules a {@link Factory} of it.
 */
public interface Entity {

    /** No DWELL pending for that fence. */
    long NO_DWELL = DueTimes.NONE;

    /** The fences the entity is in, ascending, each once. */
    String[] fenceIds();

    /** When each fence's DWELL is due, by the index of the fence in {@link #fenceIds}; or null. */
    long[] dwellDue();

    /** The longitude of the entity's latest position. */
    double lon();

    /** The latitude of the entity's latest position. */
    double lat();

    /** The event time of the entity's latest position. */
    long timestamp();

    /** When the DWELL of the {@code i}-th fence is due, or {@link #NO_DWELL}. */
    default long dueAt(int i) {
        long[] due = dwellDue();
        return due == null ? NO_DWELL : due[i];
    }

    /**
     * Makes the caller's entities.
     *
     * @param <S> the caller's type of entity
     */
    @FunctionalInterface
    interface Factory<S extends Entity> {

        /** An entity with these fences, DWELL due times and latest position. */
        S make(String[] fenceIds, long[] dwellDue, double lon, double lat, long timestamp);
    }
}
