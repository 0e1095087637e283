package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.model.Waypoint;
import org.quadfence.rules.DueTimes;
import org.quadfence.rules.PathSteps;
import org.quadfence.time.EventTimeStage;

import java.util.Comparator;
import java.util.List;

/**
 * Keyed by group and entity, only with option {@code crossing} (contract section 10): keeps each
 * entity's previous position and sends every position on with the path from it ({@link Step}), or
 * with none, by the rules of {@link PathSteps}. The tile stages then answer each path from every
 * tile it meets.
 *
 * <p>Positions wait until the watermark passes their time ({@link EventTimeStage}), so an entity's
 * positions are taken in the contract's order: ascending time, equal times by lat, then lon, exact
 * duplicates once (one goes on). With {@code entity-ttl}, the entity's previous position is
 * forgotten at its time + entity-ttl, by one timer per entity, so state and timers are bounded by
 * the live entities; the timer fires before positions at its time, so a position at exactly that
 * time finds it forgotten, as the entity stage does. Steps beyond {@code crossing-max-gap} or
 * {@code crossing-max-meters} go on without a path and are counted (metric {@value #SKIPPED}).
 */
public class PathTracker extends EventTimeStage<String, Position, Step>
        implements OneInputStreamOperator<Position, Step> {

    private static final long serialVersionUID = 1L;

    /** The metric of steps of consecutive positions not tested, beyond a bound. */
    public static final String SKIPPED = "crossingsSkipped";

    private static final Comparator<Position> SAME_TIME_ORDER =
            Comparator.comparingDouble(Position::lat).thenComparingDouble(Position::lon);

    private final long ttlMs;
    private final long maxGapMs;
    private final double maxMeters;

    private transient ValueState<Waypoint> previous;
    private transient PathSteps steps;
    private transient LongCounter recordsIn;
    private transient Counter skipped;
    private transient Counter tested;

    /**
     * @param ttlMs option {@code entity-ttl}; 0 for never
     * @param maxGapMs option {@code crossing-max-gap}; 0 for no limit
     * @param maxMeters option {@code crossing-max-meters}
     */
    public PathTracker(long ttlMs, long maxGapMs, double maxMeters) {
        super(TypeInformation.of(Position.class));
        this.ttlMs = ttlMs;
        this.maxGapMs = maxGapMs;
        this.maxMeters = maxMeters;
    }

    @Override
    public void open() throws Exception {
        super.open();
        steps = new PathSteps(ttlMs, maxGapMs, maxMeters);
        previous =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "previous-position", TypeInformation.of(Waypoint.class)));
        recordsIn = StageLoad.counter(getRuntimeContext(), "PathTracker");
        var metrics = getRuntimeContext().getMetricGroup();
        skipped = metrics.counter(SKIPPED);
        tested = metrics.counter("pathsTested");
    }

    /** The steps not tested so far in this subtask (metric {@value #SKIPPED}). */
    long skipped() {
        return skipped.getCount();
    }

    @Override
    public void processElement(StreamRecord<Position> record) throws Exception {
        recordsIn.add(1);
        Position p = record.getValue();
        long t = p.timestamp();
        if (t <= currentWatermark()) {
            // Not late where it was read, but behind this task's clock (a partition that was
            // idle): sent on at once, as the tile stage matches such a position at once.
            step(p);
        } else {
            hold(p, t);
        }
    }

    @Override
    protected void onTimer(long t) throws Exception {
        Waypoint a = previous.value();
        if (a != null && timerOf(steps.forgottenAt(a)) == t) {
            previous.clear();
        }
    }

    // With max-backlog, a backlog position may still come before the entity's previous position
    // is forgotten, so it is kept that much longer: each step asks whether it is forgotten anyway.
    private long timerOf(long forgottenAt) {
        return forgottenAt == DueTimes.NONE
                ? DueTimes.NONE
                : DueTimes.plus(forgottenAt, maxBacklog());
    }

    @Override
    protected void onTime(long t, List<Position> due) throws Exception {
        if (due.size() > 1) {
            due.sort(SAME_TIME_ORDER);
        }
        for (int i = 0; i < due.size(); i++) {
            Position p = due.get(i);
            if (i > 0 && p.lat() == due.get(i - 1).lat() && p.lon() == due.get(i - 1).lon()) {
                continue;
            }
            step(p);
        }
    }

    /** Sends {@code b} on with its path, and keeps it as the entity's previous position. */
    private void step(Position b) throws Exception {
        long t = b.timestamp();
        Waypoint a = previous.value();
        if (a != null && !steps.kept(a, t)) {
            a = null;
        }
        if (a != null && !PathSteps.after(a, t, b.lon(), b.lat())) {
            // A duplicate of the previous position, or one behind it (see processElement).
            emit(new Step(b, null, 0), t);
            return;
        }
        Waypoint from = null;
        switch (steps.step(a, t, b.lon(), b.lat())) {
            case TESTED -> {
                from = a;
                tested.inc();
            }
            case SKIPPED -> skipped.inc();
            case NONE -> {}
        }
        emit(new Step(b, from, 0), t);
        Waypoint now = new Waypoint(t, b.lon(), b.lat());
        previous.update(now);
        long old = a == null ? DueTimes.NONE : steps.forgottenAt(a);
        long next = steps.forgottenAt(now);
        if (old != next) {
            if (old != DueTimes.NONE && old > t) {
                deleteTimer(timerOf(old));
            }
            if (next != DueTimes.NONE) {
                registerTimer(timerOf(next));
            }
        }
    }
}
