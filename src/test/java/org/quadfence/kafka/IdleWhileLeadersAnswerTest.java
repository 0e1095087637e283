package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.util.clock.RelativeClock;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Kafka partition is idle after {@code idle-timeout} of silence only while its topic's leaders
 * answered all that time: a broker outage is not silence ({@link IdleWhileLeadersAnswer}, {@link
 * LeaderWatch}).
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

    private final Clock clock = new Clock();
    private final Leaders leaders = new Leaders();
    private final Output out = new Output();
    private final IdleWhileLeadersAnswer.Generator<String> generator =
            new IdleWhileLeadersAnswer.Generator<>(
                    new BoundedOutOfOrdernessWatermarks<>(Duration.ofSeconds(1)),
                    TIMEOUT,
                    clock,
                    leaders);

    /** Periodic emits every 100 ms for {@code seconds}. */
    private void pass(double seconds) {
        for (int i = 0; i < seconds * 10; i++) {
            clock.nanos += SECOND / 10;
            generator.onPeriodicEmit(out);
        }
    }

    @Test
    void aSilentPartitionIsIdleAfterTheTimeoutWhileTheLeadersAnswer() {
        leaders.answering = true;
        generator.onEvent("a", 5_000, out);
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
        generator.onEvent("a", 5_000, out);
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
        generator.onEvent("a", 5_000, out);
        pass(11);
        assertThat(out.last()).isEqualTo("idle");
        leaders.answering = false;
        pass(30);
        assertThat(out.last()).isEqualTo("idle");
        generator.onEvent("b", 9_000, out);
        pass(0.1);
        assertThat(out.last()).isEqualTo("7999");
    }

    @Test
    void theWatchCountsOnlyAnUnbrokenRunOfAnswers() {
        LeaderWatch watch = new LeaderWatch("t", java.util.Map.of(), Duration.ofSeconds(1));
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
