package org.quadfence.stages;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The records each keyed stage takes in, per subtask, counted as Flink accumulators so that a
 * finished job can tell how evenly its keys spread: {@code ./quadfence replay} ends with one line
 * per stage.
 */
public final class StageLoad {

    private static final String PREFIX = "records-in|";

    private StageLoad() {}

    /** A counter of the records that this subtask of {@code stage} takes in. */
    static LongCounter counter(RuntimeContext context, String stage) {
        String name =
                PREFIX
                        + stage
                        + "|"
                        + context.getTaskInfo().getIndexOfThisSubtask()
                        + "|"
                        + context.getTaskInfo().getNumberOfParallelSubtasks();
        // A function opened again in the same context (a test harness) goes on counting.
        Object existing = context.getAccumulator(name);
        if (existing instanceof LongCounter counter) {
            return counter;
        }
        LongCounter counter = new LongCounter();
        context.addAccumulator(name, counter);
        return counter;
    }

    /**
     * One line per stage, in stage name order: {@code <stage>: <N> records in <p> subtasks, busiest
     * subtask <S>%}, S the busiest subtask's share of N (records in).
     *
     * @param accumulators a finished job's accumulators; others than these counters are ignored
     */
    public static List<String> summary(Map<String, Object> accumulators) {
        Map<String, long[]> stages = new TreeMap<>();
        accumulators.forEach(
                (name, value) -> {
                    if (name.startsWith(PREFIX)) {
                        String[] parts = name.substring(PREFIX.length()).split("\\|");
                        int subtask = Integer.parseInt(parts[1]);
                        long[] counts =
                                stages.computeIfAbsent(
                                        parts[0], s -> new long[Integer.parseInt(parts[2])]);
                        counts[subtask] += ((Number) value).longValue();
                    }
                });
        List<String> lines = new ArrayList<>();
        stages.forEach(
                (stage, counts) -> {
                    long total = 0;
                    long busiest = 0;
                    for (long c : counts) {
                        total += c;
                        busiest = Math.max(busiest, c);
                    }
                    lines.add(
                            String.format(
                                    "%s: %d records in %d subtasks, busiest subtask %d%%",
                                    stage,
                                    total,
                                    counts.length,
                                    total == 0 ? 0 : Math.round(100.0 * busiest / total)));
                });
        return lines;
    }
}
