package org.quadfence.job;

import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;

import java.util.Arrays;
import java.util.List;

/** One box of a fence in a tile: what a tile's quadtree indexes. */
record Piece(String fenceId, int index) {

    static void insert(QuadTree<Piece> tree, String fenceId, Box[] clips) {
        for (int i = 0; i < clips.length; i++) {
            tree.insert(new Piece(fenceId, i), clips[i]);
        }
    }

    /** The fence ids of {@code hits}, ascending, each once. */
    static String[] ids(List<Piece> hits) {
        String[] ids = new String[hits.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = hits.get(i).fenceId();
        }
        Arrays.sort(ids);
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            if (n == 0 || !ids[i].equals(ids[n - 1])) {
                ids[n++] = ids[i];
            }
        }
        return n == ids.length ? ids : Arrays.copyOf(ids, n);
    }
}
