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
import org.quadfence.model.Waypoint;
import org.quadfence.rules.DueTimes;
import org.quadfence.rules.EntityRules;
import org.quadfence.time.EventTimeStage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Keyed by group and entity: turns the fences that contain each position into ENTER, EXIT and DWELL
 * events, by the rules of {@link EntityRules}, around which it keeps the entity's state, timers,
 * metrics and output.
 *
 * <p>The memberships of one entity come from whichever tiles its positions fell in, in any order;
 * they wait until the watermark passes their time ({@link EventTimeStage}), and those of one time
 * go to the rules together. Timers run in event time and fire before the positions at their time.
 * An entity in no fence keeps no state, and one in some fence has one pending expiry timer, so
 * state and timers are bounded by the live entities.
 *
 * <p>With option {@code crossing}, the answers for a position also carry the fences its path from
 * the entity's previous position meets, which the rules turn into CROSS events (contract section
 * 10); nothing of them is kept.
 *
 * <p>Events leave without the fences' properties (the properties join adds them), numbered by the
 * rules among the entity's events at their time. Each time an entity's set of fences changes, its
 * new set goes to the side output {@link #CURRENT_FENCES} (contract section 9), after the events of
 * the position (or expiry) that changed it.
 *
 * <p>With option {@code max-backlog} (contract section 12), the answer for a backlog position waits
 * until the watermark passes the one it was read behind ({@link Membership#takenAt()}): by then
 * every answer for it, and for its entity's earlier positions, has come, whichever tiles gave them.
 * It is then taken in its entity's order, among the positions taken at that watermark. An entity's
 * timer due at d fires before its first position after d, or once the watermark passes d + {@code
 * max-backlog}, whichever comes first.
 */
public class MembershipTracker extends EventTimeStage<String, Membership, SequencedEvent>
        implements OneInputStreamOperator<Membership, SequencedEvent> {

    private static final long serialVersionUID = 1L;

    /** The side output of each entity's set of fences, each time it changes. */
    public static final OutputTag<CurrentFences> CURRENT_FENCES =
            new OutputTag<>("current-fences", TypeInformation.of(CurrentFences.class));

    private final long dwellMs;
    private final long ttlMs;
    private final boolean exitOnExpiry;
    private final boolean currentFences;

    private transient ValueState<EntityState> entity;
    private transient EntityRules<EntityState> rules;
    private transient Output output;
    private transient LongCounter recordsIn;
    private transient Counter enters;
    private transient Counter exits;
    private transient Counter dwells;
    private transient Counter crosses;
    private transient Counter expired;
    // The entity of the key being handed over, and its group.
    private transient String entityId;
    private transient String group;

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
        rules = new EntityRules<>(dwellMs, ttlMs, exitOnExpiry, EntityState::new);
        output = new Output();
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
        crosses = metrics.counter("crossEvents");
        expired = metrics.counter("expiredEntities");
    }

    @Override
    public void processElement(StreamRecord<Membership> record) throws Exception {
        recordsIn.add(1);
        hold(record.getValue(), record.getValue().takenAt());
    }

    @Override
    protected void onTimer(long t) throws Exception {
        EntityState before = entity.value();
        if (before != null) {
            String key = (String) getCurrentKey();
            group = Keys.group(key);
            entityId = Keys.id(key);
            if (maxBacklog() > 0) {
                timersUpTo(before, t - maxBacklog());
                return;
            }
            EntityState after = rules.timers(before, t, output);
            if (after == null) {
                expired.inc();
            }
            keep(before, after, t);
        }
    }

    @Override
    protected void onTime(long t, List<Membership> due) throws Exception {
        group = due.get(0).group();
        entityId = due.get(0).entityId();
        EntityState before = entity.value();
        if (maxBacklog() == 0) {
            keep(before, rules.positions(before, due, output), t);
            return;
        }
        // Backlog answers taken at t are earlier than t: each time of the entity's in turn, after
        // the entity's timers due up to it.
        if (due.size() > 1) {
            due.sort(Comparator.comparingLong(Membership::timestamp));
        }
        for (int i = 0; i < due.size(); ) {
            long time = due.get(i).timestamp();
            int end = i + 1;
            while (end < due.size() && due.get(end).timestamp() == time) {
                end++;
            }
            EntityState s = timersUpTo(before, time);
            List<Membership> atTime =
                    i == 0 && end == due.size() ? due : new ArrayList<>(due.subList(i, end));
            EntityState after = rules.positions(s, atTime, output);
            keep(s, after, time);
            before = after;
            i = end;
        }
    }

    /** Fires the timers of the entity {@code s} due up to {@code t}; returns it after them. */
    private EntityState timersUpTo(EntityState s, long t) throws Exception {
        long done = DueTimes.NONE;
        while (s != null) {
            long d = rules.nextDue(s, done);
            if (d == DueTimes.NONE || d > t) {
                break;
            }
            EntityState after = rules.timers(s, d, output);
            if (after == null) {
                expired.inc();
            }
            keep(s, after, d);
            s = after;
            done = d;
        }
        return s;
    }

    /** Moves the entity's timers and stores what is left of it after time t. */
    private void keep(EntityState before, EntityState after, long t) throws Exception {
        rules.schedule(before, after, t, output);
        if (after == null) {
            if (before != null) {
                entity.clear();
            }
        } else if (after != before) {
            entity.update(after);
        }
    }

    /**
     * The timestamp an event at {@code time} leaves with: its time, or with option {@code
     * max-backlog} the stage's clock when that is later (the events of a backlog position), so that
     * the stages after this one take them only once every event this stage gave before that clock
     * has reached them, whichever subtask of the properties join it went through.
     */
    private long leaving(long time) {
        return maxBacklog() > 0 ? Math.max(time, currentWatermark()) : time;
    }

    /** Where the rules' events and timers of the current key go. */
    private final class Output implements EntityRules.Events, EntityRules.Timers {

        @Override
        public void event(
                String fenceId,
                EventType type,
                long time,
                double lon,
                double lat,
                long enteredAt,
                int seq) {
            switch (type) {
                case ENTER -> enters.inc();
                case EXIT -> exits.inc();
                case DWELL -> dwells.inc();
                case CROSS -> crosses.inc();
            }
            emit(
                    new SequencedEvent(
                            new GeofenceEvent(
                                    entityId, fenceId, type, time, lon, lat, group, enteredAt),
                            seq),
                    leaving(time));
        }

        @Override
        public void cross(
                String fenceId,
                long time,
                double lon,
                double lat,
                Waypoint from,
                Waypoint at,
                int seq) {
            crosses.inc();
            emit(
                    new SequencedEvent(
                            new GeofenceEvent(
                                    entityId,
                                    fenceId,
                                    EventType.CROSS,
                                    time,
                                    lon,
                                    lat,
                                    null,
                                    group,
                                    from,
                                    at),
                            seq),
                    leaving(time));
        }

        @Override
        public void fencesChanged(String[] fenceIds, long time, double lon, double lat) {
            if (currentFences) {
                emit(
                        CURRENT_FENCES,
                        new CurrentFences(group, entityId, fenceIds, time, lon, lat),
                        time);
            }
        }

        @Override
        public void set(long time) {
            registerTimer(DueTimes.plus(time, maxBacklog()));
        }

        @Override
        public void delete(long time) throws Exception {
            deleteTimer(DueTimes.plus(time, maxBacklog()));
        }
    }
}
