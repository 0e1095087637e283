package org.quadfence.rules;

/**
 * What the rules keep of one entity between its positions: the fences in its raw or confirmed set
 * (contract section 11), sorted by id, each with its {@link Visit}, and its latest position. The
 * caller chooses the type that holds it (the Flink stage keeps its own state record) and gives the
 * rules a {@link Factory} of it.
 */
public interface Entity {

    /** The fences the entity is in or leaving, ascending, each once. */
    String[] fenceIds();

    /** The visit of each fence, by the index of the fence in {@link #fenceIds}. */
    Visit[] visits();

    /** The longitude of the entity's latest position. */
    double lon();

    /** The latitude of the entity's latest position. */
    double lat();

    /** The event time of the entity's latest position. */
    long timestamp();

    /**
     * Makes the caller's entities.
     *
     * @param <S> the caller's type of entity
     */
    @FunctionalInterface
    interface Factory<S extends Entity> {

        /** An entity with these fences, their visits and its latest position. */
        S make(String[] fenceIds, Visit[] visits, double lon, double lat, long timestamp);
    }
}
