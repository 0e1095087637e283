package org.quadfence.rules;

import org.quadfence.geo.Path;
import org.quadfence.model.EventType;
import org.quadfence.model.Membership;
import org.quadfence.model.Waypoint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The rules of one entity (contract sections 3, 6 and 9): what its positions and its timers do to
 * the fences it is in, and which events they give, in which order.
 *
 * <p>For a position, with S the fences that contain it, K those within the exit margin of it and P
 * the entity's fences before it, the entity's new set N is S + (P intersected with K); the position
 * gives EXIT for P - N, then ENTER for N - P, each in ascending fence id order, at the position's
 * time and coordinates. Positions at one time are taken in ascending (lat, lon), and the answers
 * for one point (its exact duplicates, the tiles of each tier) count as one position: the union of
 * their fences.
 *
 * <p>Paths (option {@code crossing}, contract section 10): when the answers for a position carry
 * the fences its path from the entity's previous position meets ({@link Membership#pathIds}), with
 * P the entity's set before the position and N its set after it, each fence met that is neither in
 * P nor in N gives one CROSS before the position's EXITs and ENTERs, in ascending fence id order,
 * with {@code from} the previous position and {@code at} the first point of the path in the fence
 * (the least fraction s over the answers), at time ta + floor((tb - ta) * s). A CROSS changes no
 * set and starts no DWELL.
 *
 * <p>Timers: a fence entered at t0 and not left has its DWELL due at t0 + dwell-ms, with the
 * coordinates of the entity's latest position; an entity whose latest position is at t1 is
 * forgotten at t1 + entity-ttl, first leaving each of its fences when exit-on-expiry is set. At one
 * time, timer events come before position events: each call numbers its events in their order,
 * timer events from 0 and position events from {@link #FIRST_POSITION_EVENT}. An entity in no fence
 * is kept as nothing (null), and one in some fence has one pending expiry ({@link #schedule}).
 *
 * <p>One instance serves one caller, one entity at a time: it numbers events as it goes and keeps
 * one copy of each fence id for all the entities it makes (the ids of their states are shared).
 *
 * @param <S> the caller's type of entity
 */
public final class EntityRules<S extends Entity> {

    /** The number of the first event of an entity's positions at a time; timer events are below. */
    public static final int FIRST_POSITION_EVENT = 1 << 30;

    private static final String[] NO_FENCES = new String[0];
    private static final Comparator<Membership> SAME_TIME_ORDER =
            Comparator.comparingDouble(Membership::lat).thenComparingDouble(Membership::lon);
    private static final int SHARED_FENCE_IDS = 1 << 20;

    private final DueTimes times;
    private final boolean exitOnExpiry;
    private final Entity.Factory<S> entities;
    // One copy of each fence id for all entities; emptied when it grows past its limit.
    private final Map<String, String> fenceIds = new HashMap<>();
    // The number of the entity's next event at the time being handled.
    private int seq;

    /** Where the rules put an entity's events and changes of its set of fences. */
    public interface Events {

        /**
         * An event of the entity, in the order of the contract.
         *
         * @param time the event's time: the position's, or the time its timer fell due
         * @param lon the longitude of the entity's position then
         * @param lat the latitude of the entity's position then
         * @param seq the event's number among the entity's events at {@code time}
         */
        void event(String fenceId, EventType type, long time, double lon, double lat, int seq);

        /**
         * A CROSS of the entity (contract section 10), in the order of the contract: after the
         * timer events at {@code time}, before the position's EXITs and ENTERs.
         *
         * @param time the time of the position that ends the path
         * @param lon the longitude of that position
         * @param lat the latitude of that position
         * @param from the entity's previous position, where the path starts
         * @param at the first point of the path in the fence, with its time
         */
        default void cross(
                String fenceId,
                long time,
                double lon,
                double lat,
                Waypoint from,
                Waypoint at,
                int seq) {
            event(fenceId, EventType.CROSS, time, lon, lat, seq);
        }

        /**
         * The entity's set of fences became {@code fenceIds} (ascending; empty when it left them
         * all or was forgotten), after the events of the same change.
         */
        void fencesChanged(String[] fenceIds, long time, double lon, double lat);
    }

    /** The event-time timers of the current entity, which call the rules back when they fire. */
    public interface Timers {

        /** Sets a timer at {@code time}; setting one twice leaves one. */
        void set(long time);

        /** Deletes the timer at {@code time}, if any. */
        void delete(long time) throws Exception;
    }

    /**
     * @param dwellMs option {@code dwell-ms}; 0 for no DWELLs
     * @param ttlMs option {@code entity-ttl}; 0 for entities never forgotten
     * @param exitOnExpiry option {@code exit-on-expiry}
     * @param entities makes the entities the rules return
     */
    public EntityRules(long dwellMs, long ttlMs, boolean exitOnExpiry, Entity.Factory<S> entities) {
        this.times = new DueTimes(dwellMs, ttlMs);
        this.exitOnExpiry = exitOnExpiry;
        this.entities = entities;
    }

    /**
     * The entity after its positions at one time, whose events go to {@code out}.
     *
     * @param before the entity before that time, or null for one in no fence
     * @param atOneTime the answers for the entity's positions at that time, at least one; sorted
     *     here
     * @return the entity after them, or null when it is in no fence
     */
    public S positions(S before, List<Membership> atOneTime, Events out) {
        seq = FIRST_POSITION_EVENT;
        atOneTime.sort(SAME_TIME_ORDER);
        S s = before;
        for (int i = 0; i < atOneTime.size(); ) {
            int end = i + 1;
            while (end < atOneTime.size()
                    && atOneTime.get(end).lat() == atOneTime.get(i).lat()
                    && atOneTime.get(end).lon() == atOneTime.get(i).lon()) {
                end++;
            }
            s = step(s, union(atOneTime.subList(i, end)), out);
            i = end;
        }
        return s.fenceIds().length == 0 ? null : s;
    }

    /**
     * The entity after its timers at {@code t}: the DWELLs due then, then its expiry if due then;
     * the events go to {@code out}.
     *
     * @param s the entity, not null
     * @return the entity after them, or null when it is forgotten at {@code t}
     */
    public S timers(S s, long t, Events out) {
        seq = 0;
        long[] due = s.dwellDue();
        for (int i = 0; due != null && i < due.length; i++) {
            if (due[i] == t) {
                if (due == s.dwellDue()) {
                    due = due.clone();
                }
                due[i] = Entity.NO_DWELL;
                out.event(s.fenceIds()[i], EventType.DWELL, t, s.lon(), s.lat(), seq++);
            }
        }
        if (due != s.dwellDue()) {
            s = entities.make(s.fenceIds(), due, s.lon(), s.lat(), s.timestamp());
        }
        long expiry = expiry(s);
        if (expiry == DueTimes.NONE || expiry != t) {
            return s;
        }
        if (exitOnExpiry) {
            for (String fence : s.fenceIds()) {
                out.event(fence, EventType.EXIT, t, s.lon(), s.lat(), seq++);
            }
        }
        out.fencesChanged(NO_FENCES, t, s.lon(), s.lat());
        return null;
    }

    /**
     * Sets the timers that {@code after} needs and deletes those it no longer needs, once the
     * entity went from {@code before} to {@code after} at {@code t}: a timer when its DWELLs of
     * fences entered at {@code t} are due, and one for its expiry, which replaces the one of {@code
     * before} (unless a DWELL is due at that time too).
     *
     * @param before the entity before {@code t}, or null
     * @param after the entity after {@code t}, or null
     */
    public void schedule(S before, S after, long t, Timers timers) throws Exception {
        long dwell = times.dwell(t);
        if (dwell != DueTimes.NONE && dwellDueAt(after, dwell)) {
            timers.set(dwell);
        }
        long old = expiry(before);
        long now = expiry(after);
        if (old == now) {
            return;
        }
        if (old > t && !dwellDueAt(after, old)) {
            timers.delete(old);
        }
        if (now != DueTimes.NONE) {
            timers.set(now);
        }
    }

    private long expiry(S s) {
        return s == null ? DueTimes.NONE : times.expiry(s.timestamp());
    }

    private static boolean dwellDueAt(Entity s, long time) {
        if (s != null && s.dwellDue() != null) {
            for (long due : s.dwellDue()) {
                if (due == time) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Membership union(List<Membership> same) {
        Membership first = same.get(0);
        if (same.size() == 1) {
            return first;
        }
        TreeSet<String> inside = new TreeSet<>();
        TreeSet<String> near = new TreeSet<>();
        TreeMap<String, Double> met = null;
        Waypoint from = null;
        for (Membership m : same) {
            inside.addAll(Arrays.asList(m.fenceIds()));
            near.addAll(Arrays.asList(m.nearIds()));
            if (m.pathFrom() != null) {
                from = m.pathFrom();
                met = met == null ? new TreeMap<>() : met;
                for (int i = 0; i < m.pathIds().length; i++) {
                    met.merge(m.pathIds()[i], m.pathAt()[i], Math::min);
                }
            }
        }
        String[] pathIds = NO_FENCES;
        double[] pathAt = new double[0];
        if (met != null) {
            pathIds = met.keySet().toArray(NO_FENCES);
            pathAt = new double[pathIds.length];
            for (int i = 0; i < pathIds.length; i++) {
                pathAt[i] = met.get(pathIds[i]);
            }
        }
        return new Membership(
                first.group(),
                first.entityId(),
                first.timestamp(),
                first.lon(),
                first.lat(),
                inside.toArray(NO_FENCES),
                near.toArray(NO_FENCES),
                from,
                pathIds,
                pathAt);
    }

    /**
     * The CROSS events of position m: each fence its path meets that is neither in P ({@code was})
     * nor in N. N is S + (P intersected with K), so a fence not in P is in N only when it is in S.
     */
    private void crossings(String[] was, Membership m, Events out) {
        String[] met = m.pathIds();
        if (m.pathFrom() == null || met == null || met.length == 0) {
            return;
        }
        Waypoint a = m.pathFrom();
        Path path = null;
        for (int i = 0; i < met.length; i++) {
            String id = met[i];
            if ((was.length > 0 && Arrays.binarySearch(was, id) >= 0)
                    || Arrays.binarySearch(m.fenceIds(), id) >= 0) {
                continue;
            }
            double at = m.pathAt()[i];
            Waypoint c;
            if (at <= 0) {
                c = a;
            } else {
                path = path == null ? new Path(a.lon(), a.lat(), m.lon(), m.lat()) : path;
                c =
                        new Waypoint(
                                timeAt(a.timestamp(), m.timestamp(), at),
                                path.lonAt(at),
                                path.latAt(at));
            }
            out.cross(shared(id), m.timestamp(), m.lon(), m.lat(), a, c, seq++);
        }
    }

    /** ta + floor((tb - ta) * s), within [ta, tb]. */
    static long timeAt(long ta, long tb, double s) {
        long d = (long) Math.floor((tb - ta) * s);
        return ta + Math.max(0, Math.min(tb - ta, d));
    }

    /** The entity after position m: EXITs, then ENTERs, each by fence id. */
    private S step(S s, Membership m, Events out) {
        String[] was = s == null ? NO_FENCES : s.fenceIds();
        crossings(was, m, out);
        String[] inside = m.fenceIds();
        long t = m.timestamp();
        if (Arrays.equals(inside, was)) {
            // Most positions leave the entity in the fences it was in: nothing to merge.
            long[] due = s == null ? null : s.dwellDue();
            return entities.make(
                    was, due == null || noneDue(due, due.length) ? null : due, m.lon(), m.lat(), t);
        }
        String[] near = m.nearIds();
        long dwellAt = times.dwell(t);
        List<String> ids = new ArrayList<>(inside.length + was.length);
        long[] due = new long[inside.length + was.length];
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
                // The id the state holds (shared), not the answer's copy, which dies young.
                ids.add(was[j]);
                i++;
                j++;
            } else {
                if (Arrays.binarySearch(near, was[j]) >= 0) {
                    due[ids.size()] = s.dueAt(j);
                    ids.add(was[j]);
                } else {
                    changed = true;
                    out.event(was[j], EventType.EXIT, t, m.lon(), m.lat(), seq++);
                }
                j++;
            }
        }
        for (String id : ids) {
            if (was.length == 0 || Arrays.binarySearch(was, id) < 0) {
                changed = true;
                out.event(id, EventType.ENTER, t, m.lon(), m.lat(), seq++);
            }
        }
        String[] now = ids.toArray(NO_FENCES);
        if (changed) {
            out.fencesChanged(now, t, m.lon(), m.lat());
        }
        return entities.make(
                now,
                noneDue(due, ids.size())
                        ? null
                        : due.length == ids.size() ? due : Arrays.copyOf(due, ids.size()),
                m.lon(),
                m.lat(),
                t);
    }

    private static boolean noneDue(long[] due, int n) {
        for (int i = 0; i < n; i++) {
            if (due[i] != Entity.NO_DWELL) {
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
}
