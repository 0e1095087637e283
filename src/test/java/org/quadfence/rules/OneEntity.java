package org.quadfence.rules;

import org.quadfence.model.EventType;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.model.Waypoint;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One entity taken through {@link EntityRules} as a stage takes it, without Flink: positions wait
 * until {@link #until} passes their time; then, time by time, the timers due fire before the
 * positions at that time. It records what the rules tell their caller.
 */
final class OneEntity implements EntityRules.Events, EntityRules.Timers {

    /** What the fixture keeps of the entity. */
    record Kept(String[] fenceIds, Visit[] visits, double lon, double lat, long timestamp)
            implements Entity {}

    private final EntityRules<Kept> rules;
    private final TreeMap<Long, List<Membership>> waiting = new TreeMap<>();

    /** The entity after the last time handled; null when the rules keep nothing of it. */
    Kept kept;

    /** The times of the timers set and not yet fired or deleted. */
    final TreeSet<Long> timers = new TreeSet<>();

    /** The events so far, each as "ENTER A @10 1.0": type, fence, time, latitude. */
    final List<String> events = new ArrayList<>();

    /** The visits of the events so far, each as "EXIT A @60 from 10": the visit's start. */
    final List<String> visits = new ArrayList<>();

    /** The numbers of the events so far, in the same order. */
    final List<Integer> numbers = new ArrayList<>();

    /** The entity's sets of fences so far, each as "[A, B] @10 1.0". */
    final List<String> sets = new ArrayList<>();

    OneEntity(long dwellMs, long ttlMs, boolean exitOnExpiry) {
        rules = new EntityRules<>(dwellMs, ttlMs, exitOnExpiry, Kept::new);
    }

    /** An entity without DWELL or expiry. */
    OneEntity() {
        this(0, 0, false);
    }

    /** The fence ids of an answer. */
    static String[] fences(String... ids) {
        return ids;
    }

    /**
     * A position at {@code t} and {@code lat} (lon 0) in the fences {@code inside} and within the
     * exit margin of {@code near}.
     */
    OneEntity at(long t, double lat, String[] inside, String... near) {
        return at(t, 0, lat, inside, near);
    }

    /**
     * A position at {@code t} and {@code lat} in the fences {@code inside} and near {@code near},
     * whose fences have the timings {@code timings} ({@link Membership#timings}: enterAfterMs,
     * exitAfterMs and DWELL time per fence of {@code inside}, then of {@code near}).
     */
    OneEntity timed(long t, double lat, String[] inside, String[] near, long... timings) {
        waiting.computeIfAbsent(t, k -> new ArrayList<>())
                .add(
                        new Membership(
                                Groups.DEFAULT,
                                "e",
                                t,
                                0,
                                lat,
                                inside,
                                near,
                                null,
                                new String[0],
                                new double[0],
                                timings));
        return this;
    }

    /** A position at {@code t}, {@code lon} and {@code lat}. */
    OneEntity at(long t, double lon, double lat, String[] inside, String... near) {
        waiting.computeIfAbsent(t, k -> new ArrayList<>())
                .add(new Membership(Groups.DEFAULT, "e", t, lon, lat, inside, near));
        return this;
    }

    /**
     * A position at {@code t}, {@code lon} and {@code lat} in the fences {@code inside} (none
     * near), whose path from {@code from} meets the fences {@code met} first at the fractions
     * {@code at}: one tile's answer (option {@code crossing}).
     */
    OneEntity step(
            Waypoint from,
            long t,
            double lon,
            double lat,
            String[] inside,
            String[] near,
            String[] met,
            double... at) {
        waiting.computeIfAbsent(t, k -> new ArrayList<>())
                .add(new Membership(Groups.DEFAULT, "e", t, lon, lat, inside, near, from, met, at));
        return this;
    }

    /** Handles every time up to {@code t}: timers first at each time, then positions. */
    OneEntity until(long t) throws Exception {
        while (true) {
            Long timer = timers.isEmpty() ? null : timers.first();
            Long position = waiting.isEmpty() ? null : waiting.firstKey();
            if (timer != null && timer <= t && (position == null || timer <= position)) {
                timers.pollFirst();
                if (kept != null) {
                    keep(rules.timers(kept, timer, this), timer);
                }
            } else if (position != null && position <= t) {
                keep(rules.positions(kept, waiting.pollFirstEntry().getValue(), this), position);
            } else {
                return this;
            }
        }
    }

    private void keep(Kept after, long t) throws Exception {
        rules.schedule(kept, after, t, this);
        kept = after;
    }

    @Override
    public void event(
            String fenceId,
            EventType type,
            long time,
            double lon,
            double lat,
            long enteredAt,
            int seq) {
        events.add(type + " " + fenceId + " @" + time + " " + lat);
        visits.add(
                type
                        + " "
                        + fenceId
                        + " @"
                        + time
                        + " from "
                        + (enteredAt == Visit.UNKNOWN ? "?" : String.valueOf(enteredAt)));
        numbers.add(seq);
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
        events.add(
                "CROSS "
                        + fenceId
                        + " @"
                        + time
                        + " "
                        + lat
                        + " from "
                        + from.timestamp()
                        + " at "
                        + at.timestamp()
                        + " ("
                        + at.lon()
                        + ", "
                        + at.lat()
                        + ")");
        numbers.add(seq);
    }

    @Override
    public void fencesChanged(String[] fenceIds, long time, double lon, double lat) {
        sets.add("[" + String.join(", ", fenceIds) + "] @" + time + " " + lat);
    }

    @Override
    public void set(long time) {
        timers.add(time);
    }

    @Override
    public void delete(long time) {
        timers.remove(time);
    }
}
