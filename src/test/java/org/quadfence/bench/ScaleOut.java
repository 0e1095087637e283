package org.quadfence.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The scale-out phase's results: the same bounded input run once per parallelism p, the CPU time of
 * every subtask of the keyed stages, the records each took in, and the projected speed-up.
 *
 * <p>A task belongs to a keyed stage when its chain's first operator (keyed operators always start
 * a chain) has one of the stage words in its name; the stage is that operator's name up to its
 * first ':' (so "TileMatcher" and "TileMatcher (wide fences)" are two stages). A task's CPU time
 * includes the operators chained behind its keyed operator (for example the events sink's writer
 * behind the EventOrderer).
 *
 * <p>Speed-up, with T1 the CPU time of all keyed-stage subtasks at p = 1:
 *
 * <ul>
 *   <li><b>S(p), per slot</b> (the headline): T1 / the largest CPU time of one slot at p, a slot
 *       being subtask i of every keyed stage together. Flink's slot sharing puts subtask i of each
 *       task in slot i, so this is the projected speed-up when each of p slots gets a core of its
 *       own and nothing else competes. It is the stricter of the two: a slot's time is at least
 *       that of its busiest subtask.
 *   <li><b>S(p), per stage</b>: T1 / the largest CPU time of one subtask of one keyed stage, as if
 *       every subtask had a core of its own.
 * </ul>
 */
final class ScaleOut {

    /** One run at parallelism p. */
    static final class Run {
        final int p;
        final double wallSeconds;
        final TopicDigest events;
        final long deadLetters;
        final double processCpu;
        // stage -> CPU seconds per subtask index
        final Map<String, double[]> cpu = new TreeMap<>();
        // stage -> records in per subtask index (the job's StageLoad accumulators)
        final Map<String, long[]> recordsIn = new TreeMap<>();
        // task name -> its stage, or "" when it is not a keyed stage's
        final Map<String, String> tasks = new TreeMap<>();
        double otherTaskCpu;

        Run(
                int p,
                double wallSeconds,
                TopicDigest events,
                long deadLetters,
                double processCpu,
                Map<TaskCpu.Subtask, Double> taskCpu,
                Map<String, Object> accumulators,
                List<String> stageWords) {
            this.p = p;
            this.wallSeconds = wallSeconds;
            this.events = events;
            this.deadLetters = deadLetters;
            this.processCpu = processCpu;
            taskCpu.forEach(
                    (s, seconds) -> {
                        String stage = stageOf(s.task(), stageWords);
                        tasks.put(s.task(), stage == null ? "" : stage);
                        if (stage == null) {
                            otherTaskCpu += seconds;
                        } else {
                            double[] c =
                                    cpu.computeIfAbsent(stage, k -> new double[s.parallelism()]);
                            c[s.index()] += seconds;
                        }
                    });
            accumulators.forEach(
                    (name, value) -> {
                        // StageLoad's names: records-in|<stage>|<subtask>|<parallelism>
                        String[] f = name.split("\\|");
                        if (f.length == 4 && f[0].equals("records-in")) {
                            long[] in =
                                    recordsIn.computeIfAbsent(
                                            f[1], k -> new long[Integer.parseInt(f[3])]);
                            in[Integer.parseInt(f[2])] += ((Number) value).longValue();
                        }
                    });
        }

        double keyedCpu() {
            double sum = 0;
            for (double[] c : cpu.values()) {
                sum += sum(c);
            }
            return sum;
        }

        /** CPU seconds of each slot: subtask i of every keyed stage. */
        double[] slots() {
            double[] slot = new double[p];
            for (double[] c : cpu.values()) {
                for (int i = 0; i < c.length && i < p; i++) {
                    slot[i] += c[i];
                }
            }
            return slot;
        }

        /** The keyed stage whose busiest subtask took the most CPU time. */
        String bottleneck() {
            String worst = null;
            for (Map.Entry<String, double[]> e : cpu.entrySet()) {
                if (worst == null || max(e.getValue()) > max(cpu.get(worst))) {
                    worst = e.getKey();
                }
            }
            return worst;
        }
    }

    private final List<Run> runs = new ArrayList<>();
    private Run warmUp;

