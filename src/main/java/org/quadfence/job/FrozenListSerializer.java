package org.quadfence.job;

/**
 * The name under which savepoints of state format 7 know the snapshot of {@link
 * org.quadfence.time.FrozenListSerializer}, which lived in this package then: Flink finds a
 * serializer's snapshot by its class name, so this name stays for those savepoints to restore.
 */
public final class FrozenListSerializer {

    private FrozenListSerializer() {}

    /** Reads as {@link org.quadfence.time.FrozenListSerializer.Snapshot} does. */
    public static final class Snapshot<E>
            extends org.quadfence.time.FrozenListSerializer.Snapshot<E> {}
}
