package org.quadfence.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quadfence.model.WeeklySchedule.Window;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Windows of local time as instants. Every expected instant is worked out by hand from the zone's
 * offsets (Chicago CST -6 / CDT -5, Berlin CET +1 / CEST +2, Lord Howe +10:30 / +11), not by the
 * code under test.
 */
class WeeklyScheduleTest {

    private static final int MON = 1;
    private static final int TUE = 1 << 1;
    private static final int WED = 1 << 2;
    private static final int FRI = 1 << 4;
    private static final int SAT = 1 << 5;
    private static final int SUN = 1 << 6;
    private static final int EVERY_DAY = 0x7f;

    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final ZoneId CHICAGO = ZoneId.of("America/Chicago");
    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");
    private static final ZoneId LORD_HOWE = ZoneId.of("Australia/Lord_Howe");

    private static int minute(String hhmm) {
        return Integer.parseInt(hhmm.substring(0, 2)) * 60 + Integer.parseInt(hhmm.substring(3));
    }

    private static Window window(int days, String from, String to) {
        return new Window(days, minute(from), minute(to));
    }

    private static WeeklySchedule schedule(ZoneId zone, Window... windows) {
        return new WeeklySchedule(zone, List.of(windows));
    }

    private static long at(String instant) {
        return Instant.parse(instant).toEpochMilli();
    }

    /** The schedule holds from {@code start} (inclusive) to {@code end} (exclusive), no longer. */
    private static void assertHolds(WeeklySchedule s, String start, String end) {
        long from = at(start);
        long to = at(end);
        assertThat(s.contains(from - 1)).as("1 ms before %s", start).isFalse();
        assertThat(s.contains(from)).as("at %s", start).isTrue();
        assertThat(s.contains(from + 1)).as("1 ms after %s", start).isTrue();
        assertThat(s.contains(to - 1)).as("1 ms before %s", end).isTrue();
        assertThat(s.contains(to)).as("at %s", end).isFalse();
        assertThat(s.contains(to + 1)).as("1 ms after %s", end).isFalse();
    }

    @Test
    void aWindowHoldsFromItsStartUpToButNotIncludingItsEndOnItsDaysOnly() {
        // 2024-11-18 is a Monday.
        WeeklySchedule s = schedule(UTC, window(MON | WED, "07:00", "09:30"));
        assertHolds(s, "2024-11-18T07:00:00Z", "2024-11-18T09:30:00Z");
        assertHolds(s, "2024-11-20T07:00:00Z", "2024-11-20T09:30:00Z");
        assertThat(s.contains(at("2024-11-19T08:00:00Z"))).as("a Tuesday").isFalse();
        assertThat(s.contains(at("2024-11-25T08:00:00Z"))).as("the next Monday").isTrue();
    }

    @Test
    void aWindowWhoseEndIsBeforeItsStartRunsIntoTheNextDay() {
        // 2024-11-22 is a Friday; the window starts on Fridays only, so Saturday night is free.
        WeeklySchedule s = schedule(UTC, window(FRI, "22:00", "06:00"));
        assertHolds(s, "2024-11-22T22:00:00Z", "2024-11-23T06:00:00Z");
        assertThat(s.contains(at("2024-11-23T23:00:00Z"))).isFalse();
        assertThat(s.contains(at("2024-11-22T05:00:00Z"))).as("Friday morning").isFalse();
    }

    @Test
    void aSundayNightWindowRunsIntoMondayAcrossTheWeek() {
        // 2024-11-24 is a Sunday.
        WeeklySchedule s = schedule(UTC, window(SUN, "22:00", "02:00"));
        assertHolds(s, "2024-11-24T22:00:00Z", "2024-11-25T02:00:00Z");
        assertThat(s.contains(at("2024-11-18T01:00:00Z"))).as("the Monday before").isTrue();
    }

