package org.quadfence.time;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Records waiting for the watermark, taken out in due order at each watermark. Those that came
 * since the last watermark wait in arrival order; before them wait sorted runs, one per earlier
 * watermark, each in due order. A watermark sorts only what came since the last one and takes the
 * due prefix of each run: it costs what is due and what is new, not what still waits (a scan of
 * every waiting record at every watermark made a short watermark interval expensive).
 *
 * @param <R> the records
 */
final class WaitingRecords<R> {

    private final Comparator<? super R> dueOrder;
    private final ToLongFunction<? super R> time;
    private List<R> arriving = new ArrayList<>();
    // The list of the last run taken whole, emptied: the next arriving records go into it, so
    // that a watermark grows no new list (a large one is a humongous object in G1).
    private List<R> spare;
    private final ArrayDeque<Run<R>> runs = new ArrayDeque<>();
    private int size;
    private long minTime = Long.MAX_VALUE;

    /**
     * @param dueOrder the order records are taken out in: by {@code time} first; a stable sort, so
     *     records it finds equal come out in arrival order
     * @param time the time a record waits for
     */
    WaitingRecords(Comparator<? super R> dueOrder, ToLongFunction<? super R> time) {
        this.dueOrder = dueOrder;
        this.time = time;
    }

    void add(R record) {
        arriving.add(record);
        size++;
        minTime = Math.min(minTime, time.applyAsLong(record));
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The earliest time a record waits for; {@link Long#MAX_VALUE} when none waits. */
    long minTime() {
        return minTime;
    }

    /** Appends the records at or before {@code watermark} to {@code due}, in due order. */
    void takeDue(long watermark, List<R> due) {
        if (!arriving.isEmpty()) {
            arriving.sort(dueOrder);
            runs.add(new Run<>(arriving));
            arriving = spare != null ? spare : new ArrayList<>();
            spare = null;
        }
        int from = due.size();
        int runsWithDue = 0;
        long min = Long.MAX_VALUE;
        for (Iterator<Run<R>> it = runs.iterator(); it.hasNext(); ) {
            Run<R> run = it.next();
            int before = due.size();
            while (run.start < run.items.size()
                    && time.applyAsLong(run.items.get(run.start)) <= watermark) {
                due.add(run.items.get(run.start));
                // Handed over: the run no longer keeps it alive.
                run.items.set(run.start++, null);
            }
            if (due.size() > before) {
                runsWithDue++;
            }
            if (run.start == run.items.size()) {
                it.remove();
                run.items.clear();
                spare = run.items;
            } else {
                min = Math.min(min, time.applyAsLong(run.items.get(run.start)));
            }
        }
        size -= due.size() - from;
        minTime = min;
        if (runsWithDue > 1) {
            due.subList(from, due.size()).sort(dueOrder);
        }
    }

    /** Hands every waiting record to {@code action}: each run's, then the new ones. */
    void forEach(Consumer<? super R> action) {
        for (Run<R> run : runs) {
            for (int i = run.start; i < run.items.size(); i++) {
                action.accept(run.items.get(i));
            }
        }
        arriving.forEach(action);
    }

    void clear() {
        runs.clear();
        arriving = new ArrayList<>();
        size = 0;
        minTime = Long.MAX_VALUE;
    }

    /** Records in due order, those before {@code start} taken. */
    private static final class Run<R> {
        final List<R> items;
        int start;

        Run(List<R> items) {
            this.items = items;
        }
    }
}
