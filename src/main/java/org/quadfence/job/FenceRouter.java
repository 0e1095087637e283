package org.quadfence.job;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.geo.Box;
import org.quadfence.model.FenceChange;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Keyed by group and fence id: cuts each version of a fence into tiles and tells every tile that
 * holds the fence, held it, or will hold it what the fence is there from the version's time on.
 *
 * <p>Changes may arrive out of order (within the watermark's bound). The function keeps the fence's
 * versions that are still ahead of the watermark, so that a change arriving between two known
 * versions also corrects the tiles of the version after it. Tiles apply these updates in event
 * time, so the result does not depend on arrival order. A change that arrives after the watermark
 * passed its time takes effect when it arrives, and is counted.
 */
public class FenceRouter extends KeyedProcessFunction<String, FenceChange, TileUpdate> {

    private static final long serialVersionUID = 1L;

    private final TileGrid grid;
    private transient MapState<Long, FenceChange> versions;
    private transient Counter changesIn;
    private transient Counter lateChanges;

    public FenceRouter(TileGrid grid) {
        this.grid = grid;
    }

    @Override
    public void open(OpenContext openContext) {
        versions =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "versions",
                                        Types.LONG,
                                        TypeInformation.of(FenceChange.class)));
        changesIn = getRuntimeContext().getMetricGroup().counter("fenceChangesIn");
        lateChanges = getRuntimeContext().getMetricGroup().counter("lateFenceChanges");
    }

    @Override
    public void processElement(FenceChange change, Context ctx, Collector<TileUpdate> out)
            throws Exception {
        changesIn.inc();
        long t = change.timestamp();
        if (t != Long.MIN_VALUE && t <= ctx.timerService().currentWatermark()) {
            // The tiles apply it at once; a version after it still wins from its own time on.
            lateChanges.inc();
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
        versions.put(t, change);
        TreeSet<Long> tiles = new TreeSet<>();
        if (previous != null) {
            tiles.addAll(cut(previous).keySet());
        }
        if (replaced != null) {
            tiles.addAll(cut(replaced).keySet());
        }
        emit(change, tiles, out);
        if (next != null) {
            emit(next, new TreeSet<>(cut(change).keySet()), out);
        }
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
        for (long k : keys) {
            if (k < inForce) {
                versions.remove(k);
            }
        }
        FenceChange current = versions.get(inForce);
        // A deleted fence leaves no state behind.
        if (!later && current != null && current.isDelete()) {
            versions.clear();
        }
    }

    /** Tells the tiles of {@code version} and the tiles in {@code alsoTell} what it is there. */
    private void emit(FenceChange version, TreeSet<Long> alsoTell, Collector<TileUpdate> out) {
        Map<Long, Box[]> clips = cut(version);
        alsoTell.addAll(clips.keySet());
        for (long tile : alsoTell) {
            out.collect(
                    new TileUpdate(
                            tile,
                            version.group(),
                            version.fenceId(),
                            version.timestamp(),
                            clips.get(tile),
                            version.properties()));
        }
    }

    /** The fence's pieces per tile; a tile wholly inside gets its whole cell (a marker). */
    private Map<Long, Box[]> cut(FenceChange version) {
        Map<Long, Box[]> clips = new HashMap<>();
        if (version.isDelete()) {
            return clips;
        }
        for (TileCut c : grid.cut(version.rect())) {
            clips.put(
                    c.tile(),
                    c.covered() ? new Box[] {grid.cell(c.tile())} : c.clips().toArray(new Box[0]));
        }
        return clips;
    }
}
