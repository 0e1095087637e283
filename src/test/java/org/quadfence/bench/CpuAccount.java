package org.quadfence.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * CPU time of this process over a window, split by thread group (Flink task threads by operator
 * chain, Kafka broker threads, clients, ...), plus the machine's busy time from /proc/stat to show
 * how much CPU other processes took meanwhile. Threads that end inside the window keep the CPU time
 * of their last sample, so sample often.
 */
final class CpuAccount {

    private static final Pattern SUBTASK = Pattern.compile(" \\(\\d+/\\d+\\)#\\d+");
    private static final Pattern DIGITS = Pattern.compile("\\d+");
    static final String GC = "JVM: collector (GC threads, VM thread)";
    static final String JIT = "JVM: JIT compilers";
    private static final String VM_OTHER = "JVM: other (the process less the threads above)";
    // Linux's USER_HZ: /proc counts CPU time in hundredths of a second.
    private static final double TICKS = 100.0;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private final Map<Long, Long> baseline = new HashMap<>();
    private final Map<Long, Long> last = new HashMap<>();
    private final Map<Long, String> names = new HashMap<>();
    private long processStart;
    private long processEnd;
    private long[] machineStart;
    private long[] machineEnd;
    private long wallStart;
    private long wallEnd;
    private Map<String, Long> vmStart = Map.of();
    private Map<String, Long> vmEnd = Map.of();

    synchronized void start() {
        baseline.clear();
        last.clear();
        names.clear();
        for (long id : threads.getAllThreadIds()) {
            long t = threads.getThreadCpuTime(id);
            if (t >= 0) {
                baseline.put(id, t);
            }
        }
        processStart = os.getProcessCpuTime();
        vmStart = vmThreads();
        machineStart = machine();
        wallStart = System.nanoTime();
        sample();
    }

    synchronized void sample() {
        long[] ids = threads.getAllThreadIds();
        ThreadInfo[] infos = threads.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long t = threads.getThreadCpuTime(ids[i]);
            if (t >= 0 && infos[i] != null) {
                last.put(ids[i], t);
                names.put(ids[i], infos[i].getThreadName());
            }
        }
        processEnd = os.getProcessCpuTime();
        vmEnd = vmThreads();
        machineEnd = machine();
        wallEnd = System.nanoTime();
    }

    /** Wall seconds of the window. */
    synchronized double wallSeconds() {
        return (wallEnd - wallStart) / 1e9;
    }

    /** CPU seconds of this process in the window. */
    synchronized double processSeconds() {
        return (processEnd - processStart) / 1e9;
    }

    /** Busy CPU seconds of the whole machine (all processes) in the window, from /proc/stat. */
    synchronized double machineBusySeconds() {
        if (machineStart == null || machineEnd == null) {
            return Double.NaN;
        }
        return (machineEnd[0] - machineStart[0]) / 100.0;
    }

    /**
     * CPU seconds by thread group, largest first. The JVM's own threads, which ThreadMXBean does
     * not list, are split by their names in /proc: the collector's, the JIT compilers', and the
     * rest of the process's time.
     */
    synchronized Map<String, Double> byGroup() {
        Map<String, Double> m = new TreeMap<>();
        double javaThreads = 0;
        for (Map.Entry<Long, Long> e : last.entrySet()) {
            double s = (e.getValue() - baseline.getOrDefault(e.getKey(), 0L)) / 1e9;
            if (s > 0) {
                m.merge(group(names.get(e.getKey())), s, Double::sum);
                javaThreads += s;
            }
        }
        double vm = Math.max(0, processSeconds() - javaThreads);
        for (String g : List.of(GC, JIT)) {
            double s = (vmEnd.getOrDefault(g, 0L) - vmStart.getOrDefault(g, 0L)) / TICKS;
            if (s > 0) {
                m.put(g, s);
                vm -= s;
            }
        }
        m.put(VM_OTHER, Math.max(0, vm));
        Map<String, Double> sorted = new LinkedHashMap<>();
        m.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    /** The group of a thread: its name without subtask indices and numbers. */
    static String group(String name) {
        if (name == null) {
            return "?";
        }
        if (name.startsWith("Source Data Fetcher for ")) {
            return "Kafka source fetcher: "
                    + SUBTASK.matcher(name.substring(24)).replaceAll("").trim();
        }
        if (name.startsWith("kafka-producer-network-thread")) {
            return name.contains("bench-producer")
                    ? "harness producer I/O"
                    : "Kafka sink producer I/O";
        }
        if (name.contains("kafka-request-handler")) {
            return "Kafka broker: request handlers";
        }
        if (name.contains("network-thread") && name.contains("ListenerName")) {
            return "Kafka broker: network";
        }
        for (String k :
                List.of(
                        "raft",
                        "controller",
                        "ExpirationReaper",
                        "kafka-scheduler",
                        "coordinator",
                        "TxnMarker",
                        "LogDirFailure",
                        "log-cleaner",
                        "transaction",
                        "metadata",
                        "broker-",
                        "ReplicaFetcher",
                        "data-plane",
                        "kafka-")) {
            if (name.contains(k)) {
                return "Kafka broker: other";
            }
        }
        String n = SUBTASK.matcher(name).replaceAll("");
        if (!n.equals(name)) {
            return "Flink task: " + n.trim();
        }
        return DIGITS.matcher(name).replaceAll("N");
    }

    /** Clock ticks of the collector's and the compilers' threads, from /proc/self/task. */
    private static Map<String, Long> vmThreads() {
        Map<String, Long> ticks = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended
                }
                String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String group =
                        comm.startsWith("GC Thread") || comm.startsWith("VM Thread")
                                ? GC
                                : comm.contains("CompilerThre") ? JIT : null;
                if (group != null) {
                    // After the name: state is field 3; utime and stime are fields 14 and 15.
                    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    ticks.merge(group, Long.parseLong(f[11]) + Long.parseLong(f[12]), Long::sum);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return ticks;
    }

    /** Busy and total jiffies of all CPUs, or null when /proc/stat cannot be read. */
    private static long[] machine() {
        try {
            String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
            String[] f = cpu.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle + iowait
            return new long[] {total - idle, total};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
