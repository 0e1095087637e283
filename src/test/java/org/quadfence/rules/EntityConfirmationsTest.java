package org.quadfence.rules;

import org.junit.jupiter.api.Test;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Waypoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.rules.OneEntity.fences;

/**
 * Confirmation times, a fence's own DWELL time and visits (contract section 11), without Flink. A
 * timing is three numbers per fence of an answer: enterAfterMs, exitAfterMs, DWELL time (-1: the
 * job's dwell-ms).
 */
class EntityConfirmationsTest {

    private static final long JOB = FenceRules.JOB_DWELL;
    private static final String[] NONE = fences();

    @Test
    void anEnterAfterADelayIsConfirmedByATimerWithTheLatestPositionAndTheJoinAsItsStart()
            throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 100, 0, JOB)
                        .timed(50, 2, fences("A"), NONE, 100, 0, JOB)
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @110 2.0");
        assertThat(entity.visits).containsExactly("ENTER A @110 from 10");
        assertThat(entity.numbers).containsExactly(0);
        assertThat(entity.sets).containsExactly("[A] @110 2.0");
    }

    @Test
    void anEnterClockStopsWhenTheEntityLeavesTheRawSetOneMillisecondBeforeItEnds()
            throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 100, 0, JOB)
                        .at(109, 2, fences())
                        .until(1000);
        assertThat(entity.events).isEmpty();
        assertThat(entity.sets).isEmpty();
        assertThat(entity.kept).isNull();
        assertThat(entity.timers).isEmpty();
    }

    @Test
    void aStoppedEnterClockStartsAgainAtTheNextJoinWhichStartsTheVisit() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 100, 0, JOB)
                        .at(50, 2, fences())
                        .timed(60, 3, fences("A"), NONE, 100, 0, JOB)
                        .until(1000);
        assertThat(entity.visits).containsExactly("ENTER A @160 from 60");
    }

    @Test
    void aPositionAtTheConfirmationTimeComesAfterTheConfirmation() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 100, 0, JOB)
                        .at(110, 2, fences())
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @110 1.0", "EXIT A @110 2.0");
        assertThat(entity.visits).containsExactly("ENTER A @110 from 10", "EXIT A @110 from 10");
        assertThat(entity.numbers).containsExactly(0, EntityRules.FIRST_POSITION_EVENT);
    }

    @Test
    void anExitAfterADelayIsConfirmedWhenTheEntityStaysOutWithTheLatestPositionBeforeIt()
            throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .at(20, 2, fences())
                        .at(40, 3, fences())
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "EXIT A @70 3.0");
        assertThat(entity.visits).containsExactly("ENTER A @10 from 10", "EXIT A @70 from 10");
        assertThat(entity.sets).containsExactly("[A] @10 1.0", "[] @70 3.0");
    }

    @Test
    void aReentryBeforeTheExitDelayEndsStopsTheClockAndTheVisitGoesOn() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .at(20, 2, fences())
                        .timed(69, 3, fences("A"), NONE, 0, 50, JOB)
                        .at(100, 4, fences())
                        .until(1000);
        assertThat(entity.visits).containsExactly("ENTER A @10 from 10", "EXIT A @150 from 10");
        assertThat(entity.sets).containsExactly("[A] @10 1.0", "[] @150 4.0");
    }

    @Test
    void aReentryAtTheExitTimeComesTooLate() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .at(20, 2, fences())
                        .timed(70, 3, fences("A"), NONE, 0, 50, JOB)
                        .until(1000);
        assertThat(entity.visits)
                .containsExactly(
                        "ENTER A @10 from 10", "EXIT A @70 from 10", "ENTER A @70 from 70");
    }

    @Test
    void aDwellIsDueItsTimeAfterTheConfirmedEnterAndARunningExitClockDoesNotStopIt()
            throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .timed(10, 1, fences("A"), NONE, 20, 50, JOB)
                        .at(100, 2, fences())
                        .until(1000);
        assertThat(entity.visits)
                .containsExactly(
                        "ENTER A @30 from 10", "DWELL A @130 from 10", "EXIT A @150 from 10");
    }

    @Test
    void anExitConfirmedAtTheDwellTimeComesFirstAndLeavesNoDwell() throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .at(60, 2, fences())
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "EXIT A @110 2.0");
    }

    @Test
    void aFencesOwnDwellTimeReplacesTheJobsAndZeroMeansNone() throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .timed(10, 1, fences("A", "B", "C"), NONE, 0, 0, 30, 0, 0, 0, 0, 0, JOB)
                        .until(1000);
        assertThat(entity.events)
                .containsExactly(
                        "ENTER A @10 1.0",
                        "ENTER B @10 1.0",
                        "ENTER C @10 1.0",
                        "DWELL A @40 1.0",
                        "DWELL C @110 1.0");
    }

    @Test
    void aRunningEnterClockKeepsTheDelayAndTheDwellTimeOfTheVersionItStartedWith()
            throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 100, 0, 50)
                        .timed(20, 2, fences("A"), NONE, 5, 0, 1000)
                        .until(1000);
        assertThat(entity.visits).containsExactly("ENTER A @110 from 10", "DWELL A @160 from 10");
    }

    @Test
    void anExitClockTakesTheExitDelayOfTheLatestVersionThatAnsweredForTheEntity() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .timed(20, 2, fences("A"), NONE, 0, 10, JOB)
                        .at(30, 3, fences())
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "EXIT A @40 3.0");
    }

    @Test
    void aRunningExitClockKeepsItsDelayWhenTheFenceChangesWhileTheEntityIsOut() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .at(20, 2, fences())
                        .timed(30, 3, fences(), fences("A"), 0, 5, JOB)
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "EXIT A @70 3.0");
    }

    @Test
    void aFenceNearButNotContainingKeepsAnEntityInTheRawSetAndNoClockStarts() throws Exception {
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 50, JOB)
                        .timed(20, 2, NONE, fences("A"), 0, 50, JOB)
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0");
        assertThat(entity.kept.visits()[0].phase()).isEqualTo(Visit.IN);
    }

    @Test
    void anExpiryExitsTheConfirmedFencesOnlyAndStopsTheClocks() throws Exception {
        OneEntity entity =
                new OneEntity(0, 100, true)
                        .timed(10, 1, fences("A", "B"), NONE, 0, 0, JOB, 500, 0, JOB)
                        .until(1000);
        assertThat(entity.visits).containsExactly("ENTER A @10 from 10", "EXIT A @110 from 10");
        assertThat(entity.sets).containsExactly("[A] @10 1.0", "[] @110 1.0");
        assertThat(entity.timers).isEmpty();
    }

    @Test
    void anEntityWhoseOnlyFenceIsUnconfirmedIsForgottenWithoutAMembershipRecord() throws Exception {
        OneEntity entity =
                new OneEntity(0, 100, true)
                        .timed(10, 1, fences("A"), NONE, 500, 0, JOB)
                        .until(1000);
        assertThat(entity.events).isEmpty();
        assertThat(entity.sets).isEmpty();
        assertThat(entity.kept).isNull();
    }

    @Test
    void anEntityKeepsAtMostOneClockPerFenceAndOnlyTheTimersItNeeds() throws Exception {
        OneEntity entity =
                new OneEntity(1000, 5000, false)
                        .timed(10, 1, fences("A"), NONE, 100, 50, JOB)
                        .timed(20, 1, fences("A"), NONE, 100, 50, JOB)
                        .until(20);
        // The enter clock at 110, the DWELL at 1110, the expiry at 5020.
        assertThat(entity.timers).containsExactly(110L, 1110L, 5020L);
    }

    @Test
    void aFenceInTheConfirmedSetOnlyIsNotInTheRawSetAndSoCanBeCrossed() throws Exception {
        Waypoint from = new Waypoint(20, 0, 2);
        OneEntity entity =
                new OneEntity()
                        .timed(10, 1, fences("A"), NONE, 0, 500, JOB)
                        .at(20, 2, fences())
                        .step(from, 30, 0, 3, fences(), fences(), fences("A"), 0.5)
                        .until(30);
        assertThat(entity.events)
                .containsExactly("ENTER A @10 1.0", "CROSS A @30 3.0 from 20 at 25 (0.0, 2.5)");
    }
}
