package org.quadfence.stages;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

import static org.assertj.core.api.Assertions.assertThat;

/** DWELL, idle-entity expiry and hysteresis in the entity stage. */
class MembershipTimersTest extends StageTestBase.EntityStage {

    private void open(long dwell, long ttl, boolean exitOnExpiry) throws Exception {
        use(membershipTracker(dwell, ttl, exitOnExpiry));
    }

    private void in(long t, double lat, String[] inside, String... near) throws Exception {
        harness.processElement(new Membership(Groups.DEFAULT, "e", t, 0, lat, inside, near), t);
    }

    private static String[] fences(String... ids) {
        return ids;
    }

    @Test
    void aDwellIsEmittedOnceAfterTheDwellTimeWithTheLatestPositionBeforeIt() throws Exception {
        open(100, 0, false);
        in(10, 1, fences("A"));
        in(50, 2, fences("A"));
        in(110, 3, fences("A"));
        in(300, 4, fences("A"));
        harness.processWatermark(1000);
        assertThat(events()).containsExactly("ENTER A @10 1.0", "DWELL A @110 2.0");
    }

    @Test
    void anExitBeforeTheDwellTimeCancelsItAndAReentryStartsANewClock() throws Exception {
        open(100, 0, false);
        in(10, 1, fences("A"));
        in(60, 2, fences());
        in(70, 3, fences("A"));
        in(200, 4, fences("A"));
        harness.processWatermark(1000);
        assertThat(events())
                .containsExactly(
                        "ENTER A @10 1.0", "EXIT A @60 2.0", "ENTER A @70 3.0", "DWELL A @170 3.0");
    }

    @Test
    void anExitAtExactlyTheDwellTimeComesAfterTheDwell() throws Exception {
        open(100, 0, false);
        in(10, 1, fences("A"));
        in(110, 2, fences());
        harness.processWatermark(1000);
        assertThat(events())
                .containsExactly("ENTER A @10 1.0", "DWELL A @110 1.0", "EXIT A @110 2.0");
    }

    @Test
    void anIdleEntityIsForgottenAndItsStateReturnsToNothing() throws Exception {
        open(0, 100, false);
        in(10, 1, fences("A"));
        harness.processWatermark(50);
        assertThat(harness.numKeyedStateEntries()).isPositive();
        harness.processWatermark(110);
        assertThat(harness.numKeyedStateEntries()).isZero();
        in(110 + 5, 2, fences("A"));
        harness.processWatermark(1000);
        // Forgotten silently: the next position in the fence is a new ENTER.
        assertThat(events()).containsExactly("ENTER A @10 1.0", "ENTER A @115 2.0");
    }

    @Test
    void aPositionAtExactlyTheExpiryTimeFindsTheEntityForgotten() throws Exception {
        open(0, 100, true);
        in(10, 1, fences("A", "B"));
        in(110, 2, fences("A"));
        harness.processWatermark(1000);
        assertThat(events())
                .containsExactly(
                        "ENTER A @10 1.0",
                        "ENTER B @10 1.0",
                        "EXIT A @110 1.0",
                        "EXIT B @110 1.0",
                        "ENTER A @110 2.0",
                        "EXIT A @210 2.0");
    }

    @Test
    void anExpiryDropsPendingDwells() throws Exception {
        open(500, 100, false);
        in(10, 1, fences("A"));
        harness.processWatermark(1000);
        assertThat(events()).containsExactly("ENTER A @10 1.0");
    }

    @Test
    void withAMarginAnEntityStaysInAFenceItIsNearButEntersOnlyWhenInside() throws Exception {
        open(0, 0, false);
        in(10, 1, fences(), "A");
        in(20, 2, fences("A"));
        in(30, 3, fences(), "A");
        in(40, 4, fences("A"));
        in(50, 5, fences());
        harness.processWatermark(1000);
        assertThat(events()).containsExactly("ENTER A @20 2.0", "EXIT A @50 5.0");
    }

    @Test
    void anEntityInAFenceHasOnePendingExpiryHoweverManyPositionsItSends() throws Exception {
        open(0, 1000, false);
        for (long t = 10; t <= 2000; t += 10) {
            in(t, 1, fences("A"));
            harness.processWatermark(t);
        }
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        harness.processWatermark(3000);
        assertThat(harness.numEventTimeTimers()).isZero();
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void dwellAndExpiryTimesAtTheEndOfTheRangeDoNotOverflow() throws Exception {
        long last = 253_402_300_799_999L;
        open(last, last, true);
        in(last, 1, fences("A"));
        harness.processWatermark(Long.MAX_VALUE);
        assertThat(events())
                .containsExactly(
                        "ENTER A @" + last + " 1.0",
                        "DWELL A @" + 2 * last + " 1.0",
                        "EXIT A @" + 2 * last + " 1.0");
    }
}
