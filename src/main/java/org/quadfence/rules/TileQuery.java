package org.quadfence.rules;

import org.quadfence.geo.Box;
import org.quadfence.geo.Path;
import org.quadfence.geo.PathCrossing;
import org.quadfence.geo.ShapePiece;
import org.quadfence.index.QuadTree;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.Waypoint;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A position's answer from one tile (contract sections 3 and 6): the fences of the tile that
 * contain the position (boundary points are inside), and, with an exit margin, the other fences
 * within the margin of it, each list ascending and each fence once. Longitude 180 is looked up at
 * -180, the same meridian.
 *
 * <p>Rules and accuracy (contract section 11): a fence whose rules do not apply to the position
 * (its {@code validUntil} passed, outside its schedule, attributes that do not match) contains
 * nothing and is near nothing. With a the position's accuracy and m the fence's margin (its own
 * {@code exitMarginMeters}, else the job's), the fence contains the position when the position is
 * inside with at least a to spare, and is near it when it lies within max(m, a) of it (inside by
 * less than a included). The answer carries the timing of the fences that have their own ({@link
 * Membership#timings}).
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
        candidates.find(index == null ? null : index.tree(), TileGrid.foldLon(p.lon()), p);
        String[] inside = IndexEntry.ids(candidates.inside);
        String[] near = IndexEntry.ids(candidates.near);
        return new Membership(
                p.group(),
                p.entityId(),
                p.timestamp(),
                p.lon(),
                p.lat(),
                inside,
                near,
                null,
                NO_IDS,
                NO_FRACTIONS,
                candidates.timings(inside, near));
    }

    /**
     * The answer for the position {@code p} and the path to it from {@code from} (option {@code
     * crossing}, contract section 10) from one tile: when {@code pointTile}, the fences that
     * contain p and those near it as {@link #match} has them, else none; and the fences of the tile
     * that the closed path meets within the tile's closed cell, each with the least fraction s of
     * the path in it. Null when the tile is not p's and the path meets none of its fences.
     *
     * @param index the tile's fences, or null for a tile with none
     * @param cell the tile's closed cell
     */
    public Membership matchPath(
            TileIndex index, Box cell, Position p, Waypoint from, boolean pointTile) {
        Membership point = pointTile ? match(index, p) : null;
        int testedHere = pointTile ? candidates.tested : 0;
        String[] ids = NO_IDS;
        double[] at = NO_FRACTIONS;
        if (index != null) {
            Path path = new Path(from.lon(), from.lat(), p.lon(), p.lat());
            TreeMap<String, ShapePiece> met = new TreeMap<>();
            for (Box b : path.bounds()) {
                candidates(index, b.intersection(cell), p, met);
                // Lon 180 is -180: a path on that meridian meets what either side holds there.
                if (b.maxX() == 180) {
                    candidates(
                            index,
                            new Box(-180, b.minY(), -180, b.maxY()).intersection(cell),
                            p,
                            met);
                }
                if (b.minX() == -180) {
                    candidates(
                            index,
                            new Box(180, b.minY(), 180, b.maxY()).intersection(cell),
                            p,
                            met);
                }
            }
            if (!met.isEmpty()) {
                ids = new String[met.size()];
                at = new double[met.size()];
                int n = 0;
                for (var e : met.entrySet()) {
                    testedHere++;
                    double s = PathCrossing.first(path, e.getValue(), cell);
                    if (!Double.isNaN(s)) {
                        ids[n] = e.getKey();
                        at[n++] = s;
                    }
                }
                ids = Arrays.copyOf(ids, n);
                at = Arrays.copyOf(at, n);
            }
        }
        candidates.tested = testedHere;
        if (point == null && ids.length == 0) {
            return null;
        }
        return new Membership(
                p.group(),
                p.entityId(),
                p.timestamp(),
                p.lon(),
                p.lat(),
                point == null ? NO_IDS : point.fenceIds(),
                point == null ? NO_IDS : point.nearIds(),
                from,
                ids,
                at,
                point == null ? null : point.timings());
    }

    // The fences of the area that apply to p: a fence that does not apply at b is not crossed.
    private static void candidates(
            TileIndex index, Box area, Position p, Map<String, ShapePiece> met) {
        if (area != null) {
            index.tree()
                    .query(
                            area,
                            e -> {
                                if (e.applies(p.timestamp(), p.attributes())) {
                                    met.putIfAbsent(e.fenceId, e.piece);
                                }
                            });
        }
    }

    private static final String[] NO_IDS = new String[0];
    private static final double[] NO_FRACTIONS = new double[0];

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
        private Position position;
        private int tested;
        private boolean ownTiming;

        Candidates(double margin) {
            this.margin = margin;
        }

        /**
         * Finds the fences the position p (at its folded lon) is inside or near among the
         * candidates of {@code tree} (null: none), into {@link #inside} and {@link #near}.
         */
        void find(QuadTree<IndexEntry> tree, double foldedLon, Position p) {
            this.lon = foldedLon;
            this.lat = p.lat();
            this.position = p;
            tested = 0;
            ownTiming = false;
            inside.clear();
            near.clear();
            if (tree != null) {
                tree.query(foldedLon, lat, this);
            }
        }

        @Override
        public void accept(IndexEntry entry) {
            tested++;
            FenceRules rules = entry.rules;
            if (rules != null && !rules.applies(position.timestamp(), position.attributes())) {
                return;
            }
            double accuracy = position.accuracy();
            double reach = Math.max(rules == null ? margin : rules.marginOr(margin), accuracy);
            if (entry.contains(lon, lat)) {
                (accuracy == 0 || entry.boundary(lon, lat) >= accuracy ? inside : near).add(entry);
            } else if (reach > 0 && entry.near(lon, lat, reach)) {
                near.add(entry);
            } else {
                return;
            }
            ownTiming |= rules != null && !rules.jobTiming();
        }

        /**
         * The timings of the fences found ({@link Membership#timings}), null when all keep the
         * job's.
         */
        long[] timings(String[] insideIds, String[] nearIds) {
            if (!ownTiming) {
                return null;
            }
            long[] timings = new long[Membership.TIMING * (insideIds.length + nearIds.length)];
            fill(timings, 0, insideIds, inside);
            fill(timings, Membership.TIMING * insideIds.length, nearIds, near);
            return timings;
        }

        private static void fill(long[] timings, int from, String[] ids, List<IndexEntry> hits) {
            for (int i = 0; i < ids.length; i++) {
                FenceRules r = FenceRules.NONE;
                for (IndexEntry e : hits) {
                    if (e.fenceId.equals(ids[i]) && e.rules != null) {
                        r = e.rules;
                        break;
                    }
                }
                int at = from + Membership.TIMING * i;
                timings[at] = r.enterAfterMs();
                timings[at + 1] = r.exitAfterMs();
                timings[at + 2] = r.dwellMs();
            }
        }
    }
}
