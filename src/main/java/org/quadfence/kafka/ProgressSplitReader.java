package org.quadfence.kafka;

import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaPartitionSplitReader;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Kafka's split reader, whose every fetch tells, once the reader has emitted all its records, the
 * consumer's position in each assigned partition after it ({@link PartitionProgress#read}): the
 * next offset to hand on, past control records, which the offset of the last record would not say.
 *
 * <p>Kafka's reader waits up to 10 s for records in a poll. While a partition's position is not
 * known or is behind the end its leader last reported, and the topic's {@link LeaderWatch} is
 * probing (a partition is silent), a poll is cut short after the watch's interval ({@link
 * KafkaConsumer#wakeup}, which Kafka's reader turns into an empty fetch), so that a partition that
 * has nothing to read, or only control records, is known to be caught up within that interval.
 */
final class ProgressSplitReader extends KafkaPartitionSplitReader {

    private static final ScheduledExecutorService NUDGES =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "quadfence-kafka-poll-nudge");
                        t.setDaemon(true);
                        return t;
                    });

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PartitionProgress progress;
    private final LeaderWatch watch;

    /** The positions after the last fetch, by split; read and written by the fetcher thread. */
    private Map<String, Long> last = Map.of();

    ProgressSplitReader(
            Properties props,
            SourceReaderContext context,
            KafkaSourceReaderMetrics metrics,
            PartitionProgress progress,
            LeaderWatch watch) {
        super(props, context, metrics);
        this.consumer = KafkaInternals.consumer(this);
        this.progress = progress;
        this.watch = watch;
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        ScheduledFuture<?> nudge =
                nudgeNeeded()
                        ? NUDGES.schedule(
                                consumer::wakeup, watch.intervalMillis(), TimeUnit.MILLISECONDS)
                        : null;
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> records;
        try {
            records = super.fetch();
        } finally {
            if (nudge != null) {
                // A wakeup that fired after the poll makes the next poll return at once: harmless.
                nudge.cancel(false);
            }
        }
        Map<String, Long> positions = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            long position = position(tp);
            if (position >= 0) {
                positions.put(KafkaPartitionSplit.toSplitId(tp), position);
            }
        }
        last = positions;
        return new Progress(records, positions, progress);
    }

    private boolean nudgeNeeded() {
        if (!watch.probing()) {
            return false;
        }
        Set<TopicPartition> assigned = consumer.assignment();
        for (TopicPartition tp : assigned) {
            String split = KafkaPartitionSplit.toSplitId(tp);
            Long position = last.get(split);
            if (position == null || position < watch.end(split)) {
                return true;
            }
        }
        return false;
    }

    /** The consumer's position in {@code tp}, or -1 when it has none yet. */
    private long position(TopicPartition tp) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return consumer.position(tp, Duration.ZERO);
            } catch (WakeupException nudged) {
                // The nudge's wakeup, after the poll: consumed, ask again.
            } catch (KafkaException | IllegalStateException unknown) {
                return -1;
            }
        }
        return -1;
    }

    /** A fetch's records; when the reader is done with them, the positions after the fetch. */
    private static final class Progress
            implements RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> {
        private final RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> records;
        private final Map<String, Long> positions;
        private final PartitionProgress progress;

        Progress(
                RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> records,
                Map<String, Long> positions,
                PartitionProgress progress) {
            this.records = records;
            this.positions = positions;
            this.progress = progress;
        }

        @Override
        public String nextSplit() {
            return records.nextSplit();
        }

        @Override
        public ConsumerRecord<byte[], byte[]> nextRecordFromSplit() {
            return records.nextRecordFromSplit();
        }

        @Override
        public Set<String> finishedSplits() {
            return records.finishedSplits();
        }

        @Override
        public void recycle() {
            // On the task thread, after the last of these records went out.
            progress.read(positions);
            records.recycle();
        }
    }
}
