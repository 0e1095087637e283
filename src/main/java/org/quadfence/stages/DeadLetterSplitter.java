package org.quadfence.stages;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;

/**
 * Passes parsed records on and sends the dead letters of bad ones to a side output, with the
 * notices of good ones (a fence repaired by {@code fence-repair make-valid}): those are used and
 * also reported there.
 */
public class DeadLetterSplitter<T> extends ProcessFunction<Parsed<T>, T> {

    private static final long serialVersionUID = 1L;

    /** The side output of the dead letters of every stage. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    private final OutputTag<DeadLetter> deadLetters;
    private final String noticeMetric;
    private transient Counter deadLetterCount;
    private transient Counter noticeCount;

    /** A splitter that counts dead letters (metric {@code deadLetters}) but not notices. */
    public DeadLetterSplitter(OutputTag<DeadLetter> deadLetters) {
        this(deadLetters, null);
    }

    /**
     * A splitter that counts dead letters (metric {@code deadLetters}) and the notices of good
     * records (metric {@code noticeMetric}, such as {@code fencesRepaired}; null: none).
     */
    public DeadLetterSplitter(OutputTag<DeadLetter> deadLetters, String noticeMetric) {
        this.deadLetters = deadLetters;
        this.noticeMetric = noticeMetric;
    }

    @Override
    public void open(OpenContext openContext) {
        deadLetterCount = getRuntimeContext().getMetricGroup().counter("deadLetters");
        if (noticeMetric != null) {
            noticeCount = getRuntimeContext().getMetricGroup().counter(noticeMetric);
        }
    }

    @Override
    public void processElement(Parsed<T> record, Context ctx, Collector<T> out) {
        if (record.ok()) {
            if (record.notice() != null) {
                if (noticeCount != null) {
                    noticeCount.inc();
                }
                ctx.output(deadLetters, record.notice());
            }
            out.collect(record.value());
        } else {
            deadLetterCount.inc();
            ctx.output(deadLetters, record.deadLetter());
        }
    }
}
