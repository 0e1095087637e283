package org.quadfence.api;

import org.apache.flink.streaming.api.datastream.DataStream;

import org.quadfence.model.CurrentFences;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.GeofenceEvent;

/**
 * What geofencing gives back ({@link Geofencing#apply}).
 *
 * @param events ENTER, EXIT and DWELL events (contract sections 3, 4 and 6); each entity's in order
 *     from one subtask
 * @param currentFences each entity's set of fences each time it changes (contract section 9); an
 *     empty set when it is in none any more or is forgotten
 * @param deadLetters the bad and late input records, with the reason
 */
public record GeofenceStreams(
        DataStream<GeofenceEvent> events,
        DataStream<CurrentFences> currentFences,
        DataStream<DeadLetter> deadLetters) {}