    /** A run before the measured ones, only for its output and for the report's note on it. */
    void warmUp(Run run) {
        warmUp = run;
    }

    void add(Run run) {
        runs.add(run);
    }

    /**
     * The stage of a task: its first operator's name up to the first ':', when that name contains
     * one of {@code stageWords}; null otherwise.
     */
    static String stageOf(String task, List<String> stageWords) {
        String head = task.split(" -> ", 2)[0];
        for (String w : stageWords) {
            if (head.contains(w)) {
                int colon = head.indexOf(':');
                return (colon < 0 ? head : head.substring(0, colon)).trim();
            }
        }
        return null;
    }

    /** Null when every run wrote the same events; else what differs. */
    String outputMismatch() {
        List<Run> all = new ArrayList<>(runs);
        if (warmUp != null) {
            all.add(0, warmUp);
        }
        for (Run r : all) {
            if (!r.events.equals(all.get(0).events)) {
                return String.format(
                        Locale.ROOT,
                        "the output differs between runs: %s wrote %d events (hash %s), p=%d wrote"
                                + " %d events (hash %s)",
                        (all.get(0) == warmUp ? "the warm-up at p=" : "p=") + all.get(0).p,
                        all.get(0).events.records(),
                        all.get(0).events.hash(),
                        r.p,
                        r.events.records(),
                        r.events.hash());
            }
        }
        return null;
    }

