package org.quadfence.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.rules.OneEntity.fences;

/** DWELL and idle-entity expiry (contract section 6), without Flink. */
class EntityTimersTest {

    @Test
    void aDwellIsDueDwellAfterTheEnter() throws Exception {
        OneEntity entity = new OneEntity(100, 0, false).at(10, 1, fences("A", "B")).until(10);
        assertThat(entity.kept.visits()).extracting(Visit::dwellDue).containsExactly(110L, 110L);
        assertThat(entity.timers).containsExactly(110L);
    }

    @Test
    void aDwellIsEmittedOnceWithTheLatestPositionBeforeItsTime() throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .at(10, 1, fences("A"))
                        .at(50, 2, fences("A"))
                        .at(110, 3, fences("A"))
                        .at(300, 4, fences("A"))
                        .until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "DWELL A @110 2.0");
    }

    @Test
    void anExitBeforeTheDwellTimeCancelsItAndAReentryStartsANewClock() throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .at(10, 1, fences("A"))
                        .at(60, 2, fences())
                        .at(70, 3, fences("A"))
                        .until(1000);
        assertThat(entity.events)
                .containsExactly(
                        "ENTER A @10 1.0", "EXIT A @60 2.0", "ENTER A @70 3.0", "DWELL A @170 3.0");
    }

    @Test
    void aDwellAndAnExitAtOneTimeComeDwellFirstNumberedBeforeThePosition() throws Exception {
        OneEntity entity =
                new OneEntity(100, 0, false)
                        .at(10, 1, fences("A"))
                        .at(110, 2, fences())
                        .until(1000);
        assertThat(entity.events)
                .containsExactly("ENTER A @10 1.0", "DWELL A @110 1.0", "EXIT A @110 2.0");
        assertThat(entity.numbers.subList(1, 3))
                .containsExactly(0, EntityRules.FIRST_POSITION_EVENT);
    }

    @Test
    void anIdleEntityIsForgottenSilentlyAtItsLatestPositionPlusTheTtl() throws Exception {
        OneEntity entity = new OneEntity(0, 100, false).at(10, 1, fences("A")).until(109);
        assertThat(entity.kept).isNotNull();
        entity.until(110);
        assertThat(entity.kept).isNull();
        entity.at(115, 2, fences("A")).until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "ENTER A @115 2.0");
        assertThat(entity.sets)
                .containsExactly("[A] @10 1.0", "[] @110 1.0", "[A] @115 2.0", "[] @215 2.0");
    }

    @Test
    void anExpiredEntityInFencesGetsAnExitForEachWhenExitOnExpiryIsSet() throws Exception {
        OneEntity entity =
                new OneEntity(0, 100, true)
                        .at(10, 1, fences("A", "B"))
                        .at(20, 2, fences("A", "B"))
                        .until(1000);
        assertThat(entity.events)
                .containsExactly(
                        "ENTER A @10 1.0", "ENTER B @10 1.0", "EXIT A @120 2.0", "EXIT B @120 2.0");
        assertThat(entity.kept).isNull();
    }

    @Test
    void aPositionAtExactlyTheExpiryTimeFindsTheEntityForgotten() throws Exception {
        OneEntity entity =
                new OneEntity(0, 100, true)
                        .at(10, 1, fences("A"))
                        .at(110, 2, fences("A"))
                        .until(110);
        assertThat(entity.events)
                .containsExactly("ENTER A @10 1.0", "EXIT A @110 1.0", "ENTER A @110 2.0");
    }

    @Test
    void anExpiryDropsPendingDwells() throws Exception {
        OneEntity entity = new OneEntity(500, 100, false).at(10, 1, fences("A")).until(1000);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0");
    }

    @Test
    void anEntityInAFenceHasOnePendingExpiryHoweverManyPositionsItSends() throws Exception {
        OneEntity entity = new OneEntity(0, 1000, false);
        for (long t = 10; t <= 2000; t += 10) {
            entity.at(t, 1, fences("A")).until(t);
        }
        assertThat(entity.timers).containsExactly(3000L);
        entity.until(3000);
        assertThat(entity.timers).isEmpty();
        assertThat(entity.kept).isNull();
    }

    @Test
    void anEntityThatLeavesEveryFenceHasNoTimerLeft() throws Exception {
        OneEntity entity =
                new OneEntity(0, 100, true).at(10, 1, fences("A")).at(20, 1, fences()).until(20);
        assertThat(entity.kept).isNull();
        assertThat(entity.timers).isEmpty();
    }

    @Test
    void dwellAndExpiryAtTheEndOfTheTimeRangeDoNotOverflow() throws Exception {
        long last = 253_402_300_799_999L;
        OneEntity entity =
                new OneEntity(last, last, true).at(last, 1, fences("A")).until(Long.MAX_VALUE);
        assertThat(entity.events)
                .containsExactly(
                        "ENTER A @" + last + " 1.0",
                        "DWELL A @" + 2 * last + " 1.0",
                        "EXIT A @" + 2 * last + " 1.0");
    }
}
