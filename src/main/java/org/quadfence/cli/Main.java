package org.quadfence.cli;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;
import org.apache.flink.core.execution.RecoveryClaimMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import org.quadfence.demo.Demo;
import org.quadfence.job.DeadLetterTally;
import org.quadfence.job.GeofenceJob;
import org.quadfence.job.JobIo;
import org.quadfence.job.LocalFlink;
import org.quadfence.job.PrometheusMetrics;
import org.quadfence.options.Help;
import org.quadfence.options.JobOptions;
import org.quadfence.options.QuadfenceOptions;
import org.quadfence.stages.StageLoad;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** The {@code ./quadfence} command: {@code demo}, {@code replay} and {@code run}. */
public final class Main {

    /** The synopsis of {@code replay}. */
    static final String REPLAY =
            "quadfence replay --fences F --positions P --output O [--dlq D] [--memberships M]"
                    + " [--parallelism N] [--config FILE] [--key value ...]";

    /**
     * The watermark interval of a replay unless given: its sources read as fast as they can, so
     * each interval holds many records in every stage that waits for the watermark; a short one
     * keeps less in the heap (docs/operations.md, "The replay JVM"). The events are the same.
     */
    static final String REPLAY_WATERMARK_INTERVAL = "10ms";

    /** The synopsis of {@code run}. */
    static final String RUN =
            "quadfence run [--fresh | --from-savepoint PATH] [--metrics-port N|off] [--config FILE]"
                    + " [--key value ...]";

    /** The flags of {@code replay}. */
    static final List<Help.Flag> REPLAY_FLAGS =
            List.of(
                    new Help.Flag(
                            "--fences FILE",
                            "fence changes, one JSON object a line (contract section 2)",
                            "required"),
                    new Help.Flag(
                            "--positions FILE",
                            "positions, one JSON object a line (contract section 1)",
                            "required"),
                    new Help.Flag(
                            "--output FILE",
                            "where the events go, one JSON object a line",
                            "required"),
                    new Help.Flag(
                            "--dlq FILE",
                            "where the dead letters go, one JSON object a line",
                            "default: the output file's name with .dlq added"),
                    new Help.Flag(
                            "--memberships FILE",
                            "where each entity's current fences go, one JSON object a line,"
                                    + " \"fenceIds\":[] for none (contract section 9)",
                            "default: not written"),
                    new Help.Flag(
                            "--watermark-interval D",
                            "the job option below, with another default in a replay: its files"
                                    + " are read as fast as they can be, and a short interval"
                                    + " keeps fewer records waiting in memory",
                            "default: " + REPLAY_WATERMARK_INTERVAL),
                    Help.CONFIG);

    /** The flags of {@code run}. */
    static final List<Help.Flag> RUN_FLAGS =
            List.of(
                    new Help.Flag(
                            "--fresh",
                            "start without state; the job name's checkpoints are moved aside, not"
                                    + " deleted",
                            "default: resume from the latest checkpoint in"
                                    + " quadfence-checkpoints/<job-name>"),
                    new Help.Flag(
                            "--from-savepoint PATH",
                            "restore this savepoint or retained checkpoint: a directory with a"
                                    + " _metadata file, or that file",
                            "default: none"),
                    PrometheusMetrics.FLAG,
                    Help.CONFIG);

    /** What {@code quadfence --help} prints. */
    static final String USAGE =
            String.join(
                    "\n",
                    "usage:",
                    "  " + Demo.USAGE,
                    "  " + REPLAY,
                    "  " + RUN,
                    "quadfence COMMAND --help: the command's flags and options",
                    JobOptions.describe());

    private Main() {}

