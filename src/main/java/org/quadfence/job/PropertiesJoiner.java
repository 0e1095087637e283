package org.quadfence.job;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.model.GeofenceEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keyed by group and fence id: adds the fence's properties to its events. A fence's properties are
 * kept here once, not in every tile or entity that holds the fence, so a fence covering the world
 * with the largest properties allowed costs one copy of them.
 *
 * <p>An event gets the properties of the fence version in force at the event's time (none when the
 * fence is deleted then, as for the EXIT that follows a delete). Events wait until the watermark
 * passes their time, so that every fence change up to it has arrived whatever the interleaving of
 * the two inputs; versions older than the one in force at the watermark are dropped, and a deleted
 * fence leaves nothing behind.
 */
public class PropertiesJoiner
        extends KeyedCoProcessFunction<String, FenceProperties, SequencedEvent, SequencedEvent> {

    private static final long serialVersionUID = 1L;

    private transient MapState<Long, FenceProperties> versions;
    private transient TimeBuffer<SequencedEvent> pending;
    private transient LongCounter recordsIn;

    @Override
    public void open(OpenContext openContext) {
        versions =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "versions",
                                        Types.LONG,
                                        TypeInformation.of(FenceProperties.class)));
        pending =
                new TimeBuffer<>(
                        getRuntimeContext(), "pending", TypeInformation.of(SequencedEvent.class));
        recordsIn = StageLoad.counter(getRuntimeContext(), "PropertiesJoiner");
    }

    @Override
    public void processElement1(FenceProperties change, Context ctx, Collector<SequencedEvent> out)
            throws Exception {
        recordsIn.add(1);
        versions.put(change.timestamp(), change);
        if (change.timestamp() > ctx.timerService().currentWatermark()) {
            ctx.timerService().registerEventTimeTimer(change.timestamp());
        }
    }

    @Override
    public void processElement2(SequencedEvent e, Context ctx, Collector<SequencedEvent> out)
            throws Exception {
        recordsIn.add(1);
        long t = e.event().timestamp();
        if (t <= ctx.timerService().currentWatermark()) {
            out.collect(withProperties(e));
        } else if (pending.add(t, e)) {
            ctx.timerService().registerEventTimeTimer(t);
        }
    }

    @Override
    public void onTimer(long t, OnTimerContext ctx, Collector<SequencedEvent> out)
            throws Exception {
        for (SequencedEvent e : pending.take(t)) {
            out.collect(withProperties(e));
        }
        dropVersionsBefore(t);
    }

    private SequencedEvent withProperties(SequencedEvent e) throws Exception {
        FenceProperties v = inForce(e.event().timestamp());
        if (v == null || v.properties() == null) {
            return e;
        }
        GeofenceEvent g = e.event();
        return new SequencedEvent(
                new GeofenceEvent(
                        g.entityId(),
                        g.fenceId(),
                        g.event(),
                        g.timestamp(),
                        g.lon(),
                        g.lat(),
                        v.properties(),
                        g.group()),
                e.seq());
    }

    /** The version with the greatest time at or before {@code t}, or null. */
    private FenceProperties inForce(long t) throws Exception {
        FenceProperties best = null;
        for (FenceProperties v : versions.values()) {
            if (v.timestamp() <= t && (best == null || v.timestamp() > best.timestamp())) {
                best = v;
            }
        }
        return best;
    }

    // Every later event is after t: the version in force at t and the later ones are all that
    // can still matter, and a delete in force with nothing after it leaves nothing.
    private void dropVersionsBefore(long t) throws Exception {
        FenceProperties current = inForce(t);
        if (current == null) {
            return;
        }
        List<Long> old = new ArrayList<>();
        boolean later = false;
        for (Map.Entry<Long, FenceProperties> e : versions.entries()) {
            later |= e.getKey() > t;
            if (e.getKey() < current.timestamp() || (current.deleted() && e.getKey() <= t)) {
                old.add(e.getKey());
            }
        }
        if (current.deleted() && !later) {
            versions.clear();
            return;
        }
        for (long k : old) {
            versions.remove(k);
        }
    }
}
