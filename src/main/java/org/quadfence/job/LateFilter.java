package org.quadfence.job;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.Position;

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

    public LateFilter(OutputTag<DeadLetter> deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public void open(OpenContext openContext) {
        latePositions = getRuntimeContext().getMetricGroup().counter("latePositions");
    }

    @Override
    public void processElement(Position p, Context ctx, Collector<Position> out) {
        long watermark = ctx.timerService().currentWatermark();
        if (p.timestamp() <= watermark) {
            latePositions.inc();
            ctx.output(deadLetters, Late.deadLetter(p, watermark));
        } else {
            out.collect(p);
        }
    }
}
