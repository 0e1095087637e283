package org.quadfence.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CPU time of every Flink task thread of this JVM from {@link #start} to {@link #close}, per
 * subtask. Flink names a task's thread {@code "<task name> (<i>/<p>)#<attempt>"}, the task name
 * being its chain of operator names joined by {@code " -> "}; a task's helper threads (output
 * flusher, timer trigger, source fetcher) are named {@code "<helper> for <task thread name>"} and
 * count for their task. A daemon thread samples the CPU time of the task threads every few
 * milliseconds and keeps the last value of each, because a thread's CPU time cannot be read once it
 * has ended and the tasks of a bounded job end before it does.
 */
final class TaskCpu implements AutoCloseable {

    private static final Pattern TASK_THREAD =
            Pattern.compile(
                    "^(?:(?:OutputFlusher|System Time Trigger|Time Trigger|Source Data Fetcher)"
                            + " for )?(.*) \\((\\d+)/(\\d+)\\)#\\d+$");

    /** A subtask: its task's name, its index counted from 0, and the task's parallelism. */
    record Subtask(String task, int index, int parallelism) {}

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long intervalMs;
    private final Map<Long, Long> baseline = new HashMap<>();
    private final Map<Long, Long> last = new HashMap<>();
    // Every thread seen, by id (ids are never reused): its subtask, or null if no task's.
    private final Map<Long, Subtask> seen = new HashMap<>();
    private final Thread sampler;
    private volatile boolean stop;

    private TaskCpu(long intervalMs) {
        this.intervalMs = intervalMs;
        this.sampler = new Thread(this::loop, "bench-task-cpu");
        sampler.setDaemon(true);
    }

    /** Starts sampling every {@code intervalMs}; threads alive now count from now. */
    static TaskCpu start(long intervalMs) {
        TaskCpu t = new TaskCpu(intervalMs);
        synchronized (t) {
            for (long id : t.threads.getAllThreadIds()) {
                long cpu = t.threads.getThreadCpuTime(id);
                if (cpu >= 0) {
                    t.baseline.put(id, cpu);
                }
            }
        }
        t.sampler.start();
        return t;
    }

    private void loop() {
        while (!stop) {
            sample();
            try {
                Thread.sleep(intervalMs);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void sample() {
        for (long id : threads.getAllThreadIds()) {
            Subtask s = seen.computeIfAbsent(id, this::subtaskOf);
            if (s != null) {
                long cpu = threads.getThreadCpuTime(id);
                if (cpu >= 0) {
                    last.put(id, cpu);
                }
            }
        }
    }

    private Subtask subtaskOf(long id) {
        ThreadInfo info = threads.getThreadInfo(id);
        if (info == null) {
            return null;
        }
        Matcher m = TASK_THREAD.matcher(info.getThreadName());
        if (!m.matches()) {
            return null;
        }
        return new Subtask(
                m.group(1), Integer.parseInt(m.group(2)) - 1, Integer.parseInt(m.group(3)));
    }

    /** Stops sampling after a last sample. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        sampler.interrupt();
        sampler.join();
        sample();
    }

    /** CPU seconds of each subtask (all its attempts) between start and the last sample. */
    synchronized Map<Subtask, Double> seconds() {
        Map<Subtask, Double> m =
                new TreeMap<>(Comparator.comparing(Subtask::task).thenComparingInt(Subtask::index));
        last.forEach(
                (id, cpu) ->
                        m.merge(
                                seen.get(id),
                                (cpu - baseline.getOrDefault(id, 0L)) / 1e9,
                                Double::sum));
        return m;
    }
}
