package org.quadfence.bench;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.quadfence.testing.KafkaTopics;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The event path's rate in the throughput phase (issue 21, goal 4): the events topic is switched to
 * broker append time ({@code message.timestamp.type=LogAppendTime}), so that each event's record
 * time is when the job's sink wrote it; events / (last write - first write) is the rate at which
 * events left the entity stage (MembershipTracker) for the sink, through the properties join and
 * the ordering, while the job ran at full speed.
 */
final class EventPath {

    /** The events of a topic and when the first and the last were written (ms). */
    record Written(long events, long first, long last) {

        /** Events per second between the first and the last write; NaN for fewer than two. */
        double perSecond() {
            return events < 2 || last <= first ? Double.NaN : events / ((last - first) / 1e3);
        }
    }

    private EventPath() {}

    /** The event path table of the report, with {@code rows} of {@link #row}. */
    static void describe(StringBuilder b, CharSequence rows) {
        b.append(
                        "Event path (issue 21, goal 4). **events/s** = events / (time the sink"
                            + " wrote the last event - time it wrote the first), the times being"
                            + " the broker's append times of the events topic: the rate at which"
                            + " events went from the entity stage (MembershipTracker) through the"
                            + " properties join and the ordering to the sink while they flowed. The"
                            + " EventOrderer releases events as the watermark passes, so they come"
                            + " in bursts and this can exceed the rate the whole job sustains"
                            + " (events per position x the steady position rate). Neither is a"
                            + " limit of the event stages alone. Their own cost: the CPU time of"
                            + " their task threads over the run (MembershipTracker,"
                            + " PropertiesJoiner, EventOrderer with the sink's writer; not the"
                            + " Kafka producer's I/O thread, GC or JIT), and events per CPU-s of"
                            + " them, what one core given to those stages alone would carry."
                            + " --workload event-heavy (about 1.8 events per position with"
                            + " --interval 30s) puts the weight on them.\n\n"
                            + "| state backend | churn | events | events per position | first to"
                            + " last event | events/s | positions/s (steady, 10-90%) | events/s at"
                            + " the steady position rate | CPU-s of the event stages | events per"
                            + " CPU-s of the event stages |\n"
                            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
                .append(rows)
                .append('\n');
    }

    /**
     * CPU seconds of the event stages' task threads in {@code byGroup} ({@link CpuAccount}): the
     * MembershipTracker, the PropertiesJoiner and the EventOrderer with the events sink's writer.
     */
    static double stageCpuSeconds(Map<String, Double> byGroup) {
        double s = 0;
        for (Map.Entry<String, Double> e : byGroup.entrySet()) {
            String g = e.getKey();
            if (g.startsWith("Flink task: ")
                    && (g.contains("MembershipTracker")
                            || g.contains("PropertiesJoiner")
                            || g.contains("EventOrderer"))) {
                s += e.getValue();
            }
        }
        return s;
    }

    /** A row of the event path table: one throughput run. */
    static String row(
            String backend,
            double churn,
            Written written,
            long positions,
            double steady,
            double stageCpuSeconds) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %,d | %.3f | %.1f s | %,.0f | %,.0f | %,.0f | %.1f | %,.0f |%n",
                backend,
                churn > 0 ? String.format(Locale.ROOT, "%,.0f", churn) : "-",
                written.events(),
                (double) written.events() / positions,
                (written.last() - written.first()) / 1e3,
                written.perSecond(),
                steady,
                steady * written.events() / positions,
                stageCpuSeconds,
                written.events() / stageCpuSeconds);
    }

    /**
     * The table of the event path alone (phase {@code eventpath}), with {@code rows} of {@link
     * #aloneRow} for the reported run and {@code warmUps} for the runs before it.
     */
    static void describeAlone(StringBuilder b, CharSequence rows, CharSequence warmUps) {
        b.append(
                        "The memberships the tile stage sends for the positions (the fences that"
                            + " cover each, from the peer's index: EventHeavyMemberships), read"
                            + " from their own topic, go through the job's entity stage, properties"
                            + " join and ordering to the events topic (EventPathJob), exactly-once,"
                            + " heap state, at the job's parallelism on this machine's two cores;"
                            + " the broker runs in the same JVM. **events/s** = events / (the"
                            + " broker's append time of the last event - that of the first), as in"
                            + " the event path table of the throughput phase; **over the job** ="
                            + " events / (submit to finish), start and the fences' load included."
                            + " CPU-s: the whole process, and of it the event stages' task threads"
                            + " (MembershipTracker, PropertiesJoiner, EventOrderer with the sink's"
                            + " writer).\n\n"
                            + "| run | events | events per membership | job wall time | events/s"
                            + " over the job | first to last event | events/s | CPU-s of the"
                            + " process | of it the collector / the JIT | CPU-s of the event stages"
                            + " | events per CPU-s of the process |\n"
                            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
                .append(rows)
                .append("\nThe runs before it in this JVM:\n\n")
                .append(warmUps)
                .append('\n');
    }

    /** A row of the table of the event path alone: one run over {@code memberships}. */
    static String aloneRow(
            String tag, Written written, long memberships, double wallSeconds, CpuAccount cpu) {
        Map<String, Double> groups = cpu.byGroup();
        return String.format(
                Locale.ROOT,
                "| %s | %,d | %.3f | %.1f s | %,.0f | %.1f s | %,.0f | %.1f | %.1f / %.1f | %.1f |"
                        + " %,.0f |%n",
                tag,
                written.events(),
                (double) written.events() / memberships,
                wallSeconds,
                written.events() / wallSeconds,
                (written.last() - written.first()) / 1e3,
                written.perSecond(),
                cpu.processSeconds(),
                groups.getOrDefault(CpuAccount.GC, 0.0),
                groups.getOrDefault(CpuAccount.JIT, 0.0),
                stageCpuSeconds(groups),
                written.events() / cpu.processSeconds());
    }

    /** Makes the broker stamp the records of {@code topic} with their append time. */
    static void stampAppendTime(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            ConfigResource r = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            AlterConfigOp op =
                    new AlterConfigOp(
                            new ConfigEntry("message.timestamp.type", "LogAppendTime"),
                            AlterConfigOp.OpType.SET);
            admin.incrementalAlterConfigs(Map.of(r, List.of(op))).all().get(30, TimeUnit.SECONDS);
        }
    }

    /** Reads the whole topic (committed records when {@code c} reads read_committed). */
    static Written read(KafkaConsumer<byte[], byte[]> c, String topic) {
        List<TopicPartition> parts = KafkaTopics.assignFromBeginning(c, topic);
        Map<TopicPartition, Long> end = c.endOffsets(parts);
        long n = 0;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        long deadline = System.currentTimeMillis() + 120_000;
        while (System.currentTimeMillis() < deadline && !TopicDigest.atEnd(c, parts, end)) {
            for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                n++;
                first = Math.min(first, r.timestamp());
                last = Math.max(last, r.timestamp());
            }
        }
        return new Written(n, first, last);
    }
}
