package org.quadfence.io;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.function.SerializableFunction;

import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

/**
 * Parses UTF-8 JSON records into positions or fence changes, or dead letters, with a codec made in
 * {@link #open()} where the parser runs (codecs hold a JSON factory and are not serializable). It
 * is the function of a stream of JSON records, and what a Kafka source's deserializer parses with.
 */
public final class RecordParser<T> extends ProcessFunction<byte[], Parsed<T>>
        implements ResultTypeQueryable<Parsed<T>> {

    private static final long serialVersionUID = 1L;

    /** One record's parse: its UTF-8 key and value (either may be null) and its time. */
    interface Parse<T> {
        Parsed<T> parse(byte[] key, byte[] value, long time);
    }

    private final InputRules rules;
    private final SerializableFunction<InputRules, Parse<T>> codec;
    private final TypeInformation<Parsed<T>> type;
    private transient Parse<T> parse;

    private RecordParser(
            InputRules rules,
            SerializableFunction<InputRules, Parse<T>> codec,
            TypeInformation<Parsed<T>> type) {
        this.rules = rules;
        this.codec = codec;
        this.type = type;
    }

    /** Positions (contract section 1); the key and time are not read, a null value is empty. */
    public static RecordParser<Position> positions(InputRules rules) {
        return new RecordParser<>(
                rules,
                r -> {
                    PositionCodec codec = new PositionCodec(r);
                    return (key, value, time) -> codec.parse(value == null ? new byte[0] : value);
                },
                new TypeHint<Parsed<Position>>() {}.getTypeInfo());
    }

    /**
     * Fence changes (contract section 2): a change without a timestamp holds from the record's
     * time; a null value is a tombstone of the fence its key names ({@link FenceChangeCodec}).
     */
    public static RecordParser<FenceChange> fences(InputRules rules) {
        return new RecordParser<>(
                rules,
                r -> new FenceChangeCodec(r)::parse,
                new TypeHint<Parsed<FenceChange>>() {}.getTypeInfo());
    }

    /** Makes the codec; before the first {@link #parse}. */
    public void open() {
        parse = codec.apply(rules);
    }

    @Override
    public void open(OpenContext context) {
        open();
    }

    /** The record's value or dead letter; never throws. */
    public Parsed<T> parse(byte[] key, byte[] value, long time) {
        return parse.parse(key, value, time);
    }

    /**
     * Parses a record of a stream, whose time is its timestamp there, or the beginning of time when
     * it has none.
     */
    @Override
    public void processElement(byte[] json, Context ctx, Collector<Parsed<T>> out) {
        Long time = ctx.timestamp();
        out.collect(parse(null, json, time == null ? Long.MIN_VALUE : time));
    }

    @Override
    public TypeInformation<Parsed<T>> getProducedType() {
        return type;
    }
}
