package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;

/**
 * A Kafka partition split as a checkpoint keeps it, with the latest event time its reader had
 * emitted from it: where that partition's watermark stood, so that a restore can start from there
 * ({@link EventTimeKafkaSource}); and whether it was idle, caught up and silent ({@link
 * PartitionProgress}), so that a restore with nothing new in it takes it for idle at once.
 */
final class EventTimeSplit extends KafkaPartitionSplit {

    /** No event time read yet (or a split of a checkpoint taken before event times were kept). */
    static final long NONE = Long.MIN_VALUE;

    private final long maxEventTime;
    private final boolean idle;

    EventTimeSplit(KafkaPartitionSplit split, long maxEventTime, boolean idle) {
        super(
                split.getTopicPartition(),
                split.getStartingOffset(),
                split.getStoppingOffset().orElse(NO_STOPPING_OFFSET));
        this.maxEventTime = maxEventTime;
        this.idle = idle;
    }

    /**
     * The latest event time emitted from this partition before the checkpoint, or {@link #NONE}.
     */
    long maxEventTime() {
        return maxEventTime;
    }

    /** The latest event time kept with {@code split}, or {@link #NONE}. */
    static long of(KafkaPartitionSplit split) {
        return split instanceof EventTimeSplit timed ? timed.maxEventTime : NONE;
    }

    /** Whether {@code split} was idle when its checkpoint was taken. */
    static boolean idle(KafkaPartitionSplit split) {
        return split instanceof EventTimeSplit timed && timed.idle;
    }

    @Override
    public String toString() {
        return super.toString() + " (event time " + maxEventTime + (idle ? ", idle)" : ")");
    }
}
