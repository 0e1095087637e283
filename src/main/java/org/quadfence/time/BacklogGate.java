package org.quadfence.time;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.io.PositionCodec;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Position;
import org.quadfence.model.PositionSerializer;

import java.time.Instant;

/**
 * Keyed by group and entity, only with option {@code max-backlog} (contract section 12): decides
 * which of the positions that {@link LateFilter} let through behind the watermark are backlog
 * positions. It sees each entity's positions in the order they were read (one partition holds an
 * entity's positions, and nothing reorders them on the way here), keeps the entity's latest one in
 * the contract's order (time, then lat, then lon), and lets a position behind the watermark go on
 * only when it is later than that one; an exact duplicate of the latest backlog position is dropped
 * (it counts once), any other position behind is a dead letter "late". Positions on time go on
 * unchanged.
 *
 * <p>The latest position of an entity is kept until the watermark is {@code max-backlog} past it:
 * every position read after that is later than it anyway. So state grows with the entities seen
 * within {@code max-backlog}, never with positions; one timer per entity.
 */
public class BacklogGate extends KeyedProcessFunction<String, Position, Position> {

    private static final long serialVersionUID = 1L;

    /** The metric of backlog positions let through. */
    public static final String BACKLOG_POSITIONS = "backlogPositions";

    private final OutputTag<DeadLetter> deadLetters;
    private final long maxBacklogMs;

    private transient ValueState<Position> latest;
    private transient Counter backlog;
    private transient Counter late;
    private transient PositionCodec codec;

    /**
     * @param maxBacklogMs option {@code max-backlog}, above 0
     */
    public BacklogGate(OutputTag<DeadLetter> deadLetters, long maxBacklogMs) {
        this.deadLetters = deadLetters;
        this.maxBacklogMs = maxBacklogMs;
    }

    @Override
    public void open(OpenContext openContext) {
        latest =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "latest-position", PositionSerializer.INSTANCE));
        var metrics = getRuntimeContext().getMetricGroup();
        backlog = metrics.counter(BACKLOG_POSITIONS);
        late = metrics.counter("latePositions");
        codec = new PositionCodec();
    }

    @Override
    public void processElement(Position p, Context ctx, Collector<Position> out) throws Exception {
        Position before = latest.value();
        int order = before == null ? 1 : compare(p, before);
        if (order > 0) {
            latest.update(p);
            if (before == null) {
                ctx.timerService().registerEventTimeTimer(forgottenAt(p));
            }
        }
        if (!p.inBacklog()) {
            out.collect(p);
        } else if (order > 0) {
            backlog.inc();
            out.collect(p);
        } else if (order < 0 || !before.inBacklog()) {
            late.inc();
            ctx.output(deadLetters, LateFilter.deadLetter(codec, p, error(p, before)));
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Position> out)
            throws Exception {
        Position p = latest.value();
        if (p == null) {
            return;
        }
        long due = forgottenAt(p);
        if (due <= timestamp) {
            latest.clear();
        } else {
            ctx.timerService().registerEventTimeTimer(due);
        }
    }

    private long forgottenAt(Position p) {
        long t = p.timestamp();
        return t > Long.MAX_VALUE - maxBacklogMs ? Long.MAX_VALUE : t + maxBacklogMs;
    }

    /** The contract's order of an entity's positions: time, then lat, then lon. */
    static int compare(Position a, Position b) {
        int c = Long.compare(a.timestamp(), b.timestamp());
        if (c == 0) {
            c = Double.compare(a.lat(), b.lat());
        }
        return c != 0 ? c : Double.compare(a.lon(), b.lon());
    }

    private static String error(Position p, Position before) {
        return "late: event time "
                + Instant.ofEpochMilli(p.timestamp())
                + " arrived after the watermark had passed "
                + Instant.ofEpochMilli(p.backlogWatermark())
                + ", and after a position of its entity at "
                + Instant.ofEpochMilli(before.timestamp())
                + " that is not earlier (a backlog is taken only oldest first)";
    }
}
