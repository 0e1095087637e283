package org.quadfence.rules;

import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.ShapePiece;
import org.quadfence.index.QuadTree;
import org.quadfence.model.FenceRules;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * One entry of a tile's quadtree: what the tile holds of a fence ({@link ShapePiece}) under the box
 * it is indexed by. Exact boxes ({@link Boxes}) make one entry a box, which the box query alone
 * decides; any other piece makes one entry under its bounds, with the piece for the exact test.
 * Equal by fence id and index only, so that a fence's entries are removed by its id. An entry also
 * carries the rules of the fence's version (contract section 11), or null for a fence without.
 */
final class IndexEntry {

    private static final String[] NO_IDS = new String[0];
    // A position is in a few fences: sorting them by insertion costs less than Arrays.sort.
    private static final int INSERTION_SORT_MAX = 16;

    final String fenceId;
    final int index;

    /** The piece to test a point the box query found, or null when the box decides. */
    final ShapePiece exact;

    /** What the tile holds of the fence: the piece a path is tested against. */
    final ShapePiece piece;

    /** The rules of the fence's version, or null when it has none. */
    final FenceRules rules;

    private IndexEntry(
            String fenceId, int index, ShapePiece exact, ShapePiece piece, FenceRules rules) {
        this.fenceId = fenceId;
        this.index = index;
        this.exact = exact;
        this.piece = piece;
        this.rules = rules;
    }

    /**
     * The entries of what a tile holds of a fence, each with the box to index it by.
     *
     * @param rules the fence's rules, or null (or {@link FenceRules#NONE}) for none
     */
    static void of(
            String fenceId, ShapePiece piece, FenceRules rules, BiConsumer<IndexEntry, Box> out) {
        FenceRules own = rules == null || rules.isNone() ? null : rules;
        if (piece instanceof Boxes exactBoxes) {
            List<Box> boxes = exactBoxes.boxes();
            for (int i = 0; i < boxes.size(); i++) {
                out.accept(new IndexEntry(fenceId, i, null, piece, own), boxes.get(i));
            }
        } else {
            out.accept(new IndexEntry(fenceId, 0, piece, piece, own), piece.bounds());
        }
    }

    /** Removes the entries of what a tile held of a fence. */
    static void remove(QuadTree<IndexEntry> tree, String fenceId, ShapePiece piece) {
        int n = piece instanceof Boxes b ? b.boxes().size() : 1;
        for (int i = 0; i < n; i++) {
            tree.remove(new IndexEntry(fenceId, i, null, null, null));
        }
    }

    /** True when the fence applies to a position at {@code t} with {@code attributes}. */
    boolean applies(long t, java.util.Map<String, String> attributes) {
        return rules == null || rules.applies(t, attributes);
    }

    /**
     * For a point (folded lon) found by the box query and in the fence: its distance to the fence's
     * boundary, infinity when the box decides (a cell deeper inside than any distance asked).
     */
    double boundary(double foldedLon, double lat) {
        return exact == null ? Double.POSITIVE_INFINITY : exact.boundaryMeters(foldedLon, lat);
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
    static String[] ids(List<IndexEntry> hits) {
        // Most positions are near no fence: one shared empty array, never written to.
        if (hits.isEmpty()) {
            return NO_IDS;
        }
        String[] ids = new String[hits.size()];
        int n = 0;
        if (ids.length <= INSERTION_SORT_MAX) {
            for (int h = 0; h < ids.length; h++) {
                n = insert(ids, n, hits.get(h).fenceId);
            }
        } else {
            for (int i = 0; i < ids.length; i++) {
                ids[i] = hits.get(i).fenceId;
            }
            Arrays.sort(ids);
            for (int i = 0; i < ids.length; i++) {
                if (n == 0 || !ids[i].equals(ids[n - 1])) {
                    ids[n++] = ids[i];
                }
            }
        }
        return n == ids.length ? ids : Arrays.copyOf(ids, n);
    }

    /** Puts {@code id} into the ascending {@code ids[0..n)} unless there; returns the new n. */
    private static int insert(String[] ids, int n, String id) {
        int i = n;
        int c = 1;
        while (i > 0 && (c = ids[i - 1].compareTo(id)) > 0) {
            i--;
        }
        if (i > 0 && c == 0) {
            return n;
        }
        System.arraycopy(ids, i, ids, i + 1, n - i);
        ids[i] = id;
        return n + 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexEntry e && e.index == index && e.fenceId.equals(fenceId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(fenceId, index);
    }
}
