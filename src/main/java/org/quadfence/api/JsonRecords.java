package org.quadfence.api;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

import org.quadfence.io.InputRules;
import org.quadfence.io.RecordParser;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

/**
 * Parses JSON records (contract sections 1, 2 and 6) for {@link Geofencing#applyParsed}: each
 * record gives a position or fence change, or a dead letter saying what is wrong with it. Give the
 * returned operators a uid of your own.
 */
public final class JsonRecords {

    private JsonRecords() {}

    /** Positions of the UTF-8 JSON objects in {@code json}. */
    public static SingleOutputStreamOperator<Parsed<Position>> positions(
            DataStream<byte[]> json, InputRules rules) {
        return json.process(RecordParser.positions(rules)).name("positions: parsed");
    }

    /**
     * Fence changes of the UTF-8 JSON objects in {@code json}. A change without a timestamp holds
     * from the record's timestamp in the stream (a Kafka source's record time), or from the
     * beginning of time when it has none.
     */
    public static SingleOutputStreamOperator<Parsed<FenceChange>> fences(
            DataStream<byte[]> json, InputRules rules) {
        return json.process(RecordParser.fences(rules)).name("fences: parsed");
    }
}
