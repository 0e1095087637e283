package org.quadfence.bench;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the time goes, from a JFR recording: the Java execution samples by thread group, by
 * category (the first frame from the top of the stack that is not JDK code decides), and by leaf
 * method. Native code (RocksDB's JNI, the kernel) is not in execution samples; {@link CpuAccount}
 * has the per-thread CPU time that includes it.
 *
 * <p>Run on its own as {@code JfrSummary FILE.jfr}.
 */
final class JfrSummary {

    /** Category of a frame's class, by prefix; the first match wins. */
    private static final String[][] RULES = {
        {"org.quadfence.io.", "JSON codecs (parse positions, write events)"},
        {"com.fasterxml.jackson.", "JSON codecs (parse positions, write events)"},
        {"org.quadfence.index.", "quadtree query and geometry"},
        {"org.quadfence.geo.", "quadtree query and geometry"},
        {"org.quadfence.rules.IndexEntry", "quadtree query and geometry"},
        {"org.quadfence.tiles.", "tiling (tile of a point)"},
        {"org.quadfence.job.", "job functions' own code"},
        {"org.quadfence.bench.", "benchmark harness"},
        {"org.apache.flink.streaming.api.operators.InternalTimer", "event-time timers"},
        {"org.apache.flink.streaming.api.operators.TimerSerializer", "event-time timers"},
        {"org.apache.flink.runtime.state.heap.HeapPriorityQueue", "event-time timers"},
        {
            "org.apache.flink.runtime.state.heap.KeyGroupPartitionedPriorityQueue",
            "event-time timers"
        },
        {"org.apache.flink.runtime.state.InternalPriorityQueue", "event-time timers"},
        {"org.apache.flink.state.rocksdb.RocksDBCachingPriorityQueueSet", "event-time timers"},
        {"org.apache.flink.runtime.state.heap.", "keyed state (heap)"},
        {"org.apache.flink.runtime.state.", "keyed state (common)"},
        {"org.apache.flink.state.rocksdb.", "keyed state (RocksDB, Java side)"},
        {"org.rocksdb.", "keyed state (RocksDB, Java side)"},
        {"org.apache.flink.api.common.typeutils.", "serialization (Flink type serializers)"},
        {"org.apache.flink.api.java.typeutils.", "serialization (Flink type serializers)"},
        {"org.apache.flink.core.memory.", "serialization (Flink type serializers)"},
        {"org.apache.flink.types.", "serialization (Flink type serializers)"},
        {"org.apache.flink.runtime.io.network.api.serialization.", "serialization (Flink records)"},
        {"org.apache.flink.runtime.io.network.", "Flink network stack"},
        {"org.apache.flink.streaming.runtime.io.", "Flink network stack"},
        {"org.apache.flink.shaded.netty4.", "Flink network stack"},
        {"org.apache.flink.connector.kafka.source.", "Kafka source (consumer)"},
        {"org.apache.flink.connector.base.source.", "Kafka source (consumer)"},
        {"org.apache.kafka.clients.consumer.", "Kafka source (consumer)"},
        {"org.apache.flink.connector.kafka.sink.", "Kafka sink (producer)"},
        {"org.apache.kafka.clients.producer.", "Kafka sink (producer)"},
        {"org.apache.kafka.common.compress.", "compression"},
        {"net.jpountz.", "compression"},
        {"com.github.luben.", "compression"},
        {"org.xerial.", "compression"},
        {"kafka.", "Kafka broker"},
        {"org.apache.kafka.server.", "Kafka broker"},
        {"org.apache.kafka.storage.", "Kafka broker"},
        {"org.apache.kafka.raft.", "Kafka broker"},
        {"org.apache.kafka.coordinator.", "Kafka broker"},
        {"org.apache.kafka.metadata.", "Kafka broker"},
        {"org.apache.kafka.controller.", "Kafka broker"},
        {"org.apache.kafka.image.", "Kafka broker"},
        {"org.apache.kafka.network.", "Kafka broker"},
        {"org.apache.kafka.common.", "Kafka common (records, network)"},
        {"org.apache.kafka.clients.", "Kafka clients (other)"},
        {"org.apache.flink.streaming.", "Flink operators and task loop"},
        {"org.apache.flink.runtime.", "Flink runtime (other)"},
        {"org.apache.flink.", "Flink (other)"},
        {"scala.", "Kafka broker"},
    };

    private JfrSummary() {}

    public static void main(String[] args) throws IOException {
        System.out.println(summarize(Path.of(args[0]), 25));
    }

    /** A Markdown summary of the recording. */
    static String summarize(Path file, int topFrames) throws IOException {
        Map<String, Integer> byThread = new HashMap<>();
        Map<String, Integer> byCategory = new HashMap<>();
        Map<String, Integer> byLeaf = new HashMap<>();
        Map<String, Integer> byStack = new HashMap<>();
        Map<String, Map<String, Integer>> categoryByThread = new HashMap<>();
        int samples = 0;
        long gcPauseNanos = 0;
        int gcs = 0;
        double machineLoad = 0;
        double jvmLoad = 0;
        int cpuLoads = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            switch (type) {
                case "jdk.ExecutionSample" -> {
                    RecordedThread t = e.getThread("sampledThread");
                    RecordedStackTrace st = e.getStackTrace();
                    if (st == null || st.getFrames().isEmpty()) {
                        continue;
                    }
                    samples++;
                    String group = CpuAccount.group(t == null ? null : t.getJavaName());
                    String category = category(st.getFrames());
                    byThread.merge(group, 1, Integer::sum);
                    byCategory.merge(category, 1, Integer::sum);
                    categoryByThread
                            .computeIfAbsent(group, g -> new HashMap<>())
                            .merge(category, 1, Integer::sum);
                    RecordedFrame leaf = st.getFrames().get(0);
                    byLeaf.merge(frame(leaf), 1, Integer::sum);
                    byStack.merge(stack(st.getFrames(), 4), 1, Integer::sum);
                }
                case "jdk.GarbageCollection" -> {
                    gcs++;
                    gcPauseNanos += e.getDuration("sumOfPauses").toNanos();
                }
                case "jdk.CPULoad" -> {
                    cpuLoads++;
                    machineLoad += e.getFloat("machineTotal");
                    jvmLoad += e.getFloat("jvmUser") + e.getFloat("jvmSystem");
                }
                default -> {}
            }
        }
        StringBuilder b = new StringBuilder();
        b.append(
                String.format(
                        Locale.ROOT,
                        "JFR %s: %d Java execution samples; %d GCs, pauses %.2f s in total;"
                                + " CPU load: this JVM %.0f%%, whole machine %.0f%% (of 100%% ="
                                + " all cores)%n%n",
                        file.getFileName(),
                        samples,
                        gcs,
                        gcPauseNanos / 1e9,
                        cpuLoads == 0 ? Double.NaN : 100 * jvmLoad / cpuLoads,
                        cpuLoads == 0 ? Double.NaN : 100 * machineLoad / cpuLoads));
        table(b, "Java samples by thread group", byThread, samples, 15);
        table(
                b,
                "Java samples by category (first non-JDK frame from the top)",
                byCategory,
                samples,
                25);
        table(b, "Hottest leaf methods (self time)", byLeaf, samples, topFrames);
        table(b, "Hottest stacks (leaf <- 3 callers)", byStack, samples, topFrames);
        List<String> busiest =
                byThread.entrySet().stream()
                        .filter(e -> e.getKey().startsWith("Flink task"))
                        .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                        .limit(6)
                        .map(Map.Entry::getKey)
                        .toList();
        for (String g : busiest) {
            Map<String, Integer> c = categoryByThread.get(g);
            int n = c.values().stream().mapToInt(Integer::intValue).sum();
            table(b, "Inside " + g, c, n, 8);
        }
        return b.toString();
    }

    private static void table(
            StringBuilder b, String title, Map<String, Integer> counts, int total, int limit) {
        b.append("| ").append(title).append(" | samples | share |\n|---|---:|---:|\n");
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .limit(limit)
                .forEach(
                        e ->
                                b.append(
                                        String.format(
                                                Locale.ROOT,
                                                "| %s | %d | %.1f%% |%n",
                                                e.getKey().replace("|", "/"),
                                                e.getValue(),
                                                100.0 * e.getValue() / Math.max(1, total))));
        b.append('\n');
    }

    private static String category(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            if (cls.startsWith("java.")
                    || cls.startsWith("jdk.")
                    || cls.startsWith("sun.")
                    || cls.startsWith("com.sun.")) {
                continue;
            }
            for (String[] r : RULES) {
                if (cls.startsWith(r[0])) {
                    return r[1];
                }
            }
            String[] parts = cls.split("\\.");
            return parts.length > 3 ? String.join(".", List.of(parts).subList(0, 3)) : cls;
        }
        return "JDK only: " + frame(frames.get(0));
    }

    private static String stack(List<RecordedFrame> frames, int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(depth, frames.size()); i++) {
            if (i > 0) {
                b.append(" <- ");
            }
            b.append(frame(frames.get(i)));
        }
        return b.toString();
    }

    private static String frame(RecordedFrame f) {
        String cls = f.getMethod().getType().getName();
        return cls.substring(cls.lastIndexOf('.') + 1) + "." + f.getMethod().getName();
    }
}
