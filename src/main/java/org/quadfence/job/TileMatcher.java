package org.quadfence.job;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;
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
 * t are matched. Late positions never get here ({@link LateFilter}); a late fence update is applied
 * at once and counted. A tile with no fences keeps no quadtree.
 *
 * <p>The job has one tile stage per tier: the tiles of the job's tile level, and, when that level
 * is finer than {@link Tiers#WIDE_LEVEL}, the coarser tiles that hold the wide fences. Every
 * position goes to each, and the entity stage joins their answers.
 */
public class TileMatcher extends KeyedCoProcessFunction<TileKey, TileUpdate, Position, Membership>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    private final TileGrid grid;
    private final int nodeCapacity;
    private final int maxDepth;
    private final double margin;
    private final int tileLevel;

    private transient MapState<String, TileFence> fences;
    private transient TimeBuffer<TileUpdate> pendingUpdates;
    private transient TimeBuffer<Position> pendingPositions;
    private transient Map<TileKey, QuadTree<Piece>> trees;
    private transient Counter positionsIn;
    private transient LongCounter recordsIn;
    private transient Counter lateMatches;
    private transient Counter lateUpdates;
    private transient Counter candidates;
    private transient long fencesIndexed;

    /**
     * @param grid the tiles of this stage's tier: its keys
     * @param margin the exit margin in meters
     * @param tileLevel the job's tile level, checked on restore
     */
    public TileMatcher(
            TileGrid grid, int nodeCapacity, int maxDepth, double margin, int tileLevel) {
        this.grid = grid;
        this.tileLevel = tileLevel;
        this.margin = margin;
        this.nodeCapacity = nodeCapacity;
        this.maxDepth = maxDepth;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        StateOptions.check(
                context,
                Map.of(
                        "tile-level", String.valueOf(tileLevel),
                        "exit-margin-meters", String.valueOf(margin)));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {}

    @Override
    public void open(OpenContext openContext) {
        fences =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "fences",
                                        Types.STRING,
                                        TypeInformation.of(TileFence.class)));
        pendingUpdates =
                new TimeBuffer<>(
                        getRuntimeContext(),
                        "pending-tile-updates",
                        TypeInformation.of(TileUpdate.class));
        pendingPositions =
                new TimeBuffer<>(
                        getRuntimeContext(),
                        "pending-positions",
                        TypeInformation.of(Position.class));
        trees = new HashMap<>();
        var metrics = getRuntimeContext().getMetricGroup();
        positionsIn = metrics.counter("positionsIn");
        recordsIn =
                StageLoad.counter(
                        getRuntimeContext(),
                        grid.level() == tileLevel ? "TileMatcher" : "TileMatcher (wide fences)");
        lateMatches = metrics.counter("positionsMatchedBehindClock");
        lateUpdates = metrics.counter("lateTileUpdates");
        candidates = metrics.counter("candidates");
        metrics.gauge("tilesIndexed", () -> trees.size());
        metrics.gauge("fencesIndexed", () -> fencesIndexed);
    }

    @Override
    public void processElement1(TileUpdate update, Context ctx, Collector<Membership> out)
            throws Exception {
        recordsIn.add(1);
        long t = update.timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            if (t != Long.MIN_VALUE) {
                lateUpdates.inc();
            }
            apply(update, ctx.getCurrentKey());
            return;
        }
        if (pendingUpdates.add(t, update)) {
            ctx.timerService().registerEventTimeTimer(t);
        }
    }

    @Override
    public void processElement2(Position position, Context ctx, Collector<Membership> out)
            throws Exception {
        positionsIn.inc();
        recordsIn.add(1);
        long t = position.timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            // Not late where it was read (LateFilter), but behind this task's clock (a partition
            // that was idle): matched at once, so that every tile stage answers for it.
            lateMatches.inc();
            match(List.of(position), ctx.getCurrentKey(), out);
        } else if (pendingPositions.add(t, position)) {
            ctx.timerService().registerEventTimeTimer(t);
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Membership> out)
            throws Exception {
        TileKey tile = ctx.getCurrentKey();
        for (TileUpdate u : pendingUpdates.take(timestamp)) {
            apply(u, tile);
        }
        match(pendingPositions.take(timestamp), tile, out);
    }

    private void match(List<Position> positions, TileKey tile, Collector<Membership> out)
            throws Exception {
        if (positions.isEmpty()) {
            return;
        }
        QuadTree<Piece> tree = tree(tile);
        List<Piece> hits = new ArrayList<>();
        List<Piece> near = new ArrayList<>();
        List<Piece> inside = new ArrayList<>();
        for (Position p : positions) {
            double lon = TileGrid.foldLon(p.lon());
            double lat = p.lat();
            hits.clear();
            inside.clear();
            near.clear();
            if (tree != null) {
                tree.query(lon, lat, hits::add);
                candidates.inc(hits.size());
            }
            // One exact test per candidate: inside, else (with a margin) near, else neither.
            for (Piece piece : hits) {
                if (piece.contains(lon, lat)) {
                    inside.add(piece);
                } else if (margin > 0 && piece.near(lon, lat, margin)) {
                    near.add(piece);
                }
            }
            out.collect(
                    new Membership(
                            p.group(),
                            p.entityId(),
                            p.timestamp(),
                            p.lon(),
                            p.lat(),
                            Piece.ids(inside),
                            Piece.ids(near)));
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

    /**
     * The tile's quadtree, built from the tile's state when this instance does not have it; null
     * when the tile holds no fences.
     */
    private QuadTree<Piece> tree(TileKey tile) throws Exception {
        QuadTree<Piece> tree = trees.get(tile);
        if (tree == null && !fences.isEmpty()) {
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
