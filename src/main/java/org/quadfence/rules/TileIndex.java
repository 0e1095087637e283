package org.quadfence.rules;

import org.quadfence.geo.Box;
import org.quadfence.geo.ShapePiece;
import org.quadfence.index.QuadTree;
import org.quadfence.model.FenceRules;

import java.util.HashMap;
import java.util.Map;

/**
 * The fences of one tile, indexed for the positions in it: a quadtree ({@link QuadTree}) over what
 * the tile holds of each fence ({@link ShapePiece}), which {@link TileQuery} asks. It holds only
 * what it is given: the caller keeps the pieces themselves, and rebuilds the index from them.
 */
public final class TileIndex {

    private final QuadTree<IndexEntry> tree;
    private int fences;

    private TileIndex(QuadTree<IndexEntry> tree, int fences) {
        this.tree = tree;
        this.fences = fences;
    }

    /**
     * An index of {@code pieces} (what the tile holds of each fence, by fence id) over the tile's
     * {@code cell}, with the quadtree's node capacity and depth.
     */
    public static TileIndex of(
            Box cell,
            int nodeCapacity,
            int maxDepth,
            Iterable<Map.Entry<String, ShapePiece>> pieces) {
        return of(cell, nodeCapacity, maxDepth, pieces, Map.of());
    }

    /**
     * An index of {@code pieces} whose fences have the rules {@code rules} holds for them (contract
     * section 11; a fence it has no rules for has none).
     */
    public static TileIndex of(
            Box cell,
            int nodeCapacity,
            int maxDepth,
            Iterable<Map.Entry<String, ShapePiece>> pieces,
            Map<String, FenceRules> rules) {
        Map<IndexEntry, Box> items = new HashMap<>();
        int fences = 0;
        for (Map.Entry<String, ShapePiece> e : pieces) {
            fences++;
            IndexEntry.of(e.getKey(), e.getValue(), rules.get(e.getKey()), items::put);
        }
        return new TileIndex(QuadTree.build(cell, nodeCapacity, maxDepth, items), fences);
    }

    /**
     * Replaces what the tile holds of a fence: {@code before} (null: nothing) by {@code after}
     * (null: nothing); returns the change in the number of fences indexed, -1, 0 or 1.
     */
    public int replace(String fenceId, ShapePiece before, ShapePiece after) {
        return replace(fenceId, before, after, null);
    }

    /**
     * Replaces what the tile holds of a fence, as {@link #replace(String, ShapePiece, ShapePiece)},
     * the fence having {@code rules} from then on (null: none).
     */
    public int replace(String fenceId, ShapePiece before, ShapePiece after, FenceRules rules) {
        int was = fences;
        if (before != null) {
            fences--;
            IndexEntry.remove(tree, fenceId, before);
        }
        if (after != null) {
            fences++;
            IndexEntry.of(fenceId, after, rules, tree::insert);
        }
        return fences - was;
    }

    /** The number of fences indexed. */
    public int fences() {
        return fences;
    }

    /** True when the index holds no fence. */
    public boolean isEmpty() {
        return tree.size() == 0;
    }

    /** The quadtree, for queries. */
    QuadTree<IndexEntry> tree() {
        return tree;
    }
}
