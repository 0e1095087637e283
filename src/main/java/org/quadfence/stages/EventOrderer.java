package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import org.quadfence.model.GeofenceEvent;
import org.quadfence.time.EventTimeStage;

import java.util.Comparator;
import java.util.List;

/**
 * Keyed by group and entity: puts each entity's events back in the order the entity stage gave them
 * (contract section 3), after the properties join regrouped them by fence. Events wait until the
 * watermark passes their time and then leave in their entity-stage order. With option {@code
 * max-backlog} (contract section 12) the events of a backlog position wait until the watermark
 * passes the time the entity stage gave them, their record's timestamp, and leave among the events
 * given then by time and order.
 */
public class EventOrderer extends EventTimeStage<String, SequencedEvent, GeofenceEvent>
        implements OneInputStreamOperator<SequencedEvent, GeofenceEvent> {

    private static final long serialVersionUID = 1L;
    private static final Comparator<SequencedEvent> IN_ORDER =
            Comparator.<SequencedEvent>comparingLong(e -> e.event().timestamp())
                    .thenComparingInt(SequencedEvent::seq);

    private transient LongCounter recordsIn;

    public EventOrderer() {
        super(TypeInformation.of(SequencedEvent.class));
    }

    @Override
    public void open() throws Exception {
        super.open();
        recordsIn = StageLoad.counter(getRuntimeContext(), "EventOrderer");
    }

    @Override
    public void processElement(StreamRecord<SequencedEvent> record) throws Exception {
        recordsIn.add(1);
        hold(record.getValue(), record.getTimestamp());
    }

    @Override
    protected void onTime(long t, List<SequencedEvent> due) {
        due.sort(IN_ORDER);
        for (SequencedEvent e : due) {
            emit(e.event(), t);
        }
    }
}