    /** Appends the summary table, the checks against the goals and one table per run. */
    void describe(StringBuilder b) {
        Run one = runs.stream().filter(r -> r.p == 1).findFirst().orElse(null);
        double t1 = one == null ? Double.NaN : one.keyedCpu();
        if (warmUp != null) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "A warm-up run at p = %d came first and is not in the table: in it the"
                                    + " JVM loads and compiles the job's code (%.1f s wall,"
                                    + " keyed-stage CPU %.1f s, JVM CPU %.1f s, %d events, hash"
                                    + " %s).%n%n",
                            warmUp.p,
                            warmUp.wallSeconds,
                            warmUp.keyedCpu(),
                            warmUp.processCpu,
                            warmUp.events.records(),
                            warmUp.events.hash()));
        }
        b.append(
                "| p | job wall time | keyed-stage CPU-s, all subtasks | busiest slot CPU-s |"
                    + " **S(p) per slot** | busiest keyed subtask CPU-s (stage) | S(p) per stage |"
                    + " TileMatcher: busiest subtask's share of records in | worst keyed stage:"
                    + " busiest subtask's share of records in | other task threads CPU-s | JVM"
                    + " CPU-s | events | events hash | dead letters |\n"
                    + "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|\n");
        for (Run r : runs) {
            String bottleneck = r.bottleneck();
            double busiest = bottleneck == null ? Double.NaN : max(r.cpu.get(bottleneck));
            String worstStage = worstRecordsStage(r);
            b.append(
                    String.format(
                            Locale.ROOT,
                            "| %d | %.1f s | %.1f | %.1f | **%s** | %.1f (%s) | %s | %s | %s |"
                                    + " %.1f | %.1f | %d | %s | %d |%n",
                            r.p,
                            r.wallSeconds,
                            r.keyedCpu(),
                            max(r.slots()),
                            speedUp(t1, max(r.slots())),
                            busiest,
                            bottleneck,
                            speedUp(t1, busiest),
                            share(r.recordsIn.get("TileMatcher")),
                            worstStage == null
                                    ? "-"
                                    : share(r.recordsIn.get(worstStage)) + " (" + worstStage + ")",
                            r.otherTaskCpu,
                            r.processCpu,
                            r.events.records(),
                            r.events.hash(),
                            r.deadLetters));
        }
        b.append('\n');
        goals(b);
        for (Run r : runs) {
            runDetails(b, r);
        }
    }

    private void goals(StringBuilder b) {
        String mismatch = outputMismatch();
        b.append(
                mismatch == null
                        ? String.format(
                                Locale.ROOT,
                                "- Output: the same %d events (hash %s) in every run.%n",
                                runs.get(0).events.records(),
                                runs.get(0).events.hash())
                        : "- Output: **DIFFERS**: " + mismatch + ".\n");
        for (Run r : runs) {
            if (r.p == 4) {
                String worst = worstRecordsStage(r);
                double s = worst == null ? Double.NaN : fraction(r.recordsIn.get(worst));
                b.append(
                        String.format(
                                Locale.ROOT,
                                "- Goal \"at p = 4 no keyed stage gives any subtask more than 30%%"
                                        + " of its records\": busiest %.0f%% (%s): %s.%n",
                                100 * s,
                                worst,
                                s <= 0.30 ? "met" : "**not met**"));
            }
        }
        Run one = runs.stream().filter(r -> r.p == 1).findFirst().orElse(null);
        for (Run r : runs) {
            if (r.p == 8 && one != null) {
                double s = one.keyedCpu() / max(r.slots());
                b.append(
                        String.format(
                                Locale.ROOT,
                                "- Goal \"S(8) >= 6.5\" (per slot): S(8) = %.2f: %s.%n",
                                s,
                                s >= 6.5 ? "met" : "**not met**"));
            }
        }
        b.append('\n');
    }

    private static void runDetails(StringBuilder b, Run r) {
        b.append(String.format(Locale.ROOT, "#### p = %d%n%n", r.p));
        b.append(
                "| keyed stage | CPU-s per subtask | stage CPU-s | busiest subtask's share of the"
                        + " stage's CPU | records in per subtask | busiest subtask's share of"
                        + " records in |\n|---|---|---:|---:|---|---:|\n");
        TreeSet<String> stages = new TreeSet<>(r.cpu.keySet());
        stages.addAll(r.recordsIn.keySet());
        for (String stage : stages) {
            double[] c = r.cpu.get(stage);
            long[] in = r.recordsIn.get(stage);
            b.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %s | %s | %s |%n",
                            stage,
                            c == null ? "-" : seconds(c),
                            c == null ? "-" : String.format(Locale.ROOT, "%.1f", sum(c)),
                            c == null
                                    ? "-"
                                    : String.format(Locale.ROOT, "%.0f%%", 100 * max(c) / sum(c)),
                            in == null ? "-" : Arrays.toString(in),
                            share(in)));
        }
        List<String> keyed = new ArrayList<>();
        List<String> other = new ArrayList<>();
        r.tasks.forEach(
                (task, stage) -> {
                    if (stage.isEmpty()) {
                        other.add("`" + task + "`");
                    } else {
                        keyed.add("`" + task + "` → " + stage);
                    }
                });
        b.append(
                String.format(
                        Locale.ROOT,
                        "%nSlots (subtask i of every keyed stage), CPU-s: %s. Tasks of keyed"
                                + " stages: %s. Other tasks (%.1f CPU-s): %s.%n%n",
                        seconds(r.slots()),
                        String.join("; ", keyed),
                        r.otherTaskCpu,
                        String.join("; ", other)));
    }

    /** The keyed stage whose busiest subtask took the largest share of its records in. */
    private static String worstRecordsStage(Run r) {
        String worst = null;
        for (Map.Entry<String, long[]> e : r.recordsIn.entrySet()) {
            if (worst == null || fraction(e.getValue()) > fraction(r.recordsIn.get(worst))) {
                worst = e.getKey();
            }
        }
        return worst;
    }

    /** T1 / {@code seconds}, or "-" without a run at p = 1. */
    private static String speedUp(double t1, double seconds) {
        return Double.isNaN(t1) ? "-" : String.format(Locale.ROOT, "%.2f", t1 / seconds);
    }

    private static double fraction(long[] in) {
        if (in == null) {
            return Double.NaN;
        }
        long total = 0;
        long max = 0;
        for (long v : in) {
            total += v;
            max = Math.max(max, v);
        }
        return total == 0 ? 0 : (double) max / total;
    }

    private static String share(long[] in) {
        return in == null ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * fraction(in));
    }

    private static String seconds(double[] c) {
        List<String> s = new ArrayList<>();
        for (double v : c) {
            s.add(String.format(Locale.ROOT, "%.1f", v));
        }
        return "[" + String.join(", ", s) + "]";
    }

    private static double sum(double[] c) {
        double s = 0;
        for (double v : c) {
            s += v;
        }
        return s;
    }

    private static double max(double[] c) {
        double m = 0;
        for (double v : c) {
            m = Math.max(m, v);
        }
        return m;
    }
}
