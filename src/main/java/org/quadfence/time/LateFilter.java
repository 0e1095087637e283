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
 */
public class LateFilter extends ProcessFunction<Position, Position> {

    private static final long serialVersionUID = 1L;

    private final OutputTag<DeadLetter> deadLetters;
    private final double maxAccuracy;
    private transient Counter latePositions;
    private transient Counter inaccurate;
    private transient PositionCodec codec;

    public LateFilter(OutputTag<DeadLetter> deadLetters) {
        this(deadLetters, 0);
    }

    /**
     * @param maxAccuracy option {@code max-accuracy-meters}; 0 for no limit
     */
    public LateFilter(OutputTag<DeadLetter> deadLetters, double maxAccuracy) {
        this.deadLetters = deadLetters;
        this.maxAccuracy = maxAccuracy;
    }

    @Override
    public void open(OpenContext openContext) {
        latePositions = getRuntimeContext().getMetricGroup().counter("latePositions");
        inaccurate = getRuntimeContext().getMetricGroup().counter("positionsInaccurate");
        codec = new PositionCodec();
    }

    @Override
    public void processElement(Position p, Context ctx, Collector<Position> out) {
        if (maxAccuracy > 0 && p.accuracy() > maxAccuracy) {
            inaccurate.inc();
            return;
        }
        long watermark = ctx.timerService().currentWatermark();
        if (p.timestamp() <= watermark) {
            latePositions.inc();
            ctx.output(deadLetters, late(p, watermark));
        } else {
            out.collect(p);
        }
    }

    // The position's text is not kept past the source: the dead letter has it written anew.
    private DeadLetter late(Position p, long watermark) {
        String error =
                "late: event time "
                        + Instant.ofEpochMilli(p.timestamp())
                        + " arrived after the watermark had passed "
                        + Instant.ofEpochMilli(watermark)
                        + "; raise max-out-of-orderness to accept records this late";
        return new DeadLetter(
                DeadLetter.POSITIONS, error, new String(codec.encode(p), StandardCharsets.UTF_8));
    }
}
