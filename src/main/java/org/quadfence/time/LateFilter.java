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
 */
public class LateFilter extends ProcessFunction<Position, Position> {

    private static final long serialVersionUID = 1L;

    private final OutputTag<DeadLetter> deadLetters;
    private transient Counter latePositions;
    private transient PositionCodec codec;

    public LateFilter(OutputTag<DeadLetter> deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public void open(OpenContext openContext) {
        latePositions = getRuntimeContext().getMetricGroup().counter("latePositions");
        codec = new PositionCodec();
    }

    @Override
    public void processElement(Position p, Context ctx, Collector<Position> out) {
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
