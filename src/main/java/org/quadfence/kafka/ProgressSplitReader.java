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

/**
 * Kafka's split reader, whose every fetch tells, once the reader has emitted all its records, the
 * consumer's position in each assigned partition after it ({@link PartitionProgress#read}): the
 * next offset to hand on, past control records, which the offset of the last record would not say.
 * Kafka's reader waits up to 10 s for records in a poll, so a reader whose partitions have nothing
 * to read learns their positions within 10 s of its start (a restored partition knows its position
 * from its checkpoint at once).
 */
final class ProgressSplitReader extends KafkaPartitionSplitReader {

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final PartitionProgress progress;

    ProgressSplitReader(
            Properties props,
            SourceReaderContext context,
            KafkaSourceReaderMetrics metrics,
            PartitionProgress progress) {
        super(props, context, metrics);
        this.consumer = KafkaInternals.consumer(this);
        this.progress = progress;
    }

    @Override
    public RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> fetch() throws IOException {
        RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>> records = super.fetch();
        Map<String, Long> positions = new HashMap<>();
        for (TopicPartition tp : consumer.assignment()) {
            long position = position(tp);
            if (position >= 0) {
                positions.put(KafkaPartitionSplit.toSplitId(tp), position);
            }
        }
        return new Progress(records, positions, progress);
    }

    /** The consumer's position in {@code tp}, or -1 when it has none yet. */
    private long position(TopicPartition tp) {
        for (int attempt = 0; attempt < 2; attempt++) {
            try {
                return consumer.position(tp, Duration.ZERO);
            } catch (WakeupException woken) {
                // Flink's wakeup, meant for the poll: consumed, ask again.
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
