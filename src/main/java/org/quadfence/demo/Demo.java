package org.quadfence.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.logging.log4j.core.config.Configurator;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.job.LocalFlink;
import org.quadfence.job.PrometheusMetrics;
import org.quadfence.options.Help;
import org.quadfence.options.JobOptions;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code ./quadfence demo}: the whole pipeline on one machine with nothing set up. It starts a real
 * Kafka broker in this JVM, creates the topics, loads a few hundred fences over Chicago's street
 * grid, lets a simulated fleet of about a thousand vehicles publish a position each a second, runs
 * the geofence job (the same graph as {@code run}) on a local Flink with its web UI and its metrics
 * for Prometheus ({@link PrometheusMetrics}), and reads the events back with read_committed: one
 * colored line per ENTER, EXIT, DWELL (at the depots with a DWELL time of their own) or CROSS (a
 * vehicle's path through one of the city's toll gates), a status line every few seconds, and a live
 * map in {@code target/demo/map.html}. It stops after {@code --duration} seconds or at Ctrl-C, and
 * leaves nothing behind but the map and the log ({@link #LOG}).
 */
public final class Demo implements AutoCloseable {

    /**
     * The log of {@code ./quadfence demo}, in the map's directory: the libraries' warnings go
     * there, not between the demo's lines on the console.
     */
    static final String LOG = "demo.log";

    /** The command's synopsis. */
    public static final String USAGE =
            "quadfence demo [--duration SECONDS] [--vehicles N] [--metrics-port N|off]"
                    + " [--config FILE] [--key value ...]";

    /** The command's own flags. */
    public static final List<Help.Flag> FLAGS =
            List.of(
                    new Help.Flag(
                            "--duration SECONDS", "how long to run; 0: until Ctrl-C", "default: 0"),
                    new Help.Flag(
                            "--vehicles N", "the size of the simulated fleet", "default: 1000"),
                    PrometheusMetrics.FLAG,
                    new Help.Flag(
                            "--config FILE",
                            "a properties file of job options over jobs/demo.properties; the"
                                    + " command line wins",
                            "default: none"));

    private static final int POSITION_PARTITIONS = 4;
    private static final long TICK_MS = 100;
    private static final long STATUS_MS = 3000;

    /**
     * How to run the demo.
     *
     * @param options the job's options; bootstrap-servers is replaced by the embedded broker's
     * @param seconds how long to run once started; 0: until {@link #close} (Ctrl-C)
     * @param vehicles the size of the fleet
     * @param seed the seed of the fences and the fleet
     * @param mapDir where map.html goes
     * @param out where the console lines go
     * @param color whether to color them with ANSI escapes
     * @param metricsPort the port of the job's metrics for Prometheus; 0: none
     */
    public record Settings(
            JobOptions options,
            long seconds,
            int vehicles,
            long seed,
            Path mapDir,
            PrintStream out,
            boolean color,
            int metricsPort) {

        /** Settings without metrics. */
        public Settings(
                JobOptions options,
                long seconds,
                int vehicles,
                long seed,
                Path mapDir,
                PrintStream out,
                boolean color) {
            this(options, seconds, vehicles, seed, mapDir, out, color, 0);
        }
    }

    /**
     * What a run did.
     *
     * @param positions positions the fleet sent
     * @param enters ENTER events read back
     * @param exits EXIT events read back
     * @param crosses CROSS events read back (option {@code crossing})
     * @param inside vehicles inside some fence at the end, by the memberships topic
     * @param map the map page, or null if the demo stopped before writing it
     * @param jobFailed whether the job stopped by itself
     */
    public record Summary(
            long positions,
            long enters,
            long exits,
            long crosses,
            int inside,
            Path map,
            boolean jobFailed) {}

    private final Settings settings;
    private final City city;
    private final Console console;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final ScheduledExecutorService timers =
            Executors.newScheduledThreadPool(
                    2,
                    r -> {
                        Thread t = new Thread(r, "quadfence-demo");
                        t.setDaemon(true);
                        return t;
                    });
    private final long started = System.currentTimeMillis();
    private Path flinkDir;
    private EmbeddedKafka kafka;
    private KafkaProducer<byte[], byte[]> producer;
    private Fleet fleet;
    private JobClient job;
    private PrometheusMetrics.Served metrics;
    private JobMonitor monitor;
    private EventFeed feed;
    private CurrentFencesFeed current;
    private Status status;
    private MapPage map;
    private int ticks;
    private volatile boolean jobFailed;
    private boolean closed;

    private Demo(Settings settings) {
        this.settings = settings;
        this.city = new City(settings.seed(), settings.options().intValue("tile-level"), started);
        this.console = new Console(settings.out(), settings.color(), city::fence);
    }

    /**
     * The command line: options from {@code args} over {@code jobs/demo.properties}; runs until
     * Ctrl-C or {@code --duration} and returns the exit code (1 if the job stopped by itself).
     */
    public static int command(String[] args) throws Exception {
        if (Help.asked(args)) {
            System.out.println(Help.of(USAGE, FLAGS));
            return 0;
        }
        Path project = projectDir();
        Map<String, String> own = new HashMap<>();
        own.put("duration", "0");
        own.put("vehicles", "1000");
        own.put(PrometheusMetrics.OPTION, Integer.toString(PrometheusMetrics.DEFAULT_PORT));
        List<String> all = new ArrayList<>();
        all.add("--config");
        all.add(project.resolve("jobs/demo.properties").toString());
        all.addAll(List.of(args));
        JobOptions options = JobOptions.of(JobOptions.parseArgs(all.toArray(new String[0]), own));
        Path dir = project.resolve("target/demo");
        System.setProperty("quadfence.demo.log", dir.resolve(LOG).toString());
        Configurator.reconfigure(Demo.class.getResource("/log4j2-demo.properties").toURI());
        Summary summary =
                run(
                        new Settings(
                                options,
                                number(own, "duration", 0),
                                (int) number(own, "vehicles", 1),
                                42,
                                dir,
                                System.out,
                                Console.colorWanted(),
                                PrometheusMetrics.port(own.get(PrometheusMetrics.OPTION))));
        return summary.jobFailed() ? 1 : 0;
    }

    /** Runs the demo as {@code settings} say; Ctrl-C (JVM shutdown) stops it cleanly too. */
    public static Summary run(Settings settings) throws Exception {
        Demo demo = new Demo(settings);
        Thread hook = new Thread(demo::close, "quadfence-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            demo.start();
            if (settings.seconds() > 0) {
                demo.ended.await(settings.seconds(), TimeUnit.SECONDS);
            } else {
                demo.ended.await();
            }
        } finally {
            demo.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running: Ctrl-C
            }
        }
        return new Summary(
                demo.fleet == null ? 0 : demo.fleet.published(),
                demo.feed == null ? 0 : demo.feed.enters(),
                demo.feed == null ? 0 : demo.feed.exits(),
                demo.feed == null ? 0 : demo.feed.crosses(),
                demo.current == null ? 0 : demo.current.entitiesInside(),
                demo.map == null ? null : demo.map.html(),
                demo.jobFailed);
    }

    private void start() throws Exception {
        long t = System.nanoTime();
        console.begin("[1/5] Kafka broker (KRaft, in this JVM) ...");
        kafka = EmbeddedKafka.start();
        console.done("on " + kafka.bootstrapServers() + seconds(t));
        Map<String, String> withBroker = new HashMap<>(settings.options().asMap());
        withBroker.put("bootstrap-servers", kafka.bootstrapServers());
        JobOptions o = JobOptions.of(withBroker);

        t = System.nanoTime();
        console.begin("[2/5] topics and fences ...");
        kafka.createTopic(o.get("positions-topic"), POSITION_PARTITIONS, false);
        kafka.createTopic(o.get("fences-topic"), 1, true);
        kafka.createTopic(o.get("events-topic"), 2, false);
        kafka.createTopic(o.get("dlq-topic"), 1, false);
        kafka.createTopic(o.get("memberships-topic"), 2, true);
        producer = FleetFeed.producer(kafka.bootstrapServers());
        // Before any position, so that every position meets the whole fence set.
        FleetFeed.sendFences(producer, o.get("fences-topic"), city, started - 60_000);
        console.done(
                String.format(
                        Locale.ROOT,
                        "%s (%d partitions), %s (compacted), %s, %s, %s (compacted); %d fences"
                                + " loaded%s",
                        o.get("positions-topic"),
                        POSITION_PARTITIONS,
                        o.get("fences-topic"),
                        o.get("events-topic"),
                        o.get("dlq-topic"),
                        o.get("memberships-topic"),
                        city.fences().size(),
                        seconds(t)));

        fleet =
                new Fleet(
                        city,
                        settings.vehicles(),
                        settings.seed(),
                        System.currentTimeMillis(),
                        producer,
                        o.get("positions-topic"));
        timers.scheduleAtFixedRate(
                () -> fleet.advance(System.currentTimeMillis()), 0, TICK_MS, TimeUnit.MILLISECONDS);
        console.step(
                String.format(
                        Locale.ROOT,
                        "[3/5] fleet: %,d vehicles on Chicago's street grid, about %,d positions/s",
                        fleet.size(),
                        fleet.size()));

        t = System.nanoTime();
        console.begin("[4/5] Flink job on a local cluster ...");
        int port = restPort();
        job = startJob(o, port);
        String ui = "http://127.0.0.1:" + port;
        monitor =
                new JobMonitor(
                        ui,
                        job.getJobID().toHexString(),
                        kafka.bootstrapServers(),
                        o.get("group-id"),
                        o.get("positions-topic"),
                        POSITION_PARTITIONS);
        console.done(
                "running"
                        + seconds(t)
                        + "; web UI "
                        + ui
                        + (metrics.url() != null ? "; metrics " + metrics.url() : ""));
        if (metrics.url() == null && settings.metricsPort() != 0) {
            console.warn(metrics.note());
        }

        feed =
                new EventFeed(
                        kafka.consumer("quadfence-demo-console", true),
                        o.get("events-topic"),
                        console::event);
        current =
                new CurrentFencesFeed(
                        kafka.consumer("quadfence-demo-memberships", true),
                        o.get("memberships-topic"));
        status = new Status(city, fleet, feed, current, monitor);
        map =
                new MapPage(
                        settings.mapDir(),
                        city,
                        new TileGrid(o.intValue("tile-level")),
                        o.intValue("node-capacity"),
                        o.intValue("max-depth"),
                        String.format(
                                Locale.ROOT,
                                "%,d simulated vehicles, %d fences, Chicago street grid",
                                fleet.size(),
                                city.fences().size()));
        map.write(
                true,
                System.currentTimeMillis(),
                fleet.view(),
                List.of(),
                List.of(),
                status.numbers());
        console.step(
                "[5/5] reading "
                        + o.get("events-topic")
                        + " (read_committed); map: "
                        + map.html().toAbsolutePath().toUri());
        console.step(
                "events appear at each checkpoint (every "
                        + o.get("checkpoint-interval")
                        + "); "
                        + (settings.seconds() > 0
                                ? "stopping after " + settings.seconds() + " s"
                                : "Ctrl-C stops"));
        timers.scheduleWithFixedDelay(this::tick, STATUS_MS, STATUS_MS, TimeUnit.MILLISECONDS);
    }

    private JobClient startJob(JobOptions o, int port) throws Exception {
        flinkDir = Files.createTempDirectory("quadfence-demo-flink");
        Configuration conf = LocalFlink.configuration();
        conf.set(RestOptions.PORT, port);
        conf.set(CoreOptions.TMP_DIRS, flinkDir.toString());
        conf.set(WebOptions.TMP_DIR, flinkDir.toString());
        metrics = PrometheusMetrics.enable(conf, settings.metricsPort());
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        GeofenceJob.assemble(env, o, JobIo.kafka(o, false), true);
        return env.executeAsync(GeofenceJob.name(o));
    }

    // Every few seconds: the numbers, the map, every other time a status line, and a check that
    // the job still runs.
    private void tick() {
        try {
            status.update();
            if (ticks++ % 2 == 0) {
                console.status(status.line(console.notShown()));
            }
            map.write(
                    true,
                    System.currentTimeMillis(),
                    fleet.view(),
                    feed.recent(),
                    feed.crossings(System.currentTimeMillis()),
                    status.numbers());
            if (job.getJobStatus().get(5, TimeUnit.SECONDS).isGloballyTerminalState()) {
                console.warn(
                        "the job stopped ("
                                + status.jobState()
                                + "); see its log, "
                                + settings.mapDir().resolve(LOG));
                jobFailed = true;
                ended.countDown();
            }
        } catch (Exception e) {
            console.warn("status: " + e);
        }
    }

    /**
     * Stops everything, once: the fleet, the job (cancelled, and waited for), the reader, the
     * broker; writes the map a last time and deletes the temporary directories.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        ended.countDown();
        long t = System.nanoTime();
        List<String> done = new ArrayList<>();
        try {
            // Lets a status tick in progress finish, so that the last map has its numbers.
            timers.shutdown();
            timers.awaitTermination(10, TimeUnit.SECONDS);
            quietly(console);
            console.begin("stopping ...");
            if (fleet != null) {
                done.add("fleet stopped");
            }
            if (job != null) {
                job.cancel().get(30, TimeUnit.SECONDS);
                // Cancelled is not yet gone: its Kafka clients must not outlive the broker.
                job.getJobExecutionResult().handle((r, e) -> r).get(30, TimeUnit.SECONDS);
                done.add("job cancelled");
            }
        } catch (Exception e) {
            done.add("job: " + e);
        }
        quietly(feed);
        quietly(current);
        quietly(monitor);
        writeLastMap();
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (kafka != null) {
            quietly(kafka);
            done.add("broker shut down");
        }
        deleteQuietly(flinkDir);
        done.add("temporary files deleted");
        console.done(String.join(", ", done) + seconds(t));
        if (feed != null) {
            console.step(
                    String.format(
                            Locale.ROOT,
                            "%,d positions sent, %,d ENTER, %,d EXIT, %,d DWELL and %,d CROSS"
                                    + " events read back in %d s",
                            fleet.published(),
                            feed.enters(),
                            feed.exits(),
                            feed.dwells(),
                            feed.crosses(),
                            (System.currentTimeMillis() - started) / 1000));
        }
        if (map != null) {
            console.step("map: " + map.html().toAbsolutePath().toUri());
        }
        Path log = settings.mapDir().resolve(LOG);
        if (Files.exists(log)) {
            console.step("log: " + log.toAbsolutePath().toUri());
        }
    }

    private void writeLastMap() {
        if (map == null) {
            return;
        }
        try {
            status.recount();
            map.write(
                    false,
                    System.currentTimeMillis(),
                    fleet.view(),
                    feed.recent(),
                    feed.crossings(System.currentTimeMillis()),
                    status.numbers());
        } catch (IOException e) {
            console.warn("could not write the map: " + e.getMessage());
        }
    }

    // Flink's usual 8081 when it is free, else any free port.
    private static int restPort() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket s = new ServerSocket(8081, 1, loopback)) {
            return s.getLocalPort();
        } catch (IOException busy) {
            try (ServerSocket s = new ServerSocket(0, 1, loopback)) {
                return s.getLocalPort();
            }
        }
    }

    // The checkout this class was loaded from: target/classes (or target/x.jar) is two levels in.
    private static Path projectDir() throws Exception {
        return Path.of(Demo.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent()
                .getParent();
    }

    private static long number(Map<String, String> own, String key, long least) {
        try {
            long n = Long.parseLong(own.get(key).trim());
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "--"
                        + key
                        + " must be a whole number >= "
                        + least
                        + ", got '"
                        + own.get(key)
                        + "'\nusage: "
                        + USAGE);
    }

    private static String seconds(long sinceNanos) {
        return String.format(Locale.ROOT, " (%.1f s)", (System.nanoTime() - sinceNanos) / 1e9);
    }

    private void quietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            console.warn("while stopping: " + e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException gone) {
            // nothing left to delete
        }
    }
}
