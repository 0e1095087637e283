package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.geo.Shape;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileCut;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Keyed by group and fence id: cuts each version of a fence into the tiles of its tier ({@link
 * Tiers}) and tells every tile that holds the fence, held it, or will hold it what the fence is
 * there from the version's time on.
 *
 * <p>Changes may arrive out of order (within the watermark's bound). The function keeps the fence's
 * versions that are still ahead of the watermark, so that a change arriving between two known
 * versions also corrects the tiles of the version after it. Tiles apply these updates in event
 * time, so the result does not depend on arrival order. A change that arrives after the watermark
 * passed its time takes effect when it arrives, and is counted. Once a delete is in force and no
 * later version is known, only the delete's time is kept, so that a late upsert older than the
 * delete cannot bring the fence back.
 */
public class FenceRouter extends KeyedProcessFunction<String, FenceChange, TileUpdate>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** The most fences whose last tiles a subtask keeps (about 100 bytes each). */
    private static final int LAST_CUTS = 1 << 17;

    private final Tiers tiers;
    private final double margin;
    private final double accuracyReach;
    private final int maxVertices;
    private transient MapState<Long, FenceChange> versions;
    private transient ValueState<Long> deletedAt;
    private transient Counter changesIn;
    private transient LongCounter recordsIn;
    private transient Counter lateChanges;
    private transient FenceChangeCodec codec;
    private transient Map<String, LastCut> lastCuts;

    /**
     * @param margin the exit margin in meters: a fence also goes to the tiles within this distance
     * @param maxVertices the job's vertex limit, checked on restore like the tiling
     */
    public FenceRouter(Tiers tiers, double margin, int maxVertices) {
        this(tiers, margin, 0, maxVertices);
    }

    /**
     * @param margin the exit margin in meters: a fence (without a margin of its own) also goes to
     *     the tiles within this distance
     * @param accuracyReach option {@code max-accuracy-meters}: the position accuracy the tiles must
     *     answer for exactly, so every fence goes to the tiles within it too, and a tile is covered
     *     only when it lies deeper inside than that; 0 for none
     * @param maxVertices the job's vertex limit, checked on restore like the tiling
     */
    public FenceRouter(Tiers tiers, double margin, double accuracyReach, int maxVertices) {
        this.tiers = tiers;
        this.margin = margin;
        this.accuracyReach = accuracyReach;
        this.maxVertices = maxVertices;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        StateOptions.check(
                context,
                Map.of(
                        "tile-level", String.valueOf(tiers.fine().level()),
                        "exit-margin-meters", String.valueOf(margin),
                        "max-accuracy-meters", String.valueOf(accuracyReach),
                        "max-vertices", String.valueOf(maxVertices)),
                Map.of("max-accuracy-meters", String.valueOf(0.0)));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {}

    @Override
    public void open(OpenContext openContext) {
        versions =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "versions",
                                        Types.LONG,
                                        TypeInformation.of(FenceChange.class)));
        deletedAt =
                getRuntimeContext().getState(new ValueStateDescriptor<>("deleted-at", Types.LONG));
        changesIn = getRuntimeContext().getMetricGroup().counter("fenceChangesIn");
        recordsIn = StageLoad.counter(getRuntimeContext(), "FenceRouter");
        lateChanges = getRuntimeContext().getMetricGroup().counter("lateFenceChanges");
        codec = new FenceChangeCodec();
        lastCuts = new HashMap<>();
    }

    @Override
    public void processElement(FenceChange change, Context ctx, Collector<TileUpdate> out)
            throws Exception {
        changesIn.inc();
        recordsIn.add(1);
        long t = change.timestamp();
        if (t != Long.MIN_VALUE && t <= ctx.timerService().currentWatermark()) {
            // The tiles apply it at once; a version after it still wins from its own time on.
            lateChanges.inc();
        }
        Long deleted = deletedAt.value();
        if (deleted != null && t < deleted) {
            // Older than a delete already in force: over before it could matter.
            return;
        }
        Map<Long, TileUpdate> cut;
        try {
            cut = cut(change);
        } catch (RuntimeException e) {
            // A defect, not a property of the input the codecs let through: the fence is set
            // aside with the reason, and the job goes on.
            ctx.output(DeadLetterSplitter.DEAD_LETTERS, uncut(change, e));
            return;
        }
        FenceChange replaced = versions.get(t);
        FenceChange previous = null;
        FenceChange next = null;
        for (Map.Entry<Long, FenceChange> e : versions.entries()) {
            long k = e.getKey();
            if (k < t && (previous == null || k > previous.timestamp())) {
                previous = e.getValue();
            } else if (k > t && (next == null || k < next.timestamp())) {
                next = e.getValue();
            }
        }
        // Its properties live in the properties join: kept here, they would be in state twice.
        versions.put(t, change.withoutProperties());
        String key = ctx.getCurrentKey();
        TreeSet<Long> tiles = new TreeSet<>();
        if (previous != null) {
            tiles.addAll(tilesOf(key, previous));
        }
        if (replaced != null) {
            tiles.addAll(tilesOf(key, replaced));
        }
        emit(change, cut, tiles, out);
        if (next != null) {
            emit(next, cut(next), new TreeSet<>(cut.keySet()), out);
        }
        remember(key, change, cut.keySet());
        if (t != Long.MIN_VALUE) {
            ctx.timerService().registerEventTimeTimer(t);
        }
    }

    /** Once the watermark passes a version, the versions before it can no longer matter. */
    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<TileUpdate> out)
            throws Exception {
        long watermark = ctx.timerService().currentWatermark();
        List<Long> keys = new ArrayList<>();
        versions.keys().forEach(keys::add);
        long inForce = Long.MIN_VALUE;
        boolean later = false;
        for (long k : keys) {
            if (k <= watermark) {
                inForce = Math.max(inForce, k);
            } else {
                later = true;
            }
        }
        boolean existed = deletedAt.value() != null;
        for (long k : keys) {
            if (k < inForce) {
                existed |= !versions.get(k).isDelete();
                versions.remove(k);
            }
        }
        FenceChange current = versions.get(inForce);
        // A deleted fence leaves only the delete's time behind; deleting an unknown id, nothing.
        if (!later && current != null && current.isDelete()) {
            versions.clear();
            if (existed) {
                deletedAt.update(current.timestamp());
            }
        } else if (current != null && !current.isDelete()) {
            deletedAt.clear();
        }
    }

    /** Tells the tiles of {@code version} and the tiles in {@code alsoTell} what it is there. */
    private static void emit(
            FenceChange version,
            Map<Long, TileUpdate> updates,
            TreeSet<Long> alsoTell,
            Collector<TileUpdate> out) {
        alsoTell.addAll(updates.keySet());
        for (long tile : alsoTell) {
            TileUpdate u = updates.get(tile);
            out.collect(
                    u != null
                            ? u
                            : new TileUpdate(
                                    tile,
                                    version.group(),
                                    version.fenceId(),
                                    version.timestamp(),
                                    null));
        }
    }

    private DeadLetter uncut(FenceChange change, RuntimeException e) {
        return new DeadLetter(
                DeadLetter.FENCES,
                "the fence could not be cut into tiles: " + e,
                new String(codec.encodeIdentity(change), StandardCharsets.UTF_8));
    }

    /** The tiles that {@code version} of the fence of {@code key} holds. */
    private Set<Long> tilesOf(String key, FenceChange version) {
        LastCut last = lastCuts.get(key);
        if (last != null && last.timestamp() == version.timestamp()) {
            return last.tiles();
        }
        return cut(version).keySet();
    }

    // Cutting a polygon again only to learn its tiles was half of this stage's work under fence
    // churn: the tiles of each fence's last change are kept, until too many fences have them.
    private void remember(String key, FenceChange change, Set<Long> tiles) {
        // Not change.shape(): that builds a polygon anew.
        if (change.rect() != null) {
            lastCuts.remove(key);
            return;
        }
        if (lastCuts.size() >= LAST_CUTS && !lastCuts.containsKey(key)) {
            lastCuts.clear();
        }
        lastCuts.put(key, new LastCut(change.timestamp(), Set.copyOf(tiles)));
    }

    /** The fence's update per tile: what each tile of its tier holds of it ({@link TileCut}). */
    private Map<Long, TileUpdate> cut(FenceChange v) {
        Map<Long, TileUpdate> updates = new HashMap<>();
        Shape shape = v.shape();
        if (shape == null) {
            return updates;
        }
        // A fence's own margin replaces the job's; the tiles answer for position accuracy too.
        double reach = Math.max(v.rules().marginOr(margin), accuracyReach);
        for (TileCut c : tiers.gridFor(shape, reach).cut(shape, reach, accuracyReach)) {
            updates.put(
                    c.tile(),
                    new TileUpdate(
                            c.tile(),
                            v.group(),
                            v.fenceId(),
                            v.timestamp(),
                            c.piece(),
                            0,
                            v.rules()));
        }
        return updates;
    }

    /** The tiles of a fence's version: the version at {@code timestamp}, the last one cut. */
    private record LastCut(long timestamp, Set<Long> tiles) {}
}
