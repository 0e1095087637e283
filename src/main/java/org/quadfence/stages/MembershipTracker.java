package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

import org.quadfence.model.CurrentFences;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Membership;
import org.quadfence.time.EventTimeStage;
import org.quadfence.time.Times;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Keyed by group and entity: turns the fences that contain each position into ENTER, EXIT and DWELL
 * events.
 *
 * <p>The memberships of one entity come from whichever tiles its positions fell in, in any order;
 * they wait until the watermark passes their time ({@link EventTimeStage}). Positions at the same
 * time are taken in ascending (lat, lon), and exact duplicates count once; the answers of the two
 * tile tiers for one position are joined here. For each position, with S the fences that contain
 * it, K the fences within the exit margin of it and P the entity's fences before it, the entity's
 * new set N is S + (P intersected with K); the function emits EXIT for P - N and then ENTER for N -
 * P, each in ascending fence id order.
 *
 * <p>Timers run in event time. At a time t, timer events come before the events of positions at t:
 * a DWELL is due at t0 + dwell for a fence entered at t0 and not left since, with the coordinates
 * of the entity's latest position before t; an entity whose latest position is at t1 is forgotten
 * at t1 + ttl (with an EXIT for each of its fences when exit-on-expiry is set). An entity in no
 * fence keeps no state (forgetting it would change nothing), and one in some fence has one pending
 * expiry timer, so state and timers are bounded by the live entities.
 *
 * <p>Events leave without the fences' properties (the properties join adds them), numbered in the
 * order of the contract among the entity's events at their time: timer events first. Each time an
 * entity's set of fences changes, its new set goes to the side output {@link #CURRENT_FENCES}
 * (contract section 9), after the events of the position (or expiry) that changed it.
 */
