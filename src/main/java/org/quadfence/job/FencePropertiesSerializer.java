package org.quadfence.job;

/**
 * The name under which savepoints of state format 7 know the snapshot of {@link
 * org.quadfence.stages.FencePropertiesSerializer}, which lived in this package then: Flink finds a
 * serializer's snapshot by its class name, so this name stays for those savepoints to restore.
 */
public final class FencePropertiesSerializer {

    private FencePropertiesSerializer() {}

    /** Reads as {@link org.quadfence.stages.FencePropertiesSerializer.Snapshot} does. */
    public static final class Snapshot
            extends org.quadfence.stages.FencePropertiesSerializer.Snapshot {}
}
