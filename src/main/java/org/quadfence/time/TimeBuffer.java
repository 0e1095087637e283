package org.quadfence.time;

import org.apache.flink.api.common.state.KeyedStateStore;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;

import java.util.ArrayList;
import java.util.List;

/**
 * Records of the current key waiting in keyed state until the watermark passes their event time.
 *
 * <p>Appending costs the same on every state backend whatever number of records already wait at
 * that time: records are kept in chunks of at most {@value #CHUNK} per map entry, so an append
 * rewrites one short chunk, never the whole list of its millisecond (a burst of thousands of
 * records at one millisecond would otherwise be quadratic on RocksDB). Times must lie in [0, 2^49):
 * every accepted event time plus the longest dwell-ms or entity-ttl does.
 */
public final class TimeBuffer<T> {

    static final int CHUNK = 64;
    // A map key is time << CHUNK_BITS | chunk; chunks past the last index share it.
    private static final int CHUNK_BITS = 14;
    private static final int LAST_CHUNK = (1 << CHUNK_BITS) - 1;

    private final MapState<Long, Integer> counts;
    private final MapState<Long, List<T>> chunks;

    /** The buffer's state, registered under {@code name} in the function's keyed state. */
    public TimeBuffer(KeyedStateStore context, String name, TypeInformation<T> type) {
        counts =
                context.getMapState(
                        new MapStateDescriptor<>(countsName(name), Types.LONG, Types.INT));
        chunks =
                context.getMapState(
                        new MapStateDescriptor<>(name + "-chunks", Types.LONG, Types.LIST(type)));
    }

    /** The name of the state that holds a buffer's times: its keys are the keys with records. */
    static String countsName(String name) {
        return name + "-counts";
    }

    /** Adds {@code item} at {@code time}; returns true when it is the first at that time. */
    public boolean add(long time, T item) throws Exception {
        Integer count = counts.get(time);
        int n = count == null ? 0 : count;
        long key = key(time, n / CHUNK);
        List<T> chunk = n % CHUNK == 0 && n / CHUNK <= LAST_CHUNK ? null : chunks.get(key);
        // A new list each time: heap snapshots may still be reading the stored one.
        List<T> grown = new ArrayList<>(chunk == null ? 1 : chunk.size() + 1);
        if (chunk != null) {
            grown.addAll(chunk);
        }
        grown.add(item);
        chunks.put(key, grown);
        counts.put(time, n + 1);
        return n == 0;
    }

    /** True when records wait at {@code time}. */
    public boolean has(long time) throws Exception {
        return counts.contains(time);
    }

    /** The number of times at which records wait. */
    public int times() throws Exception {
        int n = 0;
        for (Long ignored : counts.keys()) {
            n++;
        }
        return n;
    }

    /** Removes and returns the records at {@code time}, in the order they were added. */
    public List<T> take(long time) throws Exception {
        Integer count = counts.get(time);
        if (count == null) {
            return new ArrayList<>();
        }
        counts.remove(time);
        List<T> out = new ArrayList<>(count);
        int last = Math.min((count - 1) / CHUNK, LAST_CHUNK);
        for (int c = 0; c <= last; c++) {
            long key = key(time, c);
            out.addAll(chunks.get(key));
            chunks.remove(key);
        }
        return out;
    }

    private static long key(long time, int chunk) {
        return time << CHUNK_BITS | Math.min(chunk, LAST_CHUNK);
    }
}
