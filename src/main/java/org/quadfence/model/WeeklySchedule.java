package org.quadfence.model;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The {@code schedule} rule of a fence (contract section 11): weekly windows of local time in an
 * IANA time zone, in whose union the fence holds. A window starts on each of its days at {@code
 * from} and runs to {@code to} of that day, or, when {@code to} is at or before {@code from}, to
 * {@code to} of the next day; {@code to} 24:00 is the next day's 00:00. Local times resolve as
 * {@code ZonedDateTime.of} resolves them: in a gap (clocks set forward) a time moves forward by the
 * gap's length, in an overlap it takes the earlier offset. A window is the half-open range of
 * instants [resolved start, resolved end); one whose resolved end is not after its resolved start
 * (a short window that a gap swallows) holds at no instant that day.
 *
 * <p>Instances are immutable values (equal when their zone and their windows, in order, are) and
 * safe to share between threads. {@link #contains} resolves the windows of one local day at a time
 * and keeps the last day it resolved, so that the positions of one day cost a lookup.
 */
public final class WeeklySchedule {

    /** The most windows a schedule may have. */
    public static final int MAX_WINDOWS = 64;

    /** The minute of 24:00, the latest end of a window. */
    private static final int END_OF_DAY = 24 * 60;

    /** One window: the days it starts on, and its local start and end times. */
    public record Window(int days, int fromMinute, int toMinute) {}

    private final ZoneId zone;
    private final List<Window> windows;
    // The last day contains() resolved: a cache, not part of the value; serializers skip it.
    private transient volatile Day last;

    /**
     * @param zone the time zone the local times are in
     * @param windows 1 to 64 windows; each {@code days} a bit set of 1 to 7 days (bit 0 Monday to
     *     bit 6 Sunday, as {@code DayOfWeek.getValue() - 1}), {@code fromMinute} 0 to 1439 (00:00
     *     to 23:59) and {@code toMinute} 1 to 1440 (00:01 to 24:00), minutes after local midnight
     * @throws IllegalArgumentException when a window breaks these ranges
     */
    public WeeklySchedule(ZoneId zone, List<Window> windows) {
        this.zone = Objects.requireNonNull(zone, "zone");
        if (windows.isEmpty() || windows.size() > MAX_WINDOWS) {
            throw new IllegalArgumentException(
                    "a schedule has 1 to " + MAX_WINDOWS + " windows, got " + windows.size());
        }
        for (Window w : windows) {
            Objects.requireNonNull(w, "window");
            if (w.days() < 1 || w.days() > 0x7f) {
                throw new IllegalArgumentException(
                        "window days must be a bit set of 1 to 7 days (1 to 127), got " + w.days());
            }
            if (w.fromMinute() < 0 || w.fromMinute() >= END_OF_DAY) {
                throw new IllegalArgumentException(
                        "window fromMinute must be 0 to 1439, got " + w.fromMinute());
            }
            if (w.toMinute() < 1 || w.toMinute() > END_OF_DAY) {
                throw new IllegalArgumentException(
                        "window toMinute must be 1 to 1440, got " + w.toMinute());
            }
        }
        this.windows = List.copyOf(windows);
    }

    public ZoneId zone() {
        return zone;
    }

    public List<Window> windows() {
        return windows;
    }

    /** True when event time {@code t} (epoch ms) lies in one of the windows. */
    public boolean contains(long t) {
        Day d = last;
        if (d == null || t < d.from || t >= d.until) {
            d = resolve(LocalDate.ofInstant(Instant.ofEpochMilli(t), zone));
            last = d;
        }
        return d.contains(t);
    }

    /**
     * The windows that may hold an instant of local date {@code date}: those that start on it, on
     * the day before (they run to the next day at most), and, since a gap or an overlap can shift a
     * start or an end by hours, also those that start two days before or the day after.
     */
    private Day resolve(LocalDate date) {
        List<long[]> ranges = new ArrayList<>();
        for (int back = -1; back <= 2; back++) {
            LocalDate start = date.minusDays(back);
            int bit = 1 << (start.getDayOfWeek().getValue() - 1);
            for (Window w : windows) {
                if ((w.days() & bit) != 0) {
                    long from = millis(start, w.fromMinute());
                    LocalDate end = w.toMinute() > w.fromMinute() ? start : start.plusDays(1);
                    long to = millis(end, w.toMinute());
                    if (to > from) {
                        ranges.add(new long[] {from, to});
                    }
                }
            }
        }
        ranges.sort(Comparator.comparingLong(r -> r[0]));
        long[] starts = new long[ranges.size()];
        long[] ends = new long[ranges.size()];
        int n = 0;
        for (long[] r : ranges) {
            if (n > 0 && r[0] <= ends[n - 1]) {
                ends[n - 1] = Math.max(ends[n - 1], r[1]);
            } else {
                starts[n] = r[0];
                ends[n++] = r[1];
            }
        }
        return new Day(
                millis(date, 0),
                millis(date.plusDays(1), 0),
                Arrays.copyOf(starts, n),
                Arrays.copyOf(ends, n));
    }

    /**
     * The instant of {@code minute} (0 to 1440) after local midnight of {@code date}, resolved as
     * {@code ZonedDateTime.of} does, in epoch ms; saturated at the ends of {@code long}, which only
     * times some 292 million years away reach.
     */
    private long millis(LocalDate date, int minute) {
        ZonedDateTime z =
                minute == END_OF_DAY
                        ? ZonedDateTime.of(date.plusDays(1), LocalTime.MIDNIGHT, zone)
                        : ZonedDateTime.of(date, LocalTime.of(minute / 60, minute % 60), zone);
        long seconds = z.toEpochSecond();
        if (seconds > Long.MAX_VALUE / 1000) {
            return Long.MAX_VALUE;
        }
        if (seconds < Long.MIN_VALUE / 1000) {
            return Long.MIN_VALUE;
        }
        return seconds * 1000;
    }

    /**
     * The resolved windows that may hold an instant in [from, until), the instants of one local
     * date from its first midnight to the next day's, as sorted disjoint ranges [starts[i],
     * ends[i]).
     */
    private record Day(long from, long until, long[] starts, long[] ends) {

        boolean contains(long t) {
            int i = Arrays.binarySearch(starts, t);
            // Not found: i is -(insertion point) - 1, and the range before that point may hold t.
            int range = i >= 0 ? i : -i - 2;
            return range >= 0 && t < ends[range];
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WeeklySchedule s && s.zone.equals(zone) && s.windows.equals(windows);
    }

    @Override
    public int hashCode() {
        return Objects.hash(zone, windows);
    }

    /** Such as {@code schedule America/Chicago [MON,TUE 07:00-09:30, SUN 22:00-06:00]}. */
    @Override
    public String toString() {
        StringJoiner all = new StringJoiner(", ", "schedule " + zone.getId() + " [", "]");
        for (Window w : windows) {
            StringJoiner days = new StringJoiner(",");
            for (DayOfWeek d : DayOfWeek.values()) {
                if ((w.days() & (1 << (d.getValue() - 1))) != 0) {
                    days.add(d.name().substring(0, 3));
                }
            }
            all.add(days + " " + clock(w.fromMinute()) + "-" + clock(w.toMinute()));
        }
        return all.toString();
    }

    private static String clock(int minute) {
        return String.format("%02d:%02d", minute / 60, minute % 60);
    }
}
