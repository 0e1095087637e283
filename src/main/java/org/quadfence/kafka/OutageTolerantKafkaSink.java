package org.quadfence.kafka;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.kafka.sink.KafkaCommittable;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.sink.KafkaWriterState;
import org.apache.flink.connector.kafka.sink.TwoPhaseCommittingStatefulSink.PrecommittingStatefulSinkWriter;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.util.ExceptionUtils;

import org.apache.kafka.common.errors.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * A {@link KafkaSink} whose writers close also when the broker does not answer.
 *
 * <p>Closing a writer of an exactly-once Kafka sink aborts its open transaction, as a courtesy: the
 * connector calls that best effort, since a recovered writer aborts the transactions it left open
 * anyway. But when the broker is away, the abort waits for the producer's {@code max.block.ms} (60
 * s) and then throws, and closing is part of failing a task: Flink takes an exception there for a
 * fatal error and shuts the whole TaskManager down. A broker outage of a minute or more while the
 * sink failed (its commit of the last checkpoint timed out) thus took the TaskManager with it; in
 * {@code ./quadfence run}, whose single TaskManager nobody starts again, the job was left without
 * one. Here a timeout while closing a writer whose input did not end (a failing or cancelled task:
 * what it had not committed is read again after the restore) is logged and the writer counts as
 * closed; everything else about the sink is Kafka's own (its writers, committer, state and
 * serializers, the transactional ids).
 */
public final class OutageTolerantKafkaSink<IN>
        implements Sink<IN>,
                SupportsWriterState<IN, KafkaWriterState>,
                SupportsCommitter<KafkaCommittable>,
                SupportsPostCommitTopology<KafkaCommittable> {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(OutageTolerantKafkaSink.class);

    private final KafkaSink<IN> kafka;

    public OutageTolerantKafkaSink(KafkaSink<IN> kafka) {
        this.kafka = kafka;
    }

    /** Kafka's sink inside. */
    public KafkaSink<IN> kafka() {
        return kafka;
    }

    @Override
    public Writer<IN> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, Collections.emptyList());
    }

    @Override
    public Writer<IN> restoreWriter(
            WriterInitContext context, Collection<KafkaWriterState> recoveredState)
            throws IOException {
        return new Writer<>(kafka.restoreWriter(context, recoveredState));
    }

    @Override
    public SimpleVersionedSerializer<KafkaWriterState> getWriterStateSerializer() {
        return kafka.getWriterStateSerializer();
    }

    @Override
    public Committer<KafkaCommittable> createCommitter(CommitterInitContext context) {
        return kafka.createCommitter(context);
    }

    @Override
    public SimpleVersionedSerializer<KafkaCommittable> getCommittableSerializer() {
        return kafka.getCommittableSerializer();
    }

    @Override
    public void addPostCommitTopology(DataStream<CommittableMessage<KafkaCommittable>> committer) {
        kafka.addPostCommitTopology(committer);
    }

    /** Kafka's writer, closed without failing when the broker does not answer. */
    static final class Writer<IN>
            implements StatefulSinkWriter<IN, KafkaWriterState>,
                    CommittingSinkWriter<IN, KafkaCommittable> {
        private final PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka;

        /** Whether the input ended: then everything was written, and closing must not fail. */
        private boolean ended;

        Writer(PrecommittingStatefulSinkWriter<IN, KafkaWriterState, KafkaCommittable> kafka) {
            this.kafka = kafka;
        }

        @Override
        public void write(IN element, Context context) throws IOException, InterruptedException {
            kafka.write(element, context);
        }

        @Override
        public void flush(boolean endOfInput) throws IOException, InterruptedException {
            ended |= endOfInput;
            kafka.flush(endOfInput);
        }

        @Override
        public Collection<KafkaCommittable> prepareCommit()
                throws IOException, InterruptedException {
            return kafka.prepareCommit();
        }

        @Override
        public List<KafkaWriterState> snapshotState(long checkpointId) throws IOException {
            return kafka.snapshotState(checkpointId);
        }

        @Override
        public void close() throws Exception {
            try {
                // Kafka's writer closes all its producers before it rethrows.
                kafka.close();
            } catch (Exception e) {
                if (ended || ExceptionUtils.findThrowable(e, TimeoutException.class).isEmpty()) {
                    throw e;
                }
                LOG.warn(
                        "Kafka did not answer while the sink closed ({}); its open transaction is"
                                + " aborted when the job recovers, or by the broker after"
                                + " transaction.timeout.ms",
                        e.toString());
            }
        }
    }
}
