package org.quadfence.time;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.ProcessOperator;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Position;

import static org.assertj.core.api.Assertions.assertThat;

class LateFilterTest {

    private static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private OneInputStreamOperatorTestHarness<Position, Position> harness;

    @BeforeEach
    void open() throws Exception {
        harness =
                new OneInputStreamOperatorTestHarness<>(
                        new ProcessOperator<>(new LateFilter(DEAD_LETTERS)));
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void aPositionAtOrBeforeTheWatermarkIsALateDeadLetterAndOneAfterItPasses() throws Exception {
        harness.processWatermark(100);
        harness.processElement(new Position("e", 1, 2, 100), 100);
        harness.processElement(new Position("f", 1, 2, 101), 101);
        assertThat(harness.extractOutputValues()).containsExactly(new Position("f", 1, 2, 101));
        assertThat(harness.getSideOutput(DEAD_LETTERS))
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

    @Test
    void withMaxBacklogAPositionBehindByAtMostItGoesOnMarkedWithTheWatermark() throws Exception {
        var backlog =
                new OneInputStreamOperatorTestHarness<Position, Position>(
                        new ProcessOperator<>(new LateFilter(DEAD_LETTERS, 0, 1_000, -1)));
        backlog.open();
        backlog.processWatermark(10_000);
        // Behind by watermark + 1 - t: 1000 for t = 9001, 1001 for t = 9000.
        backlog.processElement(new Position("e", 1, 2, 9_001), 9_001);
        backlog.processElement(new Position("f", 1, 2, 9_000), 9_000);
        assertThat(backlog.extractOutputValues())
                .containsExactly(new Position("e", 1, 2, 9_001).inBacklog(10_000));
        assertThat(backlog.getSideOutput(DEAD_LETTERS))
                .singleElement()
                .satisfies(r -> assertThat(r.getValue().error()).contains("max-backlog"));
        backlog.close();
    }
}
