package org.quadfence.time;

import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataInputViewStreamWrapper;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a checkpoint keeps the records that wait in a stage: in raw keyed state, each key group on
 * its own, so that a restore at any parallelism gives each subtask the records of its key groups. A
 * key group holds the key and record serializers' snapshots (it is read with the serializers that
 * wrote it), then its keys, each once with its records' times and records in the order they came. A
 * stage's waiting records are mostly a few keys with many records each (a tile's positions): a key
 * written with each record was a third of what a checkpoint spent on them.
 *
 * <p>Written while the checkpoint's synchronous part runs, into a buffer and to the stream in
 * blocks of {@value #BLOCK} bytes. Operator state would be written later, by the snapshot thread,
 * but Flink 2.2 gives operator state a stream that takes every block one byte at a time ({@code
 * CompressibleFSDataOutputStream} has no write of an array), which made the waiting records the
 * largest part of a checkpoint's work.
 *
 * @param <K> the keys
 * @param <T> the records
 */
final class WaitingKeyGroups<K, T> {

    private static final int BLOCK = 1 << 16;

    private final TypeSerializer<K> keys;
    private final TypeSerializer<T> records;
    private final DataOutputSerializer buffer = new DataOutputSerializer(2 * BLOCK);

    WaitingKeyGroups(TypeSerializer<K> keys, TypeSerializer<T> records) {
        this.keys = keys;
        this.records = records;
    }

    /**
     * Writes {@code held}, the records of the subtask's key groups in the order they came, to
     * {@code out}: each key group that has records after its start.
     */
    void write(List<Held<K, T>> held, int maxParallelism, KeyedStateCheckpointOutputStream out)
            throws IOException {
        int[] order = new int[held.size()];
        int[] groupStarts = byKeyGroupAndKey(held, maxParallelism, order);
        for (int group = 0; group < maxParallelism; group++) {
            if (groupStarts[group] < groupStarts[group + 1]) {
                out.startNewKeyGroup(group);
                writeKeyGroup(held, order, groupStarts[group], groupStarts[group + 1], out);
            }
        }
    }

    /**
     * Fills {@code order} with the positions of {@code held} by key group, then by key hash, then
     * in the order they came; returns where each key group starts in it (and its end at {@code
     * maxParallelism}).
     */
    private static int[] byKeyGroupAndKey(
            List<? extends Held<?, ?>> held, int maxParallelism, int[] order) {
        int[] group = new int[held.size()];
        int[] starts = new int[maxParallelism + 1];
        for (int i = 0; i < group.length; i++) {
            group[i] =
                    KeyGroupRangeAssignment.computeKeyGroupForKeyHash(
                            held.get(i).hash(), maxParallelism);
            starts[group[i] + 1]++;
        }
        for (int g = 0; g < maxParallelism; g++) {
            starts[g + 1] += starts[g];
        }
        int[] next = Arrays.copyOf(starts, maxParallelism);
        long[] sorted = new long[group.length];
        for (int i = 0; i < group.length; i++) {
            sorted[next[group[i]]++] = ((long) held.get(i).hash() << 32) | i;
        }
        for (int g = 0; g < maxParallelism; g++) {
            Arrays.sort(sorted, starts[g], starts[g + 1]);
        }
        for (int i = 0; i < order.length; i++) {
            order[i] = (int) sorted[i];
        }
        return starts;
    }

    private void writeKeyGroup(
            List<Held<K, T>> held,
            int[] order,
            int from,
            int to,
            KeyedStateCheckpointOutputStream out)
            throws IOException {
        buffer.clear();
        TypeSerializerSnapshot.writeVersionedSnapshot(buffer, keys.snapshotConfiguration());
        TypeSerializerSnapshot.writeVersionedSnapshot(buffer, records.snapshotConfiguration());
        int[] keyStarts = new int[to - from + 1];
        int keyCount = 0;
        for (int i = from; i < to; i = nextKey(held, order, i, to)) {
            keyStarts[keyCount++] = i;
        }
        keyStarts[keyCount] = to;
        buffer.writeInt(keyCount);
        for (int k = 0; k < keyCount; k++) {
            keys.serialize(held.get(order[keyStarts[k]]).key(), buffer);
            buffer.writeInt(keyStarts[k + 1] - keyStarts[k]);
            for (int j = keyStarts[k]; j < keyStarts[k + 1]; j++) {
                Held<K, T> h = held.get(order[j]);
                buffer.writeLong(h.time());
                records.serialize(h.record(), buffer);
                if (buffer.length() >= BLOCK) {
                    out.write(buffer.getSharedBuffer(), 0, buffer.length());
                    buffer.clear();
                }
            }
        }
        out.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    /**
     * The end of the key that starts at {@code order[from]}, before {@code to}. When another key's
     * hash is the same (a collision), the run of that hash is first split stably: this key's
     * records, then the others, each in the order they came.
     */
    private static int nextKey(List<? extends Held<?, ?>> held, int[] order, int from, int to) {
        Held<?, ?> first = held.get(order[from]);
        int runEnd = from + 1;
        boolean oneKey = true;
        while (runEnd < to && held.get(order[runEnd]).hash() == first.hash()) {
            oneKey &= held.get(order[runEnd]).key().equals(first.key());
            runEnd++;
        }
        if (oneKey) {
            return runEnd;
        }
        int[] others = new int[runEnd - from];
        int end = from;
        int otherCount = 0;
        for (int i = from; i < runEnd; i++) {
            if (held.get(order[i]).key().equals(first.key())) {
                order[end++] = order[i];
            } else {
                others[otherCount++] = order[i];
            }
        }
        System.arraycopy(others, 0, order, end, otherCount);
        return end;
    }

    /** Reads one key group as {@link #write} wrote it: its records, key by key. */
    List<Held<K, T>> read(InputStream in, ClassLoader classLoader) throws IOException {
        DataInputView view = new DataInputViewStreamWrapper(in);
        TypeSerializer<K> keysThen =
                TypeSerializerSnapshot.<K>readVersionedSnapshot(view, classLoader)
                        .restoreSerializer();
        TypeSerializer<T> recordsThen =
                TypeSerializerSnapshot.<T>readVersionedSnapshot(view, classLoader)
                        .restoreSerializer();
        int keyCount = view.readInt();
        List<Held<K, T>> held = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            K key = keysThen.deserialize(view);
            int hash = key.hashCode();
            int count = view.readInt();
            for (int i = 0; i < count; i++) {
                long time = view.readLong();
                held.add(new Held<>(key, hash, time, recordsThen.deserialize(view)));
            }
        }
        return held;
    }
}
