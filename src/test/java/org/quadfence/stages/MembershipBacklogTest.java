package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

import static org.assertj.core.api.Assertions.assertThat;

/** The entity stage with option max-backlog (contract section 12). */
class MembershipBacklogTest extends StageTestBase.EntityStage {

    private static final long MAX_BACKLOG = 1000;

    private void open(long dwell) throws Exception {
        MembershipTracker tracker = new MembershipTracker(dwell, 0, false);
        tracker.setMaxBacklog(MAX_BACKLOG);
        use(
                new KeyedOneInputStreamOperatorTestHarness<>(
                        tracker, new StageKeys.EntityKey(), Types.STRING));
    }

    private void live(long t, double lat, String... inside) throws Exception {
        harness.processElement(
                new Membership(Groups.DEFAULT, "e", t, 0, lat, inside, new String[0]), t);
    }

    private void backlog(long t, long readBehind, double lat, String... inside) throws Exception {
        harness.processElement(
                new Membership(Groups.DEFAULT, "e", t, 0, lat, inside, new String[0])
                        .inBacklog(readBehind),
                t);
    }

    @Test
    void backlogAnswersWaitForTheWatermarkTheyWereReadBehindThenGoInTheirEntitysOrder()
            throws Exception {
        open(0);
        live(10, 1, "A");
        harness.processWatermark(100);
        backlog(30, 100, 3);
        backlog(20, 100, 2, "A", "B");
        harness.processWatermark(100);
        assertThat(events()).containsExactly("ENTER A @10 1.0");
        harness.processWatermark(101);
        assertThat(events()).containsExactly("ENTER B @20 2.0", "EXIT A @30 3.0", "EXIT B @30 3.0");
    }

    @Test
    void aDwellDueWhileTheEntityWasOfflineWaitsForItsBacklog() throws Exception {
        open(100);
        live(10, 1, "A");
        harness.processWatermark(500);
        assertThat(events()).containsExactly("ENTER A @10 1.0");
        backlog(60, 500, 2);
        harness.processWatermark(501);
        assertThat(events()).containsExactly("EXIT A @60 2.0");
    }

    @Test
    void aDueTimerFiresBeforeTheEntitysFirstPositionAfterIt() throws Exception {
        open(100);
        live(10, 1, "A");
        harness.processWatermark(300);
        backlog(200, 300, 2, "A");
        harness.processWatermark(301);
        assertThat(events()).containsExactly("ENTER A @10 1.0", "DWELL A @110 1.0");
    }

    @Test
    void anEntityThatStaysSilentGetsItsTimerOnceTheWatermarkPassesItByMaxBacklog()
            throws Exception {
        open(100);
        live(10, 1, "A");
        harness.processWatermark(110 + MAX_BACKLOG - 1);
        assertThat(events()).containsExactly("ENTER A @10 1.0");
        harness.processWatermark(110 + MAX_BACKLOG);
        assertThat(events()).containsExactly("DWELL A @110 1.0");
    }

    /** Fence A's answer at t, A asking for 100 ms inside before its ENTER (enterAfterMs). */
    private static Membership inA(long t, double lat) {
        return new Membership(
                Groups.DEFAULT,
                "e",
                t,
                0,
                lat,
                new String[] {"A"},
                new String[0],
                null,
                new String[0],
                new double[0],
                new long[] {100, 0, -1});
    }

    @Test
    void aConfirmationClockDueWhileTheEntityWasOfflineCountsItsBacklog() throws Exception {
        open(0);
        harness.processElement(inA(10, 1), 10);
        harness.processWatermark(500);
        assertThat(events()).as("the clock waits for the entity").isEmpty();
        backlog(60, 500, 2);
        harness.processElement(inA(200, 3).inBacklog(500), 200);
        harness.processWatermark(501);
        assertThat(events()).as("it left before the clock was due: no ENTER").isEmpty();
        harness.processWatermark(300 + MAX_BACKLOG);
        assertThat(events()).containsExactly("ENTER A @300 3.0");
    }
}