    public static void main(String[] args) throws Exception {
        try {
            System.exit(run(args));
        } catch (IllegalArgumentException e) {
            System.err.println("quadfence: " + e.getMessage());
            System.exit(2);
        }
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0 || Help.asked(args[0]) || args[0].equals("help")) {
            System.out.println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "replay":
                if (Help.asked(rest)) {
                    System.out.println(Help.of(REPLAY, REPLAY_FLAGS));
                    return 0;
                }
                return replay(rest);
            case "run":
                if (Help.asked(rest)) {
                    System.out.println(Help.of(RUN, RUN_FLAGS));
                    return 0;
                }
                return runKafka(rest);
            case "demo":
                return Demo.command(rest);
            default:
                throw new IllegalArgumentException("unknown command '" + args[0] + "'\n" + USAGE);
        }
    }

    private static int replay(String[] args) throws Exception {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("fences", null);
        own.put("positions", null);
        own.put("output", null);
        own.put("dlq", null);
        own.put("memberships", null);
        JobOptions options = replayOptions(args, own);
        Path fences = existing(own, "fences");
        Path positions = existing(own, "positions");
        if (own.get("output") == null) {
            throw new IllegalArgumentException("replay needs --output FILE\n" + USAGE);
        }
        Path output = Path.of(own.get("output"));
        Path dlq =
                own.get("dlq") != null
                        ? Path.of(own.get("dlq"))
                        : output.resolveSibling(output.getFileName() + ".dlq");
        Path memberships = own.get("memberships") == null ? null : Path.of(own.get("memberships"));
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(LocalFlink.configuration());
        GeofenceJob.assemble(
                env,
                options,
                JobIo.files(fences, positions, output, dlq, memberships, options.inputRules()),
                false);
        JobExecutionResult result = env.execute(GeofenceJob.name(options) + " replay");
        StageLoad.summary(result.getAllAccumulatorResults()).forEach(System.out::println);
        DeadLetterTally.summary(result.getAllAccumulatorResults(), dlq.toString())
                .forEach(System.out::println);
        return 0;
    }

    /**
     * The job options of a replay's arguments, its own flags taken out into {@code own}: those
     * given, with the replay's watermark interval unless one is given.
     */
    static JobOptions replayOptions(String[] args, Map<String, String> own) throws IOException {
        Map<String, String> given = JobOptions.parseArgs(args, own);
        given.putIfAbsent("watermark-interval", REPLAY_WATERMARK_INTERVAL);
        return JobOptions.of(given);
    }

    private static int runKafka(String[] args) throws Exception {
        boolean fresh = false;
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            // A flag without a value: parseArgs would take the next key for its value.
            if (args[i].equals("--fresh")) {
                fresh = true;
            } else {
                rest.add(args[i]);
                if (i + 1 < args.length && args[i].startsWith("--")) {
                    rest.add(args[++i]);
                }
            }
        }
        Map<String, String> own = new LinkedHashMap<>();
        own.put("from-savepoint", null);
        own.put(PrometheusMetrics.OPTION, Integer.toString(PrometheusMetrics.DEFAULT_PORT));
        JobOptions options = JobOptions.of(JobOptions.parseArgs(rest.toArray(new String[0]), own));
        int metricsPort = PrometheusMetrics.port(own.get(PrometheusMetrics.OPTION));
        String savepoint = own.get("from-savepoint");
        if (fresh && savepoint != null) {
            throw new IllegalArgumentException(
                    "run takes --fresh or --from-savepoint PATH, not both\n" + USAGE);
        }
        Path checkpoints = checkpointDirectory(Path.of(CHECKPOINTS), options);
        Restore restore =
                savepoint != null
                        ? Restore.savepoint(savepoint)
                        : fresh ? Restore.fresh(checkpoints) : Restore.latest(checkpoints);
        StateFormat.check(checkpoints, restore);
        ResumeIdentity.check(checkpoints, restore, options);

        Configuration conf = LocalFlink.configuration();
        int port = webPort();
        conf.set(RestOptions.PORT, port);
        // Flink's default keeps checkpoints in the JobManager's memory, capped at 5 MB, and
        // loses them with the process.
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints.toUri().toString());
        if (options.get(QuadfenceOptions.STATE_CHANGELOG)) {
            // Beside the checkpoints that refer to it, so that a resume finds both.
            LocalFlink.keepingChangelogIn(conf, checkpoints.resolve(CHANGELOG));
        }
        restore.applyTo(conf);
        PrometheusMetrics.Served metrics = PrometheusMetrics.enable(conf, metricsPort);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironmentWithWebUI(conf);
        GeofenceJob.assemble(
                env, options, JobIo.kafka(options, env.getConfiguration(), false), true);
        System.out.println("quadfence: " + restore.note());
        System.out.println("Flink web UI: http://127.0.0.1:" + port);
        System.out.println("quadfence: " + metrics.note());
        Runtime.getRuntime()
                .addShutdownHook(new Thread(() -> stopped(checkpoints), "quadfence-stopped"));
        env.registerJobListener(new DeadLetterStatus(STATUS_INTERVAL_MS));
        env.registerJobListener(new OwnCheckpointNote(checkpoints, 1_000));
        env.execute(GeofenceJob.name(options));
        return 0;
    }

    /** How often {@code run} looks whether its dead letters changed, and says so if they did. */
    static final long STATUS_INTERVAL_MS = 10_000;

    /**
     * While a job runs: every interval, when its dead letters or repaired fences changed, a line
     * such as {@code quadfence: dead letters: 3 (fences, longitude step over 180: 1; positions,
     * late: 2); fences repaired: 1 (...)}, counted since the run started.
     */
    static final class DeadLetterStatus implements JobListener {

        private final long intervalMs;
        private volatile Thread thread;

        DeadLetterStatus(long intervalMs) {
            this.intervalMs = intervalMs;
        }

        @Override
        public void onJobSubmitted(JobClient client, Throwable failure) {
            if (client == null) {
                return;
            }
            Thread t = new Thread(() -> report(client), "quadfence-dead-letter-status");
            t.setDaemon(true);
            thread = t;
            t.start();
        }

        private void report(JobClient client) {
            String last = null;
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(intervalMs);
                    String line =
                            DeadLetterTally.statusLine(
                                    client.getAccumulators()
                                            .get(intervalMs, TimeUnit.MILLISECONDS));
                    if (line != null
                            && !line.equals(last)
                            && (last != null || !line.equals(NONE))) {
                        System.out.println("quadfence: " + line);
                    }
                    if (line != null) {
                        last = line;
                    }
                } catch (InterruptedException e) {
                    return;
                } catch (Exception e) {
                    // The job is finishing or restarting: ask again next time.
                }
            }
        }

        @Override
        public void onJobExecuted(JobExecutionResult result, Throwable failure) {
            Thread t = thread;
            if (t != null) {
                t.interrupt();
            }
        }

        private static final String NONE = "dead letters: 0";
    }

    // On Ctrl-C or a kill: the checkpoints are retained, and this says which one comes next.
    private static void stopped(Path checkpoints) {
        try {
            Optional<Checkpoint> last = Checkpoint.latest(checkpoints);
            System.out.println(
                    last.map(c -> "quadfence: stopped; run again to resume from " + c.path())
                            .orElse("quadfence: stopped before the first checkpoint"));
        } catch (IOException | RuntimeException e) {
            // Shutting down: nothing to do about it.
        }
    }

    /** Where {@code ./quadfence run} keeps checkpoints, relative to the working directory. */
    static final String CHECKPOINTS = "quadfence-checkpoints";

    /**
     * Where {@code run} keeps the changes of option {@code state-changelog}, in its checkpoints.
     */
    static final String CHANGELOG = "changelog";

    /**
     * The job's own checkpoint directory under {@code root}: one per job name, so that two jobs
     * never resume from each other's checkpoints. Flink makes a subdirectory per run (job id).
     */
    static Path checkpointDirectory(Path root, JobOptions options) {
        String name = options.get("job-name").replaceAll("[^A-Za-z0-9._-]", "_");
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            name = "_" + name;
        }
        return root.resolve(name).toAbsolutePath();
    }

    // The web UI on the first free port from 8081, so that two local jobs can run side by side.
    private static int webPort() {
        for (int port = 8081; port < 8100; port++) {
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                return port;
            } catch (IOException taken) {
                // try the next one
            }
        }
        return 8081;
    }

    /**
     * A completed checkpoint: a {@code chk-N} directory that holds a {@code _metadata} file, which
     * Flink writes last and atomically, so a checkpoint cut off by a kill has none.
     *
     * @param completed when its {@code _metadata} was written
     */
    record Checkpoint(Path path, long id, FileTime completed) {

        /**
         * The latest completed checkpoint in {@code dir} (one subdirectory per job id, each with
         * its {@code chk-N} directories), if any: the one completed last. Checkpoint numbers go on
         * across a resume, but start again at 1 after {@code --fresh} and go on from the
         * savepoint's number after {@code --from-savepoint}, so they order checkpoints only within
         * one job id; equal times go to the higher number.
         */
        static Optional<Checkpoint> latest(Path dir) throws IOException {
            if (!Files.isDirectory(dir)) {
                return Optional.empty();
            }
            List<Checkpoint> found = new ArrayList<>();
            try (DirectoryStream<Path> jobs = Files.newDirectoryStream(dir, Files::isDirectory)) {
                for (Path job : jobs) {
                    try (DirectoryStream<Path> chks = Files.newDirectoryStream(job, "chk-*")) {
                        for (Path chk : chks) {
                            ofDirectory(chk).ifPresent(found::add);
                        }
                    } catch (NoSuchFileException deleted) {
                        // A job's directory Flink removed while we listed it: nothing of it counts.
                    }
                }
            }
            return found.stream()
                    .max(
                            Comparator.comparing(Checkpoint::completed)
                                    .thenComparingLong(Checkpoint::id));
        }

        // Flink deletes a checkpoint once a newer one completes, also while we list them (on a
        // stop right after a checkpoint): one read of its metadata's attributes decides, and a
        // checkpoint gone by then is skipped instead of failing the listing.
        private static Optional<Checkpoint> ofDirectory(Path chk) throws IOException {
            String n = chk.getFileName().toString().substring(4);
            if (!n.matches("[0-9]{1,18}")) {
                return Optional.empty();
            }
            BasicFileAttributes metadata;
            try {
                metadata =
                        Files.readAttributes(chk.resolve("_metadata"), BasicFileAttributes.class);
            } catch (NoSuchFileException absent) {
                return Optional.empty();
            }
            return metadata.isRegularFile()
                    ? Optional.of(
                            new Checkpoint(chk, Long.parseLong(n), metadata.lastModifiedTime()))
                    : Optional.empty();
        }
    }

    /**
     * What a run restores, and the line that says so.
     *
     * @param path the checkpoint or savepoint to restore; null: none
     * @param claim whether the run owns the restored checkpoint (and deletes it once a newer one is
     *     complete)
     */
    record Restore(String path, boolean claim, String note) {

        /**
         * The latest completed checkpoint in {@code checkpoints}, or nothing when there is none.
         */
        static Restore latest(Path checkpoints) throws IOException {
            Optional<Checkpoint> last = Checkpoint.latest(checkpoints);
            if (last.isEmpty()) {
                return new Restore(
                        null,
                        false,
                        "no checkpoint in " + checkpoints + "; starting without state");
            }
            Checkpoint c = last.get();
            return new Restore(
                    c.path().toString(),
                    true,
                    "resuming from checkpoint " + c.path() + " (completed " + c.completed() + ")");
        }

        /**
         * Nothing, whatever {@code checkpoints} holds: the directory is renamed to a sibling named
         * after the time (kept, not deleted), so that a run cut off before its first checkpoint
         * does not resume from the old ones next time.
         */
        static Restore fresh(Path checkpoints) throws IOException {
            if (!Files.isDirectory(checkpoints)) {
                return new Restore(null, false, "--fresh: starting without state");
            }
            String stamp =
                    DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                            .withZone(ZoneOffset.UTC)
                            .format(Instant.now());
            Path aside = checkpoints.resolveSibling(checkpoints.getFileName() + ".before-" + stamp);
            for (int i = 2; Files.exists(aside); i++) {
                aside =
                        checkpoints.resolveSibling(
                                checkpoints.getFileName() + ".before-" + stamp + "-" + i);
            }
            Files.move(checkpoints, aside, StandardCopyOption.ATOMIC_MOVE);
            return new Restore(
                    null,
                    false,
                    "--fresh: starting without state; the earlier checkpoints are in "
                            + aside
                            + " (delete it when no longer needed)");
        }

        /**
         * The savepoint or retained checkpoint at {@code location}: a directory holding a {@code
         * _metadata} file, that file itself, or a URI of another file system (not checked here).
         * The run does not own it: Flink never deletes it.
         *
         * @throws IllegalArgumentException when a local {@code location} holds no savepoint
         */
        static Restore savepoint(String location) {
            if (location.matches("[A-Za-z][A-Za-z0-9+.-]*:.*") && !location.startsWith("file:")) {
                return new Restore(location, false, "restoring savepoint " + location);
            }
            Path p;
            try {
                p =
                        location.startsWith("file:")
                                ? Path.of(URI.create(location))
                                : Path.of(location).toAbsolutePath();
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "--from-savepoint: not a path: " + location + " (" + e.getMessage() + ")");
            }
            boolean ok =
                    Files.isDirectory(p)
                            ? Files.isRegularFile(p.resolve("_metadata"))
                            : Files.isRegularFile(p);
            if (!ok) {
                throw new IllegalArgumentException(
                        "--from-savepoint: no savepoint or checkpoint at "
                                + p
                                + " (expected a directory with a _metadata file, such as"
                                + " quadfence-checkpoints/<job-name>/<job-id>/chk-N)");
            }
            return new Restore(p.toString(), false, "restoring savepoint " + p);
        }

        /** Sets {@code conf} to restore {@link #path}, if any. */
        void applyTo(Configuration conf) {
            if (path != null) {
                conf.set(StateRecoveryOptions.SAVEPOINT_PATH, path);
                conf.set(
                        StateRecoveryOptions.RESTORE_MODE,
                        claim ? RecoveryClaimMode.CLAIM : RecoveryClaimMode.NO_CLAIM);
            }
        }
    }

    private static Path existing(Map<String, String> own, String key) {
        String v = own.get(key);
        if (v == null) {
            throw new IllegalArgumentException("replay needs --" + key + " FILE\n" + USAGE);
        }
        Path p = Path.of(v);
        if (!Files.isRegularFile(p)) {
            throw new IllegalArgumentException("--" + key + ": no such file: " + p);
        }
        return p;
    }
}
