package org.quadfence.job;

import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;

/**
 * Runs the tile stage with the positions input never idle. When every positions partition falls
 * silent, Flink would otherwise let the fences input alone drive the clock: fence changes often run
 * ahead of positions in event time, so the watermark would jump past the positions still to come,
 * making them late (and applying future fence versions). Held at the positions' last watermark, the
 * stage waits instead; idle partitions among active ones are still skipped.
 */
final class PositionClockedOperator<K, IN1, IN2, OUT>
        extends KeyedCoProcessOperator<K, IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    /** The index of the positions input: the second one. */
    private static final int POSITIONS = 1;

    PositionClockedOperator(KeyedCoProcessFunction<K, IN1, IN2, OUT> function) {
        super(function);
    }

    @Override
    protected void processWatermarkStatus(WatermarkStatus status, int index) throws Exception {
        if (index == POSITIONS && status.isIdle()) {
            return;
        }
        super.processWatermarkStatus(status, index);
    }
}
