package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.util.clock.RelativeClock;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Kafka partition is idle after {@code idle-timeout} of silence only when the reader has caught
 * up with it and its topic's leaders answered all that time: a broker outage is not silence, nor is
 * a partition whose records are still to be read ({@link IdleWhileLeadersAnswer}, {@link
 * PartitionProgress}, {@link LeaderWatch}).
 */
class IdleWhileLeadersAnswerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long SECOND = 1_000_000_000L;

    /** A clock the test moves. */
    private static final class Clock implements RelativeClock {
        long nanos;

        @Override
        public long relativeTimeNanos() {
            return nanos;
        }

        @Override
        public long relativeTimeMillis() {
            return nanos / 1_000_000;
        }
    }

    /** Leaders that answer when the test says so. */
    private static final class Leaders implements IdleWhileLeadersAnswer.Leaders {
        boolean answering;
        int touched;

        @Override
        public void touch() {
            touched++;
        }

        @Override
        public boolean answeredFor(Duration duration) {
            return answering;
        }
    }

    /** What the generator said: watermarks as numbers, idleness as "idle". */
    private static final class Output implements WatermarkOutput {
        final List<String> said = new ArrayList<>();

        @Override
        public void emitWatermark(Watermark watermark) {
            said.add(String.valueOf(watermark.getTimestamp()));
        }

        @Override
        public void markIdle() {
            said.add("idle");
        }

        @Override
        public void markActive() {
            said.add("active");
        }

        String last() {
            return said.get(said.size() - 1);
        }
    }

    private static final String SPLIT = "positions-0";
    private static final String FENCES = "fences-0";

    /** The partitions' end offsets as the leaders last answered; absent: no recent answer. */
    private final Map<String, Long> ends = new HashMap<>();

    private final Clock clock = new Clock();
    private final Leaders leaders = new Leaders();
    private final Output out = new Output();
    private final PartitionProgress progress =
            new PartitionProgress(split -> ends.getOrDefault(split, -1L));
    private final IdleWhileLeadersAnswer.Generator<String> generator = generator();

    private IdleWhileLeadersAnswer.Generator<String> generator() {
        return new IdleWhileLeadersAnswer.Generator<>(
                new BoundedOutOfOrdernessWatermarks<>(Duration.ofSeconds(1)),
                TIMEOUT,
                clock,
                leaders,
                progress);
    }

    /** A split read from offset 0 whose reader has handed on everything up to its end, 100. */
    @BeforeEach
    void aCaughtUpSplit() {
        progress.added(SPLIT, 0, false);
        ends.put(SPLIT, 100L);
        progress.read(Map.of(SPLIT, 100L));
    }

    /** A record of {@code split} goes out, as the reader's split output hands it on. */
    private void record(IdleWhileLeadersAnswer.Generator<String> g, String split, long time) {
        progress.emitting = split;
        progress.emitted(progress.split(split));
        g.onEvent("r", time, out);
    }

    /** Periodic emits every 100 ms for {@code seconds}. */
    private void pass(double seconds) {
        pass(generator, seconds);
    }

    /** Periodic emits of {@code g} every 100 ms for {@code seconds}. */
    private void pass(IdleWhileLeadersAnswer.Generator<String> g, double seconds) {
        for (int i = 0; i < seconds * 10; i++) {
            clock.nanos += SECOND / 10;
            g.onPeriodicEmit(out);
        }
    }

    @Test
    void aSilentPartitionIsIdleAfterTheTimeoutWhileTheLeadersAnswer() {
        leaders.answering = true;
        record(generator, SPLIT, 5_000);
        pass(9.5);
        assertThat(out.last()).isEqualTo("3999");
        assertThat(leaders.touched)
                .as("the leaders are asked while the partition is silent")
                .isPositive();
        pass(1);
        assertThat(out.last()).isEqualTo("idle");
        assertThat(out.said).containsOnlyOnce("idle");
    }

    @Test
    void aPartitionCutOffFromTheBrokerHoldsItsWatermarkInsteadOfGoingIdle() {
        record(generator, SPLIT, 5_000);
        pass(60);
        assertThat(out.said).doesNotContain("idle");
        assertThat(out.last()).isEqualTo("3999");
        // The broker is back, and the partition still has nothing: idle once it answered long
        // enough (the leaders' part is measured by the watch, here at once).
        leaders.answering = true;
        pass(0.2);
        assertThat(out.last()).isEqualTo("idle");
    }

    @Test
    void anIdlePartitionStaysIdleWhenTheBrokerGoesAwayAndWakesUpWithItsNextRecord() {
        leaders.answering = true;
        record(generator, SPLIT, 5_000);
        pass(11);
        assertThat(out.last()).isEqualTo("idle");
        leaders.answering = false;
        ends.clear();
        pass(30);
        assertThat(out.last()).isEqualTo("idle");
        record(generator, SPLIT, 9_000);
        pass(0.1);
        assertThat(out.last()).isEqualTo("7999");
    }

    @Test
    void aSilentPartitionWithRecordsStillToReadIsNeverIdle() {
        leaders.answering = true;
        record(generator, SPLIT, 5_000);
        // The leader reports more than the reader has handed on: a slow fetch on a busy machine.
        ends.put(SPLIT, 250L);
        pass(60);
        assertThat(out.said).doesNotContain("idle");
        assertThat(out.last()).isEqualTo("3999");
        progress.read(Map.of(SPLIT, 250L));
        pass(0.1);
        assertThat(out.last()).isEqualTo("idle");
    }

    @Test
    void anIdlePartitionWrittenToHoldsTheWatermarkAgainBeforeItsRecordsAreRead() {
        leaders.answering = true;
        record(generator, SPLIT, 5_000);
        pass(11);
        assertThat(out.last()).isEqualTo("idle");
        ends.put(SPLIT, 130L);
        pass(0.1);
        assertThat(out.last()).as("its own watermark: active again").isEqualTo("3999");
        pass(30);
        assertThat(out.said).containsOnlyOnce("idle");
        progress.read(Map.of(SPLIT, 130L));
        pass(10.2);
        assertThat(out.last()).as("read to its new end, and silent again").isEqualTo("idle");
    }

    @Test
    void withoutARecentAnswerOfItsEndAPartitionIsNotIdle() {
        leaders.answering = true;
        record(generator, SPLIT, 5_000);
        ends.clear();
        pass(60);
        assertThat(out.said).doesNotContain("idle");
    }

    @Test
    void aGeneratorWithoutARecordYetAnswersForEverySplitThatSentNone() {
        leaders.answering = true;
        String other = "positions-1";
        progress.added(other, -1, false);
        IdleWhileLeadersAnswer.Generator<String> unknown = generator();
        pass(unknown, 60);
        assertThat(out.said)
                .as("the other split's position is not known yet")
                .doesNotContain("idle");
        ends.put(other, 40L);
        progress.read(Map.of(other, 40L));
        pass(unknown, 0.1);
        assertThat(out.last()).isEqualTo("idle");
        assertThat(progress.idleAtCheckpoint(other)).isTrue();
        assertThat(progress.idleAtCheckpoint(SPLIT)).isTrue();
    }

    @Test
    void aReaderWhoseSplitsAreNotAssignedYetIsIdleOnlyAfterTheTimeout() {
        leaders.answering = true;
        progress.removed(SPLIT);
        IdleWhileLeadersAnswer.Generator<String> waiting = generator();
        pass(waiting, 9.5);
        assertThat(out.said)
                .as("a fences subtask idle before its partition arrives would let positions by")
                .doesNotContain("idle");
        pass(waiting, 1);
        assertThat(out.last()).isEqualTo("idle");
    }

    /**
     * A generator of a reader restored with one split, idle at offset 7, whose end is now {@code
     * end}.
     */
    private IdleWhileLeadersAnswer.Generator<String> restoredIdleAt7(long end) {
        progress.removed(SPLIT);
        progress.added(FENCES, 7, true);
        ends.put(FENCES, end);
        return generator();
    }

    @Test
    void aSplitIdleAtTheCheckpointWithNothingNewIsIdleAtOnceAfterARestore() {
        IdleWhileLeadersAnswer.Generator<String> restored = restoredIdleAt7(7);
        pass(restored, 0.1);
        assertThat(out.last()).isEqualTo("idle");
    }

    @Test
    void aSplitIdleAtTheCheckpointThatWasWrittenToSinceWaitsForItsRecords() {
        IdleWhileLeadersAnswer.Generator<String> restored = restoredIdleAt7(9);
        pass(restored, 60);
        assertThat(out.said).doesNotContain("idle");
        assertThat(progress.idleAtCheckpoint(FENCES))
                .as("still idle for a checkpoint: nothing of it went out since the restore")
                .isTrue();
        record(restored, FENCES, 1_000);
        assertThat(progress.idleAtCheckpoint(FENCES)).isFalse();
    }

    @Test
    void theWatchKeepsTheEndsOfARecentAnswerOnly() {
        LeaderWatch watch = new LeaderWatch("t", Map.of(), Duration.ofSeconds(1));
        long t = 1_000 * SECOND;
        assertThat(watch.end("t-0", t)).isEqualTo(-1);
        watch.answered(t, Map.of("t-0", 12L));
        assertThat(watch.end("t-0", t + SECOND)).isEqualTo(12);
        assertThat(watch.end("t-1", t + SECOND)).as("not in the answer").isEqualTo(-1);
        assertThat(watch.end("t-0", t + 4 * SECOND)).as("older than three intervals").isEqualTo(-1);
        watch.unanswered();
        assertThat(watch.end("t-0", t + SECOND)).isEqualTo(-1);
    }

    @Test
    void theWatchCountsOnlyAnUnbrokenRunOfAnswers() {
        LeaderWatch watch = new LeaderWatch("t", Map.of(), Duration.ofSeconds(1));
        long t = 1_000 * SECOND;
        assertThat(watch.answeredFor(0, t)).as("nothing asked yet").isFalse();
        for (int i = 0; i <= 10; i++) {
            watch.answered(t + i * SECOND);
        }
        assertThat(watch.answeredFor(10 * SECOND, t + 10 * SECOND)).isTrue();
        assertThat(watch.answeredFor(11 * SECOND, t + 10 * SECOND)).isFalse();
        // No answer for longer than three probe intervals: not answering now.
        assertThat(watch.answeredFor(SECOND, t + 14 * SECOND)).isFalse();
        // Answers again after a gap: a new run, from then.
        watch.answered(t + 20 * SECOND);
        assertThat(watch.answeredFor(SECOND, t + 20 * SECOND)).isFalse();
        watch.answered(t + 21 * SECOND);
        assertThat(watch.answeredFor(SECOND, t + 21 * SECOND)).isTrue();
        // A failed probe ends the run.
        watch.unanswered();
        watch.answered(t + 22 * SECOND);
        assertThat(watch.answeredFor(SECOND, t + 22 * SECOND)).isFalse();
    }

    @Test
    void theProbeIntervalIsAFifthOfTheTimeoutWithinBounds() {
        assertThat(LeaderWatch.interval(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(1));
        assertThat(LeaderWatch.interval(Duration.ofSeconds(3))).isEqualTo(Duration.ofMillis(600));
        assertThat(LeaderWatch.interval(Duration.ofMillis(50))).isEqualTo(Duration.ofMillis(100));
    }
}
