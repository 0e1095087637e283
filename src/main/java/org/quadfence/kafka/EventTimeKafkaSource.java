package org.quadfence.kafka;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.synchronization.FutureCompletingBlockingQueue;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.KafkaSourceEnumState;
import org.apache.flink.connector.kafka.source.metrics.KafkaSourceReaderMetrics;
import org.apache.flink.connector.kafka.source.reader.KafkaRecordEmitter;
import org.apache.flink.connector.kafka.source.reader.KafkaSourceReader;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.connector.kafka.source.reader.fetcher.KafkaSourceFetcherManager;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.UserCodeClassLoader;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * A {@link KafkaSource} whose checkpoints keep, per partition, the latest event time it had read
 * (contract 8a, "Nothing waits after a restore"). Flink does not checkpoint watermarks: a restored
 * source starts from none, and records that waited in the keyed stages for the watermark would wait
 * until new input moves it. Here each restored partition first emits the watermark its records had
 * earned before the checkpoint ({@code max event time - bound - 1}, what {@link
 * org.apache.flink.api.common.eventtime.WatermarkStrategy#forBoundedOutOfOrderness} gives), so the
 * job goes on from where its sources were, and never beyond: the watermark restored is one that the
 * records before the checkpoint had already made. Splits move with their event time when the job is
 * rescaled; splits of checkpoints without one restore as before.
 *
 * <p>The state is Kafka's splits, serialized by Kafka's serializer, plus 8 bytes each.
 *
 * <p>With an idle timeout, its watermark strategy is {@link #idleness}: a partition is idle only
 * when the reader has caught up with it and it was silent while the broker answered; a partition
 * idle at the checkpoint with nothing new is idle again at once after a restore.
 */
public final class EventTimeKafkaSource<T>
        implements Source<T, KafkaPartitionSplit, KafkaSourceEnumState>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final KafkaSource<T> kafka;
    private final String topic;
    private final Map<String, String> client;
    private final SerializableTimestampAssigner<T> eventTime;
    private final long boundMs;
    private final BehindMark<T> behind;

    /**
     * @param topic the topic {@code kafka} reads
     * @param client the settings of its Kafka clients: bootstrap servers, security and the rest
     * @param eventTime the event time of a record, or {@link Long#MIN_VALUE} for one that moves no
     *     watermark (a dead letter): the timestamp assigner of the source's watermark strategy
     * @param boundMs the bound of that strategy's out-of-orderness, in milliseconds
     */
    public EventTimeKafkaSource(
            KafkaSource<T> kafka,
            String topic,
            Map<String, String> client,
            SerializableTimestampAssigner<T> eventTime,
            long boundMs) {
        this(kafka, topic, client, eventTime, boundMs, null);
    }

    private EventTimeKafkaSource(
            KafkaSource<T> kafka,
            String topic,
            Map<String, String> client,
            SerializableTimestampAssigner<T> eventTime,
            long boundMs,
            BehindMark<T> behind) {
        this.kafka = kafka;
        this.topic = topic;
        this.client = Map.copyOf(client);
        this.eventTime = eventTime;
        this.boundMs = boundMs;
        this.behind = behind;
        KafkaInternals.check();
    }

    /**
     * The same source, whose records read behind their partition's watermark ({@code max event time
     * - bound - 1} of the partition's records before them) go on as {@code behind} makes them.
     */
    public EventTimeKafkaSource<T> markingBehind(BehindMark<T> behind) {
        return new EventTimeKafkaSource<>(kafka, topic, client, eventTime, boundMs, behind);
    }

    /**
     * {@code strategy} with partitions idle after {@code timeout} of silence while the topic's
     * partition leaders answer ({@link IdleWhileLeadersAnswer}).
     */
    public <R> WatermarkStrategy<R> idleness(WatermarkStrategy<R> strategy, Duration timeout) {
        return new IdleWhileLeadersAnswer<>(strategy, timeout, topic, client);
    }

    @Override
    public Boundedness getBoundedness() {
        return kafka.getBoundedness();
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> createEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context) throws Exception {
        return kafka.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<KafkaPartitionSplit, KafkaSourceEnumState> restoreEnumerator(
            SplitEnumeratorContext<KafkaPartitionSplit> context, KafkaSourceEnumState state)
            throws Exception {
        return kafka.restoreEnumerator(context, state);
    }

    @Override
    public SimpleVersionedSerializer<KafkaPartitionSplit> getSplitSerializer() {
        return new EventTimeSplitSerializer(kafka.getSplitSerializer());
    }

    @Override
    public SimpleVersionedSerializer<KafkaSourceEnumState> getEnumeratorCheckpointSerializer() {
        return kafka.getEnumeratorCheckpointSerializer();
    }

    /**
     * Kafka's reader as {@link KafkaSource} makes it, with a split reader that reports the
     * consumer's positions ({@link ProgressSplitReader}), inside an {@link EventTimeReader}.
     */
    @Override
    public SourceReader<T, KafkaPartitionSplit> createReader(SourceReaderContext context)
            throws Exception {
        LeaderWatch watch = LeaderWatch.of(topic, client);
        PartitionProgress progress = PartitionProgress.register(watch::end);
        Properties props = KafkaInternals.properties(kafka);
        KafkaRecordDeserializationSchema<T> deserializer = KafkaInternals.deserializer(kafka);
        deserializer.open(
                new DeserializationSchema.InitializationContext() {
                    @Override
                    public MetricGroup getMetricGroup() {
                        return context.metricGroup().addGroup("deserializer");
                    }

                    @Override
                    public UserCodeClassLoader getUserCodeClassLoader() {
                        return context.getUserCodeClassLoader();
                    }
                });
        KafkaSourceReaderMetrics metrics = new KafkaSourceReaderMetrics(context.metricGroup());
        FutureCompletingBlockingQueue<RecordsWithSplitIds<ConsumerRecord<byte[], byte[]>>> queue =
                new FutureCompletingBlockingQueue<>();
        Configuration config = new Configuration();
        props.stringPropertyNames().forEach(k -> config.setString(k, props.getProperty(k)));
        KafkaSourceReader<T> reader =
                new KafkaSourceReader<>(
                        queue,
                        new KafkaSourceFetcherManager(
                                queue,
                                () -> new ProgressSplitReader(props, context, metrics, progress),
                                finished -> {}),
                        new KafkaRecordEmitter<>(deserializer),
                        config,
                        context,
                        metrics);
        return new EventTimeReader<>(reader, eventTime, boundMs, progress, behind);
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return kafka.getProducedType();
    }
}