public class MembershipTracker extends EventTimeStage<String, Membership, SequencedEvent>
        implements OneInputStreamOperator<Membership, SequencedEvent> {

    private static final long serialVersionUID = 1L;

    /** The side output of each entity's set of fences, each time it changes. */
    public static final OutputTag<CurrentFences> CURRENT_FENCES =
            new OutputTag<>("current-fences", TypeInformation.of(CurrentFences.class));

    private static final String[] NO_FENCES = new String[0];

    private static final Comparator<Membership> SAME_TIME_ORDER =
            Comparator.comparingDouble(Membership::lat).thenComparingDouble(Membership::lon);
    private static final long NO_EXPIRY = Long.MIN_VALUE;
    // The events of positions are numbered after those of timers at the same time.
    static final int FIRST_POSITION_EVENT = 1 << 30;
    private static final int SHARED_FENCE_IDS = 1 << 20;

    private final long dwellMs;
    private final long ttlMs;
    private final boolean exitOnExpiry;
    private final boolean currentFences;

    private transient ValueState<EntityState> entity;
    private transient LongCounter recordsIn;
    private transient Counter enters;
    private transient Counter exits;
    private transient Counter dwells;
    private transient Counter expired;
    // The number of the current key's next event at the time being handed over.
    private transient int seq;
    // The entity of the key being handed over, and its group.
    private transient String entityId;
    private transient String group;
    // One copy of each fence id for all entities' states; emptied when it grows past its limit.
    private transient Map<String, String> fenceIds;

    /**
     * @param dwellMs event time in a fence after which a DWELL is emitted; 0 for none
     * @param ttlMs event time without a position after which an entity is forgotten; 0 for never
     * @param exitOnExpiry whether a forgotten entity first gets an EXIT from each of its fences
     */
    public MembershipTracker(long dwellMs, long ttlMs, boolean exitOnExpiry) {
        this(dwellMs, ttlMs, exitOnExpiry, true);
    }

    /**
     * @param currentFences whether each change of an entity's set goes to {@link #CURRENT_FENCES}
     *     (off when nothing reads them: one record less per change)
     */
    public MembershipTracker(
            long dwellMs, long ttlMs, boolean exitOnExpiry, boolean currentFences) {
        super(TypeInformation.of(Membership.class));
        this.dwellMs = dwellMs;
        this.ttlMs = ttlMs;
        this.exitOnExpiry = exitOnExpiry;
        this.currentFences = currentFences;
    }

    @Override
    public void open() throws Exception {
        super.open();
        fenceIds = new HashMap<>();
        entity =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "entity", TypeInformation.of(EntityState.class)));
        recordsIn = StageLoad.counter(getRuntimeContext(), "MembershipTracker");
        var metrics = getRuntimeContext().getMetricGroup();
        enters = metrics.counter("enterEvents");
        exits = metrics.counter("exitEvents");
        dwells = metrics.counter("dwellEvents");
        expired = metrics.counter("expiredEntities");
    }

    @Override
    public void processElement(StreamRecord<Membership> record) throws Exception {
        recordsIn.add(1);
        hold(record.getValue(), record.getValue().timestamp());
    }

    @Override
    protected void onTimer(long t) throws Exception {
        EntityState before = entity.value();
        if (before != null) {
            String key = (String) getCurrentKey();
            group = Keys.group(key);
            entityId = Keys.id(key);
            seq = 0;
            finish(before, timerEvents(before, t), t);
        }
    }

    @Override
    protected void onTime(long t, List<Membership> due) throws Exception {
        seq = FIRST_POSITION_EVENT;
        group = due.get(0).group();
        entityId = due.get(0).entityId();
        EntityState before = entity.value();
        EntityState s = before;
        due.sort(SAME_TIME_ORDER);
        for (int i = 0; i < due.size(); ) {
            // The answers of every tile stage for one position, and its exact duplicates, count
            // as one position: the union of their fences.
            int end = i + 1;
            while (end < due.size()
                    && due.get(end).lat() == due.get(i).lat()
                    && due.get(end).lon() == due.get(i).lon()) {
                end++;
            }
            s = step(s, union(due.subList(i, end)));
            i = end;
        }
        finish(before, s, t);
    }

    /** Stores what is left of the entity after time t and moves its expiry timer. */
    private void finish(EntityState before, EntityState s, long t) throws Exception {
        if (s != null && s.fenceIds().length == 0) {
            s = null;
        }
        if (ttlMs > 0) {
            moveExpiry(expiry(before), expiry(s), s, t);
        }
        if (s == null) {
            if (before != null) {
                entity.clear();
            }
        } else if (s != before) {
            entity.update(s);
        }
    }

    private static Membership union(List<Membership> same) {
        Membership first = same.get(0);
        if (same.size() == 1) {
            return first;
        }
        TreeSet<String> inside = new TreeSet<>();
        TreeSet<String> near = new TreeSet<>();
        for (Membership m : same) {
            inside.addAll(Arrays.asList(m.fenceIds()));
            near.addAll(Arrays.asList(m.nearIds()));
        }
        return new Membership(
                first.group(),
                first.entityId(),
                first.timestamp(),
                first.lon(),
                first.lat(),
                inside.toArray(new String[0]),
                near.toArray(new String[0]));
    }

    private long expiry(EntityState s) {
        return s == null ? NO_EXPIRY : Times.plus(s.timestamp(), ttlMs);
    }

    // One expiry timer per entity: the old one goes unless something else is due at its time.
    private void moveExpiry(long old, long now, EntityState s, long t) throws Exception {
        if (old == now) {
            return;
        }
        if (old > t && !dwellDueAt(s, old)) {
            deleteTimer(old);
        }
        if (now != NO_EXPIRY) {
            registerTimer(now);
        }
    }

    private static boolean dwellDueAt(EntityState s, long time) {
        if (s != null && s.dwellDue() != null) {
            for (long due : s.dwellDue()) {
                if (due == time) {
                    return true;
                }
            }
        }
        return false;
    }

    /** DWELLs due at t, then expiry at t; returns what is left of the entity (or null). */
    private EntityState timerEvents(EntityState s, long t) {
        long[] due = s.dwellDue();
        for (int i = 0; due != null && i < due.length; i++) {
            if (due[i] == t) {
                if (due == s.dwellDue()) {
                    due = due.clone();
                }
                due[i] = EntityState.NO_DWELL;
                dwells.inc();
                emit(s, s.fenceIds()[i], EventType.DWELL, t);
            }
        }
        if (due != s.dwellDue()) {
            s = new EntityState(s.fenceIds(), due, s.lon(), s.lat(), s.timestamp());
        }
        if (ttlMs > 0 && expiry(s) == t) {
            expired.inc();
            if (exitOnExpiry) {
                for (String fence : s.fenceIds()) {
                    exits.inc();
                    emit(s, fence, EventType.EXIT, t);
                }
            }
            if (currentFences) {
                emit(
                        CURRENT_FENCES,
                        new CurrentFences(group, entityId, NO_FENCES, t, s.lon(), s.lat()),
                        t);
            }
            return null;
        }
        return s;
    }

    /** The entity after position m: EXITs, then ENTERs, each by fence id. */
    private EntityState step(EntityState s, Membership m) {
        String[] was = s == null ? NO_FENCES : s.fenceIds();
        String[] inside = m.fenceIds();
        String[] near = m.nearIds();
        long dwellAt = dwellMs > 0 ? Times.plus(m.timestamp(), dwellMs) : EntityState.NO_DWELL;
        List<String> ids = new ArrayList<>(inside.length + was.length);
        long[] due = new long[inside.length + was.length];
        EntityState position = new EntityState(null, null, m.lon(), m.lat(), m.timestamp());
        int i = 0;
        int j = 0;
        boolean changed = false;
        // Merge S with the fences of P still within the margin, both sorted by id.
        while (i < inside.length || j < was.length) {
            int c = i == inside.length ? 1 : j == was.length ? -1 : inside[i].compareTo(was[j]);
            if (c < 0) {
                due[ids.size()] = dwellAt;
                ids.add(shared(inside[i]));
                i++;
            } else if (c == 0) {
                due[ids.size()] = s.dueAt(j);
                ids.add(inside[i]);
                i++;
                j++;
            } else {
                if (Arrays.binarySearch(near, was[j]) >= 0) {
                    due[ids.size()] = s.dueAt(j);
                    ids.add(was[j]);
                } else {
                    exits.inc();
                    changed = true;
                    emit(position, was[j], EventType.EXIT, m.timestamp());
                }
                j++;
            }
        }
        boolean dwellDue = false;
        for (String id : ids) {
            if (was.length == 0 || Arrays.binarySearch(was, id) < 0) {
                enters.inc();
                changed = true;
                emit(position, id, EventType.ENTER, m.timestamp());
                dwellDue |= dwellMs > 0;
            }
        }
        if (dwellDue) {
            registerTimer(dwellAt);
        }
        String[] now = ids.toArray(NO_FENCES);
        if (changed && currentFences) {
            emit(
                    CURRENT_FENCES,
                    new CurrentFences(group, entityId, now, m.timestamp(), m.lon(), m.lat()),
                    m.timestamp());
        }
        return new EntityState(
                now,
                noneDue(due, ids.size())
                        ? null
                        : due.length == ids.size() ? due : Arrays.copyOf(due, ids.size()),
                m.lon(),
                m.lat(),
                m.timestamp());
    }

    private static boolean noneDue(long[] due, int n) {
        for (int i = 0; i < n; i++) {
            if (due[i] != EntityState.NO_DWELL) {
                return false;
            }
        }
        return true;
    }

    private String shared(String fenceId) {
        if (fenceIds.size() >= SHARED_FENCE_IDS) {
            fenceIds.clear();
        }
        String known = fenceIds.putIfAbsent(fenceId, fenceId);
        return known == null ? fenceId : known;
    }

    /** An event at the entity's position in {@code s}, numbered after the key's earlier ones. */
    private void emit(EntityState s, String fenceId, EventType type, long t) {
        emit(
                new SequencedEvent(
                        new GeofenceEvent(
                                entityId, fenceId, type, t, s.lon(), s.lat(), null, group),
                        seq++),
                t);
    }
}
