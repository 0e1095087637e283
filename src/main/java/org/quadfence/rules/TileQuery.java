package org.quadfence.rules;

import org.quadfence.index.QuadTree;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A position's answer from one tile (contract sections 3 and 6): the fences of the tile that
 * contain the position (boundary points are inside), and, with an exit margin, the other fences
 * within the margin of it, each list ascending and each fence once. Longitude 180 is looked up at
 * -180, the same meridian.
 *
 * <p>One instance serves one caller: it keeps the lists it fills between queries, so that a query
 * allocates nothing but its answer.
 */
public final class TileQuery {

    private final Candidates candidates;

    /**
     * @param marginMeters option {@code exit-margin-meters}; 0 for no margin
     */
    public TileQuery(double marginMeters) {
        candidates = new Candidates(marginMeters);
    }

    /**
     * The answer for {@code p} from the tile that {@code index} holds (null: a tile with no
     * fences).
     */
    public Membership match(TileIndex index, Position p) {
        candidates.find(index == null ? null : index.tree(), TileGrid.foldLon(p.lon()), p.lat());
        return new Membership(
                p.group(),
                p.entityId(),
                p.timestamp(),
                p.lon(),
                p.lat(),
                IndexEntry.ids(candidates.inside),
                IndexEntry.ids(candidates.near));
    }

    /** How many candidates of the quadtree the last {@link #match} tested exactly. */
    public int tested() {
        return candidates.tested;
    }

    /**
     * Takes a position's candidates from the quadtree and tests each once: inside, else (with a
     * margin) near, else neither.
     */
    private static final class Candidates implements Consumer<IndexEntry> {
        final List<IndexEntry> inside = new ArrayList<>();
        final List<IndexEntry> near = new ArrayList<>();
        private final double margin;
        private double lon;
        private double lat;
        private int tested;

        Candidates(double margin) {
            this.margin = margin;
        }

        /**
         * Finds the fences the point (folded lon) is inside or near among the candidates of {@code
         * tree} (null: none), into {@link #inside} and {@link #near}.
         */
        void find(QuadTree<IndexEntry> tree, double foldedLon, double lat) {
            this.lon = foldedLon;
            this.lat = lat;
            tested = 0;
            inside.clear();
            near.clear();
            if (tree != null) {
                tree.query(foldedLon, lat, this);
            }
        }

        @Override
        public void accept(IndexEntry entry) {
            tested++;
            if (entry.contains(lon, lat)) {
                inside.add(entry);
            } else if (margin > 0 && entry.near(lon, lat, margin)) {
                near.add(entry);
            }
        }
    }
}
