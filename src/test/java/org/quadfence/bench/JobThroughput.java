package org.quadfence.bench;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.flink.util.ExceptionUtils;

import com.fasterxml.jackson.databind.JsonNode;
import jdk.jfr.Recording;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.quadfence.api.EventPathJob;
import org.quadfence.io.EventTimes;
import org.quadfence.io.InputRules;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.job.LocalFlink;
import org.quadfence.kafka.KafkaIo;
import org.quadfence.model.Membership;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The job throughput harness (a main, not a test): runs the geofence job Kafka to Kafka on a local
 * MiniCluster against a real in-JVM KRaft broker, with a synthetic world of 100k fences and 100k
 * entities (see {@link BenchWorld}), and writes a Markdown report.
 *
 * <ul>
 *   <li><b>Throughput.</b> All fences and M positions are in Kafka before the job starts; the job
 *       reads them with bounded sources, exactly-once, once per state backend. Positions per second
 *       are given three ways: M over the whole job (submit to finish), M over first position read
 *       to finish, and the steady read rate between 10% and 90% of M (the sources are
 *       back-pressured, so this is the pipeline's rate).
 *   <li><b>Scale-out.</b> The same bounded input as the throughput phase, run exactly-once with
 *       heap state once per parallelism of {@code --scaleout-parallelism}; the CPU time of every
 *       subtask of the keyed stages and the records each took in give the projected speed-up (see
 *       {@link ScaleOut}), and the events must be the same at every parallelism.
 *   <li><b>Latency.</b> The job runs unbounded; positions are produced at a fixed rate with event
 *       time = now; the events topic is read (read_committed for exactly-once) and each event's
 *       latency is the time it was read minus its timestamp (the position's event time).
 *   <li><b>Event path alone</b> ({@code eventpath}, with {@code --workload event-heavy}). The
 *       memberships of the positions ({@link EventHeavyMemberships}), written to a topic of their
 *       own as the positions are produced, go through the job's event stages to an events topic
 *       ({@code EventPathJob}), exactly-once, heap state; the rate at which the sink wrote them
 *       ({@link EventPath}), and whether the events are the whole job's.
 * </ul>
 *
 * <p>{@code --workload one-city} puts every entity and nearly every fence in one city, so that all
 * positions fall in one tile (see {@link BenchWorld}). {@code --workload event-heavy} takes fences,
 * fence changes and positions from {@link EventHeavyWorld} (about 1.8 events per position with
 * {@code --interval 30s}), for the event path's rate; throughput and scale-out phases only.
 *
 * <p>{@code --churn} adds fence churn ({@link DispatchZones}): changes per second written by a
 * second producer ({@link ChurnFeed}) during the latency runs, or changes per 100,000 positions
 * preloaded in the throughput runs' fences topic; a list gives a run of each, tabled beside the run
 * without churn ({@link ChurnReport}). Every throughput run also gives its event path's rate
 * ({@link EventPath}).
 *
 * <p>Options ({@code --key value}; one argument holding them all, split on blanks, also works): see
 * {@link #DEFAULTS}. {@code --job.KEY VALUE} passes a job option (for example {@code
 * --job.tile-level 9}), {@code --flink.KEY VALUE} a Flink configuration entry of the local cluster
 * (for example {@code --flink.state.backend.rocksdb.timer-service.factory HEAP}). Run with {@code
 * mvn -Pjob-bench test-compile exec:exec -Djob-bench.args="..."}.
 */
public final class JobThroughput {

    /** The harness's options and their defaults. */
    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("workload", "cities"); // or one-city, event-heavy
        DEFAULTS.put("fences", "100000");
        DEFAULTS.put("big-fences", "40"); // 1 to 30 degrees; plus two continents
        DEFAULTS.put("entities", "100000");
        DEFAULTS.put("interval", "10s"); // event time between two positions of one entity
        DEFAULTS.put("positions", "3000000"); // M, for the throughput and scale-out phases
        // of the positions and events topics; with the scale-out phase at least its largest p
        DEFAULTS.put("partitions", "4");
        DEFAULTS.put("parallelism", "2");
        // and scaleout; eventpath (--workload event-heavy): the event path alone
        DEFAULTS.put("phases", "throughput,latency");
        DEFAULTS.put("scaleout-parallelism", "1,2,4,8");
        // one unreported run first, at the first p, so that the JVM has compiled the job's code
        DEFAULTS.put("scaleout-warmup", "true");
        // a task whose first operator's name contains one of these is a keyed stage's
        DEFAULTS.put(
                "scaleout-stages",
                "FenceRouter,TileMatcher,MembershipTracker,PropertiesJoiner,EventOrderer");
        DEFAULTS.put("backends", "hashmap,rocksdb"); // throughput phase
        DEFAULTS.put("checkpoint-interval", "10s"); // throughput phase
        // unreported runs of each backend before its reported one, so that the JVM has compiled
        // the job's code (a cold JVM is much slower: docs/benchmarks.md)
        DEFAULTS.put("throughput-warmup", "5");
        // delivery/backend of each latency run
        DEFAULTS.put(
                "latency-runs", "exactly-once/hashmap,at-least-once/hashmap,exactly-once/rocksdb");
        DEFAULTS.put("rates", "auto"); // positions/s; auto: half the hashmap throughput
        DEFAULTS.put("latency-checkpoint-interval", "1s");
        // unreported runs of the first latency run's kind before the reported ones: a JVM reaches
        // its steady latency only after minutes at that load (docs/benchmarks.md, session 6)
        DEFAULTS.put("latency-warmup", "2");
        DEFAULTS.put("warmup", "20s");
        DEFAULTS.put("measure", "40s");
        DEFAULTS.put("managed-memory", "512m"); // RocksDB's memory in the MiniCluster
        // record each reported throughput run with JFR's profile settings (it slows the job down)
        DEFAULTS.put("jfr", "false");
        // fence changes (dispatch zones, see DispatchZones): per second in the latency phase, per
        // 100,000 positions in the throughput phase; a list gives a run of each
        DEFAULTS.put("churn", "0");
        DEFAULTS.put("churn-zones", "5000"); // the pool of zone ids the changes draw from
        DEFAULTS.put("seed", "42");
        DEFAULTS.put("out", "target/job-bench");
    }

    /** The topic of the event path alone's input (phase eventpath). */
    private static final String MEMBERSHIPS = "memberships";

    private static final long START = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    /** How often the scale-out phase samples the CPU time of the task threads. */
    private static final long SAMPLE_MS = 100;

    private final Map<String, String> settings;
    private final Map<String, String> jobExtras;
    private final Map<String, String> flinkExtras;
    private final Path out;
    private final StringBuilder report = new StringBuilder();
    private final StringBuilder warmupLines = new StringBuilder();
    private KafkaBroker kafka;
    private BenchWorld world;
    private EventHeavyFeed heavy; // --workload event-heavy, else null
    // phase eventpath: the memberships of the positions as they are produced, then null (its index
    // of the fences would stay in the heap of every run after)
    private EventHeavyMemberships answers;
    private long positionsProduced;
    private int positionPartitions;
    private final Map<Long, Long> positionsPerTile = new HashMap<>();
    private final Map<Long, Long> fencesPerTile = new HashMap<>();
    private String failure;
    private final Map<String, Integer> fenceKinds = new TreeMap<>();
    private double hashmapRate = Double.NaN;
    private int runs;
    private final ChurnReport churnReport = new ChurnReport();
    private final Map<Double, String> churnFenceTopics = new HashMap<>();
    private final StringBuilder eventPathRows = new StringBuilder();
    private String reportedEvents; // the events topic of the first reported throughput run

    private JobThroughput(
            Map<String, String> settings,
            Map<String, String> jobExtras,
            Map<String, String> flinkExtras) {
        this.settings = settings;
        this.jobExtras = jobExtras;
        this.flinkExtras = flinkExtras;
        this.out = Path.of(settings.get("out"));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> s = new LinkedHashMap<>(DEFAULTS);
        Map<String, String> extras = new LinkedHashMap<>();
        Map<String, String> flinkExtras = new LinkedHashMap<>();
        List<String> a = new ArrayList<>();
        for (String arg : args) {
            for (String part : arg.trim().split("\\s+")) {
                if (!part.isEmpty()) {
                    a.add(part);
                }
            }
        }
        for (int i = 0; i + 1 < a.size(); i += 2) {
            String k = a.get(i).replaceFirst("^--", "");
            if (k.startsWith("job.")) {
                extras.put(k.substring(4), a.get(i + 1));
            } else if (k.startsWith("flink.")) {
                flinkExtras.put(k.substring(6), a.get(i + 1));
            } else if (DEFAULTS.containsKey(k)) {
                s.put(k, a.get(i + 1));
            } else {
                System.err.println("unknown option --" + k + "; known: " + DEFAULTS.keySet());
                System.exit(2);
            }
        }
        if (a.size() % 2 != 0) {
            System.err.println("options come in pairs: --key value");
            System.exit(2);
        }
        int rc = 0;
        try {
            new JobThroughput(s, extras, flinkExtras).run();
        } catch (Throwable t) {
            t.printStackTrace();
            rc = 1;
        }
        // Flink and Kafka leave non-daemon threads behind.
        System.exit(rc);
    }

    private void run() throws Exception {
        Files.createDirectories(out);
        List<String> phases = List.of(settings.get("phases").split(","));
        String workload = settings.get("workload");
        if (!List.of("cities", "one-city", "event-heavy").contains(workload)) {
            throw new IllegalArgumentException(
                    "--workload is cities, one-city or event-heavy, not " + workload);
        }
        boolean eventPath = phases.contains("eventpath");
        if (eventPath && !workload.equals("event-heavy")) {
            throw new IllegalArgumentException("phase eventpath needs --workload event-heavy");
        }
        if (workload.equals("event-heavy")) {
            if (phases.contains("latency")) {
                throw new IllegalArgumentException(
                        "--workload event-heavy has no latency phase (its world has no live feed)");
            }
            if (phases.contains("eventpath")) {
                answers = new EventHeavyMemberships();
            }
            heavy =
                    new EventHeavyFeed(
                            seed(), intSetting("fences"), intSetting("entities"), intervalMs());
        }
        header();
        log("starting the Kafka broker");
        try (KafkaBroker broker = KafkaBroker.start()) {
            kafka = broker;
            world =
                    new BenchWorld(
                            seed(),
                            intSetting("entities"),
                            intervalMs(),
                            workload.equals("one-city"));
            kafka.createTopic("fences", 2, true);
            produceFences();
            positionPartitions = intSetting("partitions");
            if (phases.contains("scaleout")) {
                for (int p : scaleoutParallelisms()) {
                    positionPartitions = Math.max(positionPartitions, p);
                }
            }
            if (eventPath) {
                kafka.createTopic(MEMBERSHIPS, positionPartitions, false);
            }
            if (phases.contains("throughput") || phases.contains("scaleout") || eventPath) {
                kafka.createTopic("positions", positionPartitions, false);
                producePositions();
                answers = null;
            }
            dataShape();
            if (phases.contains("throughput")) {
                section(
                        "Throughput (bounded Kafka sources, exactly-once, everything in Kafka"
                                + " first)");
                report.append(
                        String.format(
                                Locale.ROOT,
                                "Each reported run follows %s unreported runs of the same backend"
                                        + " in this JVM (setting throughput-warmup), so that the"
                                        + " JIT has compiled the job's code; their steady rates"
                                        + " are listed under the table.%n%n",
                                settings.get("throughput-warmup")));
                report.append(
                        "| state backend | positions | job wall time | positions/s (whole job) |"
                            + " positions/s (first read to end) | positions/s (steady, 10-90%) | of"
                            + " 200k/s | positions per CPU-s of this JVM | CPU-s used by other"
                            + " processes | events | dead letters | last checkpoint size |"
                            + " checkpoints |\n"
                            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
                StringBuilder details = new StringBuilder();
                int warmups = Integer.parseInt(settings.get("throughput-warmup"));
                for (String backend : settings.get("backends").split(",")) {
                    for (int i = 0; i < warmups; i++) {
                        throughput(backend.trim(), mostChurn(), null);
                    }
                    for (double churn : churns()) {
                        throughput(backend.trim(), churn, details);
                    }
                }
                report.append('\n');
                if (churnGiven()) {
                    churnReport.describeThroughput(report);
                }
                eventPathTable();
                report.append(warmupLines).append('\n').append(details);
            }
            if (eventPath) {
                eventPathPhase();
            }
            if (phases.contains("scaleout")) {
                scaleoutPhase();
            }
            if (phases.contains("latency")) {
                latencyPhase();
            }
        }
        Path file = out.resolve("report.md");
        Files.writeString(file, report.toString());
        log("report written to " + file);
        System.out.println(report);
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    // ---------------------------------------------------------------- data

    private void produceFences() throws Exception {
        TileGrid grid = jobGrid();
        long t0 = System.nanoTime();
        if (heavy != null) {
            try (Producer p = new Producer(kafka.bootstrapServers(), 20)) {
                writeBaseFences(
                        (k, v, ts) -> {
                            p.send("fences", k, v, ts);
                            if (answers != null) {
                                answers.fence(v, ts);
                            }
                        });
            }
            fenceKinds.put("event-heavy fences", intSetting("fences"));
            fenceKinds.put("changes", EventHeavyFeed.changes(intSetting("fences")));
            log("event-heavy fences produced in " + (System.nanoTime() - t0) / 1e9 + " s");
            return;
        }
        try (Producer p = new Producer(kafka.bootstrapServers(), 20)) {
            world.fences(
                    intSetting("fences"),
                    intSetting("big-fences"),
                    (k, v, ts) -> {
                        String s = new String(v, java.nio.charset.StandardCharsets.UTF_8);
                        String kind = s.substring(s.lastIndexOf("\"kind\":\"") + 8, s.length() - 3);
                        fenceKinds.merge(kind, 1, Integer::sum);
                        String[] rect =
                                s.substring(s.indexOf("\"rect\":[") + 8, s.indexOf(']')).split(",");
                        fencesPerTile.merge(
                                grid.tileOf(
                                        (Double.parseDouble(rect[0]) + Double.parseDouble(rect[2]))
                                                / 2,
                                        (Double.parseDouble(rect[1]) + Double.parseDouble(rect[3]))
                                                / 2),
                                1L,
                                Long::sum);
                        p.send("fences", k, v, ts);
                    });
        }
        log(
                String.format(
                        Locale.ROOT,
                        "%s fences produced in %.1f s: %s",
                        settings.get("fences"),
                        (System.nanoTime() - t0) / 1e9,
                        fenceKinds));
    }

    /** The churn settings, fence changes per second (latency) or per 100k positions. */
    private List<Double> churns() {
        List<Double> cs = new ArrayList<>();
        for (String c : settings.get("churn").split(",")) {
            cs.add(Double.parseDouble(c.trim()));
        }
        return cs;
    }

    /** Whether churn runs were asked for: then the churn tables are written. */
    private boolean churnGiven() {
        return churns().stream().anyMatch(c -> c > 0);
    }

    /**
     * The largest churn setting: the warm-up runs' churn, so that the JIT has also compiled the
     * path of the fence changes before the reported runs.
     */
    private double mostChurn() {
        return churns().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }

    private static String churnTag(double churn) {
        return churn > 0 ? "-c" + (long) churn : "";
    }

    /** Dispatch-zone changes of a throughput run at {@code churn} per 100,000 positions. */
    private long churnChanges(double churn) {
        return Math.round(positionsProduced * churn / 100_000);
    }

    /**
     * A fences topic with the world's fences and {@link #churnChanges} dispatch-zone changes, their
     * times spread over the positions' event time; made once per churn setting.
     */
    private String churnFences(double churn) throws Exception {
        String topic = churnFenceTopics.get(churn);
        if (topic != null) {
            return topic;
        }
        topic = "fences" + churnTag(churn);
        kafka.createTopic(topic, 2, true);
        long rounds = (positionsProduced + intSetting("entities") - 1) / intSetting("entities");
        String t = topic;
        try (Producer p = new Producer(kafka.bootstrapServers(), 20)) {
            writeBaseFences((k, v, ts) -> p.send(t, k, v, ts));
            new DispatchZones(seed(), intSetting("churn-zones"))
                    .spread(
                            churnChanges(churn),
                            START,
                            START + rounds * intervalMs(),
                            (k, v, ts) -> p.send(t, k, v, ts));
        }
        log(churnChanges(churn) + " dispatch-zone changes written to " + topic);
        churnFenceTopics.put(churn, topic);
        return topic;
    }

    /** The world's fences, as {@link #produceFences} wrote them, to {@code out}. */
    private void writeBaseFences(BenchWorld.RecordSink out) {
        if (heavy != null) {
            long rounds =
                    (Long.parseLong(settings.get("positions")) + intSetting("entities") - 1)
                            / intSetting("entities");
            heavy.fences(intSetting("fences"), START, START + rounds * intervalMs(), out);
            return;
        }
        world.fences(intSetting("fences"), intSetting("big-fences"), out);
    }

    /** The positions of one round, of the event-heavy world or of the harness's. */
    private void writeRound(long start, long round, int interval, BenchWorld.RecordSink out) {
        if (heavy != null) {
            heavy.round(start, round, interval, out);
        } else {
            world.round(start, round, interval, out);
        }
    }

    private void producePositions() throws Exception {
        long m = Long.parseLong(settings.get("positions"));
        int entities = intSetting("entities");
        TileGrid grid = jobGrid();
        long t0 = System.nanoTime();
        try (Producer p = new Producer(kafka.bootstrapServers(), 20)) {
            EventHeavyMemberships.Out memberships =
                    (k, membership, ts) ->
                            p.send(MEMBERSHIPS, k, MembershipRecords.bytes(membership), ts);
            long sent = 0;
            for (long round = 0; sent < m; round++) {
                long[] left = {m - sent};
                writeRound(
                        START,
                        round,
                        intervalMs(),
                        (k, v, ts) -> {
                            if (left[0]-- > 0) {
                                String s = new String(v, java.nio.charset.StandardCharsets.UTF_8);
                                positionsPerTile.merge(
                                        grid.tileOf(number(s, "lon"), number(s, "lat")),
                                        1L,
                                        Long::sum);
                                p.send("positions", k, v, ts);
                                if (answers != null) {
                                    answers.position(k, v, memberships);
                                }
                            }
                        });
                sent += Math.min(entities, m - sent);
            }
            positionsProduced = sent;
            if (answers != null) {
                answers.flush(memberships);
            }
        }
        log(
                String.format(
                        Locale.ROOT,
                        "%d positions produced in %.1f s",
                        positionsProduced,
                        (System.nanoTime() - t0) / 1e9));
    }

    private void dataShape() {
        section("Data");
        if (heavy != null) {
            report.append(
                    String.format(
                            Locale.ROOT,
                            "Workload **event-heavy** (EventHeavyWorld, as docs/benchmarks.md's"
                                + " event-heavy replay): %s fences packed around %d city centres"
                                + " (regions, districts, 60 to 600 m blocks; rectangles, polygons,"
                                + " circles; group fleet-b in every fourth city), %s of them"
                                + " changed during the positions; %s entities moving through them,"
                                + " one position every %s; %d positions, %d partitions; seed %s; %d"
                                + " tiles of level %d hold positions.%n%n",
                            settings.get("fences"),
                            BenchWorld.cityCount(),
                            fenceKinds.get("changes"),
                            settings.get("entities"),
                            settings.get("interval"),
                            positionsProduced,
                            positionPartitions,
                            settings.get("seed"),
                            positionsPerTile.size(),
                            jobGrid().level()));
            return;
        }
        if (settings.get("workload").equals("one-city")) {
            report.append(
                    String.format(
                            Locale.ROOT,
                            "Workload **one-city**: every entity and %.0f%% of the blocks and"
                                    + " districts are around %s (%.2f, %.2f); the rest as in the"
                                    + " cities workload below.%n%n",
                            100 * BenchWorld.ONE_CITY_SHARE,
                            BenchWorld.ONE_CITY[0],
                            (double) BenchWorld.ONE_CITY[1],
                            (double) BenchWorld.ONE_CITY[2]));
        }
        report.append(
                String.format(
                        Locale.ROOT,
                        "- fences: %s rectangles (%s), clustered around %d city centres (Gaussian,"
                            + " sigma 0.15 degrees); blocks and districts are 50 m to 3 km"
                            + " (log-uniform), regions 1 to 30 degrees, continents North America"
                            + " and Europe; keyed by fence id on a compacted topic of 2 partitions,"
                            + " record time 0 (they hold from the start)%n- entities: %s, each in"
                            + " one city, random walk (on foot, city traffic, fast road: 0.7 to 22"
                            + " m/s, turning), one position every %s of event time, event time"
                            + " increasing with jitter < %d ms (max-out-of-orderness of the job: 1"
                            + " s)%n- positions: %d in the throughput and scale-out phases (%d"
                            + " rounds), keyed by entity id, %d partitions, lz4; seed %s%n- tiles"
                            + " of level %d (the job's tile-level): the positions fall in %d, the"
                            + " busiest holds %s of them and the centres of %s of the fences%n%n",
                        settings.get("fences"),
                        fenceKinds,
                        BenchWorld.cityCount(),
                        settings.get("entities"),
                        settings.get("interval"),
                        BenchWorld.JITTER_MS,
                        positionsProduced,
                        (positionsProduced + intSetting("entities") - 1) / intSetting("entities"),
                        positionPartitions,
                        settings.get("seed"),
                        jobGrid().level(),
                        positionsPerTile.size(),
                        percent(busiestTile(), positionsPerTile),
                        percent(busiestTile(), fencesPerTile)));
    }

    /** The tile of the job's tile level with the most positions, or -1 when there are none. */
    private long busiestTile() {
        return positionsPerTile.entrySet().stream()
                .max(Map.Entry.comparingByValue())
                .map(Map.Entry::getKey)
                .orElse(-1L);
    }

    private static String percent(long key, Map<Long, Long> counts) {
        long all = counts.values().stream().mapToLong(Long::longValue).sum();
        return all == 0
                ? "-"
                : String.format(Locale.ROOT, "%.1f%%", 100.0 * counts.getOrDefault(key, 0L) / all);
    }

    /** The tiles of the job's tile level (its default, or {@code --job.tile-level}). */
    private TileGrid jobGrid() {
        return new TileGrid(JobOptions.of(jobExtras).intValue("tile-level"));
    }

    /** The number after {@code "name":} in a one-line JSON object. */
    private static double number(String json, String name) {
        int from = json.indexOf("\"" + name + "\":") + name.length() + 3;
        int to = from;
        while (to < json.length() && "-.0123456789".indexOf(json.charAt(to)) >= 0) {
            to++;
        }
        return Double.parseDouble(json.substring(from, to));
    }

    // ---------------------------------------------------------------- throughput

    /**
     * One run of the whole job over all positions, with {@code churn} dispatch-zone changes per
     * 100,000 positions in its fences topic; reported in the table and {@code details}, or only
     * logged when {@code details} is null (a warm-up run).
     */
    private void throughput(String backend, double churn, StringBuilder details) throws Exception {
        boolean reported = details != null;
        String tag = "tp-" + backend + churnTag(churn) + "-" + (++runs);
        kafka.createTopic(tag + "-events", positionPartitions, false);
        EventPath.stampAppendTime(kafka.bootstrapServers(), tag + "-events");
        kafka.createTopic(tag + "-dlq", 1, false);
        Map<String, String> o = baseOptions(tag, backend, "exactly-once");
        o.put("positions-topic", "positions");
        if (churn > 0) {
            o.put("fences-topic", churnFences(churn));
        }
        o.put("checkpoint-interval", settings.get("checkpoint-interval"));
        JobOptions options = JobOptions.of(o);
        log("throughput run " + tag + ": " + options.asMap());
        collectEarlierRuns();

        Recording jfr = null;
        if (reported && Boolean.parseBoolean(settings.get("jfr"))) {
            jfr = new Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            // an event per promoted object, which the summary does not use
            jfr.disable("jdk.PromoteObjectInNewPLAB");
            jfr.disable("jdk.PromoteObjectOutsidePLAB");
            jfr.start();
        }
        Counting.reset();
        CpuAccount cpu = new CpuAccount();
        cpu.start();
        long submitted = System.nanoTime();
        Started started = start(options, tag, kafkaJob(options, true));
        JobClient client = started.client();
        FlinkRest rest = started.rest();
        CompletableFuture<?> result = client.getJobExecutionResult();
        Monitor mon = new Monitor(rest, client.getJobID().toString());
        List<long[]> progress = new ArrayList<>(); // {nanos, positions read}
        long lastRest = 0;
        while (!result.isDone()) {
            Thread.sleep(250);
            long now = System.nanoTime();
            long read = Counting.COUNT.sum();
            progress.add(new long[] {now, read});
            if (now - lastRest > 2_000_000_000L) {
                lastRest = now;
                cpu.sample();
                double f = (double) read / positionsProduced;
                mon.poll(f >= 0.2 && f <= 0.8);
            }
        }
        long finished = System.nanoTime();
        result.get(); // rethrows a failure
        cpu.sample();
        if (jfr != null) {
            jfr.stop();
            Path f = out.resolve(tag + ".jfr");
            jfr.dump(f);
            jfr.close();
            Files.writeString(out.resolve(tag + "-jfr.md"), JfrSummary.summarize(f, 30));
            log("JFR summary in " + out.resolve(tag + "-jfr.md"));
        }
        long first = Counting.FIRST.get();
        double wall = (finished - submitted) / 1e9;
        double fromFirst = first == 0 ? Double.NaN : (finished - first) / 1e9;
        double steady = steadyRate(progress, positionsProduced);
        EventPath.Written written;
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("written-" + tag, true)) {
            written = EventPath.read(c, tag + "-events");
        }
        long events = written.events();
        long dead = count(tag + "-dlq", true);
        Map<String, Double> groups = cpu.byGroup();
        String line =
                String.format(
                        Locale.ROOT,
                        "%s%s: %.1f s wall, steady %.0f positions/s, %d events (%.0f events/s"
                                + " written), %d dead letters; %.1f CPU-s, the collector %.1f,"
                                + " the JIT %.1f",
                        tag,
                        reported ? "" : " (warm-up)",
                        wall,
                        steady,
                        events,
                        written.perSecond(),
                        dead,
                        cpu.processSeconds(),
                        groups.getOrDefault(CpuAccount.GC, 0.0),
                        groups.getOrDefault(CpuAccount.JIT, 0.0));
        log(line);
        log(tag + ": " + tenths(progress, positionsProduced, first));
        if (!reported) {
            warmupLines.append("- ").append(line).append('\n');
            return;
        }
        if (backend.equals("hashmap") && Double.isNaN(hashmapRate)) {
            hashmapRate = steady;
        }
        if (reportedEvents == null) {
            reportedEvents = tag + "-events";
        }
        eventPathRows.append(
                EventPath.row(
                        backend,
                        churn,
                        written,
                        positionsProduced,
                        steady,
                        EventPath.stageCpuSeconds(cpu.byGroup())));
        if (churnGiven()) {
            churnReport.add(
                    new ChurnReport.ThroughputRow(
                            backend, churn, churnChanges(churn), steady, events));
        }
        report.append(
                String.format(
                        Locale.ROOT,
                        "| %s | %d | %.1f s | %,.0f | %,.0f | %,.0f | %.2f | %,.0f | %.0f of %.0f |"
                                + " %d | %d | %s | %d |%n",
                        backend,
                        positionsProduced,
                        wall,
                        positionsProduced / wall,
                        positionsProduced / fromFirst,
                        steady,
                        steady / 200_000,
                        positionsProduced / cpu.processSeconds(),
                        cpu.machineBusySeconds() - cpu.processSeconds(),
                        cpu.machineBusySeconds(),
                        events,
                        dead,
                        mb(mon.lastStateSize),
                        mon.completedCheckpoints));
        details.append("### Run ").append(tag).append("\n\n");
        details.append(
                String.format(
                        Locale.ROOT,
                        "Startup (submit to first position read) %.1f s; positions read %d; events"
                                + " per position %.3f.%n%n"
                                + "Event path: %,d events written by the sink in %.1f s (first to"
                                + " last, broker append time), %,.0f events/s.%n%n"
                                + "The %s.%n%n",
                        first == 0 ? Double.NaN : (first - submitted) / 1e9,
                        Counting.COUNT.sum(),
                        (double) events / positionsProduced,
                        events,
                        (written.last() - written.first()) / 1e3,
                        written.perSecond(),
                        tenths(progress, positionsProduced, first)));
        mon.describe(details);
        cpuTable(details, cpu);
    }

    /**
     * The event path alone (phase {@code eventpath}): the memberships of the positions, from their
     * topic, through the entity stage, the properties join and the ordering to an events topic;
     * {@code throughput-warmup} unreported runs first.
     */
    private void eventPathPhase() throws Exception {
        section("The event path alone (memberships in Kafka, entity stage to sink)");
        StringBuilder warmUps = new StringBuilder();
        int warmups = intSetting("throughput-warmup");
        for (int i = 0; i < warmups; i++) {
            warmUps.append(eventPathRun("ep-" + (++runs)));
        }
        String tag = "ep-" + (++runs);
        EventPath.describeAlone(report, eventPathRun(tag), warmUps);
        if (reportedEvents != null) {
            sameEvents(reportedEvents, tag + "-events");
        }
    }

    /**
     * Says in the report whether the whole job and the event path alone wrote the same events: they
     * do when the memberships of {@link EventHeavyMemberships} are the tile stage's.
     */
    private void sameEvents(String job, String alone) {
        TopicDigest a;
        TopicDigest b;
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("digest-" + alone, true)) {
            a = TopicDigest.of(c, job);
            b = TopicDigest.of(c, alone);
        }
        String line =
                String.format(
                        Locale.ROOT,
                        "The whole job's reported run wrote %,d events (hash %s), the event path"
                                + " alone %,d (hash %s): %s.",
                        a.records(),
                        a.hash(),
                        b.records(),
                        b.hash(),
                        a.equals(b) ? "the same events" : "they differ");
        report.append(line).append("\n\n");
        log(line);
    }

    /**
     * One run of the event path alone, its topics named after {@code tag}; its row of the table.
     */
    private String eventPathRun(String tag) throws Exception {
        kafka.createTopic(tag + "-events", positionPartitions, false);
        EventPath.stampAppendTime(kafka.bootstrapServers(), tag + "-events");
        kafka.createTopic(tag + "-dlq", 1, false);
        Map<String, String> o = baseOptions(tag, "hashmap", "exactly-once");
        o.put("checkpoint-interval", settings.get("checkpoint-interval"));
        JobOptions options = JobOptions.of(o);
        log("event path run " + tag + ": " + options.asMap());
        collectEarlierRuns();
        CpuAccount cpu = new CpuAccount();
        cpu.start();
        long submitted = System.nanoTime();
        Started started =
                start(
                        options,
                        tag,
                        env ->
                                EventPathJob.assemble(
                                        env,
                                        options,
                                        membershipSource(tag),
                                        JobIo.kafka(options, true)));
        CompletableFuture<?> result = started.client().getJobExecutionResult();
        while (!result.isDone()) {
            Thread.sleep(1000);
            cpu.sample();
        }
        double wall = (System.nanoTime() - submitted) / 1e9;
        result.get(); // rethrows a failure
        cpu.sample();
        EventPath.Written written;
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("written-" + tag, true)) {
            written = EventPath.read(c, tag + "-events");
        }
        String row = EventPath.aloneRow(tag, written, positionsProduced, wall, cpu);
        log(row.trim());
        return row;
    }

    /** The memberships topic, read once from its beginning to the end it has at start. */
    private KafkaSource<Membership> membershipSource(String tag) {
        return KafkaSource.<Membership>builder()
                .setBootstrapServers(kafka.bootstrapServers())
                .setGroupId(tag)
                .setTopics(MEMBERSHIPS)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new MembershipRecords())
                .build();
    }

    private void eventPathTable() {
        EventPath.describe(report, eventPathRows);
    }

    /** Rate of positions read between 10% and 90% of all. */
    /**
     * When each tenth of {@code total} had been read, in seconds from the first position read (to
     * the 250 ms at which {@code progress} is sampled): where the run stalled (the fences' load at
     * its start) and where it ran steadily.
     */
    private static String tenths(List<long[]> progress, long total, long first) {
        if (first == 0) {
            return "no positions read";
        }
        StringBuilder b = new StringBuilder("positions read by tenths at");
        int tenth = 1;
        for (long[] p : progress) {
            while (tenth <= 10 && p[1] >= total * tenth / 10) {
                b.append(String.format(Locale.ROOT, " %.1f", (p[0] - first) / 1e9));
                tenth++;
            }
        }
        return b.append(" s").toString();
    }

    private static double steadyRate(List<long[]> progress, long total) {
        long[] a = null;
        long[] b = null;
        for (long[] p : progress) {
            if (a == null && p[1] >= total / 10) {
                a = p;
            }
            if (b == null && p[1] >= total * 9 / 10) {
                b = p;
            }
        }
        if (a == null || b == null || b[0] == a[0]) {
            return Double.NaN;
        }
        return (b[1] - a[1]) / ((b[0] - a[0]) / 1e9);
    }

    // ---------------------------------------------------------------- scale-out

    private List<Integer> scaleoutParallelisms() {
        List<Integer> ps = new ArrayList<>();
        for (String p : settings.get("scaleout-parallelism").split(",")) {
            ps.add(Integer.parseInt(p.trim()));
        }
        return ps;
    }

    private void scaleoutPhase() throws Exception {
        section(
                "Scale-out (bounded Kafka sources, exactly-once, heap state, everything in Kafka"
                        + " first; one run per parallelism)");
        report.append(
                String.format(
                        Locale.ROOT,
                        "Each run reads the same %d positions (topic of %d partitions, so every"
                            + " source subtask has one) at job parallelism p, sources and sinks"
                            + " included. CPU time per subtask: ThreadMXBean CPU time of each Flink"
                            + " task thread, sampled every %d ms until it ends. A keyed stage is a"
                            + " task whose first operator's name contains one of %s; its CPU"
                            + " includes the operators chained behind it (the events sink's writer"
                            + " behind the EventOrderer). Records in: the job's StageLoad"
                            + " accumulators. T1 = CPU of all keyed-stage subtasks at p = 1. **S(p)"
                            + " per slot** (the headline) = T1 / the CPU of the busiest slot at p,"
                            + " a slot being subtask i of every keyed stage (Flink's slot sharing"
                            + " runs them in slot i): the projected speed-up with one core per"
                            + " slot. S(p) per stage = T1 / the CPU of the busiest single keyed"
                            + " subtask, as if every subtask had a core; it is never smaller. On %d"
                            + " cores the runs at p > %d time-share the cores, so wall times do not"
                            + " scale; the CPU times do not depend on that. Events are read"
                            + " read_committed; their hash is over the sorted event values.%n%n",
                        positionsProduced,
                        positionPartitions,
                        SAMPLE_MS,
                        stageWords(),
                        Runtime.getRuntime().availableProcessors(),
                        Runtime.getRuntime().availableProcessors()));
        ScaleOut scaleOut = new ScaleOut();
        if (Boolean.parseBoolean(settings.get("scaleout-warmup"))) {
            scaleOut.warmUp(scaleoutRun(scaleoutParallelisms().get(0)));
        }
        for (int p : scaleoutParallelisms()) {
            scaleOut.add(scaleoutRun(p));
        }
        scaleOut.describe(report);
        String mismatch = scaleOut.outputMismatch();
        if (mismatch != null) {
            log(mismatch);
            failure = mismatch;
        }
    }

    private List<String> stageWords() {
        List<String> words = new ArrayList<>();
        for (String w : settings.get("scaleout-stages").split(",")) {
            words.add(w.trim());
        }
        return words;
    }

    private ScaleOut.Run scaleoutRun(int p) throws Exception {
        String tag = "so-p" + p + "-" + (++runs);
        kafka.createTopic(tag + "-events", positionPartitions, false);
        kafka.createTopic(tag + "-dlq", 1, false);
        Map<String, String> o = baseOptions(tag, "hashmap", "exactly-once");
        o.put("parallelism", String.valueOf(p));
        o.put("positions-topic", "positions");
        o.put("checkpoint-interval", settings.get("checkpoint-interval"));
        JobOptions options = JobOptions.of(o);
        log("scale-out run " + tag + ": " + options.asMap());

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(flinkConfig(freePort(), tag));
        GeofenceJob.assemble(env, options, io(options, true), true);

        Counting.reset();
        CpuAccount cpu = new CpuAccount();
        cpu.start();
        JobExecutionResult result;
        long submitted = System.nanoTime();
        long finished;
        TaskCpu tasks = TaskCpu.start(SAMPLE_MS);
        try {
            JobClient client = env.executeAsync(options.get("job-name") + " " + tag);
            CompletableFuture<JobExecutionResult> done = client.getJobExecutionResult();
            long lastSample = System.nanoTime();
            while (!done.isDone()) {
                Thread.sleep(250);
                if (System.nanoTime() - lastSample > 2_000_000_000L) {
                    lastSample = System.nanoTime();
                    cpu.sample();
                }
            }
            finished = System.nanoTime();
            result = done.get(); // rethrows a failure
        } finally {
            tasks.close();
        }
        cpu.sample();
        TopicDigest events;
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("digest-" + tag, true)) {
            events = TopicDigest.of(c, tag + "-events");
        }
        long dead = count(tag + "-dlq", true);
        ScaleOut.Run run =
                new ScaleOut.Run(
                        p,
                        (finished - submitted) / 1e9,
                        events,
                        dead,
                        cpu.processSeconds(),
                        tasks.seconds(),
                        result.getAllAccumulatorResults(),
                        stageWords());
        log(
                String.format(
                        Locale.ROOT,
                        "%s: %.1f s wall, keyed-stage CPU %.1f s, busiest slot %.1f s, %d events"
                                + " (hash %s), %d dead letters",
                        tag,
                        run.wallSeconds,
                        run.keyedCpu(),
                        Arrays.stream(run.slots()).max().orElse(0),
                        events.records(),
                        events.hash(),
                        dead));
        return run;
    }

    // ---------------------------------------------------------------- latency

    private void latencyPhase() throws Exception {
        List<Double> rates = new ArrayList<>();
        for (String r : settings.get("rates").split(",")) {
            if (r.trim().equals("auto")) {
                rates.add(
                        Double.isNaN(hashmapRate)
                                ? 20_000
                                : Math.floor(hashmapRate / 2 / 1000) * 1000);
            } else {
                rates.add(Double.parseDouble(r.trim()));
            }
        }
        section("Latency (unbounded job, positions produced at a fixed rate, event time = now)");
        report.append(
                "Latency = time the event was read from geofence-events minus the event's timestamp"
                    + " (the position's event time, set when the harness generated it). Warm-up "
                        + settings.get("warmup")
                        + " (the fence partitions go idle after the 10 s idle timeout, until then"
                        + " positions wait), then "
                        + settings.get("measure")
                        + " measured. Checkpoint interval "
                        + settings.get("latency-checkpoint-interval")
                        + "; max-out-of-orderness 1 s (every stage waits for the watermark).\n\n");
        report.append(
                "| delivery (reader isolation) | backend | rate (positions/s) | events measured |"
                        + " p50 | p90 | p99 | max | kept up | checkpoint e2e avg / max | heap held"
                        + " |\n|---|---|---:|---:|---:|---:|---:|---:|---|---:|---:|\n");
        StringBuilder details = new StringBuilder();
        StringBuilder warmups = new StringBuilder();
        String[] first = settings.get("latency-runs").split(",")[0].trim().split("/");
        for (int i = 0; i < Integer.parseInt(settings.get("latency-warmup")); i++) {
            warmups.append("- ")
                    .append(latency(first[0], first[1], rates.get(0), mostChurn(), null));
        }
        for (double rate : rates) {
            for (double churn : churns()) {
                for (String run : settings.get("latency-runs").split(",")) {
                    String[] db = run.trim().split("/");
                    latency(db[0], db[1], rate, churn, details);
                }
            }
        }
        if (churnGiven()) {
            report.append('\n');
            churnReport.describeLatency(report);
        }
        if (warmups.length() > 0) {
            report.append(
                            "\nBefore the reported runs, unreported ones of the first kind in this"
                                    + " JVM (setting latency-warmup), so that the JIT has compiled"
                                    + " the job's code at this load:\n\n")
                    .append(warmups);
        }
        report.append('\n').append(details);
    }

    /**
     * Runs the job unbounded at {@code rate}, with {@code churn} fence changes per second, and
     * measures its latency; reports the run in the table and {@code details}, or, without {@code
     * details}, only returns its line (a warm-up).
     */
    private String latency(
            String delivery, String backend, double rate, double churn, StringBuilder details)
            throws Exception {
        String tag =
                "lat-"
                        + (delivery.startsWith("exactly") ? "eo" : "alo")
                        + "-"
                        + backend
                        + "-"
                        + (long) rate
                        + churnTag(churn)
                        + "-"
                        + (++runs);
        kafka.createTopic(tag + "-positions", intSetting("partitions"), false);
        kafka.createTopic(tag + "-events", intSetting("partitions"), false);
        kafka.createTopic(tag + "-dlq", 1, false);
        Map<String, String> o = baseOptions(tag, backend, delivery);
        o.put("positions-topic", tag + "-positions");
        o.put("checkpoint-interval", settings.get("latency-checkpoint-interval"));
        if (churn > 0) {
            o.put("fences-topic", tag + "-fences");
            kafka.createTopic(tag + "-fences", 2, true);
            try (Producer p = new Producer(kafka.bootstrapServers(), 20)) {
                writeBaseFences((k, v, ts) -> p.send(tag + "-fences", k, v, ts));
            }
        }
        JobOptions options = JobOptions.of(o);
        log(
                "latency run "
                        + tag
                        + " at "
                        + rate
                        + " positions/s"
                        + (churn > 0 ? ", " + churn + " fence changes/s" : ""));

        System.gc();
        long heapBefore = usedHeap();
        Counting.reset();
        Started started = start(options, tag, kafkaJob(options, false));
        JobClient client = started.client();
        FlinkRest rest = started.rest();
        Monitor mon = new Monitor(rest, client.getJobID().toString());

        long warmupMs = durationMs(settings.get("warmup"));
        long measureMs = durationMs(settings.get("measure"));
        Reader reader = new Reader(tag + "-events", delivery.startsWith("exactly"));
        Thread readerThread = new Thread(reader, "bench-reader");
        readerThread.start();

        CpuAccount cpu = new CpuAccount();
        long produced = 0;
        long backlogAtEnd;
        long genStart = System.currentTimeMillis();
        reader.window(genStart + warmupMs, genStart + warmupMs + measureMs);
        LatencyWindow window = new LatencyWindow();
        try (Producer p = new Producer(kafka.bootstrapServers(), 5);
                Producer churnProducer =
                        churn > 0 ? new Producer(kafka.bootstrapServers(), 5) : null) {
            ChurnFeed feed =
                    new ChurnFeed(
                            new DispatchZones(seed(), intSetting("churn-zones")),
                            churn,
                            (k, v, ts) -> churnProducer.send(tag + "-fences", k, v, ts));
            if (churn > 0) {
                feed.start();
            }
            long t0 = System.nanoTime();
            int entities = intSetting("entities");
            double stepSeconds = entities / rate;
            String positions = tag + "-positions";
            BenchWorld.RecordSink send = (k, v, ts) -> p.send(positions, k, v, ts);
            long lastPoll = 0;
            boolean measuring = false;
            while (true) {
                long elapsedNs = System.nanoTime() - t0;
                if (elapsedNs >= (warmupMs + measureMs) * 1_000_000L) {
                    window.end(produced, Counting.COUNT.sum(), feed.sent());
                    break;
                }
                if (!measuring && elapsedNs >= warmupMs * 1_000_000L) {
                    measuring = true;
                    cpu.start();
                    window.start(produced, Counting.COUNT.sum(), feed.sent());
                }
                long due = (long) (elapsedNs / 1e9 * rate);
                while (produced < due) {
                    long now = System.currentTimeMillis();
                    world.next((int) (produced % entities), now, stepSeconds, send);
                    produced++;
                }
                if (measuring && elapsedNs - lastPoll > 2_000_000_000L) {
                    lastPoll = elapsedNs;
                    cpu.sample();
                    mon.poll(true);
                }
                Thread.sleep(1);
            }
            if (churn > 0) {
                feed.stop();
            }
            p.flush();
            backlogAtEnd = produced - Counting.COUNT.sum();
        }
        cpu.sample();
        // The last measured events become visible at the next checkpoints.
        long drain = Math.max(5_000, 3 * options.millis("checkpoint-interval"));
        Thread.sleep(drain);
        mon.poll(false);
        System.gc();
        long heapHeld = usedHeap() - heapBefore;
        reader.stop();
        readerThread.join(10_000);
        client.cancel().get(60, TimeUnit.SECONDS);
        waitTerminal(client);

        long[] lat = reader.latencies();
        boolean keptUp = backlogAtEnd < rate; // less than a second of positions unread
        JsonNode e2e = mon.checkpointSummary("end_to_end_duration");
        String line =
                String.format(
                        Locale.ROOT,
                        "%s%s: p50 %s p99 %s max %s, backlog %d",
                        tag,
                        details == null ? " (warm-up)" : "",
                        ms(percentile(lat, 0.5)),
                        ms(percentile(lat, 0.99)),
                        ms(lat.length == 0 ? -1 : lat[lat.length - 1]),
                        backlogAtEnd);
        log(line + window.describe());
        if (details == null) {
            return line + "\n";
        }
        churnReport.add(
                new ChurnReport.LatencyRow(
                        delivery,
                        backend,
                        rate,
                        churn,
                        window.churnPerSecond(),
                        window.producedPerSecond(),
                        window.readPerSecond(),
                        percentile(lat, 0.50),
                        percentile(lat, 0.99),
                        lat.length == 0 ? -1 : lat[lat.length - 1],
                        options.millis("max-out-of-orderness")
                                + options.millis("checkpoint-interval")
                                + 500,
                        keptUp));
        report.append(
                String.format(
                        Locale.ROOT,
                        "| %s (%s) | %s | %,.0f | %d | %s | %s | %s | %s | %s (%d unread) | %s / %s"
                                + " | %s |%n",
                        delivery,
                        delivery.startsWith("exactly") ? "read_committed" : "read_uncommitted",
                        backend,
                        rate,
                        lat.length,
                        ms(percentile(lat, 0.50)),
                        ms(percentile(lat, 0.90)),
                        ms(percentile(lat, 0.99)),
                        ms(lat.length == 0 ? -1 : lat[lat.length - 1]),
                        keptUp ? "yes" : "NO",
                        backlogAtEnd,
                        e2e == null ? "?" : e2e.path("avg").asText() + " ms",
                        e2e == null ? "?" : e2e.path("max").asText() + " ms",
                        mb(heapHeld)));
        details.append("### Run ").append(tag).append("\n\n");
        details.append(
                String.format(
                        Locale.ROOT,
                        "%d positions produced, %d events read in all; heap held by the running"
                                + " job (after a full GC, against before it started): %s.%n%n",
                        produced,
                        reader.total.get(),
                        mb(heapHeld)));
        mon.describe(details);
        cpuTable(details, cpu);
        return line + "\n";
    }

    /** Reads the events topic from its beginning and keeps the latencies of a time window. */
    private final class Reader implements Runnable {
        private final String topic;
        private final boolean committed;
        private volatile boolean stop;
        private volatile long from;
        private volatile long to;
        private final AtomicLong total = new AtomicLong();
        private final AtomicReference<long[]> result = new AtomicReference<>();
        private long[] values = new long[1 << 16];
        private int n;

        Reader(String topic, boolean committed) {
            this.topic = topic;
            this.committed = committed;
        }

        void window(long from, long to) {
            this.from = from;
            this.to = to;
        }

        void stop() {
            stop = true;
        }

        @Override
        public void run() {
            try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("bench-" + topic, committed)) {
                List<TopicPartition> parts = KafkaTopics.assignFromBeginning(c, topic);
                while (!stop) {
                    var records = c.poll(Duration.ofMillis(50));
                    long now = System.currentTimeMillis();
                    for (ConsumerRecord<byte[], byte[]> r : records) {
                        total.incrementAndGet();
                        long ts = r.timestamp();
                        if (ts >= from && ts < to) {
                            if (n == values.length) {
                                values = Arrays.copyOf(values, n * 2);
                            }
                            values[n++] = now - ts;
                        }
                    }
                }
            }
            long[] v = Arrays.copyOf(values, n);
            Arrays.sort(v);
            result.set(v);
        }

        long[] latencies() {
            long[] v = result.get();
            return v == null ? new long[0] : v;
        }
    }

    // ---------------------------------------------------------------- the job

    private Map<String, String> baseOptions(String tag, String backend, String delivery) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bootstrap-servers", kafka.bootstrapServers());
        o.put("fences-topic", "fences");
        o.put("events-topic", tag + "-events");
        o.put("dlq-topic", tag + "-dlq");
        o.put("group-id", tag);
        o.put("starting-offsets", "earliest");
        o.put("parallelism", settings.get("parallelism"));
        o.put("state-backend", backend);
        o.put("delivery", delivery);
        o.put("job-name", "quadfence-bench");
        o.putAll(jobExtras);
        return o;
    }

    /**
     * The Kafka io of {@link JobIo#kafka}, with positions counted as they are read (and their event
     * time kept in checkpoints, as the job's own positions source does).
     */
    private static GeofenceJob.Io io(JobOptions options, boolean bounded) {
        GeofenceJob.Io wired = JobIo.kafka(options, bounded);
        KafkaIo k =
                new KafkaIo(
                        options.get("bootstrap-servers"),
                        options.get("group-id"),
                        JobIo.transactionalIdPrefix(options),
                        options.kafkaProperties(),
                        options.inputRules());
        String topic = options.get("positions-topic");
        return wired.withPositions(
                k.keepingEventTime(
                        k.positions(
                                topic,
                                KafkaIo.startingOffsets(options.get("starting-offsets")),
                                bounded,
                                new Counting()),
                        topic,
                        EventTimes.POSITIONS,
                        options.millis("max-out-of-orderness")));
    }

    /** A local Flink on loopback (as the CLI's), REST on {@code port}, checkpoints on disk. */
    private Configuration flinkConfig(int port, String tag) throws IOException {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, port);
        conf.set(RestOptions.BIND_PORT, String.valueOf(port));
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofSeconds(1));
        conf.set(
                TaskManagerOptions.MANAGED_MEMORY_SIZE,
                MemorySize.parse(settings.get("managed-memory")));
        Path checkpoints = out.resolve("checkpoints").resolve(tag).toAbsolutePath();
        Files.createDirectories(checkpoints);
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        // As ./quadfence run does for option state-changelog: the changes beside the checkpoints.
        LocalFlink.keepingChangelogIn(conf, checkpoints.resolve("changelog"));
        flinkExtras.forEach(conf::setString);
        return conf;
    }

    /** Counts the positions the job's source reads, and when it read the first. */
    static final class Counting implements KafkaRecordDeserializationSchema<Parsed<Position>> {
        private static final long serialVersionUID = 1L;
        static final LongAdder COUNT = new LongAdder();
        static final AtomicLong FIRST = new AtomicLong();
        private final KafkaRecordDeserializationSchema<Parsed<Position>> delegate =
                KafkaIo.positionRecords(InputRules.DEFAULTS);

        static void reset() {
            COUNT.reset();
            FIRST.set(0);
        }

        @Override
        public void open(DeserializationSchema.InitializationContext context) throws Exception {
            delegate.open(context);
        }

        @Override
        public void deserialize(
                ConsumerRecord<byte[], byte[]> record, Collector<Parsed<Position>> out)
                throws IOException {
            if (FIRST.get() == 0) {
                FIRST.compareAndSet(0, System.nanoTime());
            }
            COUNT.increment();
            delegate.deserialize(record, out);
        }

        @Override
        public TypeInformation<Parsed<Position>> getProducedType() {
            return delegate.getProducedType();
        }
    }

    /** What the REST API says about a running job: busy time, records, checkpoints. */
    private static final class Monitor {
        private final FlinkRest rest;
        private final String job;
        private Map<String, String> vertices; // id -> name
        private final Map<String, double[]> busy = new LinkedHashMap<>(); // sums, see poll
        private int busySamples;
        private final Map<String, List<Long>> subtaskRecordsIn = new LinkedHashMap<>();
        long lastStateSize = -1;
        long lastCheckpointId = -1;
        long completedCheckpoints;
        private JsonNode lastDetails;
        private JsonNode lastCheckpoints;

        Monitor(FlinkRest rest, String job) {
            this.rest = rest;
            this.job = job;
        }

        void poll(boolean sampleBusy) {
            JsonNode j = rest.get("/jobs/" + job);
            if (j == null) {
                return;
            }
            if (vertices == null) {
                vertices = new LinkedHashMap<>();
                for (JsonNode v : j.path("vertices")) {
                    vertices.put(v.path("id").asText(), v.path("name").asText());
                }
            }
            if (sampleBusy) {
                busySamples++;
                for (String v : vertices.keySet()) {
                    JsonNode m =
                            rest.get(
                                    "/jobs/"
                                            + job
                                            + "/vertices/"
                                            + v
                                            + "/subtasks/metrics?get=busyTimeMsPerSecond,"
                                            + "backPressuredTimeMsPerSecond");
                    double[] acc = busy.computeIfAbsent(v, k -> new double[4]);
                    if (m != null) {
                        for (JsonNode metric : m) {
                            int i = metric.path("id").asText().startsWith("busy") ? 0 : 2;
                            acc[i] += metric.path("avg").asDouble();
                            acc[i + 1] += metric.path("max").asDouble();
                        }
                    }
                }
            }
            for (String v : vertices.keySet()) {
                JsonNode d = rest.get("/jobs/" + job + "/vertices/" + v);
                if (d != null) {
                    List<Long> in = new ArrayList<>();
                    for (JsonNode st : d.path("subtasks")) {
                        in.add(st.path("metrics").path("read-records").asLong());
                    }
                    subtaskRecordsIn.put(v, in);
                }
            }
            JsonNode cp = rest.get("/jobs/" + job + "/checkpoints");
            if (cp != null) {
                lastCheckpoints = cp;
                completedCheckpoints = cp.path("counts").path("completed").asLong();
                JsonNode latest = cp.path("latest").path("completed");
                if (latest.has("id") && latest.path("id").asLong() != lastCheckpointId) {
                    lastCheckpointId = latest.path("id").asLong();
                    lastStateSize = latest.path("state_size").asLong();
                    JsonNode d =
                            rest.get("/jobs/" + job + "/checkpoints/details/" + lastCheckpointId);
                    if (d != null) {
                        lastDetails = d;
                    }
                }
            }
        }

        JsonNode checkpointSummary(String field) {
            return lastCheckpoints == null ? null : lastCheckpoints.path("summary").path(field);
        }

        void describe(StringBuilder b) {
            if (vertices == null) {
                b.append("(the REST API did not answer)\n\n");
                return;
            }
            b.append(
                    "| task (operator chain) | busy ms/s avg | busy max | back-pressured ms/s avg"
                            + " | records in per subtask | state in last checkpoint |\n"
                            + "|---|---:|---:|---:|---|---:|\n");
            for (Map.Entry<String, String> v : vertices.entrySet()) {
                double[] acc = busy.getOrDefault(v.getKey(), new double[4]);
                int n = Math.max(1, busySamples);
                long state =
                        lastDetails == null
                                ? -1
                                : lastDetails
                                        .path("tasks")
                                        .path(v.getKey())
                                        .path("state_size")
                                        .asLong(-1);
                String name = v.getValue().replace("|", "/");
                b.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %.0f | %.0f | %.0f | %s | %s |%n",
                                name.length() > 90 ? name.substring(0, 90) + "..." : name,
                                acc[0] / n,
                                acc[1] / n,
                                acc[2] / n,
                                subtaskRecordsIn.getOrDefault(v.getKey(), List.of()),
                                mb(state)));
            }
            b.append(
                    String.format(
                            Locale.ROOT,
                            "%nBusy and back-pressure: averages of %d samples of Flink's"
                                    + " busyTimeMsPerSecond / backPressuredTimeMsPerSecond (1000 ="
                                    + " always); %d checkpoints completed, last one %s in all.%n%n",
                            busySamples,
                            completedCheckpoints,
                            mb(lastStateSize)));
        }
    }

    private static void cpuTable(StringBuilder b, CpuAccount cpu) {
        b.append(
                String.format(
                        Locale.ROOT,
                        "CPU in the window (%.1f s wall): this process %.1f CPU-s (%.0f%% of the"
                            + " machine's %d cores), the whole machine %.1f CPU-s busy (so other"
                            + " processes took %.1f).%n%n| thread group | CPU-s | share of process"
                            + " |%n|---|---:|---:|%n",
                        cpu.wallSeconds(),
                        cpu.processSeconds(),
                        100
                                * cpu.processSeconds()
                                / (cpu.wallSeconds() * Runtime.getRuntime().availableProcessors()),
                        Runtime.getRuntime().availableProcessors(),
                        cpu.machineBusySeconds(),
                        cpu.machineBusySeconds() - cpu.processSeconds()));
        int shown = 0;
        double rest = 0;
        for (Map.Entry<String, Double> e : cpu.byGroup().entrySet()) {
            if (shown++ < 16) {
                b.append(
                        String.format(
                                Locale.ROOT,
                                "| %s | %.1f | %.1f%% |%n",
                                e.getKey().replace("|", "/"),
                                e.getValue(),
                                100 * e.getValue() / cpu.processSeconds()));
            } else {
                rest += e.getValue();
            }
        }
        if (rest > 0) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "| (other threads) | %.1f | %.1f%% |%n",
                            rest,
                            100 * rest / cpu.processSeconds()));
        }
        b.append('\n');
    }

    // ---------------------------------------------------------------- helpers

    /** A producer of bytes: idempotent, lz4, acks=all; send errors fail the close. */
    private static final class Producer implements AutoCloseable {
        private final KafkaProducer<byte[], byte[]> producer;
        private final AtomicReference<Exception> error = new AtomicReference<>();

        Producer(String bootstrap, int lingerMs) {
            Map<String, Object> p = new HashMap<>();
            p.put("bootstrap.servers", bootstrap);
            p.put("client.id", "bench-producer");
            p.put("acks", "all");
            p.put("enable.idempotence", "true");
            p.put("compression.type", "lz4");
            p.put("linger.ms", String.valueOf(lingerMs));
            p.put("batch.size", String.valueOf(256 * 1024));
            p.put("buffer.memory", String.valueOf(64L << 20));
            producer = new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
        }

        void send(String topic, byte[] key, byte[] value, long timestamp) {
            producer.send(
                    new ProducerRecord<>(topic, null, timestamp, key, value),
                    (md, e) -> {
                        if (e != null) {
                            error.compareAndSet(null, e);
                        }
                    });
        }

        void flush() {
            producer.flush();
        }

        @Override
        public void close() {
            producer.flush();
            producer.close();
            if (error.get() != null) {
                throw new IllegalStateException("producing failed", error.get());
            }
        }
    }

    /** Records in a topic (committed ones for read_committed), read from the beginning. */
    private long count(String topic, boolean committed) {
        try (KafkaConsumer<byte[], byte[]> c = kafka.consumer("count-" + topic, committed)) {
            List<TopicPartition> parts = KafkaTopics.assignFromBeginning(c, topic);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long n = 0;
            long deadline = System.currentTimeMillis() + 120_000;
            while (System.currentTimeMillis() < deadline) {
                n += c.poll(Duration.ofMillis(200)).count();
                if (TopicDigest.atEnd(c, parts, end)) {
                    break;
                }
            }
            return n;
        }
    }

    private static void waitTerminal(JobClient client) throws Exception {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            try {
                JobStatus s = client.getJobStatus().get(5, TimeUnit.SECONDS);
                if (s.isGloballyTerminalState()) {
                    return;
                }
            } catch (Exception gone) {
                return; // the per-job MiniCluster is already down
            }
            Thread.sleep(200);
        }
    }

    /**
     * Collects what the runs before left behind (their jobs' state, a gigabyte or more each) before
     * the next run starts: a job on a cluster of its own does not collect another job's state, and
     * a full collection of it in a run's window (1.5 s with 4 GB) made that run slower by a tenth.
     */
    private void collectEarlierRuns() {
        long start = System.nanoTime();
        System.gc();
        log(
                String.format(
                        Locale.ROOT,
                        "full collection before the run: %.0f ms, %s in use after it",
                        (System.nanoTime() - start) / 1e6,
                        mb(usedHeap())));
    }

    private static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static String ms(long v) {
        return v < 0 ? "-" : String.format(Locale.ROOT, "%,d ms", v);
    }

    private static String mb(long bytes) {
        return bytes < 0 ? "?" : String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }

    private static long usedHeap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** A job started on a local Flink of its own, and the REST API of that Flink. */
    private record Started(JobClient client, FlinkRest rest) {}

    /**
     * Starts the job on a local Flink whose REST endpoint has a port of its own. A port found free
     * can be taken before Flink binds it (the broker and the clients open ports all the time): then
     * it tries again with another, up to three times.
     */
    /** Adds a job to an environment. */
    private interface Assembly {
        void into(StreamExecutionEnvironment env) throws Exception;
    }

    /** The geofence job between the harness's topics, checkpointed. */
    private static Assembly kafkaJob(JobOptions options, boolean bounded) {
        return env -> GeofenceJob.assemble(env, options, io(options, bounded), true);
    }

    private Started start(JobOptions options, String tag, Assembly job) throws Exception {
        for (int attempt = 1; ; attempt++) {
            int port = freePort();
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(flinkConfig(port, tag));
            job.into(env);
            try {
                return new Started(
                        env.executeAsync(options.get("job-name") + " " + tag), new FlinkRest(port));
            } catch (Exception e) {
                if (attempt == 3
                        || !ExceptionUtils.findThrowable(e, BindException.class).isPresent()) {
                    throw e;
                }
                log("REST port " + port + " was taken before Flink bound it; another one");
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private int intSetting(String k) {
        return Integer.parseInt(settings.get(k));
    }

    private long seed() {
        return Long.parseLong(settings.get("seed"));
    }

    private int intervalMs() {
        return (int) durationMs(settings.get("interval"));
    }

    /** {@code 500ms}, {@code 10s}, {@code 2min} or plain milliseconds. */
    static long durationMs(String text) {
        String t = text.trim();
        if (t.endsWith("ms")) {
            return Long.parseLong(t.substring(0, t.length() - 2));
        }
        if (t.endsWith("min")) {
            return Long.parseLong(t.substring(0, t.length() - 3)) * 60_000;
        }
        if (t.endsWith("s")) {
            return Long.parseLong(t.substring(0, t.length() - 1)) * 1000;
        }
        return Long.parseLong(t);
    }

    private void header() throws IOException {
        report.append("<!-- written by org.quadfence.bench.JobThroughput -->\n\n");
        section("Machine");
        String model = "?";
        try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            Iterator<String> it = lines.filter(l -> l.startsWith("model name")).iterator();
            if (it.hasNext()) {
                model = it.next().replaceFirst("^model name\\s*:\\s*", "");
            }
        }
        String mem = "?";
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            mem = lines.filter(l -> l.startsWith("MemTotal")).findFirst().orElse("?");
        }
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        report.append(
                String.format(
                        Locale.ROOT,
                        "- %d cores (%s), %s; Java %s (%s), max heap %s, JVM flags %s%n- load"
                                + " average at start: %s%n- harness settings: %s; job options"
                                + " added: %s; Flink configuration added: %s%n%n",
                        Runtime.getRuntime().availableProcessors(),
                        model,
                        mem.replaceAll("\\s+", " "),
                        System.getProperty("java.version"),
                        System.getProperty("java.vm.name"),
                        mb(Runtime.getRuntime().maxMemory()),
                        ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                                .filter(a -> a.startsWith("-XX:") || a.startsWith("-Xm"))
                                .toList(),
                        load,
                        settings,
                        jobExtras,
                        flinkExtras));
    }

    private void section(String title) {
        report.append("## ").append(title).append("\n\n");
    }

    private static void log(String s) {
        System.err.printf(Locale.ROOT, "[bench %tT] %s%n", System.currentTimeMillis(), s);
    }
}