    @Test
    void aWindowEndingAt24IsHalfOpenAndMeetsTheNextDaysWindowAtMidnight() {
        // 2024-11-18 is a Monday.
        WeeklySchedule alone = schedule(UTC, window(MON, "20:00", "24:00"));
        assertHolds(alone, "2024-11-18T20:00:00Z", "2024-11-19T00:00:00Z");

        WeeklySchedule joined =
                schedule(UTC, window(MON, "20:00", "24:00"), window(TUE, "00:00", "02:00"));
        assertHolds(joined, "2024-11-18T20:00:00Z", "2024-11-19T02:00:00Z");
        assertThat(joined.contains(at("2024-11-19T00:00:00Z"))).isTrue();
    }

    @Test
    void aWindowWhoseEndEqualsItsStartLastsTwentyFourHours() {
        // 2024-11-20 is a Wednesday.
        WeeklySchedule s = schedule(UTC, window(WED, "07:00", "07:00"));
        assertHolds(s, "2024-11-20T07:00:00Z", "2024-11-21T07:00:00Z");
    }

    @Test
    void aTwentyFourHourWindowOnEveryDayHoldsAlways() {
        WeeklySchedule s = schedule(CHICAGO, window(EVERY_DAY, "00:00", "24:00"));
        Random random = new Random(11);
        for (int i = 0; i < 10_000; i++) {
            long t = at("2024-01-01T00:00:00Z") + (long) (random.nextDouble() * 63_158_400_000L);
            assertThat(s.contains(t)).as("%s", Instant.ofEpochMilli(t)).isTrue();
        }
        assertThat(s.contains(0)).isTrue();
        assertThat(s.contains(253_402_300_799_999L)).isTrue();
    }

    @Test
    void overlappingWindowsHoldInTheirUnion() {
        // 2024-11-18 is a Monday.
        WeeklySchedule s =
                schedule(
                        UTC,
                        window(MON, "08:00", "12:00"),
                        window(MON, "10:00", "14:00"),
                        window(MON | TUE, "13:00", "15:00"),
                        window(MON, "09:00", "09:30"));
        assertHolds(s, "2024-11-18T08:00:00Z", "2024-11-18T15:00:00Z");
        assertHolds(s, "2024-11-19T13:00:00Z", "2024-11-19T15:00:00Z");
    }

    @Test
    void windowsAreLocalTimesOfTheirZone() {
        // 2024-11-18 is a Monday, in CST (UTC-6); 2024-07-15 a Monday in CDT (UTC-5).
        WeeklySchedule s = schedule(CHICAGO, window(MON, "07:00", "09:30"));
        assertHolds(s, "2024-11-18T13:00:00Z", "2024-11-18T15:30:00Z");
        assertHolds(s, "2024-07-15T12:00:00Z", "2024-07-15T14:30:00Z");
    }

