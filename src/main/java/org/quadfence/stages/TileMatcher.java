package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

import org.quadfence.geo.ShapePiece;
import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.FenceRules;
import org.quadfence.model.FenceRulesSerializer;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.ShapePieceSerializer;
import org.quadfence.model.Step;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.rules.TileIndex;
import org.quadfence.rules.TileQuery;
import org.quadfence.tiles.TileGrid;
import org.quadfence.time.EventTimeStage;
import org.quadfence.time.LateFilter;
import org.quadfence.time.TimeBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Keyed by group, tile and shard: keeps the fences of one group in one tile and finds, for each
 * position of the shard's entities in the tile, the fences that contain it ({@link TileShards}), by
 * the rules of {@link TileQuery}.
 *
 * <p>What the tile holds of each fence ({@link ShapePiece}) lives in keyed MapState by fence id
 * (the durable truth, in checkpoints and savepoints). A {@link TileIndex} over them is transient,
 * rebuilt from that state whenever this instance does not have it (after a restore, a rescale, or
 * on a new task); the shards of a tile that share a subtask share one index. The rules of a fence's
 * version (contract section 11) travel with its pieces, and those of the fences that have any live
 * beside them, in a MapState of their own. Both inputs wait until the watermark passes their time
 * (fence updates in keyed state, positions in {@link EventTimeStage}); then the fence updates at
 * time t are applied before the positions at t are matched. Late positions never get here ({@link
 * LateFilter}); a late fence update is applied at once and counted. A tile with no fences keeps no
 * index.
 *
 * <p>The stage's clock follows the positions: when every positions partition falls silent, Flink
 * would let the fences input alone drive the clock, and fence changes often run ahead of positions
 * in event time, so the watermark would jump past the positions still to come (making them late,
 * and applying future fence versions). Held at the positions' last watermark, the stage waits
 * instead; idle partitions among active ones are still skipped.
 *
 * <p>The job has one tile stage per tier: the tiles of the job's tile level, and, when that level
 * is finer than {@link Tiers#WIDE_LEVEL}, the coarser tiles that hold the wide fences. Every
 * position goes to each, and the entity stage joins their answers: the fine tier answers every
 * position, the wide tier only those in or near its fences.
 *
 * <p>With option {@code crossing} its records are {@link Step}s instead of positions (contract
 * section 10): a step goes to its position's tile, where it is answered as a position is, and to
 * every other tile of the tier its path meets; each tile adds the fences of its own that the path
 * meets, with the fences in force at the position's time, and a tile that is not the position's
 * answers only when the path meets one of its fences.
 *
 * <p>With option {@code max-backlog} (contract section 12) the tile also keeps, for each fence
 * change it applied, what the change replaced, until the watermark is {@code max-backlog} past it.
 * A position behind the stage's clock (a backlog position) is then matched against the fences in
 * force at its own time: the changes after it are undone in the index for it, and done again.
 *
 * @param <P> {@link Position}, or {@link Step} with option {@code crossing}
 */
public class TileMatcher<P> extends EventTimeStage<TileKey, P, Membership>
        implements TwoInputStreamOperator<TileUpdate, P, Membership> {

    private static final long serialVersionUID = 1L;

    /** The index of the positions input: the second one. */
    private static final int POSITIONS = 1;

    private final TileGrid grid;
    private final int nodeCapacity;
    private final int maxDepth;
    private final double margin;
    private final int tileLevel;
    private final int tileShards;
    private final boolean answersEveryPosition;
    private final boolean steps;

    private transient MapState<String, ShapePiece> fences;
    private transient MapState<String, FenceRules> rules;
    private transient TimeBuffer<TileUpdate> pendingUpdates;
    // With max-backlog: what each change applied replaced (the piece and rules before it), at the
    // change's time, in the order applied.
    private transient ListState<TileUpdate> replaced;
    private transient Map<Cell, Owned> indexes;
    private transient Counter positionsIn;
    private transient LongCounter recordsIn;
    private transient Counter lateMatches;
    private transient Counter lateUpdates;
    private transient Counter candidatesTested;
    private transient Counter pathsTested;
    private transient long fencesIndexed;
    private transient TileQuery query;
    private transient ShapePiece lastPiece;
    private transient String lastFenceId;

    /**
     * A tile stage whose records are {@code records}: positions, or steps with option {@code
     * crossing}.
     *
     * @param grid the tiles of this stage's tier: its keys
     * @param margin the exit margin in meters
     * @param tileLevel the job's tile level, checked on restore
     * @param tileShards the job's shards per tile, checked on restore
     * @param answersEveryPosition whether a position in no fence and near none gets an answer too:
     *     the entity stage hears of each position from the tier that does, so the other tier
     *     answers only when it has fences to tell
     */
    public TileMatcher(
            TypeInformation<P> records,
            TileGrid grid,
            int nodeCapacity,
            int maxDepth,
            double margin,
            int tileLevel,
            int tileShards,
            boolean answersEveryPosition) {
        super(records);
        this.steps = records.getTypeClass() == Step.class;
        this.answersEveryPosition = answersEveryPosition;
        this.grid = grid;
        this.tileLevel = tileLevel;
        this.tileShards = tileShards;
        this.margin = margin;
        this.nodeCapacity = nodeCapacity;
        this.maxDepth = maxDepth;
    }

    /** A tile stage with the settings of {@code settings}, for the kinds of tile stage. */
    protected TileMatcher(TileMatcher<P> settings) {
        this(
                settings.recordType(),
                settings.grid,
                settings.nodeCapacity,
                settings.maxDepth,
                settings.margin,
                settings.tileLevel,
                settings.tileShards,
                settings.answersEveryPosition);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        // Before the waiting records are read: with another crossing they are of another type.
        // With another max-backlog the entity stage's timers, set that long after their due
        // times, would be misread: the job's one check of it is here.
        StateOptions.check(
                context,
                Map.of(
                        "tile-level", String.valueOf(tileLevel),
                        "tile-shards", String.valueOf(tileShards),
                        "exit-margin-meters", String.valueOf(margin),
                        "crossing", String.valueOf(steps),
                        "max-backlog", String.valueOf(maxBacklog())),
                Map.of("crossing", "false", "max-backlog", "0"));
        super.initializeState(context);
        pendingUpdates =
                new TimeBuffer<>(
                        context.getKeyedStateStore(),
                        "pending-tile-updates",
                        TypeInformation.of(TileUpdate.class));
        replaced =
                context.getKeyedStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "replaced-versions", TypeInformation.of(TileUpdate.class)));
    }

    @Override
    public void open() throws Exception {
        super.open();
        query = new TileQuery(margin);
        fences =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "fences",
                                        CompactStringSerializer.TYPE,
                                        ShapePieceSerializer.TYPE));
        rules =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "fence-rules",
                                        CompactStringSerializer.TYPE,
                                        FenceRulesSerializer.TYPE));
        indexes = new HashMap<>();
        var metrics = getRuntimeContext().getMetricGroup();
        positionsIn = metrics.counter("positionsIn");
        recordsIn =
                StageLoad.counter(
                        getRuntimeContext(),
                        grid.level() == tileLevel ? "TileMatcher" : "TileMatcher (wide fences)");
        lateMatches = metrics.counter("positionsMatchedBehindClock");
        lateUpdates = metrics.counter("lateTileUpdates");
        candidatesTested = metrics.counter("candidates");
        pathsTested = metrics.counter("pathsTested");
        metrics.gauge("tilesIndexed", () -> indexes.size());
        metrics.gauge("fencesIndexed", () -> fencesIndexed);
    }

    @Override
    public void processElement1(StreamRecord<TileUpdate> record) throws Exception {
        recordsIn.add(1);
        TileUpdate update = shared(record.getValue());
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
    public void processElement2(StreamRecord<P> record) throws Exception {
        positionsIn.inc();
        recordsIn.add(1);
        P position = record.getValue();
        long t =
                position instanceof Step step
                        ? step.to().timestamp()
                        : ((Position) position).timestamp();
        if (t <= currentWatermark()) {
            // Not late where it was read (LateFilter), but behind this task's clock (a partition
            // that was idle): matched at once, so that every tile stage answers for it.
            lateMatches.inc();
            if (maxBacklog() > 0) {
                matchAsOf(position, t, tile());
            } else {
                match(List.of(position), tile());
            }
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
        if (maxBacklog() > 0) {
            forgetReplacedBefore(t - maxBacklog());
        }
    }

    /**
     * Matches {@code position} at time t against the fences in force then: the changes applied
     * after t are undone in the index for it, and done again.
     */
    private void matchAsOf(P position, long t, TileKey tile) throws Exception {
        Map<String, TileUpdate> asOf = new LinkedHashMap<>();
        for (TileUpdate r : replaced.get()) {
            if (r.timestamp() > t) {
                asOf.putIfAbsent(r.fenceId(), r);
            }
        }
        if (asOf.isEmpty()) {
            match(List.of(position), tile);
            return;
        }
        TileIndex index = index(tile);
        TileIndex used =
                index != null
                        ? index
                        : TileIndex.of(grid.cell(tile.tile()), nodeCapacity, maxDepth, List.of());
        for (TileUpdate then : asOf.values()) {
            String id = then.fenceId();
            used.replace(id, fences.get(id), then.piece(), rulesOf(then));
        }
        try {
            matchWith(used, tile, position);
        } finally {
            for (TileUpdate then : asOf.values()) {
                String id = then.fenceId();
                used.replace(id, then.piece(), fences.get(id), rules.get(id));
            }
        }
    }

    private static FenceRules rulesOf(TileUpdate u) {
        return u.piece() == null || u.rules().isNone() ? null : u.rules();
    }

    // Every backlog position still to come is after t.
    private void forgetReplacedBefore(long t) throws Exception {
        List<TileUpdate> kept = new ArrayList<>();
        boolean dropped = false;
        for (TileUpdate r : replaced.get()) {
            if (r.timestamp() > t) {
                kept.add(r);
            } else {
                dropped = true;
            }
        }
        if (dropped) {
            replaced.update(kept);
        }
    }

    @Override
    protected void onTime(long t, List<P> positions) throws Exception {
        match(positions, tile());
    }

    private TileKey tile() {
        return (TileKey) getCurrentKey();
    }

    private void match(List<P> positions, TileKey tile) throws Exception {
        if (positions.isEmpty()) {
            return;
        }
        TileIndex index = index(tile);
        for (P record : positions) {
            matchWith(index, tile, record);
        }
    }

    private void matchWith(TileIndex index, TileKey tile, P record) {
        if (record instanceof Step step) {
            matchStep(index, tile, step);
            return;
        }
        Position p = (Position) record;
        Membership m = query.match(index, p);
        candidatesTested.inc(query.tested());
        if (answersEveryPosition || m.fenceIds().length > 0 || m.nearIds().length > 0) {
            emit(answer(m, p), p.timestamp());
        }
    }

    /** The answer {@code m} for {@code p}, which says whether p is a backlog position. */
    private static Membership answer(Membership m, Position p) {
        return p.inBacklog() ? m.inBacklog(p.backlogWatermark()) : m;
    }

    /** The answer for a step from this tile: its position's, its path's, or both. */
    private void matchStep(TileIndex index, TileKey tile, Step step) {
        Position p = step.to();
        boolean pointTile = grid.tileOf(p.lon(), p.lat()) == tile.tile();
        Membership m;
        if (step.from() == null) {
            m = pointTile ? query.match(index, p) : null;
        } else {
            m = query.matchPath(index, grid.cell(tile.tile()), p, step.from(), pointTile);
            pathsTested.inc();
        }
        if (m == null) {
            return;
        }
        candidatesTested.inc(query.tested());
        if (answersEveryPosition
                || m.fenceIds().length > 0
                || m.nearIds().length > 0
                || m.pathIds().length > 0) {
            emit(answer(m, p), p.timestamp());
        }
    }

    private void apply(TileUpdate update, TileKey tile) throws Exception {
        String id = update.fenceId();
        ShapePiece before = fences.get(id);
        ShapePiece after = update.piece();
        if (maxBacklog() > 0 && update.timestamp() != Long.MIN_VALUE) {
            FenceRules was = before == null ? null : rules.get(id);
            replaced.add(
                    new TileUpdate(
                            update.tile(),
                            update.group(),
                            id,
                            update.timestamp(),
                            before,
                            update.shard(),
                            was));
            long forget = update.timestamp() + maxBacklog();
            registerTimer(forget < update.timestamp() ? Long.MAX_VALUE : forget);
        }
        if (after == null) {
            fences.remove(id);
        } else {
            fences.put(id, after);
        }
        FenceRules own = after == null || update.rules().isNone() ? null : update.rules();
        if (own != null) {
            rules.put(id, own);
        } else if (!rules.isEmpty()) {
            rules.remove(id);
        }
        Cell cell = new Cell(tile.group(), tile.tile());
        Owned owned = indexes.get(cell);
        // Every shard gets the same updates in the same order: the owner's keep the index.
        if (owned == null || owned.owner() != tile.shard()) {
            return;
        }
        fencesIndexed += owned.index().replace(id, before, after, own);
        if (owned.index().isEmpty()) {
            indexes.remove(cell);
        }
    }

    // Each shard of a tile gets its own copy of an update, and a subtask holds several shards of
    // a tile: the copies arrive one after the other, and keeping one object for them all keeps the
    // fences in memory once per subtask, not once per shard, while they wait and once applied.
    // Done once, as they arrive; polygon pieces come shared from their serializer already.
    private TileUpdate shared(TileUpdate update) {
        ShapePiece piece = shared(update.piece());
        String id = shared(update.fenceId());
        if (piece == update.piece() && id == update.fenceId()) {
            return update;
        }
        return new TileUpdate(
                update.tile(),
                update.group(),
                id,
                update.timestamp(),
                piece,
                update.shard(),
                update.rules());
    }

    private ShapePiece shared(ShapePiece piece) {
        if (piece != null && piece.equals(lastPiece)) {
            return lastPiece;
        }
        lastPiece = piece;
        return piece;
    }

    private String shared(String fenceId) {
        if (fenceId.equals(lastFenceId)) {
            return lastFenceId;
        }
        lastFenceId = fenceId;
        return fenceId;
    }

    /**
     * The tile's index, built from the state of the current shard when this instance does not have
     * it; null when the tile holds no fences. The shards of a tile on this subtask share it.
     */
    private TileIndex index(TileKey tile) throws Exception {
        Cell cell = new Cell(tile.group(), tile.tile());
        Owned owned = indexes.get(cell);
        if (owned == null && !fences.isEmpty()) {
            Map<String, FenceRules> own = new HashMap<>();
            for (Map.Entry<String, FenceRules> e : rules.entries()) {
                own.put(e.getKey(), e.getValue());
            }
            TileIndex index =
                    TileIndex.of(
                            grid.cell(tile.tile()), nodeCapacity, maxDepth, fences.entries(), own);
            fencesIndexed += index.fences();
            owned = new Owned(index, tile.shard());
            indexes.put(cell, owned);
        }
        return owned == null ? null : owned.index();
    }

    /** A tile of a group, whatever the shard. */
    private record Cell(String group, long tile) {

        // Written out, as TileKey's: the generated ones ran through uninlined method handles.
        @Override
        public boolean equals(Object o) {
            return o instanceof Cell c && tile == c.tile && Objects.equals(group, c.group);
        }

        @Override
        public int hashCode() {
            return 31 * Objects.hashCode(group) + Long.hashCode(tile);
        }
    }

    /** A tile's index, kept up to date by the updates of one of its shards, its owner. */
    private record Owned(TileIndex index, int owner) {}
}
