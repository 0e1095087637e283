package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.RelativeClock;

import java.time.Duration;
import java.util.Map;

/**
 * The watermark strategy of a Kafka source with {@code idle-timeout}: {@code base}, and a partition
 * that has sent nothing for the timeout is idle (it stops holding the watermark back), as with
 * {@link WatermarkStrategy#withIdleness}, but only when the topic's partition leaders answered all
 * that time ({@link LeaderWatch}). While the broker is away, a partition is not silent but cut off,
 * and may hold records older than the other partitions': it keeps holding the watermark at its own,
 * and the job waits for it instead of going on without it.
 *
 * <p>Silence is measured on Flink's input activity clock (which stops while the source is
 * back-pressured), the leaders' answers on the wall clock. An idle partition stays idle until its
 * next record, also when the broker goes away meanwhile: what it sends after that is newer than
 * what it had sent. A timeout below about half a second is shorter than it takes to notice that the
 * broker went away ({@link LeaderWatch#interval}, three of them), and then protects less.
 */
public final class IdleWhileLeadersAnswer<T> implements WatermarkStrategy<T> {

    private static final long serialVersionUID = 1L;

    private final WatermarkStrategy<T> base;
    private final Duration timeout;
    private final String topic;
    private final Map<String, String> client;

    /**
     * @param client the settings of the source's Kafka clients (bootstrap servers, security)
     */
    public IdleWhileLeadersAnswer(
            WatermarkStrategy<T> base, Duration timeout, String topic, Map<String, String> client) {
        if (timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("idle timeout must be positive: " + timeout);
        }
        this.base = base;
        this.timeout = timeout;
        this.topic = topic;
        this.client = client;
    }

    @Override
    public WatermarkGenerator<T> createWatermarkGenerator(
            WatermarkGeneratorSupplier.Context context) {
        return new Generator<>(
                base.createWatermarkGenerator(context),
                timeout,
                context.getInputActivityClock(),
                LeaderWatch.of(topic, client, LeaderWatch.interval(timeout)));
    }

    @Override
    public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
        return base.createTimestampAssigner(context);
    }

    /** What the generator needs of a {@link LeaderWatch}. */
    interface Leaders {
        /** The partition is silent: keep asking the leaders. */
        void touch();

        /** Whether the leaders answered for the last {@code duration}. */
        boolean answeredFor(Duration duration);
    }

    /** A partition's watermarks, with idleness as the class comment says. */
    static final class Generator<T> implements WatermarkGenerator<T> {
        private final WatermarkGenerator<T> watermarks;
        private final Duration timeout;
        private final long timeoutNanos;
        private final RelativeClock clock;
        private final Leaders leaders;
        private long events;
        private long eventsSeen;

        /** When the silence began on {@link #clock}; -1: not silent at the last check. */
        private long silentSince = -1;

        private boolean idle;

        Generator(
                WatermarkGenerator<T> watermarks,
                Duration timeout,
                RelativeClock clock,
                LeaderWatch watch) {
            this(
                    watermarks,
                    timeout,
                    clock,
                    new Leaders() {
                        @Override
                        public void touch() {
                            watch.touch();
                        }

                        @Override
                        public boolean answeredFor(Duration duration) {
                            return watch.answeredFor(duration);
                        }
                    });
        }

        Generator(
                WatermarkGenerator<T> watermarks,
                Duration timeout,
                RelativeClock clock,
                Leaders leaders) {
            this.watermarks = watermarks;
            this.timeout = timeout;
            this.timeoutNanos = timeout.toNanos();
            this.clock = clock;
            this.leaders = leaders;
        }

        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
            watermarks.onEvent(event, eventTimestamp, output);
            events++;
            idle = false;
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            if (events != eventsSeen) {
                eventsSeen = events;
                silentSince = -1;
            } else {
                long now = clock.relativeTimeNanos();
                if (silentSince < 0) {
                    silentSince = now;
                }
                leaders.touch();
                if (now - silentSince > timeoutNanos) {
                    if (idle) {
                        return;
                    }
                    if (leaders.answeredFor(timeout)) {
                        output.markIdle();
                        idle = true;
                        return;
                    }
                }
            }
            watermarks.onPeriodicEmit(output);
        }
    }
}
