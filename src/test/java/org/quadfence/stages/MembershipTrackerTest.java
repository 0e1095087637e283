package org.quadfence.stages;

import org.junit.jupiter.api.Test;
import org.quadfence.model.EventType;
import org.quadfence.model.FenceRules;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.rules.EntityRules;

import static org.assertj.core.api.Assertions.assertThat;

class MembershipTrackerTest extends StageTestBase.EntityStage {

    private void in(String entity, long t, double lon, double lat, String... fences)
            throws Exception {
        harness.processElement(new Membership(Groups.DEFAULT, entity, t, lon, lat, fences), t);
    }

    @Test
    void nothingIsEmittedBeforeTheWatermarkPassesThePosition() throws Exception {
        in("e", 10, 0, 0, "A");
        assertThat(events()).isEmpty();
        harness.processWatermark(9);
        assertThat(events()).isEmpty();
        harness.processWatermark(10);
        assertThat(events()).containsExactly("ENTER A @10 0.0");
    }

    @Test
    void outOfOrderPositionsAreTakenInEventTimeOrder() throws Exception {
        in("e", 20, 0, 2, "B");
        in("e", 10, 0, 1, "A");
        harness.processWatermark(30);
        assertThat(events())
                .containsExactly("ENTER A @10 1.0", "EXIT A @20 2.0", "ENTER B @20 2.0");
    }

    @Test
    void positionsAtTheSameTimeAreTakenByLatThenLonAndDuplicatesCountOnce() throws Exception {
        in("e", 5, 3, 1, "A");
        in("e", 5, 0, 0);
        in("e", 5, 2, 1);
        in("e", 5, 3, 1, "A");
        harness.processWatermark(5);
        // (0,0): none; (2,1): none; (3,1): A once.
        assertThat(events()).containsExactly("ENTER A @5 1.0");
    }

    @Test
    void exitsComeBeforeEntersEachInFenceIdOrder() throws Exception {
        in("e", 1, 0, 0, "C", "D", "X");
        in("e", 2, 0, 0, "A", "B", "X");
        harness.processWatermark(2);
        assertThat(events())
                .containsExactly(
                        "ENTER C @1 0.0",
                        "ENTER D @1 0.0",
                        "ENTER X @1 0.0",
                        "EXIT C @2 0.0",
                        "EXIT D @2 0.0",
                        "ENTER A @2 0.0",
                        "ENTER B @2 0.0");
    }

    @Test
    void entitiesAreTrackedApartAndEventsCarryThePosition() throws Exception {
        in("a", 1, 7.5, -3.25, "F");
        in("b", 1, 0, 0);
        harness.processWatermark(1);
        assertThat(harness.extractOutputValues())
                .containsExactly(
                        new SequencedEvent(
                                new GeofenceEvent(
                                        "a", "F", EventType.ENTER, 1, 7.5, -3.25, "default", 1),
                                EntityRules.FIRST_POSITION_EVENT));
    }

    @Test
    void aConfirmedEnterWaitsForItsTimerAndAStoppedClockLeavesNeitherStateNorTimer()
            throws Exception {
        String[] inside = {"F"};
        long[] enterAfter100 = {100, 0, FenceRules.JOB_DWELL};
        harness.processElement(
                new Membership(Groups.DEFAULT, "a", 10, 0, 1, inside, new String[0])
                        .withTimings(enterAfter100),
                10);
        harness.processElement(
                new Membership(Groups.DEFAULT, "b", 10, 0, 2, inside, new String[0])
                        .withTimings(enterAfter100),
                10);
        in("b", 60, 0, 3);
        harness.processWatermark(60);
        assertThat(events()).isEmpty();
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);
        harness.processWatermark(110);
        assertThat(harness.extractOutputValues())
                .containsExactly(
                        new SequencedEvent(
                                new GeofenceEvent(
                                        "a", "F", EventType.ENTER, 110, 0, 1, "default", 10),
                                0));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    @Test
    void anEntityOutsideEveryFenceKeepsNoState() throws Exception {
        in("e", 1, 0, 0, "A");
        in("e", 2, 0, 0);
        harness.processWatermark(2);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void aRestoredTrackerRemembersWhichFencesTheEntityIsIn() throws Exception {
        in("e", 1, 0, 0, "A", "B");
        harness.processWatermark(1);
        in("e", 3, 0, 0, "B");
        restart();
        harness.processWatermark(3);
        assertThat(events()).containsExactly("EXIT A @3 0.0");
    }
}
