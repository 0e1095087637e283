package org.quadfence.stages;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StageLoadTest {

    @Test
    void eachStageSaysItsRecordsSubtasksAndTheBusiestSubtasksShare() {
        Map<String, Object> accumulators =
                Map.of(
                        "records-in|TileMatcher|0|4", 10L,
                        "records-in|TileMatcher|1|4", 70L,
                        "records-in|TileMatcher|3|4", 20L,
                        "records-in|FenceRouter|0|1", 5L,
                        "something-else", 3L);
        assertThat(StageLoad.summary(accumulators))
                .containsExactly(
                        "FenceRouter: 5 records in 1 subtasks, busiest subtask 100%",
                        "TileMatcher: 100 records in 4 subtasks, busiest subtask 70%");
    }

    @Test
    void aStageThatTookNothingIsStillListed() {
        assertThat(StageLoad.summary(Map.of("records-in|EventOrderer|0|2", 0L)))
                .containsExactly("EventOrderer: 0 records in 2 subtasks, busiest subtask 0%");
    }
}
