package org.quadfence.kafka;

import java.util.HashMap;
import java.util.Map;

/**
 * How far one Kafka source reader has handed on each of its partitions, and whether that is the
 * partition's end: the data behind a partition's idleness ({@link IdleWhileLeadersAnswer}). A
 * partition is <em>caught up</em> when every record before the end offset that its leader last
 * reported (the last stable offset, read_committed) has been emitted downstream; a partition whose
 * records are still in the topic, in a fetch or in the reader's queue is not, however long it has
 * been silent.
 *
 * <p>The reader's watermark generators are created by Flink without their split's id; each learns
 * it from its first record ({@link #emitting}). One without a record yet answers for every split
 * that has sent none ({@link #mayIdle}), which is never less strict than answering for its own.
 *
 * <p>Used on the source task's thread only, where the reader registers it ({@link #register}) and
 * where Flink creates the generators ({@link #ofThisThread}).
 */
final class PartitionProgress {

    /** The end offsets of a topic's partitions, as its leaders last reported them. */
    interface Ends {
        /** The end offset of the split's partition from a recent answer; -1: not known. */
        long end(String split);
    }

    private static final ThreadLocal<PartitionProgress> OF_THREAD = new ThreadLocal<>();

    private final Ends ends;
    private final Map<String, Split> splits = new HashMap<>();

    /** The split whose record is being emitted: set before each record goes out. */
    String emitting;

    /** One split's progress. */
    static final class Split {
        /** The next offset to hand on: every record before it was emitted; -1: not known yet. */
        long position = -1;

        boolean emitted;
        boolean idle;
        boolean restoredIdle;
    }

    PartitionProgress(Ends ends) {
        this.ends = ends;
    }

    /** A progress for the reader being created on this thread, found there by its generators. */
    static PartitionProgress register(Ends ends) {
        PartitionProgress progress = new PartitionProgress(ends);
        OF_THREAD.set(progress);
        return progress;
    }

    /**
     * The progress of the reader created on this thread.
     *
     * @throws IllegalStateException when no reader of an {@link EventTimeKafkaSource} was
     */
    static PartitionProgress ofThisThread() {
        PartitionProgress progress = OF_THREAD.get();
        if (progress == null) {
            throw new IllegalStateException(
                    "IdleWhileLeadersAnswer works only with the reader of an EventTimeKafkaSource,"
                            + " created on the same task thread");
        }
        return progress;
    }

    /**
     * A split the reader now holds.
     *
     * @param startingOffset the offset it is read from, or a negative value when the consumer
     *     decides it (earliest, latest, committed)
     * @param restoredIdle whether it was idle at the checkpoint it comes from
     */
    void added(String split, long startingOffset, boolean restoredIdle) {
        Split s = new Split();
        s.position = Math.max(-1, startingOffset);
        s.restoredIdle = restoredIdle;
        splits.put(split, s);
    }

    void removed(String split) {
        splits.remove(split);
    }

    /** The split's progress, or null when the reader does not hold it. */
    Split split(String split) {
        return splits.get(split);
    }

    /**
     * Every record of a fetch has been emitted: {@code positions} are the consumer's positions
     * after that fetch, by split.
     */
    void read(Map<String, Long> positions) {
        positions.forEach(
                (split, position) -> {
                    Split s = splits.get(split);
                    if (s != null) {
                        s.position = position;
                    }
                });
    }

    /** A record of {@code s} goes out: it is active, and no longer restored idle. */
    void emitted(Split s) {
        s.emitted = true;
        s.idle = false;
        s.restoredIdle = false;
    }

    /** Whether every record before the split's end offset has been emitted. */
    boolean caughtUp(String split) {
        Split s = splits.get(split);
        if (s == null || s.position < 0) {
            return false;
        }
        long end = ends.end(split);
        return end >= 0 && s.position >= end;
    }

    /**
     * Whether the leader reported an end past what the reader handed on: records were written to
     * the split (null: to one of those without a record yet) that are not read yet. An end not
     * known is no such report.
     */
    boolean writtenTo(String split) {
        if (split != null) {
            return behind(split, splits.get(split));
        }
        for (Map.Entry<String, Split> e : splits.entrySet()) {
            if (!e.getValue().emitted && behind(e.getKey(), e.getValue())) {
                return true;
            }
        }
        return false;
    }

    private boolean behind(String split, Split s) {
        long end = ends.end(split);
        return s != null && end >= 0 && end > s.position;
    }

    /**
     * Whether the generator of {@code split} may mark it idle now.
     *
     * @param split the generator's split; null: not known yet (no record yet), so the answer holds
     *     for every split that has emitted none, and a reader without splits needs the silence
     * @param silentLongEnough whether the generator was silent for the idle timeout while the
     *     leaders answered
     */
    boolean mayIdle(String split, boolean silentLongEnough) {
        if (split != null) {
            return silentLongEnough && caughtUp(split);
        }
        if (splits.isEmpty()) {
            // No split yet (its assignment may still be on its way) or none to have: silence
            // alone, as without the data; never at once.
            return silentLongEnough;
        }
        for (Map.Entry<String, Split> e : splits.entrySet()) {
            Split s = e.getValue();
            if (!s.emitted && !((silentLongEnough || s.restoredIdle) && caughtUp(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** The generator of {@code split} (null: of every split without a record) went idle. */
    void idle(String split) {
        if (split != null) {
            Split s = splits.get(split);
            if (s != null) {
                s.idle = true;
            }
            return;
        }
        splits.values().forEach(s -> s.idle |= !s.emitted);
    }

    /**
     * Whether a checkpoint taken now keeps the split as idle: idle and caught up, or restored idle
     * and silent since.
     */
    boolean idleAtCheckpoint(String split) {
        Split s = splits.get(split);
        return s != null && (s.restoredIdle || s.idle && caughtUp(split));
    }
}
