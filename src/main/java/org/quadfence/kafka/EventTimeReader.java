package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.InputStatus;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The reader of {@link EventTimeKafkaSource}: Kafka's reader, with the latest event time emitted
 * per split counted on the way out, kept in each checkpoint's splits, and turned back into that
 * split's watermark when a split comes back from a checkpoint; with each split's progress ({@link
 * PartitionProgress}): how far its records went out, and whether it was idle at the checkpoint.
 */
final class EventTimeReader<T> implements SourceReader<T, KafkaPartitionSplit> {

    private final SourceReader<T, KafkaPartitionSplit> kafka;
    private final SerializableTimestampAssigner<T> eventTime;
    private final long boundMs;
    private final PartitionProgress progress;
    private final BehindMark<T> behind;

    /** Latest event time per split, of the splits this reader holds. */
    private final Map<String, Long> restored = new HashMap<>();

    private final Map<String, TimedOutput> outputs = new HashMap<>();

    /** Watermarks of restored splits, still to be emitted. */
    private final Map<String, Long> pending = new LinkedHashMap<>();

    private Output output;

    EventTimeReader(
            SourceReader<T, KafkaPartitionSplit> kafka,
            SerializableTimestampAssigner<T> eventTime,
            long boundMs,
            PartitionProgress progress,
            BehindMark<T> behind) {
        this.kafka = kafka;
        this.eventTime = eventTime;
        this.boundMs = boundMs;
        this.progress = progress;
        this.behind = behind;
    }

    @Override
    public void start() {
        kafka.start();
    }

    @Override
    public void addSplits(List<KafkaPartitionSplit> splits) {
        for (KafkaPartitionSplit split : splits) {
            progress.added(split.splitId(), split.getStartingOffset(), EventTimeSplit.idle(split));
            long max = EventTimeSplit.of(split);
            if (max != EventTimeSplit.NONE) {
                restored.put(split.splitId(), max);
                // Never below Long.MIN_VALUE: an event time near it has earned no watermark.
                long watermark = max - boundMs - 1;
                if (watermark < max) {
                    pending.put(split.splitId(), watermark);
                }
            }
        }
        kafka.addSplits(splits);
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> readerOutput) throws Exception {
        if (output == null || output.flink != readerOutput) {
            output = new Output(readerOutput);
        }
        if (!pending.isEmpty()) {
            // Before any record of the split: the restored job goes on from here, input or not.
            pending.forEach(
                    (split, watermark) ->
                            readerOutput
                                    .createOutputForSplit(split)
                                    .emitWatermark(new Watermark(watermark)));
            pending.clear();
        }
        return kafka.pollNext(output);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        // Restored watermarks go out without waiting for a record.
        return pending.isEmpty() ? kafka.isAvailable() : CompletableFuture.completedFuture(null);
    }

    @Override
    public List<KafkaPartitionSplit> snapshotState(long checkpointId) {
        List<KafkaPartitionSplit> splits = kafka.snapshotState(checkpointId);
        List<KafkaPartitionSplit> timed = new ArrayList<>(splits.size());
        for (KafkaPartitionSplit split : splits) {
            TimedOutput out = outputs.get(split.splitId());
            long max =
                    out != null
                            ? out.maxEventTime
                            : restored.getOrDefault(split.splitId(), EventTimeSplit.NONE);
            boolean idle = progress.idleAtCheckpoint(split.splitId());
            timed.add(
                    max == EventTimeSplit.NONE && !idle
                            ? split
                            : new EventTimeSplit(split, max, idle));
        }
        return timed;
    }

    @Override
    public void notifyNoMoreSplits() {
        kafka.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        kafka.handleSourceEvents(sourceEvent);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        kafka.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        kafka.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void pauseOrResumeSplits(
            Collection<String> splitsToPause, Collection<String> splitsToResume) {
        kafka.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void close() throws Exception {
        kafka.close();
    }

    /** Flink's reader output, with split outputs that count event times. */
    private final class Output implements ReaderOutput<T> {
        final ReaderOutput<T> flink;

        Output(ReaderOutput<T> flink) {
            this.flink = flink;
        }

        @Override
        public void collect(T record) {
            flink.collect(record);
        }

        @Override
        public void collect(T record, long timestamp) {
            flink.collect(record, timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            flink.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            flink.markIdle();
        }

        @Override
        public void markActive() {
            flink.markActive();
        }

        @Override
        public SourceOutput<T> createOutputForSplit(String splitId) {
            TimedOutput out = outputs.get(splitId);
            if (out == null || out.flink != flink) {
                out =
                        new TimedOutput(
                                flink.createOutputForSplit(splitId),
                                out != null
                                        ? out.maxEventTime
                                        : restored.getOrDefault(splitId, EventTimeSplit.NONE),
                                flink,
                                splitId);
                outputs.put(splitId, out);
            }
            return out;
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            outputs.remove(splitId);
            restored.remove(splitId);
            progress.removed(splitId);
            flink.releaseOutputForSplit(splitId);
        }
    }

    /** A split's output that keeps the latest event time emitted through it. */
    private final class TimedOutput implements SourceOutput<T> {
        private final SourceOutput<T> split;
        private final ReaderOutput<T> flink;
        private final String splitId;
        private final PartitionProgress.Split progressed;
        long maxEventTime;

        TimedOutput(
                SourceOutput<T> split, long maxEventTime, ReaderOutput<T> flink, String splitId) {
            this.split = split;
            this.maxEventTime = maxEventTime;
            this.flink = flink;
            this.splitId = splitId;
            this.progressed = progress.split(splitId);
        }

        @Override
        public void collect(T record) {
            split.collect(count(record, Long.MIN_VALUE));
        }

        @Override
        public void collect(T record, long timestamp) {
            split.collect(count(record, timestamp), timestamp);
        }

        /** Counts the record's event time; returns it as it goes on. */
        private T count(T record, long timestamp) {
            // Before the record reaches the split's watermark generator, which learns its split so.
            progress.emitting = splitId;
            if (progressed != null && (!progressed.emitted || progressed.idle)) {
                progress.emitted(progressed);
            }
            long time = eventTime.extractTimestamp(record, timestamp);
            if (time > maxEventTime) {
                maxEventTime = time;
                return record;
            }
            if (behind != null
                    && time != Long.MIN_VALUE
                    && maxEventTime != EventTimeSplit.NONE
                    && time <= maxEventTime - boundMs - 1) {
                return behind.marked(record, maxEventTime - boundMs - 1);
            }
            return record;
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            split.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            split.markIdle();
        }

        @Override
        public void markActive() {
            split.markActive();
        }
    }
}
