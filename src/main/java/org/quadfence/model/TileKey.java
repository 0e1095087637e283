package org.quadfence.model;

/**
 * The key of the tile stage: a tile of one group's fences. Its hash is spelled out so that it stays
 * the same across JVMs and Java versions (Flink places keys by it, and savepoints keep it).
 */
public record TileKey(String group, long tile) {

    @Override
    public int hashCode() {
        return 31 * group.hashCode() + Long.hashCode(tile);
    }
}
