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
 * Keyed by group and entity: turns the fences that contain each position into ENTER, EXIT and DWELL
 * events.
 *
 * <p>The memberships of one entity come from whichever tiles its positions fell in, in any order;
 * they wait in keyed state until the watermark passes their time. Positions at the same time are
 * taken in ascending (lat, lon), and exact duplicates count once. For each position, with S the
 * fences that contain it, K the fences within the exit margin of it and P the entity's fences
 * before it, the entity's new set N is S + (P intersected with K); the function emits EXIT for P -
 * N and then ENTER for N - P, each in ascending fence id order.
 *
 * <p>Timers run in event time. At a time t, timer events come before the events of positions at t:
 * a DWELL is due at t0 + dwell for a fence entered at t0 and not left since, with the coordinates
 * of the entity's latest position before t; an entity whose latest position is at t1 is forgotten
 * at t1 + ttl (with an EXIT for each of its fences when exit-on-expiry is set).
 */
public class MembershipTracker extends KeyedProcessFunction<String, Membership, GeofenceEvent> {

    private static final long serialVersionUID = 1L;

    private static final Comparator<Membership> SAME_TIME_ORDER =
            Comparator.comparingDouble(Membership::lat).thenComparingDouble(Membership::lon);

    private final long dwellMs;
    private final long ttlMs;
    private final boolean exitOnExpiry;

    private transient MapState<Long, List<Membership>> pending;
    private transient ValueState<EntityState> entity;
    private transient Counter enters;
    private transient Counter exits;
    private transient Counter dwells;
    private transient Counter expired;

    /**
     * @param dwellMs event time in a fence after which a DWELL is emitted; 0 for none
     * @param ttlMs event time without a position after which an entity is forgotten; 0 for never
     * @param exitOnExpiry whether a forgotten entity first gets an EXIT from each of its fences
     */
    public MembershipTracker(long dwellMs, long ttlMs, boolean exitOnExpiry) {
        this.dwellMs = dwellMs;
        this.ttlMs = ttlMs;
        this.exitOnExpiry = exitOnExpiry;
    }

    @Override
    public void open(OpenContext openContext) {
        pending =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "pending",
                                        Types.LONG,
                                        Types.LIST(TypeInformation.of(Membership.class))));
        entity =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "entity", TypeInformation.of(EntityState.class)));
        var metrics = getRuntimeContext().getMetricGroup();
        enters = metrics.counter("enterEvents");
        exits = metrics.counter("exitEvents");
        dwells = metrics.counter("dwellEvents");
        expired = metrics.counter("expiredEntities");
    }

    @Override
    public void processElement(Membership m, Context ctx, Collector<GeofenceEvent> out)
            throws Exception {
        pending.put(m.timestamp(), StateLists.appended(pending.get(m.timestamp()), m));
        ctx.timerService().registerEventTimeTimer(m.timestamp());
    }

    @Override
    public void onTimer(long t, OnTimerContext ctx, Collector<GeofenceEvent> out) throws Exception {
        EntityState before = entity.value();
        EntityState s = before == null ? null : timerEvents(before, t, out);
        List<Membership> stored = pending.get(t);
        if (stored != null) {
            pending.remove(t);
            // Sorted as a copy: a snapshot in progress may still be reading the stored list.
            List<Membership> due = new ArrayList<>(stored);
            due.sort(SAME_TIME_ORDER);
            Membership last = null;
            for (Membership m : due) {
                if (last == null || last.lat() != m.lat() || last.lon() != m.lon()) {
                    s = step(s, m, ctx, out);
                }
                last = m;
            }
            if (ttlMs > 0 && s != null) {
                ctx.timerService().registerEventTimeTimer(t + ttlMs);
            }
        }
        if (s == null || s.fenceIds().length == 0) {
            entity.clear();
        } else if (s != before) {
            entity.update(s);
        }
    }

    /** DWELLs due at t, then expiry at t; returns what is left of the entity (or null). */
    private EntityState timerEvents(EntityState s, long t, Collector<GeofenceEvent> out) {
        long[] due = s.dwellDue();
        for (int i = 0; i < due.length; i++) {
            if (due[i] == t) {
                if (due == s.dwellDue()) {
                    due = due.clone();
                }
                due[i] = EntityState.NO_DWELL;
                dwells.inc();
                out.collect(event(s, i, EventType.DWELL, t));
            }
        }
        if (due != s.dwellDue()) {
            s =
                    new EntityState(
                            s.group(),
                            s.entityId(),
                            s.fenceIds(),
                            s.properties(),
                            due,
                            s.lon(),
                            s.lat(),
                            s.timestamp());
        }
        if (ttlMs > 0 && s.timestamp() + ttlMs == t) {
            expired.inc();
            if (exitOnExpiry) {
                for (int i = 0; i < s.fenceIds().length; i++) {
                    exits.inc();
                    out.collect(event(s, i, EventType.EXIT, t));
                }
            }
            return null;
        }
        return s;
    }

    /** The entity after position m: EXITs, then ENTERs, each by fence id. */
    private EntityState step(
            EntityState s, Membership m, OnTimerContext ctx, Collector<GeofenceEvent> out) {
        String[] was = s == null ? new String[0] : s.fenceIds();
        String[] inside = m.fenceIds();
        String[] near = m.nearIds();
        List<String> ids = new ArrayList<>(inside.length + was.length);
        List<String> props = new ArrayList<>(inside.length + was.length);
        List<Long> due = new ArrayList<>(inside.length + was.length);
        int i = 0;
        int j = 0;
        // Merge S with the fences of P still within the margin, both sorted by id.
        while (i < inside.length || j < was.length) {
            int c = i == inside.length ? 1 : j == was.length ? -1 : inside[i].compareTo(was[j]);
            if (c < 0) {
                ids.add(inside[i]);
                props.add(m.properties()[i]);
                due.add(dwellMs > 0 ? m.timestamp() + dwellMs : EntityState.NO_DWELL);
                i++;
            } else if (c == 0) {
                ids.add(inside[i]);
                props.add(m.properties()[i]);
                due.add(s.dwellDue()[j]);
                i++;
                j++;
            } else {
                if (Arrays.binarySearch(near, was[j]) >= 0) {
                    ids.add(was[j]);
                    props.add(s.properties()[j]);
                    due.add(s.dwellDue()[j]);
                } else {
                    exits.inc();
                    out.collect(event(m, was[j], s.properties()[j], EventType.EXIT));
                }
                j++;
            }
        }
        boolean dwellDue = false;
        for (int k = 0; k < ids.size(); k++) {
            if (was.length == 0 || Arrays.binarySearch(was, ids.get(k)) < 0) {
                enters.inc();
                out.collect(event(m, ids.get(k), props.get(k), EventType.ENTER));
                dwellDue |= dwellMs > 0;
            }
        }
        if (dwellDue) {
            ctx.timerService().registerEventTimeTimer(m.timestamp() + dwellMs);
        }
        long[] dues = new long[due.size()];
        for (int k = 0; k < dues.length; k++) {
            dues[k] = due.get(k);
        }
        return new EntityState(
                m.group(),
                m.entityId(),
                ids.toArray(new String[0]),
                props.toArray(new String[0]),
                dues,
                m.lon(),
                m.lat(),
                m.timestamp());
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

    private static GeofenceEvent event(EntityState s, int fence, EventType type, long t) {
        return new GeofenceEvent(
                s.entityId(),
                s.fenceIds()[fence],
                type,
                t,
                s.lon(),
                s.lat(),
                s.properties()[fence],
                s.group());
    }
}
