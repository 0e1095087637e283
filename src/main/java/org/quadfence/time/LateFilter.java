package org.quadfence.time;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.io.PositionCodec;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Sends positions that arrive after the watermark of their source has passed their time to the dead
 * letters ("late"). Decided once, where the position is read, so every tile stage that the position
 * goes to agrees on it; a position on time here is on time downstream too, since no downstream
 * watermark runs ahead of its source's.
 *
 * <p>With option {@code max-accuracy-meters}, a position whose accuracy is above it is ignored here
 * (contract section 11): counted ({@code positionsInaccurate}), not a dead letter, and none of its
 * entity's positions; it has moved its source's watermark already.
 *
 * <p>With option {@code max-backlog} (contract section 12), a position behind the watermark by at
 * most that much goes on as a candidate backlog position, marked with the watermark it was read
 * behind ({@link Position#inBacklog(long)}); the {@link BacklogGate} after it decides whether it is
 * one. Behind means the watermark + 1 (the partition's newest time minus {@code
 * max-out-of-orderness}) minus the position's time. A source emits its watermark only every {@code
 * watermark-interval}, so where a subtask reads one partition (a file in replay; the library's own
 * watermarks, which are per subtask) the filter keeps the watermark that the positions it has read
 * earned itself, and judges each position exactly by the ones read before it. A Kafka source
 * subtask may read several partitions: its source marks each position read behind its own
 * partition's watermark with that watermark ({@code EventTimeKafkaSource#markingBehind}).
 */
public class LateFilter extends ProcessFunction<Position, Position> {

    private static final long serialVersionUID = 1L;

    private final OutputTag<DeadLetter> deadLetters;
    private final double maxAccuracy;
    private final long maxBacklogMs;
    private final long ownClockBoundMs;
    private transient long newest;
    private transient Counter latePositions;
    private transient Counter inaccurate;
    private transient PositionCodec codec;

    /** A filter of late positions alone: no accuracy limit, no backlogs. */
    public LateFilter(OutputTag<DeadLetter> deadLetters) {
        this(deadLetters, 0, 0, -1);
    }

    /**
     * @param maxAccuracy option {@code max-accuracy-meters}; 0 for no limit
     * @param maxBacklogMs option {@code max-backlog}; 0 for none
     * @param ownClockBoundMs with {@code max-backlog}, when the subtask reads one partition: option
     *     {@code max-out-of-orderness}, to judge positions by the watermark the ones read before
     *     them earned; -1 to judge them by the watermark alone
     */
    public LateFilter(
            OutputTag<DeadLetter> deadLetters,
            double maxAccuracy,
            long maxBacklogMs,
            long ownClockBoundMs) {
        this.deadLetters = deadLetters;
        this.maxAccuracy = maxAccuracy;
        this.maxBacklogMs = maxBacklogMs;
        this.ownClockBoundMs = maxBacklogMs > 0 ? ownClockBoundMs : -1;
    }

    @Override
    public void open(OpenContext openContext) {
        latePositions = getRuntimeContext().getMetricGroup().counter("latePositions");
        inaccurate = getRuntimeContext().getMetricGroup().counter("positionsInaccurate");
        codec = new PositionCodec();
        newest = Long.MIN_VALUE;
    }

    @Override
    public void processElement(Position p, Context ctx, Collector<Position> out) {
        long watermark = ctx.timerService().currentWatermark();
        if (p.inBacklog()) {
            // Marked by its source: the watermark its own partition had when it was read.
            watermark = Math.max(watermark, p.backlogWatermark());
        }
        if (ownClockBoundMs >= 0) {
            if (newest != Long.MIN_VALUE) {
                watermark = Math.max(watermark, newest - ownClockBoundMs - 1);
            }
            newest = Math.max(newest, p.timestamp());
        }
        if (maxAccuracy > 0 && p.accuracy() > maxAccuracy) {
            inaccurate.inc();
            return;
        }
        if (p.timestamp() > watermark) {
            out.collect(p);
        } else if (maxBacklogMs > 0 && watermark - p.timestamp() < maxBacklogMs) {
            out.collect(p.inBacklog(watermark));
        } else {
            latePositions.inc();
            String error =
                    "late: event time "
                            + Instant.ofEpochMilli(p.timestamp())
                            + " arrived after the watermark had passed "
                            + Instant.ofEpochMilli(watermark)
                            + (maxBacklogMs > 0
                                    ? ", by more than max-backlog"
                                    : "; raise max-out-of-orderness to accept records this late");
            ctx.output(deadLetters, deadLetter(codec, p, error));
        }
    }

    /** The dead letter of {@code p} with {@code error}. */
    static DeadLetter deadLetter(PositionCodec codec, Position p, String error) {
        // The position's text is not kept past the source: the dead letter has it written anew.
        return new DeadLetter(
                DeadLetter.POSITIONS, error, new String(codec.encode(p), StandardCharsets.UTF_8));
    }
}
