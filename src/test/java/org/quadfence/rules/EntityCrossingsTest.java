package org.quadfence.rules;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Waypoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quadfence.rules.OneEntity.fences;

/** What an entity's paths do (contract section 10, option crossing), without Flink. */
class EntityCrossingsTest {

    private static final String[] NONE = fences();
    private static final Waypoint A = new Waypoint(1000, 0, 0);

    private final OneEntity entity = new OneEntity();

    @Test
    void aFenceThePathMeetsInNeitherTheSetBeforeNorAfterIsCrossedOnceAtTheFirstPointInIt()
            throws Exception {
        entity.at(1000, 0, 0, NONE).until(1000);
        entity.step(A, 2000, 10, 0, NONE, NONE, fences("gate"), 0.4).until(2000);
        assertThat(entity.events)
                .containsExactly("CROSS gate @2000 0.0 from 1000 at 1400 (4.0, 0.0)");
        assertThat(entity.sets).isEmpty();
    }

    @Test
    void aFenceInTheSetBeforeThePathIsNotCrossedButLeft() throws Exception {
        entity.at(1000, 0, 0, fences("F")).until(1000);
        entity.step(A, 2000, 10, 0, NONE, NONE, fences("F"), 0).until(2000);
        assertThat(entity.events).containsExactly("ENTER F @1000 0.0", "EXIT F @2000 0.0");
    }

    @Test
    void aFenceInTheSetAfterThePathIsNotCrossedButEntered() throws Exception {
        entity.at(1000, 0, 0, NONE).until(1000);
        entity.step(A, 2000, 10, 0, fences("F"), NONE, fences("F"), 0.5).until(2000);
        assertThat(entity.events).containsExactly("ENTER F @2000 0.0");
    }

    @Test
    void aFenceThatHysteresisKeepsInTheSetIsNeverCrossed() throws Exception {
        entity.at(1000, 0, 0, fences("F")).until(1000);
        entity.step(A, 2000, 10, 0, NONE, fences("F"), fences("F"), 0.5).until(2000);
        assertThat(entity.events).containsExactly("ENTER F @1000 0.0");
    }

    @Test
    void crossesComeAfterTimerEventsAndBeforeExitsAndEntersEachInAscendingFenceId()
            throws Exception {
        OneEntity e = new OneEntity(1000, 0, false);
        e.at(1000, 0, 0, fences("D")).until(1000);
        e.step(A, 2000, 10, 0, fences("A"), NONE, fences("A", "B", "C", "D"), 0.5, 0.2, 0.7, 0)
                .until(2000);
        assertThat(e.events)
                .containsExactly(
                        "ENTER D @1000 0.0",
                        "DWELL D @2000 0.0",
                        "CROSS B @2000 0.0 from 1000 at 1200 (2.0, 0.0)",
                        "CROSS C @2000 0.0 from 1000 at 1700 (7.0, 0.0)",
                        "EXIT D @2000 0.0",
                        "ENTER A @2000 0.0");
        assertThat(e.numbers.get(1)).isLessThan(EntityRules.FIRST_POSITION_EVENT);
        assertThat(e.numbers.subList(2, 6)).isSorted();
    }

    @Test
    void theAnswersOfSeveralTilesGiveOneCrossAtTheLeastFraction() throws Exception {
        entity.at(1000, 0, 0, NONE).until(1000);
        entity.step(A, 2000, 10, 0, NONE, NONE, fences("gate"), 0.6)
                .step(A, 2000, 10, 0, NONE, NONE, fences("gate", "yard"), 0.3, 0.9)
                .until(2000);
        assertThat(entity.events)
                .containsExactly(
                        "CROSS gate @2000 0.0 from 1000 at 1300 (3.0, 0.0)",
                        "CROSS yard @2000 0.0 from 1000 at 1900 (9.0, 0.0)");
    }

    @Test
    void atIsTheStartOfThePathWhenItLiesInTheFencesVersionAtTheLaterTime() throws Exception {
        entity.at(1000, 0, 0, NONE).until(1000);
        entity.step(A, 2000, 10, 0, NONE, NONE, fences("F"), 0).until(2000);
        assertThat(entity.events).containsExactly("CROSS F @2000 0.0 from 1000 at 1000 (0.0, 0.0)");
    }

    @Test
    void aCrossChangesNoSetAndStartsNoDwell() throws Exception {
        OneEntity e = new OneEntity(500, 0, false);
        e.at(1000, 0, 0, NONE).until(1000);
        e.step(A, 2000, 10, 0, NONE, NONE, fences("gate"), 0.4).until(10_000);
        assertThat(e.events).containsExactly("CROSS gate @2000 0.0 from 1000 at 1400 (4.0, 0.0)");
        assertThat(e.kept).isNull();
        assertThat(e.timers).isEmpty();
        assertThat(e.sets).isEmpty();
    }

    @Test
    void thePathAcrossTheAntimeridianGivesAtWithItsLongitudeFolded() throws Exception {
        Waypoint a = new Waypoint(0, 179, 0);
        entity.at(0, 179, 0, NONE).until(0);
        entity.step(a, 2000, -179, 0, NONE, NONE, fences("dateline"), 0.75).until(2000);
        assertThat(entity.events)
                .containsExactly("CROSS dateline @2000 0.0 from 0 at 1500 (-179.5, 0.0)");
    }

    @Test
    void atsTimeIsTheFloorOfTheInterpolatedTime() {
        assertThat(EntityRules.timeAt(1000, 1003, 0.5)).isEqualTo(1001);
        assertThat(EntityRules.timeAt(0, 253_402_300_799_999L, 1)).isEqualTo(253_402_300_799_999L);
        assertThat(EntityRules.timeAt(7, 7, 0.3)).isEqualTo(7);
    }
}
