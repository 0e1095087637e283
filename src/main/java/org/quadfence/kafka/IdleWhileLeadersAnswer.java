package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.api.common.eventtime.TimestampAssignerSupplier;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.util.clock.RelativeClock;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;

/**
 * The watermark strategy of a Kafka source with {@code idle-timeout}: {@code base}, and a partition
 * is idle (it stops holding the watermark back) only when the reader has caught up with it (every
 * record before the end offset its leader last reported has been emitted, {@link
 * PartitionProgress}) and it has been silent for the timeout while the topic's partition leaders
 * answered ({@link LeaderWatch}). Silence while records remain to be read is never idleness: not on
 * a start, after a restore, after a broker restart, or on a machine too busy to fetch in time.
 * While the broker is away a partition is not silent but cut off, and keeps holding the watermark
 * at its own.
 *
 * <p>A partition that was idle at the checkpoint a job restores from, and has nothing new, is idle
 * again as soon as its end offset confirms it, without waiting for the timeout: a quiet topic does
 * not hold a restored job back.
 *
 * <p>Silence is measured on Flink's input activity clock (which stops while the source is
 * back-pressured), the leaders' answers on the wall clock. An idle partition stays idle until its
 * leader reports an end past what the reader handed on, or until its next record, whichever comes
 * first: from then on it holds the watermark at its own again. A broker that goes away meanwhile
 * reports nothing, and the partition stays idle: what it sends after that is newer than what it had
 * sent. A timeout below about half a second is shorter than it takes to notice that the broker went
 * away ({@link LeaderWatch#interval}, three of them), and then protects less.
 *
 * <p>Only for the source of an {@link EventTimeKafkaSource}, whose reader keeps the progress.
 */
public final class IdleWhileLeadersAnswer<T> implements WatermarkStrategy<T> {

    private static final Logger LOG = LoggerFactory.getLogger(IdleWhileLeadersAnswer.class);

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
                LeaderWatch.of(topic, client, LeaderWatch.interval(timeout)),
                PartitionProgress.ofThisThread());
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
        private final PartitionProgress progress;

        /** This generator's split, known from its first record; null before. */
        private String split;

        private long events;
        private long eventsSeen;

        /** When the silence began on {@link #clock}; -1: not silent at the last check. */
        private long silentSince = -1;

        private boolean idle;

        Generator(
                WatermarkGenerator<T> watermarks,
                Duration timeout,
                RelativeClock clock,
                LeaderWatch watch,
                PartitionProgress progress) {
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
                    },
                    progress);
        }

        Generator(
                WatermarkGenerator<T> watermarks,
                Duration timeout,
                RelativeClock clock,
                Leaders leaders,
                PartitionProgress progress) {
            this.watermarks = watermarks;
            this.timeout = timeout;
            this.timeoutNanos = timeout.toNanos();
            this.clock = clock;
            this.leaders = leaders;
            this.progress = progress;
        }

        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
            watermarks.onEvent(event, eventTimestamp, output);
            events++;
            idle = false;
            if (split == null) {
                split = progress.emitting;
            }
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
                if (idle) {
                    if (!progress.writtenTo(split)) {
                        return;
                    }
                    // Written to while idle, and not read yet: hold the watermark from now on
                    // rather than from its first record (emitting a watermark marks it active).
                    idle = false;
                    silentSince = now;
                    watermarks.onPeriodicEmit(output);
                    return;
                }
                boolean silentLongEnough =
                        now - silentSince > timeoutNanos && leaders.answeredFor(timeout);
                if (progress.mayIdle(split, silentLongEnough)) {
                    LOG.debug("Kafka partition {} idle", split != null ? split : "(no record yet)");
                    output.markIdle();
                    idle = true;
                    progress.idle(split);
                    return;
                }
            }
            watermarks.onPeriodicEmit(output);
        }
    }
}
