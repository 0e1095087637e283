package org.quadfence.job;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.model.GeofenceEvent;

import java.util.Comparator;
import java.util.List;

/**
 * Keyed by group and entity: puts each entity's events back in the order the entity stage gave them
 * (contract section 3), after the properties join regrouped them by fence. Events wait until the
 * watermark passes their time and then leave in their entity-stage order.
 */
public class EventOrderer extends KeyedProcessFunction<String, SequencedEvent, GeofenceEvent> {

    private static final long serialVersionUID = 1L;

    private transient TimeBuffer<SequencedEvent> pending;
    private transient LongCounter recordsIn;

    @Override
    public void open(OpenContext openContext) {
        pending =
                new TimeBuffer<>(
                        getRuntimeContext(), "pending", TypeInformation.of(SequencedEvent.class));
        recordsIn = StageLoad.counter(getRuntimeContext(), "EventOrderer");
    }

    @Override
    public void processElement(SequencedEvent e, Context ctx, Collector<GeofenceEvent> out)
            throws Exception {
        recordsIn.add(1);
        long t = e.event().timestamp();
        if (pending.add(t, e)) {
            ctx.timerService().registerEventTimeTimer(t);
        }
    }

    @Override
    public void onTimer(long t, OnTimerContext ctx, Collector<GeofenceEvent> out) throws Exception {
        List<SequencedEvent> due = pending.take(t);
        due.sort(Comparator.comparingInt(SequencedEvent::seq));
        for (SequencedEvent e : due) {
            out.collect(e.event());
        }
    }
}
