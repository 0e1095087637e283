package org.quadfence.job;

import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;

import java.util.List;
import java.util.TreeSet;

/** One box of a fence in a tile: what a tile's quadtree indexes. */
record Piece(String fenceId, int index) {

    static void insert(QuadTree<Piece> tree, String fenceId, Box[] clips) {
        for (int i = 0; i < clips.length; i++) {
            tree.insert(new Piece(fenceId, i), clips[i]);
        }
    }

    /** The fence ids of {@code hits}, ascending, each once. */
    static String[] ids(List<Piece> hits) {
        if (hits.size() == 1) {
            return new String[] {hits.get(0).fenceId()};
        }
        TreeSet<String> ids = new TreeSet<>();
        for (Piece p : hits) {
            ids.add(p.fenceId());
        }
        return ids.toArray(new String[0]);
    }
}
