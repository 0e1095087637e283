package org.quadfence.bench;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.BasicArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.bench.PeerRecords.Event;
import org.quadfence.bench.PeerRecords.Fence;
import org.quadfence.bench.PeerRecords.Position;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keyed step of {@link BroadcastStrTreeJob}: fence changes, broadcast, go into the broadcast
 * state and this subtask's {@link PeerFenceIndex} as they arrive; each position, keyed by entity
 * (and group), is matched against the fences known when it arrives, and its set of fences is
 * compared with the entity's previous set (keyed state): EXIT for each fence it left, then ENTER
 * for each it entered, each in ascending fence id (contract section 3), all in arrival order.
 */
final class PeerMembership extends KeyedBroadcastProcessFunction<String, Position, Fence, Event> {

    private static final long serialVersionUID = 1L;

    static final MapStateDescriptor<String, Fence> FENCES =
            new MapStateDescriptor<>("fences", Types.STRING, TypeInformation.of(Fence.class));

    private static final String[] NONE = {};

    private transient ValueState<String[]> inside;
    private transient PeerFenceIndex index;
    private transient List<PeerFenceIndex.Entry> hits;
    private transient Event event;
    private transient Collector<Event> out;
    private transient LongCounter events;

    @Override
    public void open(OpenContext context) {
        inside =
                getRuntimeContext()
                        .getState(
                                new ValueStateDescriptor<>(
                                        "inside", BasicArrayTypeInfo.STRING_ARRAY_TYPE_INFO));
        hits = new ArrayList<>();
        event = new Event();
        events = getRuntimeContext().getLongCounter("events");
    }

    @Override
    public void processBroadcastElement(Fence f, Context ctx, Collector<Event> ignored)
            throws Exception {
        BroadcastState<String, Fence> fences = ctx.getBroadcastState(FENCES);
        PeerFenceIndex local = index(fences.immutableEntries());
        if (f.deleted) {
            fences.remove(f.key());
            local.delete(f.key());
        } else if (local.upsert(f)) {
            fences.put(f.key(), f);
        }
    }

    @Override
    public void processElement(Position p, ReadOnlyContext ctx, Collector<Event> collector)
            throws Exception {
        PeerFenceIndex local = index(ctx.getBroadcastState(FENCES).immutableEntries());
        local.covering(p.group, p.lon, p.lat, hits);
        String[] before = inside.value();
        before = before == null ? NONE : before;
        out = collector;
        int j = 0;
        for (String id : before) {
            while (j < hits.size() && hits.get(j).fence.fenceId.compareTo(id) < 0) {
                j++;
            }
            if (j == hits.size() || !hits.get(j).fence.fenceId.equals(id)) {
                PeerFenceIndex.Entry left = local.get(PeerRecords.key(p.group, id));
                emit(p, id, "EXIT", left == null ? null : left.fence.properties);
            }
        }
        int i = 0;
        boolean same = hits.size() == before.length;
        for (PeerFenceIndex.Entry e : hits) {
            String id = e.fence.fenceId;
            while (i < before.length && before[i].compareTo(id) < 0) {
                i++;
            }
            if (i == before.length || !before[i].equals(id)) {
                emit(p, id, "ENTER", e.fence.properties);
                same = false;
            }
        }
        if (hits.isEmpty()) {
            if (before.length > 0) {
                inside.clear();
            }
        } else if (!same) {
            String[] now = new String[hits.size()];
            for (int k = 0; k < now.length; k++) {
                now[k] = hits.get(k).fence.fenceId;
            }
            inside.update(now);
        }
    }

    private void emit(Position p, String fenceId, String type, String properties) {
        Event e = event;
        e.entityId = p.entityId;
        e.fenceId = fenceId;
        e.type = type;
        e.timestamp = p.timestamp;
        e.lon = p.lon;
        e.lat = p.lat;
        e.group = p.group;
        e.properties = properties;
        out.collect(e);
        events.add(1L);
    }

    /** This subtask's index; after a restore, made again from the broadcast state first. */
    private PeerFenceIndex index(Iterable<Map.Entry<String, Fence>> state) {
        if (index == null) {
            index = new PeerFenceIndex();
            for (Map.Entry<String, Fence> f : state) {
                index.upsert(f.getValue());
            }
        }
        return index;
    }

    @Override
    public void close() {
        if (index != null) {
            getRuntimeContext().getLongCounter("tree builds").add(index.builds());
        }
    }
}
