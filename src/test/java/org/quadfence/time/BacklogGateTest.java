package org.quadfence.time;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Position;
import org.quadfence.stages.StageKeys;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Contract section 12's rule of which positions behind the watermark are backlog positions. */
class BacklogGateTest {

    private static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));
    private static final long WATERMARK = 10_000;

    private KeyedOneInputStreamOperatorTestHarness<String, Position, Position> harness;

    @BeforeEach
    void open() throws Exception {
        harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new BacklogGate(DEAD_LETTERS, 60_000)),
                        new StageKeys.EntityOfPosition(),
                        CompactStringSerializer.TYPE);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static Position behind(String entity, long t, double lat) {
        return new Position(entity, 1, lat, t).inBacklog(WATERMARK);
    }

    private List<Position> passed() {
        return harness.extractOutputValues();
    }

    private List<String> lateErrors() {
        return harness.getSideOutput(DEAD_LETTERS) == null
                ? List.of()
                : harness.getSideOutput(DEAD_LETTERS).stream()
                        .map(StreamRecord::getValue)
                        .map(DeadLetter::error)
                        .toList();
    }

    @Test
    void aBacklogOldestFirstGoesOnWhole() throws Exception {
        harness.processElement(behind("e", 5_000, 1), 5_000);
        harness.processElement(behind("e", 6_000, 1), 6_000);
        harness.processElement(behind("e", 6_000, 2), 6_000);
        assertThat(passed()).hasSize(3).allMatch(Position::inBacklog);
        assertThat(lateErrors()).isEmpty();
    }

    @Test
    void aPositionBehindThatIsNotLaterThanOneReadBeforeItIsLate() throws Exception {
        harness.processElement(new Position("e", 1, 1, 20_000), 20_000);
        harness.processElement(behind("e", 6_000, 1), 6_000);
        assertThat(passed()).containsExactly(new Position("e", 1, 1, 20_000));
        assertThat(lateErrors())
                .singleElement()
                .satisfies(e -> assertThat(e).startsWith("late").contains("oldest first"));
    }

    @Test
    void theLateOnesCountAsReadToo() throws Exception {
        harness.processElement(behind("e", 7_000, 1), 7_000);
        harness.processElement(behind("e", 6_000, 1), 6_000);
        harness.processElement(behind("e", 6_500, 1), 6_500);
        assertThat(passed()).extracting(Position::timestamp).containsExactly(7_000L);
        assertThat(lateErrors()).hasSize(2);
    }

    @Test
    void anExactDuplicateOfTheLatestBacklogPositionCountsOnce() throws Exception {
        harness.processElement(behind("e", 5_000, 1), 5_000);
        harness.processElement(behind("e", 5_000, 1), 5_000);
        assertThat(passed()).hasSize(1);
        assertThat(lateErrors()).isEmpty();
    }

    @Test
    void theOrderIsPerEntityNotPerPartition() throws Exception {
        harness.processElement(behind("e", 8_000, 1), 8_000);
        harness.processElement(behind("f", 5_000, 1), 5_000);
        assertThat(passed()).extracting(Position::entityId).containsExactly("e", "f");
    }

    @Test
    void anEntityIsForgottenOnceTheWatermarkIsMaxBacklogPastItsLatestPosition() throws Exception {
        harness.processElement(new Position("e", 1, 1, 20_000), 20_000);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        harness.processWatermark(79_999);
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
        harness.processWatermark(80_000);
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void positionsOnTimeGoOnWhateverTheirOrder() throws Exception {
        harness.processElement(new Position("e", 1, 1, 20_000), 20_000);
        harness.processElement(new Position("e", 1, 1, 19_500), 19_500);
        assertThat(passed()).hasSize(2).noneMatch(Position::inBacklog);
    }
}
