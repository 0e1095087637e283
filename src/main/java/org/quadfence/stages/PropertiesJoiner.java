package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import org.quadfence.model.GeofenceEvent;
import org.quadfence.rules.DueTimes;
import org.quadfence.time.EventTimeStage;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keyed by group and fence id: adds the fence's properties to its events. A fence's properties are
 * kept here once, not in every tile or entity that holds the fence, so a fence covering the world
 * with the largest properties allowed costs one copy of them.
 *
 * <p>An event gets the properties of the fence version in force at the event's time (none when the
 * fence is deleted then, as for the EXIT that follows a delete). Events wait until the watermark
 * passes their time, so that every fence change up to it has arrived whatever the interleaving of
 * the two inputs; when a version comes in force, the older ones are dropped, and a deleted fence
 * leaves nothing behind. With option {@code max-backlog} (contract section 12) they are dropped
 * only once the watermark is that much past, for the events of backlog positions.
 */
public class PropertiesJoiner extends EventTimeStage<String, SequencedEvent, SequencedEvent>
        implements TwoInputStreamOperator<FenceProperties, SequencedEvent, SequencedEvent> {

    private static final long serialVersionUID = 1L;

    private transient MapState<Long, FenceProperties> versions;
    private transient LongCounter recordsIn;

    public PropertiesJoiner() {
        super(TypeInformation.of(SequencedEvent.class));
    }

    @Override
    public void open() throws Exception {
        super.open();
        versions =
                getRuntimeContext()
                        .getMapState(
                                new MapStateDescriptor<>(
                                        "versions",
                                        Types.LONG,
                                        TypeInformation.of(FenceProperties.class)));
        recordsIn = StageLoad.counter(getRuntimeContext(), "PropertiesJoiner");
    }

    @Override
    public void processElement1(StreamRecord<FenceProperties> record) throws Exception {
        recordsIn.add(1);
        FenceProperties change = record.getValue();
        versions.put(change.timestamp(), change);
        long drop = DueTimes.plus(change.timestamp(), maxBacklog());
        if (drop > currentWatermark()) {
            registerTimer(drop);
        } else {
            dropVersionsBefore(currentWatermark() - maxBacklog());
        }
    }

    @Override
    public void processElement2(StreamRecord<SequencedEvent> record) throws Exception {
        recordsIn.add(1);
        SequencedEvent e = record.getValue();
        // The record's timestamp: the event's time, or, for the events of a backlog position,
        // when the entity stage gave them (MembershipTracker#leaving), which goes on with them.
        long t = record.getTimestamp();
        if (t <= currentWatermark()) {
            emit(withProperties(e), t);
        } else {
            hold(e, t);
        }
    }

    @Override
    protected void onTime(long t, List<SequencedEvent> due) throws Exception {
        for (SequencedEvent e : due) {
            emit(withProperties(e), t);
        }
    }

    @Override
    protected void onTimer(long t) throws Exception {
        dropVersionsBefore(t - maxBacklog());
    }

    private SequencedEvent withProperties(SequencedEvent e) throws Exception {
        FenceProperties v = inForce(e.event().timestamp());
        if (v == null || v.properties() == null) {
            return e;
        }
        GeofenceEvent g = e.event();
        return new SequencedEvent(g.withProperties(v.properties()), e.seq());
    }

    /** The version with the greatest time at or before {@code t}, or null. */
    private FenceProperties inForce(long t) throws Exception {
        FenceProperties best = null;
        for (FenceProperties v : versions.values()) {
            if (v.timestamp() <= t && (best == null || v.timestamp() > best.timestamp())) {
                best = v;
            }
        }
        return best;
    }

    // Every later event is after t: the version in force at t and the later ones are all that
    // can still matter, and a delete in force with nothing after it leaves nothing.
    private void dropVersionsBefore(long t) throws Exception {
        FenceProperties current = inForce(t);
        if (current == null) {
            return;
        }
        List<Long> old = new ArrayList<>();
        boolean later = false;
        for (Map.Entry<Long, FenceProperties> e : versions.entries()) {
            later |= e.getKey() > t;
            if (e.getKey() < current.timestamp() || (current.deleted() && e.getKey() <= t)) {
                old.add(e.getKey());
            }
        }
        if (current.deleted() && !later) {
            versions.clear();
            return;
        }
        for (long k : old) {
            versions.remove(k);
        }
    }
}
