package org.quadfence.job;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;

/** Passes parsed records on and sends the dead letters of bad ones to a side output. */
public class DeadLetterSplitter<T> extends ProcessFunction<Parsed<T>, T> {

    private static final long serialVersionUID = 1L;

    private final OutputTag<DeadLetter> deadLetters;
    private transient Counter deadLetterCount;

    public DeadLetterSplitter(OutputTag<DeadLetter> deadLetters) {
        this.deadLetters = deadLetters;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetterCount = getRuntimeContext().getMetricGroup().counter("deadLetters");
    }

    @Override
    public void processElement(Parsed<T> record, Context ctx, Collector<T> out) {
        if (record.ok()) {
            out.collect(record.value());
        } else {
            deadLetterCount.inc();
            ctx.output(deadLetters, record.deadLetter());
        }
    }
}
