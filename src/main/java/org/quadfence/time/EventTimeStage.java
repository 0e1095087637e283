package org.quadfence.time;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.runtime.TupleSerializer;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The clock of a keyed stage that takes its records in event time. A record waits until the
 * watermark passes its time; then, time by time in ascending order, the stage's timers up to that
 * time fire and the records of each key at that time are handed over together ({@link #onTime}). So
 * at one time, a key's timers come before its records.
 *
 * <p>Records wait in memory, not in keyed state: between watermarks the stage appends them to a
 * list, and at a watermark it sorts that list and takes the due records ({@link WaitingRecords}).
 * That costs no state access and no timer per record. A checkpoint writes the waiting records to
 * operator state, a list per key group (a few long lists cost a checkpoint far less than many
 * records), and a restore gives each subtask those of its key groups, at any parallelism.
 *
 * <p>Memory stays bounded: when {@value #HELD_LIMIT} records (option {@code max-waiting-records})
 * wait in one subtask (the watermark is held back, say by a fences topic that is still loading),
 * the stage moves them to keyed state with one timer per key and time, and keeps new records there
 * until that backlog has drained. The records are handed over in the same order either way.
 *
 * @param <K> the key
 * @param <T> the records that wait
 * @param <OUT> the output
 */
public abstract class EventTimeStage<K, T, OUT> extends AbstractStreamOperator<OUT>
        implements Triggerable<K, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    /** The most records that wait in memory in one subtask. */
    static final int HELD_LIMIT = 1 << 20;

    private static final Comparator<Held<?, ?>> DUE_ORDER =
            (a, b) ->
                    a.time != b.time
                            ? Long.compare(a.time, b.time)
                            : Integer.compare(a.hash, b.hash);

    private final TypeInformation<T> recordType;
    private int heldLimit;
    private long maxBacklogMs;

    private transient WaitingRecords<Held<K, T>> held;
    // The records due at a watermark, and those of one key at one time: reused, so that
    // handing records over allocates no lists.
    private transient List<Held<K, T>> due;
    private transient List<T> sameKey;
    // The waiting records at the last checkpoint: one list per key group, in arrival order.
    private transient ListState<List<Tuple3<K, Long, T>>> checkpointed;
    private transient TimeBuffer<T> spilled;
    // Times with records in keyed state and a timer still to fire, over all keys.
    private transient long backlog;
    private transient InternalTimerService<VoidNamespace> timers;
    private transient TimestampedCollector<OUT> out;

    protected EventTimeStage(TypeInformation<T> recordType) {
        this(recordType, HELD_LIMIT);
    }

    /** A stage that keeps at most {@code heldLimit} waiting records in memory. */
    protected EventTimeStage(TypeInformation<T> recordType, int heldLimit) {
        this.recordType = recordType;
        this.heldLimit = heldLimit;
    }

    /**
     * Takes the records of the current key at {@code time}, in the order they came. The list is the
     * stage's to reuse: sort it if need be, keep nothing of it.
     */
    protected abstract void onTime(long time, List<T> records) throws Exception;

    /**
     * A timer of the current key fires: one registered with {@link #registerTimer}, or one that the
     * stage set for records waiting in keyed state. So it must find out what is due itself, and do
     * nothing when nothing is.
     */
    protected void onTimer(long time) throws Exception {}

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        held = new WaitingRecords<>(DUE_ORDER, h -> h.time);
        due = new ArrayList<>();
        sameKey = new ArrayList<>();
        spilled = new TimeBuffer<>(context.getKeyedStateStore(), "waiting", recordType);
        @SuppressWarnings({"unchecked", "rawtypes"})
        TypeSerializer<List<Tuple3<K, Long, T>>> serializer =
                new FrozenListSerializer<>(
                        new TupleSerializer<>(
                                (Class) Tuple3.class,
                                new TypeSerializer<?>[] {
                                    getKeyedStateBackend().getKeySerializer(),
                                    LongSerializer.INSTANCE,
                                    recordType.createSerializer(
                                            getExecutionConfig().getSerializerConfig())
                                }));
        checkpointed =
                context.getOperatorStateStore()
                        .getUnionListState(new ListStateDescriptor<>("waiting", serializer));
        if (context.isRestored()) {
            restore();
        }
    }

    // Every subtask reads every key group's list of the union and keeps those of its own.
    private void restore() throws Exception {
        var task = getRuntimeContext().getTaskInfo();
        int maxParallelism = task.getMaxNumberOfParallelSubtasks();
        KeyGroupRange mine =
                KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                        maxParallelism,
                        task.getNumberOfParallelSubtasks(),
                        task.getIndexOfThisSubtask());
        for (List<Tuple3<K, Long, T>> keyGroup : checkpointed.get()) {
            if (mine.contains(
                    KeyGroupRangeAssignment.assignToKeyGroup(keyGroup.get(0).f0, maxParallelism))) {
                for (Tuple3<K, Long, T> entry : keyGroup) {
                    keep(entry.f0, entry.f1, entry.f2);
                }
            }
        }
        List<K> keys = new ArrayList<>();
        this.<K>getKeyedStateBackend()
                .getKeys(TimeBuffer.countsName("waiting"), VoidNamespace.INSTANCE)
                .forEach(keys::add);
        for (K key : keys) {
            setCurrentKey(key);
            backlog += spilled.times();
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        timers = getInternalTimerService("event-time", VoidNamespaceSerializer.INSTANCE, this);
        out = new TimestampedCollector<>(output);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        int maxParallelism = getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks();
        Map<Integer, List<Tuple3<K, Long, T>>> byKeyGroup = new HashMap<>();
        held.forEach(
                h ->
                        byKeyGroup
                                .computeIfAbsent(
                                        KeyGroupRangeAssignment.computeKeyGroupForKeyHash(
                                                h.hash, maxParallelism),
                                        g -> new ArrayList<>())
                                .add(Tuple3.of(h.key, h.time, h.record)));
        checkpointed.update(new ArrayList<>(byKeyGroup.values()));
    }

    /**
     * Sets the most records that wait in memory in one subtask (option {@code
     * max-waiting-records}); call it before the job runs.
     */
    public final void setWaitingLimit(int records) {
        heldLimit = records;
    }

    /**
     * Sets option {@code max-backlog} (contract section 12), which a stage that keeps what records
     * behind the watermark need reads with {@link #maxBacklog()}; call it before the job runs.
     */
    public final void setMaxBacklog(long ms) {
        maxBacklogMs = ms;
    }

    /** Option {@code max-backlog} in milliseconds; 0: off. */
    protected final long maxBacklog() {
        return maxBacklogMs;
    }

    /** The records waiting in memory, and the times with records waiting in keyed state. */
    final String waiting() {
        return held.size() + " in memory, " + backlog + " times in keyed state";
    }

    /** Makes {@code record} of the current key wait until the watermark passes {@code time}. */
    protected final void hold(T record, long time) throws Exception {
        if (backlog == 0 && held.size() < heldLimit) {
            keep(currentKey(), time, record);
            return;
        }
        if (!held.isEmpty()) {
            Object current = getCurrentKey();
            List<Held<K, T>> all = new ArrayList<>(held.size());
            held.forEach(all::add);
            held.clear();
            for (Held<K, T> h : all) {
                setCurrentKey(h.key);
                spill(h.time, h.record);
            }
            setCurrentKey(current);
        }
        spill(time, record);
    }

    private void keep(K key, long time, T record) {
        held.add(new Held<>(key, time, record));
    }

    private void spill(long time, T record) throws Exception {
        if (spilled.add(time, record)) {
            timers.registerEventTimeTimer(VoidNamespace.INSTANCE, time);
            backlog++;
        }
    }

    @SuppressWarnings("unchecked")
    private K currentKey() {
        return (K) getCurrentKey();
    }

    /** The type of the records this stage takes in. */
    protected final TypeInformation<T> recordType() {
        return recordType;
    }

    /** Registers a timer of the current key at {@code time}. */
    protected final void registerTimer(long time) {
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, time);
    }

    /** Deletes the current key's timer at {@code time}, unless records of the key wait on it. */
    protected final void deleteTimer(long time) throws Exception {
        if (backlog == 0 || !spilled.has(time)) {
            timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, time);
        }
    }

    /** The stage's event-time clock: the watermark up to which it has handed everything over. */
    protected final long currentWatermark() {
        return timers.currentWatermark();
    }

    /** Emits {@code value} with timestamp {@code time}. */
    protected final void emit(OUT value, long time) {
        out.setAbsoluteTimestamp(time);
        out.collect(value);
    }

    /** Emits {@code value} to the side output {@code tag} with timestamp {@code time}. */
    protected final <X> void emit(OutputTag<X> tag, X value, long time) {
        output.collect(tag, new StreamRecord<>(value, time));
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (held.minTime() <= mark.getTimestamp()) {
            held.takeDue(mark.getTimestamp(), due);
            handOver(due);
            due.clear();
        }
        super.processWatermark(mark);
    }

    private void handOver(List<Held<K, T>> due) throws Exception {
        for (int i = 0; i < due.size(); ) {
            long time = due.get(i).time;
            if (time > timers.currentWatermark()) {
                timeServiceManager.advanceWatermark(new Watermark(time));
            }
            int end = i + 1;
            while (end < due.size() && due.get(end).time == time) {
                end++;
            }
            byKey(due.subList(i, end), time);
            i = end;
        }
    }

    // The records of one time sorted by key hash: equal keys are neighbours unless hashes collide.
    private void byKey(List<Held<K, T>> sameTime, long time) throws Exception {
        for (int i = 0; i < sameTime.size(); ) {
            Held<K, T> first = sameTime.get(i);
            int end = i + 1;
            boolean oneKey = true;
            while (end < sameTime.size() && sameTime.get(end).hash == first.hash) {
                oneKey &= sameTime.get(end).key.equals(first.key);
                end++;
            }
            if (oneKey) {
                sameKey.clear();
                for (int j = i; j < end; j++) {
                    sameKey.add(sameTime.get(j).record);
                }
                handOver(first.key, time, sameKey);
            } else {
                Map<K, List<T>> groups = new LinkedHashMap<>();
                for (int j = i; j < end; j++) {
                    Held<K, T> h = sameTime.get(j);
                    groups.computeIfAbsent(h.key, k -> new ArrayList<>()).add(h.record);
                }
                for (Map.Entry<K, List<T>> g : groups.entrySet()) {
                    handOver(g.getKey(), time, g.getValue());
                }
            }
            i = end;
        }
    }

    private void handOver(K key, long time, List<T> records) throws Exception {
        setCurrentKey(key);
        onTime(time, records);
    }

    @Override
    public void onEventTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        long time = timer.getTimestamp();
        onTimer(time);
        if (backlog > 0 && spilled.has(time)) {
            backlog--;
            onTime(time, spilled.take(time));
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<K, VoidNamespace> timer) {}

    /** A record of a key waiting for its time. */
    private static final class Held<K, T> {
        final K key;
        final int hash;
        final long time;
        final T record;

        Held(K key, long time, T record) {
            this.key = key;
            this.hash = key.hashCode();
            this.time = time;
            this.record = record;
        }
    }
}
