package org.quadfence.job;

import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Position;

import static org.assertj.core.api.Assertions.assertThat;

class LateFilterTest extends StageTestBase<OneInputStreamOperatorTestHarness<Position, Position>> {

    @Override
    OneInputStreamOperatorTestHarness<Position, Position> newHarness() throws Exception {
        return lateFilter();
    }

    @Test
    void aPositionAtOrBeforeTheWatermarkIsALateDeadLetterAndOneAfterItPasses() throws Exception {
        harness.processWatermark(100);
        harness.processElement(new Position("e", 1, 2, 100), 100);
        harness.processElement(new Position("f", 1, 2, 101), 101);
        assertThat(harness.extractOutputValues()).containsExactly(new Position("f", 1, 2, 101));
        assertThat(harness.getSideOutput(Geofencing.DEAD_LETTERS))
                .singleElement()
                .satisfies(
                        r -> {
                            assertThat(r.getValue().input()).isEqualTo("positions");
                            assertThat(r.getValue().error()).startsWith("late");
                            assertThat(r.getValue().raw())
                                    .isEqualTo(
                                            "{\"entityId\":\"e\",\"lon\":1.0,\"lat\":2.0,"
                                                    + "\"timestamp\":100}");
                        });
    }
}