    /**
     * The 2024 and 2025 changes of three zones: Chicago and Berlin shift by an hour, Lord Howe by
     * 30 minutes. In a gap a local time moves forward by the gap; in an overlap it takes the
     * earlier offset (the first time the clock shows it). Each day is a Sunday.
     */
    static Stream<Arguments> clockChanges() {
        return Stream.of(
                // Chicago, spring: 02:00 CST becomes 03:00 CDT (08:00Z).
                arguments(
                        "Chicago 2024-03-10, from in the gap",
                        CHICAGO,
                        "02:30",
                        "04:00",
                        "2024-03-10T08:30:00Z",
                        "2024-03-10T09:00:00Z"),
                arguments(
                        "Chicago 2024-03-10, to in the gap",
                        CHICAGO,
                        "01:00",
                        "02:30",
                        "2024-03-10T07:00:00Z",
                        "2024-03-10T08:30:00Z"),
                arguments(
                        "Chicago 2025-03-09, from in the gap",
                        CHICAGO,
                        "02:30",
                        "04:00",
                        "2025-03-09T08:30:00Z",
                        "2025-03-09T09:00:00Z"),
                arguments(
                        "Chicago 2025-03-09, to in the gap",
                        CHICAGO,
                        "01:00",
                        "02:30",
                        "2025-03-09T07:00:00Z",
                        "2025-03-09T08:30:00Z"),
                // Chicago, autumn: 02:00 CDT becomes 01:00 CST (07:00Z); 01:xx comes twice.
                arguments(
                        "Chicago 2024-11-03, from in the overlap",
                        CHICAGO,
                        "01:30",
                        "03:00",
                        "2024-11-03T06:30:00Z",
                        "2024-11-03T09:00:00Z"),
                arguments(
                        "Chicago 2024-11-03, to in the overlap",
                        CHICAGO,
                        "00:00",
                        "01:30",
                        "2024-11-03T05:00:00Z",
                        "2024-11-03T06:30:00Z"),
                arguments(
                        "Chicago 2025-11-02, from in the overlap",
                        CHICAGO,
                        "01:30",
                        "03:00",
                        "2025-11-02T06:30:00Z",
                        "2025-11-02T09:00:00Z"),
                arguments(
                        "Chicago 2025-11-02, to in the overlap",
                        CHICAGO,
                        "00:00",
                        "01:30",
                        "2025-11-02T05:00:00Z",
                        "2025-11-02T06:30:00Z"),
                // Berlin, spring: 02:00 CET becomes 03:00 CEST (01:00Z).
                arguments(
                        "Berlin 2024-03-31, from in the gap",
                        BERLIN,
                        "02:15",
                        "03:30",
                        "2024-03-31T01:15:00Z",
                        "2024-03-31T01:30:00Z"),
                arguments(
                        "Berlin 2024-03-31, to in the gap",
                        BERLIN,
                        "01:00",
                        "02:45",
                        "2024-03-31T00:00:00Z",
                        "2024-03-31T01:45:00Z"),
                arguments(
                        "Berlin 2024-03-31, from and to in the gap",
                        BERLIN,
                        "02:10",
                        "02:40",
                        "2024-03-31T01:10:00Z",
                        "2024-03-31T01:40:00Z"),
                arguments(
                        "Berlin 2025-03-30, from in the gap",
                        BERLIN,
                        "02:15",
                        "03:30",
                        "2025-03-30T01:15:00Z",
                        "2025-03-30T01:30:00Z"),
                arguments(
                        "Berlin 2025-03-30, to in the gap",
                        BERLIN,
                        "01:00",
                        "02:45",
                        "2025-03-30T00:00:00Z",
                        "2025-03-30T01:45:00Z"),
                // Berlin, autumn: 03:00 CEST becomes 02:00 CET (01:00Z); 02:xx comes twice.
                arguments(
                        "Berlin 2024-10-27, from in the overlap",
                        BERLIN,
                        "02:30",
                        "04:00",
                        "2024-10-27T00:30:00Z",
                        "2024-10-27T03:00:00Z"),
                arguments(
                        "Berlin 2024-10-27, to in the overlap",
                        BERLIN,
                        "01:00",
                        "02:30",
                        "2024-10-26T23:00:00Z",
                        "2024-10-27T00:30:00Z"),
                arguments(
                        "Berlin 2025-10-26, from in the overlap",
                        BERLIN,
                        "02:30",
                        "04:00",
                        "2025-10-26T00:30:00Z",
                        "2025-10-26T03:00:00Z"),
                arguments(
                        "Berlin 2025-10-26, to in the overlap",
                        BERLIN,
                        "01:00",
                        "02:30",
                        "2025-10-25T23:00:00Z",
                        "2025-10-26T00:30:00Z"),
                // Lord Howe, autumn: 02:00 +11 becomes 01:30 +10:30 (15:00Z the day before).
                arguments(
                        "Lord Howe 2024-04-07, from in the overlap",
                        LORD_HOWE,
                        "01:45",
                        "03:00",
                        "2024-04-06T14:45:00Z",
                        "2024-04-06T16:30:00Z"),
                arguments(
                        "Lord Howe 2024-04-07, to in the overlap",
                        LORD_HOWE,
                        "00:00",
                        "01:45",
                        "2024-04-06T13:00:00Z",
                        "2024-04-06T14:45:00Z"),
                arguments(
                        "Lord Howe 2025-04-06, from in the overlap",
                        LORD_HOWE,
                        "01:45",
                        "03:00",
                        "2025-04-05T14:45:00Z",
                        "2025-04-05T16:30:00Z"),
                arguments(
                        "Lord Howe 2025-04-06, to in the overlap",
                        LORD_HOWE,
                        "00:00",
                        "01:45",
                        "2025-04-05T13:00:00Z",
                        "2025-04-05T14:45:00Z"),
                // Lord Howe, spring: 02:00 +10:30 becomes 02:30 +11 (15:30Z the day before).
                arguments(
                        "Lord Howe 2024-10-06, from in the gap",
                        LORD_HOWE,
                        "02:10",
                        "03:00",
                        "2024-10-05T15:40:00Z",
                        "2024-10-05T16:00:00Z"),
                arguments(
                        "Lord Howe 2024-10-06, to in the gap",
                        LORD_HOWE,
                        "01:00",
                        "02:20",
                        "2024-10-05T14:30:00Z",
                        "2024-10-05T15:50:00Z"),
                arguments(
                        "Lord Howe 2025-10-05, from in the gap",
                        LORD_HOWE,
                        "02:10",
                        "03:00",
                        "2025-10-04T15:40:00Z",
                        "2025-10-04T16:00:00Z"),
                arguments(
                        "Lord Howe 2025-10-05, to in the gap",
                        LORD_HOWE,
                        "01:00",
                        "02:20",
                        "2025-10-04T14:30:00Z",
                        "2025-10-04T15:50:00Z"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clockChanges")
    void aLocalTimeInAGapMovesForwardByTheGapAndOneInAnOverlapTakesTheEarlierOffset(
            String name, ZoneId zone, String from, String to, String start, String end) {
        assertHolds(schedule(zone, window(SUN, from, to)), start, end);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clockChanges")
    void theResolvedRangeIsTheSameWhateverTimesWereAskedBefore(
            String name, ZoneId zone, String from, String to, String start, String end) {
        WeeklySchedule s = schedule(zone, window(SUN, from, to));
        // Ask about the days around first, so that contains() has other days resolved.
        for (long t = at(start) - 3 * 86_400_000L; t < at(end) + 3 * 86_400_000L; t += 3_600_000) {
            s.contains(t);
        }
        assertHolds(s, start, end);
        s.contains(at(start) - 86_400_000L);
        assertThat(s.contains(at(end) - 1)).isTrue();
        s.contains(at(end) + 86_400_000L);
        assertThat(s.contains(at(start))).isTrue();
    }

    @Test
    void aSecondOccurrenceOfALocalTimeAfterTheWindowsResolvedEndIsOutside() {
        // Chicago 2024-11-03: the window ends at the first 01:30 (CDT, 06:30Z); 01:00 CST (07:00Z)
        // reads as an earlier local time but comes after the end.
        WeeklySchedule s = schedule(CHICAGO, window(SUN, "00:00", "01:30"));
        assertThat(s.contains(at("2024-11-03T07:00:00Z"))).isFalse();
        assertThat(s.contains(at("2024-11-03T06:00:00Z"))).isTrue();
    }

    @Test
    void aWindowThatTheGapSwallowsHoldsAtNoInstantThatDay() {
        // Chicago 2024-03-10: 02:30 moves to 03:30 CDT, after 03:00 CDT: the range is empty.
        WeeklySchedule s = schedule(CHICAGO, window(SUN, "02:30", "03:00"));
        for (long t = at("2024-03-10T06:00:00Z"); t < at("2024-03-10T12:00:00Z"); t += 60_000) {
            assertThat(s.contains(t)).as("%s", Instant.ofEpochMilli(t)).isFalse();
        }
        // The Sunday after, CDT throughout: 02:30 to 03:00 CDT.
        assertHolds(s, "2024-03-17T07:30:00Z", "2024-03-17T08:00:00Z");
    }

    @Test
    void aNightWindowAcrossTheClockChangeRunsFromOneOffsetToTheOther() {
        // Saturday 22:00 CST (04:00Z Sunday) to Sunday 06:00 CDT (11:00Z): 8 hours of local
        // time, 7 of real time.
        WeeklySchedule spring = schedule(CHICAGO, window(SAT, "22:00", "06:00"));
        assertHolds(spring, "2024-03-10T04:00:00Z", "2024-03-10T11:00:00Z");
        // Saturday 22:00 CDT (03:00Z Sunday) to Sunday 06:00 CST (12:00Z): 9 hours.
        WeeklySchedule autumn = schedule(CHICAGO, window(SAT, "22:00", "06:00"));
        assertHolds(autumn, "2024-11-03T03:00:00Z", "2024-11-03T12:00:00Z");
    }

    @Test
    void aSharedScheduleGivesEveryThreadTheSameAnswers() throws Exception {
        WeeklySchedule s =
                schedule(
                        BERLIN,
                        window(MON | TUE | FRI, "07:00", "09:30"),
                        window(SUN, "02:15", "03:30"),
                        window(SAT, "23:00", "01:00"));
        List<Long> times = new ArrayList<>();
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            times.add(at("2024-01-01T00:00:00Z") + (long) (random.nextDouble() * 63_158_400_000L));
        }
        List<Boolean> alone = new ArrayList<>();
        WeeklySchedule fresh = schedule(s.zone(), s.windows().toArray(new Window[0]));
        for (long t : times) {
            alone.add(fresh.contains(t));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> runs = new ArrayList<>();
            for (int thread = 0; thread < 8; thread++) {
                List<Integer> order = new ArrayList<>();
                for (int i = 0; i < times.size(); i++) {
                    order.add(i);
                }
                Collections.shuffle(order, new Random(thread));
                runs.add(
                        pool.submit(
                                () -> {
                                    for (int i : order) {
                                        if (s.contains(times.get(i)) != alone.get(i)) {
                                            return false;
                                        }
                                    }
                                    return true;
                                }));
            }
            for (Future<Boolean> run : runs) {
                assertThat(run.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(alone).contains(true, false);
    }

    @Test
    void windowsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new WeeklySchedule(UTC, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 64 windows");
        List<Window> many = Collections.nCopies(65, window(MON, "07:00", "08:00"));
        assertThatThrownBy(() -> new WeeklySchedule(UTC, many))
                .isInstanceOf(IllegalArgumentException.class);
        for (Window w :
                List.of(
                        new Window(0, 0, 60),
                        new Window(128, 0, 60),
                        new Window(MON, -1, 60),
                        new Window(MON, 1440, 60),
                        new Window(MON, 0, 0),
                        new Window(MON, 0, 1441))) {
            assertThatThrownBy(() -> schedule(UTC, w))
                    .as("%s", w)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(new WeeklySchedule(UTC, many.subList(0, 64)).windows()).hasSize(64);
    }

    @Test
    void schedulesAreValuesOfTheirZoneAndWindows() {
        WeeklySchedule a = schedule(CHICAGO, window(MON | TUE, "07:00", "09:30"));
        WeeklySchedule b = schedule(CHICAGO, window(MON | TUE, "07:00", "09:30"));
        b.contains(at("2024-11-18T14:00:00Z"));
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(schedule(BERLIN, window(MON | TUE, "07:00", "09:30")));
        assertThat(a).isNotEqualTo(schedule(CHICAGO, window(MON, "07:00", "09:30")));
        assertThat(
                        schedule(
                                CHICAGO,
                                window(MON | TUE, "07:00", "09:30"),
                                window(SUN, "22:00", "24:00")))
                .hasToString("schedule America/Chicago [MON,TUE 07:00-09:30, SUN 22:00-24:00]");
    }

    @Test
    void theWindowsAreACopy() {
        List<Window> windows = new ArrayList<>(List.of(window(MON, "07:00", "08:00")));
        WeeklySchedule s = new WeeklySchedule(UTC, windows);
        windows.add(window(TUE, "07:00", "08:00"));
        assertThat(s.windows()).containsExactly(window(MON, "07:00", "08:00"));
        assertThatThrownBy(() -> s.windows().add(window(TUE, "07:00", "08:00")))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
