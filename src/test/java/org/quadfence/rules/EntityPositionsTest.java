package org.quadfence.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.rules.OneEntity.fences;

/** What an entity's positions do to its fences (contract sections 3, 6 and 9), without Flink. */
class EntityPositionsTest {

    private final OneEntity entity = new OneEntity();

    @Test
    void anEntityEntersEachFenceThatContainsItsFirstPositionInAscendingFenceId() throws Exception {
        entity.at(10, 1, fences("A", "B")).until(10);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "ENTER B @10 1.0");
    }

    @Test
    void anEntityLeavingOneFenceAndEnteringAnotherGetsTheExitBeforeTheEnter() throws Exception {
        entity.at(10, 1, fences("B")).at(20, 2, fences("A")).until(20);
        assertThat(entity.events)
                .containsExactly("ENTER B @10 1.0", "EXIT B @20 2.0", "ENTER A @20 2.0");
    }

    @Test
    void exitsComeBeforeEntersEachInAscendingFenceId() throws Exception {
        entity.at(1, 0, fences("C", "D", "X")).until(1);
        entity.events.clear();
        entity.at(2, 0, fences("A", "B", "X")).until(2);
        assertThat(entity.events)
                .containsExactly(
                        "EXIT C @2 0.0", "EXIT D @2 0.0", "ENTER A @2 0.0", "ENTER B @2 0.0");
    }

    @Test
    void aPositionInTheSameFencesAsTheLastGivesNoEvent() throws Exception {
        entity.at(1, 1, fences("A")).at(2, 2, fences("A")).until(2);
        assertThat(entity.events).containsExactly("ENTER A @1 1.0");
        assertThat(entity.kept.lat()).isEqualTo(2);
    }

    @Test
    void anEntityStayingInAFenceKeepsTheFenceIdItHeldNotTheAnswersCopy() throws Exception {
        entity.at(1, 1, fences(new String("A"))).until(1);
        String held = entity.kept.fenceIds()[0];
        entity.at(2, 2, fences(new String("A"))).until(2);
        assertThat(entity.kept.fenceIds()[0]).isSameAs(held);
    }

    @Test
    void aDeletedFenceIsLeftAtTheEntitysNextPosition() throws Exception {
        entity.at(1, 1, fences("A", "B")).at(5, 2, fences("B")).until(5);
        assertThat(entity.events).endsWith("EXIT A @5 2.0");
    }

    @Test
    void aPositionWithinTheExitMarginKeepsTheEntityInTheFence() throws Exception {
        entity.at(10, 1, fences("A")).at(20, 2, fences(), "A").at(30, 3, fences()).until(30);
        assertThat(entity.events).containsExactly("ENTER A @10 1.0", "EXIT A @30 3.0");
    }

    @Test
    void aFenceWithinTheExitMarginIsEnteredOnlyFromInside() throws Exception {
        entity.at(10, 1, fences(), "A").at(20, 2, fences("A")).until(20);
        assertThat(entity.events).containsExactly("ENTER A @20 2.0");
    }

    @Test
    void positionsAtOneTimeCountInAscendingLatThenLon() throws Exception {
        entity.at(5, 0, 2, fences("A")).at(5, 5, 1, fences("B")).at(5, 3, 1, fences("C")).until(5);
        assertThat(entity.events)
                .containsExactly(
                        "ENTER C @5 1.0",
                        "EXIT C @5 1.0",
                        "ENTER B @5 1.0",
                        "EXIT B @5 2.0",
                        "ENTER A @5 2.0");
    }

    @Test
    void exactDuplicatesAtOneTimeCountOnce() throws Exception {
        entity.at(5, 3, 1, fences("A")).at(5, 3, 1, fences("A")).until(5);
        assertThat(entity.events).containsExactly("ENTER A @5 1.0");
    }

    @Test
    void theAnswersOfEachTileTierForOnePointCountAsOnePosition() throws Exception {
        entity.at(5, 1, fences("A")).at(5, 1, fences("W")).until(5);
        assertThat(entity.events).containsExactly("ENTER A @5 1.0", "ENTER W @5 1.0");
    }

    @Test
    void theEventsOfPositionsAreNumberedInTheirOrderAfterThoseOfTimers() throws Exception {
        entity.at(5, 1, fences("A", "B")).until(5);
        assertThat(entity.numbers)
                .containsExactly(
                        EntityRules.FIRST_POSITION_EVENT, EntityRules.FIRST_POSITION_EVENT + 1);
    }

    @Test
    void anEntityInNoFenceIsKeptAsNothing() throws Exception {
        entity.at(1, 1, fences("A")).at(2, 2, fences()).until(2);
        assertThat(entity.kept).isNull();
        entity.at(3, 3, fences()).until(3);
        assertThat(entity.kept).isNull();
    }

    @Test
    void eachChangeOfTheSetOfFencesIsReportedAfterItsEventsAndAnUnchangedSetIsNot()
            throws Exception {
        entity.at(10, 1, fences("A"))
                .at(20, 2, fences("A"))
                .at(30, 3, fences("A", "B"))
                .at(40, 4, fences(), "B")
                .at(50, 5, fences())
                .until(50);
        assertThat(entity.sets)
                .containsExactly("[A] @10 1.0", "[A, B] @30 3.0", "[B] @40 4.0", "[] @50 5.0");
    }
}
