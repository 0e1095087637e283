package org.quadfence.rules;

import org.quadfence.geo.Path;
import org.quadfence.model.EventType;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Membership;
import org.quadfence.model.Waypoint;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules of one entity (contract sections 3, 6, 9, 10 and 11): what its positions and its timers
 * do to the fences it is in, and which events they give, in which order.
 *
 * <p>For a position, with S the fences that contain it, K those near it (both as the tiles answer,
 * accuracy and rules applied) and M the entity's raw set before it, the raw set after it is S + (M
 * intersected with K). The confirmed set C, which the events report, follows M: a fence that joins
 * M is ENTERed at once, or, with an {@code enterAfterMs} of e, at t0 + e if it stays in M at every
 * position until then (a timer); a fence that leaves M is EXITed at once, or, with an {@code
 * exitAfterMs} of x, at t1 + x if it stays out until then. A position gives the EXITs of the fences
 * that leave C at it, then the ENTERs of those that join C, each in ascending fence id order, at
 * the position's time and coordinates. Positions at one time are taken in ascending (lat, lon), and
 * the answers for one point (its exact duplicates, the tiles of each tier) count as one position:
 * the union of their fences.
 *
 * <p>Visits: every ENTER, DWELL and EXIT carries the start of its visit, the time the fence last
 * joined M before it joined C. A fence's DWELL is due its DWELL time (its own {@code dwellMs}, else
 * {@code dwell-ms}, of the version it joined M with) after its ENTER, if it is still in C then.
 *
 * <p>Paths (option {@code crossing}, contract section 10): when the answers for a position carry
 * the fences its path from the entity's previous position meets ({@link Membership#pathIds}), with
 * P the entity's raw set before the position and N its raw set after it, each fence met that is
 * neither in P nor in N gives one CROSS before the position's EXITs and ENTERs, in ascending fence
 * id order, with {@code from} the previous position and {@code at} the first point of the path in
 * the fence (the least fraction s over the answers), at time ta + floor((tb - ta) * s). A CROSS
 * changes no set and starts no DWELL.
 *
 * <p>Timers: at a time t, the confirmations due then come first, then the DWELLs, then the entity's
 * expiry (t1 + entity-ttl after its latest position at t1; it first leaves each fence of C when
 * exit-on-expiry is set, and its clocks stop). Timer events come before position events at one
 * time: each call numbers its events in their order, timer events from 0 and position events from
 * {@link #FIRST_POSITION_EVENT}. An entity in no fence is kept as nothing (null); one in some fence
 * has one pending expiry and at most one clock per fence ({@link #schedule}).
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
    private static final Visit[] NO_VISITS = new Visit[0];
    private static final long[] DEFAULT_TIMING = {0, 0, FenceRules.JOB_DWELL};
    private static final Comparator<Membership> SAME_TIME_ORDER =
            Comparator.comparingDouble(Membership::lat).thenComparingDouble(Membership::lon);
    private static final int SHARED_FENCE_IDS = 1 << 20;

    private final long dwellMs;
    private final long ttlMs;
    private final boolean exitOnExpiry;
    private final Entity.Factory<S> entities;
    // One copy of each fence id for all entities; emptied when it grows past its limit.
    private final Map<String, String> fenceIds = new HashMap<>();
    // The number of the entity's next event at the time being handled.
    private int seq;

    /** Where the rules put an entity's events and changes of its set of fences. */
    public interface Events {

        /**
         * An ENTER, EXIT or DWELL of the entity, in the order of the contract.
         *
         * @param time the event's time: the position's, or the time its timer fell due
         * @param lon the longitude of the entity's position then
         * @param lat the latitude of the entity's position then
         * @param enteredAt the start of the visit, or {@link Visit#UNKNOWN}
         * @param seq the event's number among the entity's events at {@code time}
         */
        void event(
                String fenceId,
                EventType type,
                long time,
                double lon,
                double lat,
                long enteredAt,
                int seq);

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
        void cross(
                String fenceId,
                long time,
                double lon,
                double lat,
                Waypoint from,
                Waypoint at,
                int seq);

        /**
         * The entity's confirmed set became {@code fenceIds} (ascending; empty when it left them
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
     * @param dwellMs option {@code dwell-ms}; 0 for no DWELLs (fences may have their own)
     * @param ttlMs option {@code entity-ttl}; 0 for entities never forgotten
     * @param exitOnExpiry option {@code exit-on-expiry}
     * @param entities makes the entities the rules return
     */
    public EntityRules(long dwellMs, long ttlMs, boolean exitOnExpiry, Entity.Factory<S> entities) {
        this.dwellMs = dwellMs;
        this.ttlMs = ttlMs;
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
     * The entity after its timers at {@code t}: the confirmations due then, then its DWELLs, then
     * its expiry if due then; the events go to {@code out}.
     *
     * @param s the entity, not null
     * @return the entity after them, or null when it is in no fence or forgotten at {@code t}
     */
    public S timers(S s, long t, Events out) {
        seq = 0;
        String[] ids = s.fenceIds();
        Visit[] visits = s.visits();
        boolean changed = false;
        Visit[] now = visits;
        int kept = ids.length;
        for (int i = 0; i < ids.length; i++) {
            Visit v = visits[i];
            if (v.clockDue() != t) {
                continue;
            }
            now = now == visits ? visits.clone() : now;
            changed = true;
            if (v.phase() == Visit.ENTERING) {
                out.event(ids[i], EventType.ENTER, t, s.lon(), s.lat(), start(v), seq++);
                now[i] = v.to(Visit.IN, DueTimes.NONE);
            } else {
                out.event(ids[i], EventType.EXIT, t, s.lon(), s.lat(), start(v), seq++);
                now[i] = null;
                kept--;
            }
        }
        for (int i = 0; i < ids.length; i++) {
            Visit v = now[i];
            if (v != null && v.confirmed() && v.dwellDue() == t) {
                now = now == visits ? visits.clone() : now;
                out.event(ids[i], EventType.DWELL, t, s.lon(), s.lat(), start(v), seq++);
                now[i] = v.dwelt();
            }
        }
        String[] nowIds = ids;
        if (kept < ids.length) {
            nowIds = new String[kept];
            Visit[] left = new Visit[kept];
            for (int i = 0, k = 0; i < ids.length; i++) {
                if (now[i] != null) {
                    nowIds[k] = ids[i];
                    left[k++] = now[i];
                }
            }
            now = left;
        }
        if (expiry(s) == t) {
            boolean inside = false;
            for (int i = 0; i < nowIds.length; i++) {
                if (now[i].confirmed()) {
                    inside = true;
                    if (exitOnExpiry) {
                        out.event(
                                nowIds[i],
                                EventType.EXIT,
                                t,
                                s.lon(),
                                s.lat(),
                                start(now[i]),
                                seq++);
                    }
                }
            }
            if (inside || changed) {
                out.fencesChanged(NO_FENCES, t, s.lon(), s.lat());
            }
            return null;
        }
        if (changed) {
            out.fencesChanged(confirmed(nowIds, now), t, s.lon(), s.lat());
        }
        if (nowIds.length == 0) {
            return null;
        }
        return now == visits ? s : entities.make(nowIds, now, s.lon(), s.lat(), s.timestamp());
    }

    /**
     * Sets the timers that {@code after} needs and deletes those it no longer needs, once the
     * entity went from {@code before} to {@code after} at {@code t}: one at each time a clock, a
     * DWELL or the expiry of {@code after} is due, and none at a later time only {@code before}
     * needed.
     *
     * @param before the entity before {@code t}, or null
     * @param after the entity after {@code t}, or null
     */
    public void schedule(S before, S after, long t, Timers timers) throws Exception {
        long oldExpiry = expiry(before);
        long newExpiry = expiry(after);
        if (before != null && after != null && before.visits() == after.visits()) {
            // Only the expiry moves, as for most positions.
            if (oldExpiry != newExpiry) {
                if (oldExpiry > t && !dueIn(after.visits(), oldExpiry)) {
                    timers.delete(oldExpiry);
                }
                if (newExpiry != DueTimes.NONE) {
                    timers.set(newExpiry);
                }
            }
            return;
        }
        long[] was = dues(before, oldExpiry);
        long[] now = dues(after, newExpiry);
        for (long d : was) {
            if (d > t && Arrays.binarySearch(now, d) < 0) {
                timers.delete(d);
            }
        }
        for (long d : now) {
            if (Arrays.binarySearch(was, d) < 0) {
                timers.set(d);
            }
        }
    }

    /**
     * The earliest time after {@code after} at which a timer of {@code s} is due (a clock, a DWELL
     * or the expiry), or {@link DueTimes#NONE}.
     */
    public long nextDue(S s, long after) {
        long next = earliestAfter(DueTimes.NONE, expiry(s), after);
        for (Visit v : s.visits()) {
            next = earliestAfter(next, v.clockDue(), after);
            next = earliestAfter(next, v.dwellDue(), after);
        }
        return next;
    }

    // The earlier of next and d, of those after `after` (DueTimes.NONE: no time).
    private static long earliestAfter(long next, long d, long after) {
        return d != DueTimes.NONE && d > after && (next == DueTimes.NONE || d < next) ? d : next;
    }

    private static boolean dueIn(Visit[] visits, long time) {
        for (Visit v : visits) {
            if (v.clockDue() == time || v.dwellDue() == time) {
                return true;
            }
        }
        return false;
    }

    // Every time a timer of s is due at, ascending, each once.
    private static long[] dues(Entity s, long expiry) {
        if (s == null) {
            return new long[0];
        }
        Visit[] visits = s.visits();
        long[] d = new long[2 * visits.length + 1];
        int n = 0;
        for (Visit v : visits) {
            if (v.clockDue() != DueTimes.NONE) {
                d[n++] = v.clockDue();
            }
            if (v.dwellDue() != DueTimes.NONE) {
                d[n++] = v.dwellDue();
            }
        }
        if (expiry != DueTimes.NONE) {
            d[n++] = expiry;
        }
        Arrays.sort(d, 0, n);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (k == 0 || d[i] != d[k - 1]) {
                d[k++] = d[i];
            }
        }
        return Arrays.copyOf(d, k);
    }

    private long expiry(S s) {
        return s == null || ttlMs <= 0 ? DueTimes.NONE : DueTimes.plus(s.timestamp(), ttlMs);
    }

    // The visit's start; a state of an earlier format kept only the DWELL's due time, which was
    // dwell-ms after the ENTER.
    private long start(Visit v) {
        if (v.enteredAt() != Visit.UNKNOWN) {
            return v.enteredAt();
        }
        return v.dwellDue() != DueTimes.NONE && dwellMs > 0
                ? v.dwellDue() - dwellMs
                : Visit.UNKNOWN;
    }

    private static String[] confirmed(String[] ids, Visit[] visits) {
        int n = 0;
        for (Visit v : visits) {
            n += v.confirmed() ? 1 : 0;
        }
        if (n == ids.length) {
            return ids;
        }
        String[] c = new String[n];
        for (int i = 0, k = 0; i < ids.length; i++) {
            if (visits[i].confirmed()) {
                c[k++] = ids[i];
            }
        }
        return c;
    }

    private static Membership union(List<Membership> same) {
        Membership first = same.get(0);
        if (same.size() == 1) {
            return first;
        }
        TreeMap<String, long[]> inside = new TreeMap<>();
        TreeMap<String, long[]> near = new TreeMap<>();
        TreeMap<String, Double> met = null;
        Waypoint from = null;
        boolean timed = false;
        for (Membership m : same) {
            timed |= m.timings() != null;
            for (int i = 0; i < m.fenceIds().length; i++) {
                inside.put(m.fenceIds()[i], timing(m, i));
            }
            for (int i = 0; i < m.nearIds().length; i++) {
                near.put(m.nearIds()[i], timing(m, m.fenceIds().length + i));
            }
            if (m.pathFrom() != null) {
                from = m.pathFrom();
                met = met == null ? new TreeMap<>() : met;
                for (int i = 0; i < m.pathIds().length; i++) {
                    met.merge(m.pathIds()[i], m.pathAt()[i], Math::min);
                }
            }
        }
        near.keySet().removeAll(inside.keySet());
        String[] pathIds = NO_FENCES;
        double[] pathAt = new double[0];
        if (met != null) {
            pathIds = met.keySet().toArray(NO_FENCES);
            pathAt = new double[pathIds.length];
            for (int i = 0; i < pathIds.length; i++) {
                pathAt[i] = met.get(pathIds[i]);
            }
        }
        long[] timings = null;
        if (timed) {
            timings = new long[Membership.TIMING * (inside.size() + near.size())];
            int k = 0;
            for (long[] t : inside.values()) {
                System.arraycopy(t, 0, timings, k, Membership.TIMING);
                k += Membership.TIMING;
            }
            for (long[] t : near.values()) {
                System.arraycopy(t, 0, timings, k, Membership.TIMING);
                k += Membership.TIMING;
            }
        }
        return new Membership(
                first.group(),
                first.entityId(),
                first.timestamp(),
                first.lon(),
                first.lat(),
                inside.keySet().toArray(NO_FENCES),
                near.keySet().toArray(NO_FENCES),
                from,
                pathIds,
                pathAt,
                timings);
    }

    // The timing of the i-th fence of m's answer (inside, then near).
    private static long[] timing(Membership m, int i) {
        long[] t = m.timings();
        if (t == null) {
            return DEFAULT_TIMING;
        }
        return Arrays.copyOfRange(t, Membership.TIMING * i, Membership.TIMING * (i + 1));
    }

    /**
     * The CROSS events of position m: each fence its path meets that is neither in P (the raw set
     * before) nor in N. N is S + (P intersected with K), so a fence not in P is in N only when it
     * is in S.
     */
    private void crossings(String[] was, Visit[] visits, Membership m, Events out) {
        String[] met = m.pathIds();
        if (m.pathFrom() == null || met == null || met.length == 0) {
            return;
        }
        Waypoint a = m.pathFrom();
        Path path = null;
        for (int i = 0; i < met.length; i++) {
            String id = met[i];
            int j = was.length == 0 ? -1 : Arrays.binarySearch(was, id);
            if ((j >= 0 && visits[j].raw()) || Arrays.binarySearch(m.fenceIds(), id) >= 0) {
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

    /** The entity after position m: its raw and confirmed sets, then EXITs and ENTERs by id. */
    private S step(S s, Membership m, Events out) {
        String[] was = s == null ? NO_FENCES : s.fenceIds();
        Visit[] visits = s == null ? NO_VISITS : s.visits();
        crossings(was, visits, m, out);
        String[] inside = m.fenceIds();
        long t = m.timestamp();
        if (m.timings() == null && Arrays.equals(inside, was) && plain(visits)) {
            // Most positions leave the entity in the fences it was in: nothing to merge.
            return entities.make(was, visits, m.lon(), m.lat(), t);
        }
        String[] near = m.nearIds();
        List<String> ids = new ArrayList<>(inside.length + was.length);
        List<Visit> now = new ArrayList<>(inside.length + was.length);
        List<String> exits = null;
        List<Visit> exited = null;
        List<String> enters = null;
        List<Visit> entered = null;
        boolean same = true;
        int i = 0;
        int j = 0;
        // Merge S with the entity's fences, both sorted by id.
        while (i < inside.length || j < was.length) {
            int c = i == inside.length ? 1 : j == was.length ? -1 : inside[i].compareTo(was[j]);
            String id = c <= 0 ? inside[i] : was[j];
            int answer = c <= 0 ? i : indexOf(near, id, inside.length);
            long[] timing = answer < 0 ? null : timing(m, answer);
            Visit before = c >= 0 ? visits[j] : null;
            Visit after;
            if (before == null) {
                after = joined(t, timing);
                id = shared(id);
            } else {
                // The id the state holds (shared), not the answer's copy, which dies young.
                id = was[j];
                Visit v = timing == null ? before : before.exitingAfter(timing[1]);
                after = next(v, c == 0, answer >= 0, t);
            }
            if (after != before) {
                same = false;
            }
            if (before != null && before.confirmed() && after == null) {
                exits = exits == null ? new ArrayList<>() : exits;
                exited = exited == null ? new ArrayList<>() : exited;
                exits.add(id);
                exited.add(before);
            } else if ((before == null || !before.confirmed())
                    && after != null
                    && after.confirmed()) {
                enters = enters == null ? new ArrayList<>() : enters;
                entered = entered == null ? new ArrayList<>() : entered;
                enters.add(id);
                entered.add(after);
            }
            if (after != null) {
                ids.add(id);
                now.add(after);
            }
            i += c <= 0 ? 1 : 0;
            j += c >= 0 ? 1 : 0;
        }
        for (int k = 0; exits != null && k < exits.size(); k++) {
            out.event(
                    exits.get(k), EventType.EXIT, t, m.lon(), m.lat(), start(exited.get(k)), seq++);
        }
        for (int k = 0; enters != null && k < enters.size(); k++) {
            out.event(
                    enters.get(k),
                    EventType.ENTER,
                    t,
                    m.lon(),
                    m.lat(),
                    start(entered.get(k)),
                    seq++);
        }
        if (same) {
            return entities.make(was, visits, m.lon(), m.lat(), t);
        }
        String[] nowIds = ids.toArray(NO_FENCES);
        Visit[] nowVisits = now.toArray(NO_VISITS);
        if (exits != null || enters != null) {
            out.fencesChanged(confirmed(nowIds, nowVisits), t, m.lon(), m.lat());
        }
        return entities.make(nowIds, nowVisits, m.lon(), m.lat(), t);
    }

    /** The visit of a fence that joins the raw set at {@code t}, with its version's timing. */
    private Visit joined(long t, long[] timing) {
        long enterAfter = timing[0];
        long dwell = timing[2] == FenceRules.JOB_DWELL ? dwellMs : timing[2];
        if (enterAfter == 0) {
            return Visit.in(t, dwell > 0 ? DueTimes.plus(t, dwell) : DueTimes.NONE, timing[1]);
        }
        long due = DueTimes.plus(t, enterAfter);
        return new Visit(
                Visit.ENTERING,
                t,
                dwell > 0 ? DueTimes.plus(due, dwell) : DueTimes.NONE,
                due,
                timing[1]);
    }

    /**
     * The visit of a fence the entity had, after a position at {@code t}; null when the fence
     * leaves both sets.
     *
     * @param contains whether the fence contains the position (it is in S)
     * @param answered whether the fence is in S or K
     */
    private static Visit next(Visit v, boolean contains, boolean answered, long t) {
        boolean raw = contains || (v.raw() && answered);
        return switch (v.phase()) {
            case Visit.IN -> {
                if (raw) {
                    yield v;
                }
                yield v.exitAfterMs() == 0
                        ? null
                        : v.to(Visit.LEAVING, DueTimes.plus(t, v.exitAfterMs()));
            }
            case Visit.ENTERING -> raw ? v : null;
            default -> raw ? v.to(Visit.IN, DueTimes.NONE) : v;
        };
    }

    // The index in the answer (inside, then near) of a fence not in S, or -1 when not near.
    private static int indexOf(String[] near, String id, int insideCount) {
        int k = near.length == 0 ? -1 : Arrays.binarySearch(near, id);
        return k < 0 ? -1 : insideCount + k;
    }

    // In both sets, without a clock, and no exit clock to come: a position inside changes nothing.
    private static boolean plain(Visit[] visits) {
        for (Visit v : visits) {
            if (v.phase() != Visit.IN || v.exitAfterMs() != 0) {
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
