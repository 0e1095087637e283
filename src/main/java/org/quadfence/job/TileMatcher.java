package org.quadfence.job;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Keyed by group and tile: keeps the fences of one group in one tile and finds, for each position
 * in the tile, the fences that contain it.
 *
 * <p>The tile's fences live in keyed MapState (the durable truth, in checkpoints and savepoints). A
 * quadtree over them is a transient index, rebuilt from that state whenever this instance does not
 * have it (after a restore, a rescale, or on a new task). Both inputs wait in keyed state until the
 * watermark passes their time; then the fence updates at time t are applied before the positions at
 * t are matched. A position that arrives after the watermark passed its time is a dead letter
 * ("late") and changes nothing; a late fence update is applied at once and counted.
 */
public class TileMatcher extends KeyedCoProcessFunction<TileKey, TileUpdate, Position, Membership> {

    private static final long serialVersionUID = 1L;

    private final TileGrid grid;
    private final int nodeCapacity;
    private final int maxDepth;
    private final double margin;
    private final OutputTag<DeadLetter> deadLetters;

    private transient MapState<String, TileFence> fences;
    private transient ListState<TileUpdate> pendingUpdates;
    private transient MapState<Long, List<Position>> pendingPositions;
    private transient Map<TileKey, QuadTree<Piece>> trees;
    private transient Counter positionsIn;
    private transient Counter latePositions;
    private transient Counter lateUpdates;
    private transient Counter candidates;
    private transient long fencesIndexed;

    public TileMatcher(
            TileGrid grid,
            int nodeCapacity,
            int maxDepth,
            double margin,
            OutputTag<DeadLetter> deadLetters) {
        this.grid = grid;
        this.margin = margin;
        this.nodeCapacity = nodeCapacity;
        this.maxDepth = maxDepth;
        this.deadLetters = deadLetters;
    }

    @Override
    public void open(OpenContext openContext) {
        fences =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "fences",
                                        Types.STRING,
                                        TypeInformation.of(TileFence.class)));
        // A list, not a map by time: appending is O(1) on every backend, and a tile can receive
        // thousands of updates at one time (a whole fence set loaded at once).
        pendingUpdates =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "pending-tile-updates",
                                        TypeInformation.of(TileUpdate.class)));
        pendingPositions =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "pending-positions",
                                        Types.LONG,
                                        Types.LIST(TypeInformation.of(Position.class))));
        trees = new HashMap<>();
        var metrics = getRuntimeContext().getMetricGroup();
        positionsIn = metrics.counter("positionsIn");
        latePositions = metrics.counter("latePositions");
        lateUpdates = metrics.counter("lateTileUpdates");
        candidates = metrics.counter("candidates");
        metrics.gauge("tilesIndexed", () -> trees.size());
        metrics.gauge("fencesIndexed", () -> fencesIndexed);
    }

    @Override
    public void processElement1(TileUpdate update, Context ctx, Collector<Membership> out)
            throws Exception {
        long t = update.timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            if (t != Long.MIN_VALUE) {
                lateUpdates.inc();
            }
            apply(update, ctx.getCurrentKey());
            return;
        }
        pendingUpdates.add(update);
        ctx.timerService().registerEventTimeTimer(t);
    }

    @Override
    public void processElement2(Position position, Context ctx, Collector<Membership> out)
            throws Exception {
        positionsIn.inc();
        long t = position.timestamp();
        long watermark = ctx.timerService().currentWatermark();
        if (t <= watermark) {
            latePositions.inc();
            ctx.output(deadLetters, Late.deadLetter(position, watermark));
            return;
        }
        pendingPositions.put(t, StateLists.appended(pendingPositions.get(t), position));
        ctx.timerService().registerEventTimeTimer(t);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Membership> out)
            throws Exception {
        TileKey tile = ctx.getCurrentKey();
        applyUpdatesDue(timestamp, tile);
        List<Position> positions = pendingPositions.get(timestamp);
        if (positions != null) {
            pendingPositions.remove(timestamp);
            QuadTree<Piece> tree = tree(tile);
            List<Piece> hits = new ArrayList<>();
            List<Piece> inside = new ArrayList<>();
            List<Piece> near = new ArrayList<>();
            for (Position p : positions) {
                hits.clear();
                double lon = TileGrid.foldLon(p.lon());
                double lat = p.lat();
                tree.query(lon, lat, hits::add);
                candidates.inc(hits.size());
                inside.clear();
                near.clear();
                // One exact test per candidate: inside, else (with a margin) near, else neither.
                for (Piece piece : hits) {
                    if (piece.contains(lon, lat)) {
                        inside.add(piece);
                    } else if (margin > 0 && piece.near(lon, lat, margin)) {
                        near.add(piece);
                    }
                }
                Piece.sortDistinct(inside);
                out.collect(
                        new Membership(
                                p.group(),
                                p.entityId(),
                                p.timestamp(),
                                p.lon(),
                                p.lat(),
                                Piece.ids(inside),
                                Piece.properties(inside),
                                Piece.ids(near)));
            }
        }
    }

    /** Applies the pending updates with time <= t in arrival order; the later ones wait. */
    private void applyUpdatesDue(long t, TileKey tile) throws Exception {
        Iterable<TileUpdate> pending = pendingUpdates.get();
        if (pending == null) {
            return;
        }
        List<TileUpdate> later = new ArrayList<>();
        boolean applied = false;
        for (TileUpdate u : pending) {
            if (u.timestamp() <= t) {
                apply(u, tile);
                applied = true;
            } else {
                later.add(u);
            }
        }
        if (applied) {
            pendingUpdates.update(later);
        }
    }

    private void apply(TileUpdate update, TileKey tile) throws Exception {
        String id = update.fenceId();
        TileFence before = fences.get(id);
        TileFence after = update.isRemoval() ? null : TileFence.of(update);
        if (after == null) {
            fences.remove(id);
        } else {
            fences.put(id, after);
        }
        QuadTree<Piece> tree = trees.get(tile);
        if (tree == null) {
            return;
        }
        if (before != null) {
            fencesIndexed--;
            Piece.remove(tree, id, before);
        }
        if (after != null) {
            fencesIndexed++;
            Piece.entries(id, after, tree::insert);
        }
        if (tree.size() == 0) {
            trees.remove(tile);
        }
    }

    /** The tile's quadtree, built from the tile's state when this instance does not have it. */
    private QuadTree<Piece> tree(TileKey tile) throws Exception {
        QuadTree<Piece> tree = trees.get(tile);
        if (tree == null) {
            Map<Piece, Box> items = new HashMap<>();
            for (Map.Entry<String, TileFence> e : fences.entries()) {
                fencesIndexed++;
                Piece.entries(e.getKey(), e.getValue(), items::put);
            }
            tree = QuadTree.build(grid.cell(tile.tile()), nodeCapacity, maxDepth, items);
            trees.put(tile, tree);
        }
        return tree;
    }
}
