package org.quadfence.job;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Membership;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Keyed by entity: turns the fences that contain each position into ENTER and EXIT events.
 *
 * <p>The memberships of one entity come from whichever tiles its positions fell in, in any order;
 * they wait in keyed state until the watermark passes their time. Positions at the same time are
 * taken in ascending (lat, lon), and exact duplicates count once. For each position, with S the
 * fences that contain it and P the entity's fences before it, the function emits EXIT for P - S and
 * then ENTER for S - P, each in ascending fence id order.
 */
public class MembershipTracker extends KeyedProcessFunction<String, Membership, GeofenceEvent> {

    private static final long serialVersionUID = 1L;

    private static final Comparator<Membership> SAME_TIME_ORDER =
            Comparator.comparingDouble(Membership::lat).thenComparingDouble(Membership::lon);

    private transient MapState<Long, List<Membership>> pending;
    private transient ValueState<Inside> inside;
    private transient Counter enters;
    private transient Counter exits;

    @Override
    public void open(OpenContext openContext) {
        pending =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "pending",
                                        Types.LONG,
                                        Types.LIST(TypeInformation.of(Membership.class))));
        inside =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "inside", TypeInformation.of(Inside.class)));
        enters = getRuntimeContext().getMetricGroup().counter("enterEvents");
        exits = getRuntimeContext().getMetricGroup().counter("exitEvents");
    }

    @Override
    public void processElement(Membership m, Context ctx, Collector<GeofenceEvent> out)
            throws Exception {
        List<Membership> list = pending.get(m.timestamp());
        List<Membership> copy = new ArrayList<>(list == null ? 1 : list.size() + 1);
        if (list != null) {
            copy.addAll(list);
        }
        copy.add(m);
        pending.put(m.timestamp(), copy);
        ctx.timerService().registerEventTimeTimer(m.timestamp());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<GeofenceEvent> out)
            throws Exception {
        List<Membership> stored = pending.get(timestamp);
        if (stored == null) {
            return;
        }
        pending.remove(timestamp);
        // Sorted as a copy: a snapshot in progress may still be reading the stored list.
        List<Membership> due = new ArrayList<>(stored);
        due.sort(SAME_TIME_ORDER);
        Inside before = inside.value();
        if (before == null) {
            before = Inside.NONE;
        }
        Membership last = null;
        for (Membership m : due) {
            if (last != null && last.lat() == m.lat() && last.lon() == m.lon()) {
                continue;
            }
            last = m;
            emitDiff(before, m, out);
            before = new Inside(m.fenceIds(), m.properties());
        }
        if (before.fenceIds().length == 0) {
            inside.clear();
        } else {
            inside.update(before);
        }
    }

    /** EXIT for each fence in before - now, then ENTER for each in now - before; both sorted. */
    private void emitDiff(Inside before, Membership now, Collector<GeofenceEvent> out) {
        String[] was = before.fenceIds();
        String[] is = now.fenceIds();
        for (int i = 0; i < was.length; i++) {
            if (Arrays.binarySearch(is, was[i]) < 0) {
                exits.inc();
                out.collect(event(now, was[i], before.properties()[i], EventType.EXIT));
            }
        }
        for (int i = 0; i < is.length; i++) {
            if (Arrays.binarySearch(was, is[i]) < 0) {
                enters.inc();
                out.collect(event(now, is[i], now.properties()[i], EventType.ENTER));
            }
        }
    }

    private static GeofenceEvent event(
            Membership m, String fenceId, String properties, EventType type) {
        return new GeofenceEvent(
                m.entityId(),
                fenceId,
                type,
                m.timestamp(),
                m.lon(),
                m.lat(),
                properties,
                m.group());
    }
}
