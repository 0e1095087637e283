package org.quadfence.job;

import org.quadfence.geo.Box;
import org.quadfence.geo.ShapePiece;
import org.quadfence.index.QuadTree;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * One entry of a tile's quadtree: a box of a fence in the tile, with the fence's exact piece when
 * the box alone does not decide (polygons, circles). Equal by fence id and index only.
 */
final class Piece {

    final String fenceId;
    final int index;
    final ShapePiece exact;

    Piece(String fenceId, int index, ShapePiece exact) {
        this.fenceId = fenceId;
        this.index = index;
        this.exact = exact;
    }

    /** The fence's entries of a tile, each with the box to index it by. */
    static void entries(String fenceId, TileFence f, BiConsumer<Piece, Box> out) {
        if (f.clips() != null) {
            for (int i = 0; i < f.clips().length; i++) {
                out.accept(new Piece(fenceId, i, null), f.clips()[i]);
            }
        } else {
            ShapePiece exact = f.piece();
            out.accept(new Piece(fenceId, 0, exact), exact.bounds());
        }
    }

    /** Removes the fence's entries of a tile. */
    static void remove(QuadTree<Piece> tree, String fenceId, TileFence f) {
        int n = f.clips() != null ? f.clips().length : 1;
        for (int i = 0; i < n; i++) {
            tree.remove(new Piece(fenceId, i, null));
        }
    }

    /** True when the point (folded lon) found by the box query is in the fence. */
    boolean contains(double foldedLon, double lat) {
        return exact == null || exact.contains(foldedLon, lat);
    }

    /** True when the point (folded lon), not in the fence, is within {@code margin} of it. */
    boolean near(double foldedLon, double lat, double margin) {
        return exact != null && exact.distanceMeters(foldedLon, lat) <= margin;
    }

    /** The fence ids of {@code hits}, ascending, each once. */
    static String[] ids(List<Piece> hits) {
        String[] ids = new String[hits.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = hits.get(i).fenceId;
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

    @Override
    public boolean equals(Object o) {
        return o instanceof Piece p && p.index == index && p.fenceId.equals(fenceId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fenceId, index);
    }
}
