package org.quadfence.api;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.InputRules;
import org.quadfence.io.PositionCodec;
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
        return json.process(new Positions(rules))
                .returns(new TypeHint<Parsed<Position>>() {})
                .name("positions: parsed");
    }

    /**
     * Fence changes of the UTF-8 JSON objects in {@code json}. A change without a timestamp holds
     * from the record's timestamp in the stream (a Kafka source's record time), or from the
     * beginning of time when it has none.
     */
    public static SingleOutputStreamOperator<Parsed<FenceChange>> fences(
            DataStream<byte[]> json, InputRules rules) {
        return json.process(new Fences(rules))
                .returns(new TypeHint<Parsed<FenceChange>>() {})
                .name("fences: parsed");
    }

    private static final class Positions extends ProcessFunction<byte[], Parsed<Position>> {
        private static final long serialVersionUID = 1L;
        private final InputRules rules;
        private transient PositionCodec codec;

        Positions(InputRules rules) {
            this.rules = rules;
        }

        @Override
        public void open(OpenContext context) {
            codec = new PositionCodec(rules);
        }

        @Override
        public void processElement(byte[] json, Context ctx, Collector<Parsed<Position>> out) {
            out.collect(codec.parse(json));
        }
    }

    private static final class Fences extends ProcessFunction<byte[], Parsed<FenceChange>> {
        private static final long serialVersionUID = 1L;
        private final InputRules rules;
        private transient FenceChangeCodec codec;

        Fences(InputRules rules) {
            this.rules = rules;
        }

        @Override
        public void open(OpenContext context) {
            codec = new FenceChangeCodec(rules);
        }

        @Override
        public void processElement(byte[] json, Context ctx, Collector<Parsed<FenceChange>> out) {
            Long time = ctx.timestamp();
            out.collect(codec.parse(null, json, time == null ? Long.MIN_VALUE : time));
        }
    }
}
