package org.quadfence.kafka;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether the partition leaders of a Kafka topic answer, as seen from this JVM: every probe
 * interval it asks for the topic's partitions and their ends (ListOffsets, read_committed), which
 * takes an answer from each partition's leader. {@link IdleWhileLeadersAnswer} counts a partition's
 * silence towards {@code idle-timeout} only while they answer.
 *
 * <p>Why: Kafka's source reader cannot tell a partition it cannot fetch from (the broker is away)
 * from a partition with nothing new, and Flink takes either for idle once silent for the timeout.
 * An idle partition stops holding the watermark back, and when every partition of a source subtask
 * is idle, Flink even advances its watermark to the highest of them. After a broker outage longer
 * than the timeout, the positions still unread in the slower partitions then arrive behind the
 * watermark: they are matched against fence versions of a later time, or become late.
 *
 * <p>The ends it is answered with tell each reader whether it has caught up with a partition
 * ({@link PartitionProgress}): only ends from a recent answer count ({@link #end}).
 *
 * <p>One watch per topic and client settings serves every source subtask in the JVM. It probes
 * while asked ({@link #touch}) and closes its admin client and thread two minutes after the last
 * ask, so nothing is left behind when the job ends.
 */
final class LeaderWatch {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderWatch.class);

    /** How long the watch keeps probing after the last {@link #touch}. */
    static final Duration KEEP_ALIVE = Duration.ofMinutes(2);

    private static final Map<List<Object>, LeaderWatch> WATCHES = new ConcurrentHashMap<>();

    /** A run of answers with no gap over {@link #gapNanos}: send times of its first and last. */
    record Run(long firstNanos, long lastNanos) {}

    /** The end offsets of an answer, by split id, and when its probe was sent. */
    record Ends(long sentNanos, Map<String, Long> offsets) {}

    private final String topic;
    private final Map<String, Object> admin;
    private volatile long intervalNanos;
    private volatile Run run;
    private volatile Ends ends;
    private volatile long touchedNanos;
    private volatile ScheduledExecutorService timer;
    private Admin client;
    private boolean warned;

    LeaderWatch(String topic, Map<String, Object> admin, Duration interval) {
        this.topic = topic;
        this.admin = admin;
        this.intervalNanos = interval.toNanos();
    }

    /**
     * The watch of {@code topic} for clients with these settings (bootstrap servers and the rest);
     * the shortest interval asked for wins.
     */
    static LeaderWatch of(String topic, Map<String, String> client, Duration interval) {
        Map<String, Object> admin = new TreeMap<>();
        // Only what an admin client knows (security, bootstrap): the rest is the consumer's.
        client.forEach(
                (k, v) -> {
                    if (AdminClientConfig.configNames().contains(k)) {
                        admin.put(k, v);
                    }
                });
        LeaderWatch watch =
                WATCHES.computeIfAbsent(
                        List.of(topic, admin), k -> new LeaderWatch(topic, admin, interval));
        watch.intervalNanos = Math.min(watch.intervalNanos, interval.toNanos());
        return watch;
    }

    /**
     * The probe interval for an idle timeout: a fifth of it, from 100 ms to 1 s, so that a broker
     * that stops answering is noticed well within the timeout.
     */
    static Duration interval(Duration idleTimeout) {
        long ms = Math.max(100, Math.min(LONGEST_INTERVAL.toMillis(), idleTimeout.toMillis() / 5));
        return Duration.ofMillis(ms);
    }

    /** The longest probe interval. */
    static final Duration LONGEST_INTERVAL = Duration.ofSeconds(1);

    /**
     * The watch of {@code topic} for clients with these settings, without asking for a shorter
     * interval than it has ({@link #LONGEST_INTERVAL} for a new one).
     */
    static LeaderWatch of(String topic, Map<String, String> client) {
        return of(topic, client, LONGEST_INTERVAL);
    }

    /**
     * The end offset (read_committed: the last stable offset) of the partition of {@code split} as
     * its leader answered a probe sent at most {@link #gapNanos} ago; -1 when there is no such
     * answer.
     */
    long end(String split) {
        return end(split, System.nanoTime());
    }

    long end(String split, long nowNanos) {
        Ends e = ends;
        if (e == null || nowNanos - e.sentNanos > gapNanos()) {
            return -1;
        }
        return e.offsets.getOrDefault(split, -1L);
    }

    /** A probe sent at {@code sentNanos} was answered with these ends. */
    void answered(long sentNanos, Map<String, Long> offsets) {
        Ends e = ends;
        if (e == null || e.sentNanos < sentNanos) {
            ends = new Ends(sentNanos, Map.copyOf(offsets));
        }
        answered(sentNanos);
    }

    /** The longest gap between two answers that still counts as answering all along. */
    long gapNanos() {
        return 3 * intervalNanos;
    }

    /** Keeps the watch probing (or starts it) for {@link #KEEP_ALIVE} from now. */
    void touch() {
        touchedNanos = System.nanoTime();
        if (timer == null) {
            start();
        }
    }

    /**
     * Whether the topic's partition leaders have answered every probe for the last {@code duration}
     * and the last probe is recent.
     */
    boolean answeredFor(Duration duration) {
        return answeredFor(duration.toNanos(), System.nanoTime());
    }

    boolean answeredFor(long durationNanos, long nowNanos) {
        Run r = run;
        return r != null
                && nowNanos - r.lastNanos <= gapNanos()
                && nowNanos - r.firstNanos >= durationNanos;
    }

    /** A probe sent at {@code sentNanos} was answered. */
    void answered(long sentNanos) {
        Run r = run;
        if (r == null || sentNanos - r.lastNanos > gapNanos()) {
            run = new Run(sentNanos, sentNanos);
        } else {
            run = new Run(r.firstNanos, Math.max(r.lastNanos, sentNanos));
        }
    }

    /** A probe failed: the run of answers is over. */
    void unanswered() {
        run = null;
        ends = null;
    }

    private synchronized void start() {
        if (timer != null) {
            return;
        }
        // Made on the caller's thread (the task's), with its context class loader, which the
        // Kafka client uses for its plugins (SASL login modules and the like).
        client = Admin.create(admin);
        timer =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "quadfence-leader-watch-" + topic);
                            t.setDaemon(true);
                            return t;
                        });
        timer.schedule(this::probe, 0, TimeUnit.NANOSECONDS);
    }

    private synchronized void stop() {
        if (timer != null) {
            timer.shutdown();
            timer = null;
            client.close(Duration.ZERO);
            client = null;
            run = null;
            ends = null;
        }
    }

    private void probe() {
        if (System.nanoTime() - touchedNanos > KEEP_ALIVE.toNanos()) {
            stop();
            return;
        }
        Admin admin;
        ScheduledExecutorService next;
        synchronized (this) {
            admin = client;
            next = timer;
        }
        if (admin == null) {
            return;
        }
        long sent = System.nanoTime();
        long timeoutMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(gapNanos()));
        try {
            TopicDescription description =
                    admin.describeTopics(List.of(topic))
                            .allTopicNames()
                            .get(timeoutMs, TimeUnit.MILLISECONDS)
                            .get(topic);
            Map<TopicPartition, ListOffsetsResultInfo> latest =
                    admin.listOffsets(
                                    Partitions.latest(description),
                                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)
                                            .timeoutMs((int) timeoutMs))
                            .all()
                            .get(timeoutMs, TimeUnit.MILLISECONDS);
            Map<String, Long> offsets = new HashMap<>();
            latest.forEach(
                    (tp, info) -> offsets.put(KafkaPartitionSplit.toSplitId(tp), info.offset()));
            answered(sent, offsets);
            if (warned) {
                warned = false;
                LOG.info("Kafka topic '{}' answers again", topic);
            }
        } catch (ExecutionException | TimeoutException e) {
            unanswered();
            if (!warned) {
                warned = true;
                LOG.warn(
                        "Kafka topic '{}' does not answer ({}): its partitions are not taken for"
                                + " idle while it does not",
                        topic,
                        e instanceof ExecutionException ? e.getCause() : e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (RuntimeException e) {
            unanswered();
            LOG.warn("probing Kafka topic '{}' failed", topic, e);
        }
        long spent = System.nanoTime() - sent;
        try {
            next.schedule(this::probe, Math.max(0, intervalNanos - spent), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException stopped) {
            // stopped meanwhile
        }
    }
}
