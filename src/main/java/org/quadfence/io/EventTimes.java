package org.quadfence.io;

import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;

import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

/**
 * The event time of the job's input records as the sources' watermarks take it: a record's own
 * time, and {@link Long#MIN_VALUE} for a dead letter, which must not move a watermark.
 */
public final class EventTimes {

    /** The event time of a parsed position. */
    public static final SerializableTimestampAssigner<Parsed<Position>> POSITIONS =
            (r, ts) -> r.ok() ? r.value().timestamp() : Long.MIN_VALUE;

    /** The event time of a parsed fence change. */
    public static final SerializableTimestampAssigner<Parsed<FenceChange>> FENCES =
            (r, ts) -> r.ok() ? r.value().timestamp() : Long.MIN_VALUE;

    private EventTimes() {}
}
