package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

import org.quadfence.geo.Box;
import org.quadfence.geo.ShapePiece;
import org.quadfence.index.QuadTree;
import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.ShapePieceSerializer;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;
import org.quadfence.time.EventTimeStage;
import org.quadfence.time.LateFilter;
import org.quadfence.time.TimeBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Keyed by group, tile and shard: keeps the fences of one group in one tile and finds, for each
 * position of the shard's entities in the tile, the fences that contain it ({@link TileShards}).
 *
 * <p>What the tile holds of each fence ({@link ShapePiece}) lives in keyed MapState by fence id
 * (the durable truth, in checkpoints and savepoints). A quadtree over them is a transient index,
 * rebuilt from that state whenever this instance does not have it (after a restore, a rescale, or
 * on a new task); the shards of a tile that share a subtask share one quadtree. Both inputs wait
 * until the watermark passes their time (fence updates in keyed state, positions in {@link
 * EventTimeStage}); then the fence updates at time t are applied before the positions at t are
 * matched. Late positions never get here ({@link LateFilter}); a late fence update is applied at
 * once and counted. A tile with no fences keeps no quadtree.
 *
 * <p>The stage's clock follows the positions: when every positions partition falls silent, Flink
 * would let the fences input alone drive the clock, and fence changes often run ahead of positions
 * in event time, so the watermark would jump past the positions still to come (making them late,
 * and applying future fence versions). Held at the positions' last watermark, the stage waits
 * instead; idle partitions among active ones are still skipped.
 *
 * <p>The job has one tile stage per tier: the tiles of the job's tile level, and, when that level
 * is finer than {@link Tiers#WIDE_LEVEL}, the coarser tiles that hold the wide fences. Every
 * position goes to each, and the entity stage joins their answers.
 */
public class TileMatcher extends EventTimeStage<TileKey, Position, Membership>
        implements TwoInputStreamOperator<TileUpdate, Position, Membership> {

    private static final long serialVersionUID = 1L;

    /** The index of the positions input: the second one. */
    private static final int POSITIONS = 1;

    private final TileGrid grid;
    private final int nodeCapacity;
    private final int maxDepth;
    private final double margin;
    private final int tileLevel;
    private final int tileShards;

    private transient MapState<String, ShapePiece> fences;
    private transient TimeBuffer<TileUpdate> pendingUpdates;
    private transient Map<Cell, Index> trees;
    private transient Counter positionsIn;
    private transient LongCounter recordsIn;
    private transient Counter lateMatches;
    private transient Counter lateUpdates;
    private transient Counter candidatesTested;
    private transient long fencesIndexed;
    // The fences a position is inside or near: cleared for each position, kept between them, so
    // that a query allocates nothing.
    private transient Candidates candidates;

    /**
     * @param grid the tiles of this stage's tier: its keys
     * @param margin the exit margin in meters
     * @param tileLevel the job's tile level, checked on restore
     * @param tileShards the job's shards per tile, checked on restore
     */
    public TileMatcher(
            TileGrid grid,
            int nodeCapacity,
            int maxDepth,
            double margin,
            int tileLevel,
            int tileShards) {
        super(TypeInformation.of(Position.class));
        this.grid = grid;
        this.tileLevel = tileLevel;
        this.tileShards = tileShards;
        this.margin = margin;
        this.nodeCapacity = nodeCapacity;
        this.maxDepth = maxDepth;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        StateOptions.check(
                context,
                Map.of(
                        "tile-level", String.valueOf(tileLevel),
                        "tile-shards", String.valueOf(tileShards),
                        "exit-margin-meters", String.valueOf(margin)));
        pendingUpdates =
                new TimeBuffer<>(
                        context.getKeyedStateStore(),
                        "pending-tile-updates",
                        TypeInformation.of(TileUpdate.class));
    }

    @Override
    public void open() throws Exception {
        super.open();
        candidates = new Candidates(margin);
        fences =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "fences",
                                        CompactStringSerializer.TYPE,
                                        ShapePieceSerializer.TYPE));
        trees = new HashMap<>();
        var metrics = getRuntimeContext().getMetricGroup();
        positionsIn = metrics.counter("positionsIn");
        recordsIn =
                StageLoad.counter(
                        getRuntimeContext(),
                        grid.level() == tileLevel ? "TileMatcher" : "TileMatcher (wide fences)");
        lateMatches = metrics.counter("positionsMatchedBehindClock");
        lateUpdates = metrics.counter("lateTileUpdates");
        candidatesTested = metrics.counter("candidates");
        metrics.gauge("tilesIndexed", () -> trees.size());
        metrics.gauge("fencesIndexed", () -> fencesIndexed);
    }

    @Override
    public void processElement1(StreamRecord<TileUpdate> record) throws Exception {
        recordsIn.add(1);
        TileUpdate update = record.getValue();
        long t = update.timestamp();
        if (t <= currentWatermark()) {
            if (t != Long.MIN_VALUE) {
                lateUpdates.inc();
            }
            apply(update, tile());
            return;
        }
        if (pendingUpdates.add(t, update)) {
            registerTimer(t);
        }
    }

    @Override
    public void processElement2(StreamRecord<Position> record) throws Exception {
        positionsIn.inc();
        recordsIn.add(1);
        Position position = record.getValue();
        long t = position.timestamp();
        if (t <= currentWatermark()) {
            // Not late where it was read (LateFilter), but behind this task's clock (a partition
            // that was idle): matched at once, so that every tile stage answers for it.
            lateMatches.inc();
            match(List.of(position), tile());
        } else {
            hold(position, t);
        }
    }

    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int index) throws Exception {
        if (index == POSITIONS && status.isIdle()) {
            return;
        }
        super.processWatermarkStatus(status, index);
    }

    @Override
    protected void onTimer(long t) throws Exception {
        for (TileUpdate u : pendingUpdates.take(t)) {
            apply(u, tile());
        }
    }

    @Override
    protected void onTime(long t, List<Position> positions) throws Exception {
        match(positions, tile());
    }

    private TileKey tile() {
        return (TileKey) getCurrentKey();
    }

    private void match(List<Position> positions, TileKey tile) throws Exception {
        if (positions.isEmpty()) {
            return;
        }
        QuadTree<IndexEntry> tree = tree(tile);
        for (Position p : positions) {
            candidatesTested.inc(candidates.find(tree, TileGrid.foldLon(p.lon()), p.lat()));
            emit(
                    new Membership(
                            p.group(),
                            p.entityId(),
                            p.timestamp(),
                            p.lon(),
                            p.lat(),
                            IndexEntry.ids(candidates.inside),
                            IndexEntry.ids(candidates.near)),
                    p.timestamp());
        }
    }

    private void apply(TileUpdate update, TileKey tile) throws Exception {
        String id = update.fenceId();
        ShapePiece before = fences.get(id);
        ShapePiece after = update.piece();
        if (after == null) {
            fences.remove(id);
        } else {
            fences.put(id, after);
        }
        Cell cell = new Cell(tile.group(), tile.tile());
        Index index = trees.get(cell);
        // Every shard gets the same updates in the same order: the owner's keep the index.
        if (index == null || index.owner() != tile.shard()) {
            return;
        }
        QuadTree<IndexEntry> tree = index.tree();
        if (before != null) {
            fencesIndexed--;
            IndexEntry.remove(tree, id, before);
        }
        if (after != null) {
            fencesIndexed++;
            IndexEntry.of(id, after, tree::insert);
        }
        if (tree.size() == 0) {
            trees.remove(cell);
        }
    }

    /**
     * The tile's quadtree, built from the state of the current shard when this instance does not
     * have it; null when the tile holds no fences. The shards of a tile on this subtask share it.
     */
    private QuadTree<IndexEntry> tree(TileKey tile) throws Exception {
        Cell cell = new Cell(tile.group(), tile.tile());
        Index index = trees.get(cell);
        if (index == null && !fences.isEmpty()) {
            Map<IndexEntry, Box> items = new HashMap<>();
            for (Map.Entry<String, ShapePiece> e : fences.entries()) {
                fencesIndexed++;
                IndexEntry.of(e.getKey(), e.getValue(), items::put);
            }
            index =
                    new Index(
                            QuadTree.build(grid.cell(tile.tile()), nodeCapacity, maxDepth, items),
                            tile.shard());
            trees.put(cell, index);
        }
        return index == null ? null : index.tree();
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
         * tree} (null: none), into {@link #inside} and {@link #near}; returns how many it tested.
         */
        int find(QuadTree<IndexEntry> tree, double foldedLon, double lat) {
            this.lon = foldedLon;
            this.lat = lat;
            tested = 0;
            inside.clear();
            near.clear();
            if (tree != null) {
                tree.query(foldedLon, lat, this);
            }
            return tested;
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

    /** A tile of a group, whatever the shard. */
    private record Cell(String group, long tile) {}

    /** A tile's quadtree, kept up to date by the updates of one of its shards, its owner. */
    private record Index(QuadTree<IndexEntry> tree, int owner) {}
}
