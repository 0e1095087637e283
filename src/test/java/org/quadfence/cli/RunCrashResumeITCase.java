package org.quadfence.cli;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.testing.BusyCores;
import org.quadfence.testing.CommittedReader;
import org.quadfence.testing.JobTopics;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.quadfence.testing.Patience;
import org.quadfence.testing.PositionFeeder;
import org.quadfence.testing.RunLogs;
import org.quadfence.testing.SampleCheck;
import org.quadfence.testing.SampleReplay;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./quadfence run} as a user runs it: its own JVM, started with the launcher's java command,
 * against a real Kafka broker in this JVM (KRaft, on 127.0.0.1). Killed with SIGKILL twice
 * mid-stream and stopped once with SIGTERM, and started again each time with the same command, it
 * resumes from its latest completed checkpoint: the events topic, read with read_committed, holds
 * every expected event of sample-clean exactly once. {@code --fresh} starts over; {@code
 * --from-savepoint} restores the checkpoint it names, and refuses a path that holds none.
 */
class RunCrashResumeITCase {

    private static final Path SAMPLE = SampleReplay.SAMPLES.resolve("sample-clean");
    private static final Path LAUNCHER = Path.of("quadfence");
    private static final int POSITION_PARTITIONS = 4;

    /**
     * How long one step (a start, a checkpoint, the events of a batch) may take: seconds on an idle
     * machine, much longer on a busy one with two cores.
     */
    private static final Duration PATIENCE = Duration.ofMinutes(3);

    /**
     * The bound on how long a restored run takes to write what its checkpoint held, without new
     * input: its restored watermark goes out before any record is read, then the next checkpoint (1
     * s) commits the events; the rest is the start of a loaded machine.
     */
    private static final Duration RESTORED_EVENTS = Duration.ofSeconds(60);

    /** How long the events topic stays the same before a test takes it for complete. */
    private static final Duration QUIET = Duration.ofSeconds(3);

    @RegisterExtension static final KafkaBroker kafka = KafkaBroker.perClass();

    /** The current test's log directory, named in timeout messages. */
    private static volatile Path runLogs;

    private static final Patience WAITS =
            new Patience(() -> PATIENCE, () -> "the runs' output is in " + runLogs);

    @TempDir Path work;

    /** Where the runs' output goes: target/run-logs/<test>, kept for a look after a failure. */
    private Path logs;

    @BeforeEach
    void logsOf(TestInfo test) throws IOException {
        logs =
                RunLogs.fresh(
                        getClass().getSimpleName(), test.getTestMethod().orElseThrow().getName());
        runLogs = logs;
    }

    @Test
    void killedTwiceAndStoppedOnceMidStreamTheRunStillWritesEveryEventExactlyOnce()
            throws Exception {
        JobTopics topics = topics("crash");
        List<SampleCheck.Event> expected = SampleCheck.read(SAMPLE.resolve("expected.jsonl"));
        int n = expected.size();
        Path checkpoints = work.resolve(Main.CHECKPOINTS).resolve("crash");
        List<String> lines;
        try (Runs runs = new Runs(work, logs, jobArgs(topics, "crash"));
                CommittedReader events = committed(topics.events());
                PositionFeeder feeder = feeder(topics.positions(), 100, Duration.ofMillis(600))) {
            Run first = runs.start();
            first.awaitLine("no checkpoint in " + checkpoints);
            first.awaitLine("Flink web UI");
            feeder.start();
            awaitFed(feeder, 20);
            events.awaitAtLeast(1);
            // The kills must land mid-stream, with events still to come.
            assertThat(events.count()).isLessThan(n);
            first.kill();

            Run second = runs.start();
            Path resumed = second.awaitResume();
            int before = events.count();
            awaitFed(feeder, 45);
            events.awaitAtLeast(before + 1);
            Path own = awaitCheckpointOtherThan(checkpoints, resumed);
            assertThat(events.count()).isLessThan(n);
            second.kill();

            Run third = runs.start();
            Path resumedAgain = third.awaitResume();
            // The second run's own checkpoint, not the one it resumed from: the latest wins
            // across the job ids of earlier runs.
            assertThat(resumedAgain.getParent()).isEqualTo(own.getParent());
            assertThat(resumedAgain.getParent()).isNotEqualTo(resumed.getParent());
            awaitFed(feeder, 70);
            awaitCheckpointOtherThan(checkpoints, resumedAgain);
            third.stop();
            assertThat(third.output()).contains("quadfence: stopped; run again to resume from");

            Run last = runs.start();
            last.awaitResume();
            // Watermarks are not part of a checkpoint: a restored job waits for new input before
            // it emits what it holds. The end markers are that input, as a live stream has it.
            feeder.allowEnd();
            feeder.awaitDone();
            lines = events.awaitQuiet(n);
        }
        assertExactlyTheSample(lines, topics.dlq());
    }

    /**
     * Contract 8a, "Nothing waits after a restore": every position and the end markers are in the
     * topic before the first start, and nothing is written after. The first run checkpoints while
     * its stages still hold the records waiting for the watermark ({@link
     * Backlog#firstRunKilledWhileHolding}) and is killed; the second is killed a few seconds after
     * its resume; the third, with no new input, writes every expected event exactly once within
     * {@link #RESTORED_EVENTS} of its start.
     */
    @Test
    void killedTwiceWhileWorkingThroughABacklogTheThirdRunWritesEveryEventWithoutNewInput()
            throws Exception {
        try (Backlog backlog = new Backlog("backlog")) {
            backlog.firstRunKilledWhileHolding();
            Run second = backlog.runs.start();
            second.awaitResume();
            Thread.sleep(3_000);
            second.kill();

            Run third = backlog.runs.start();
            third.awaitResume();
            assertExactlyTheSample(
                    backlog.everyEventWithinTheBound("from the third resume to the last event"),
                    backlog.topics.dlq());
        }
    }

    /**
     * As {@link #killedTwiceWhileWorkingThroughABacklogTheThirdRunWritesEveryEventWithoutNewInput},
     * restored through {@code --from-savepoint} at another parallelism: the partitions move to
     * other subtasks with their event time, and every event comes out once, without new input.
     */
    @Test
    void aBacklogCheckpointRestoredAtAnotherParallelismWritesEveryEventWithoutNewInput()
            throws Exception {
        try (Backlog backlog = new Backlog("rescale")) {
            Path held = backlog.firstRunKilledWhileHolding();
            Run rescaled =
                    backlog.runs.start("--from-savepoint", held.toString(), "--parallelism", "3");
            rescaled.awaitLine("quadfence: restoring savepoint " + held);
            assertExactlyTheSample(
                    backlog.everyEventWithinTheBound("from the restore to the last event"),
                    backlog.topics.dlq());
        }
    }

    /**
     * As {@link #killedTwiceWhileWorkingThroughABacklogTheThirdRunWritesEveryEventWithoutNewInput},
     * with option {@code state-changelog}: the killed run's keyed state is in the changes it logged
     * beside its checkpoints, and the resume finds them there.
     */
    @Test
    void withTheStateChangelogAKilledRunResumesFromItsLogAndWritesEveryEventOnce()
            throws Exception {
        try (Backlog backlog = new Backlog("changelog", "--state-changelog", "true")) {
            backlog.firstRunKilledWhileHolding();
            try (Stream<Path> logged = Files.walk(backlog.checkpoints.resolve(Main.CHANGELOG))) {
                assertThat(logged.filter(Files::isRegularFile).count()).isPositive();
            }
            Run second = backlog.runs.start();
            second.awaitResume();
            assertExactlyTheSample(
                    backlog.everyEventWithinTheBound("from the resume to the last event"),
                    backlog.topics.dlq());
        }
    }

    /**
     * As {@link #killedTwiceWhileWorkingThroughABacklogTheThirdRunWritesEveryEventWithoutNewInput},
     * with the first kill late: when 90% of the events are visible. The two later runs resume from
     * the first run's last checkpoint, and read_committed shows every event once: none repeated
     * from the transactions the kills left open, none lost.
     */
    @Test
    void killedLateAndAgainSoonAfterTheRestartTheThirdRunWritesEveryEventOnce() throws Exception {
        try (Backlog backlog = new Backlog("late")) {
            Run first = backlog.runs.start();
            first.awaitLine("no checkpoint in " + backlog.checkpoints);
            backlog.events.awaitAtLeast(backlog.expected * 9 / 10);
            first.kill();

            Run second = backlog.runs.start();
            second.awaitResume();
            Thread.sleep(5_000);
            second.kill();

            Run third = backlog.runs.start();
            third.awaitResume();
            assertExactlyTheSample(
                    backlog.events.awaitQuiet(backlog.expected), backlog.topics.dlq());
        }
    }

    /**
     * Contract section 3 on a busy machine: every position and the end markers are in the topics
     * before the first start, busy threads take every core, and a partition silent for 500 ms could
     * be taken for idle. None is before its records are read: every event comes out exactly once,
     * and no position is late.
     */
    @Test
    void onABusyMachineAStartWithTheWholeInputInTheTopicsTakesNoUnreadPartitionForIdle()
            throws Exception {
        try (BusyCores busy = BusyCores.everyCoreTwice();
                Backlog backlog = new Backlog("busy-start", "--idle-timeout", "500ms")) {
            Run first = backlog.runs.start();
            first.awaitLine("no checkpoint in " + backlog.checkpoints);
            assertExactlyTheSample(
                    backlog.events.awaitQuiet(backlog.expected), backlog.topics.dlq());
        }
    }

    /**
     * As {@link #onABusyMachineAStartWithTheWholeInputInTheTopicsTakesNoUnreadPartitionForIdle},
     * killed with SIGKILL at a quarter and at half of the events (once the second run says it
     * completed a checkpoint of its own) and started again each time: each run resumes the latest
     * checkpoint, the third the second's, and every event comes out once.
     */
    @Test
    void onABusyMachineKilledAtAQuarterAndAtHalfTheThirdRunWritesEveryEventOnce() throws Exception {
        try (BusyCores busy = BusyCores.everyCoreTwice();
                Backlog backlog = new Backlog("busy-kills", "--idle-timeout", "500ms")) {
            Run first = backlog.runs.start();
            first.awaitLine("no checkpoint in " + backlog.checkpoints);
            backlog.events.awaitAtLeast(backlog.expected / 4);
            first.kill();

            Run second = backlog.runs.start();
            Path resumed = second.awaitResume();
            backlog.events.awaitAtLeast(backlog.expected / 2);
            String line = second.awaitLine("quadfence: first checkpoint of this run completed: ");
            Path own = Path.of(line.replaceAll(".*completed: (.*); a restart resumes.*", "$1"));
            assertThat(own.getParent()).isNotEqualTo(resumed.getParent());
            second.kill();

            Run third = backlog.runs.start();
            Path resumedAgain = third.awaitResume();
            assertThat(resumedAgain.getParent())
                    .as("the second run's checkpoints, not the first's")
                    .isEqualTo(own.getParent());
            assertExactlyTheSample(
                    backlog.events.awaitQuiet(backlog.expected), backlog.topics.dlq());
        }
    }

    /**
     * One test's topics, with the sample's fences, positions and end markers all written before the
     * first start, its runs and a reader of its events.
     */
    private final class Backlog implements AutoCloseable {
        final JobTopics topics;
        final Runs runs;
        final CommittedReader events;
        final Path checkpoints;
        final int expected;

        /** With {@code more} after the job's arguments, at every start. */
        Backlog(String name, String... more) throws Exception {
            topics = topics(name);
            try (PositionFeeder feeder = feeder(topics.positions(), 5000, Duration.ZERO)) {
                feeder.allowEnd();
                feeder.start();
                feeder.awaitDone();
            }
            expected = SampleCheck.read(SAMPLE.resolve("expected.jsonl")).size();
            checkpoints = work.resolve(Main.CHECKPOINTS).resolve(name);
            List<String> args = jobArgs(topics, name);
            args.addAll(List.of(more));
            runs = new Runs(work, logs, args);
            events = committed(topics.events());
        }

        /**
         * Starts a run whose stages still hold the records waiting for the watermark when it
         * checkpoints (its 60 s watermark interval keeps the sources' watermark from reaching them,
         * as a checkpoint taken right after a fast read of a backlog does), kills it after its
         * third checkpoint, and returns that checkpoint.
         */
        Path firstRunKilledWhileHolding() throws Exception {
            Run first = runs.start("--watermark-interval", "60s");
            first.awaitLine("no checkpoint in " + checkpoints);
            Path held = awaitCheckpointNumbered(checkpoints, 3);
            first.kill();
            assertThat(events.count()).as("events before the kill").isLessThan(expected);
            return held;
        }

        /** Every event, asserted to come within {@link #RESTORED_EVENTS} from now. */
        List<String> everyEventWithinTheBound(String what) throws Exception {
            long since = System.nanoTime();
            events.awaitAtLeast(expected);
            assertThat(Duration.ofNanos(System.nanoTime() - since))
                    .as(what)
                    .isLessThan(RESTORED_EVENTS);
            return events.awaitQuiet(expected);
        }

        @Override
        public void close() throws InterruptedException {
            events.close();
            runs.close();
        }
    }

    @Test
    void freshStartsOverAndFromSavepointRestoresTheCheckpointItNames() throws Exception {
        JobTopics topics = topics("fresh");
        Path checkpoints = work.resolve(Main.CHECKPOINTS).resolve("fresh");
        try (Runs runs = new Runs(work, logs, jobArgs(topics, "fresh"));
                PositionFeeder feeder = feeder(topics.positions(), 5000, Duration.ZERO)) {
            feeder.allowEnd();
            feeder.start();
            feeder.awaitDone();
            Run first = runs.start();
            first.awaitLine("quadfence: no checkpoint in " + checkpoints);
            awaitCheckpointNumbered(checkpoints, 5);
            first.kill();
            // Only now: a run keeps its latest checkpoint and deletes the ones before.
            Path kept = latest(checkpoints).orElseThrow();

            Run fresh = runs.start("--fresh");
            String line =
                    fresh.awaitLine(
                            "--fresh: starting without state; the earlier checkpoints are in");
            Path aside = Path.of(line.replaceAll(".* are in (.*) \\(delete it.*", "$1"));
            kept = aside.resolve(checkpoints.relativize(kept));
            assertThat(kept.resolve("_metadata")).isRegularFile();
            // Checkpoint numbers go on from a restored checkpoint; without state they start at 1.
            Path own = awaitCheckpointNumbered(checkpoints, 1);
            assertThat(number(own)).isLessThan(number(kept));
            fresh.kill();

            Run restored = runs.start("--from-savepoint", kept.toString());
            restored.awaitLine("quadfence: restoring savepoint " + kept);
            Path next =
                    awaitCheckpoint(
                            checkpoints,
                            "a checkpoint of the restored run",
                            p -> !p.getParent().equals(own.getParent()));
            assertThat(number(next)).isGreaterThan(number(kept));
            awaitCheckpointOtherThan(checkpoints, next);
            // Not owned by the run: still there after newer checkpoints.
            assertThat(kept.resolve("_metadata")).isRegularFile();
            assertThat(restored.isAlive()).isTrue();
        }
    }

    @Test
    void aSavepointPathThatHoldsNoneIsRefusedWithAClearMessage() throws Exception {
        Path missing = work.resolve("no-such-savepoint");
        try (Runs runs = new Runs(work, logs, List.of("--bootstrap-servers", "127.0.0.1:1"))) {
            Run run = runs.start("--from-savepoint", missing.toString());
            assertThat(run.awaitExit()).isEqualTo(2);
            assertThat(run.output())
                    .contains(
                            "quadfence: --from-savepoint: no savepoint or checkpoint at " + missing)
                    .doesNotContain("Exception");
        }
    }

    // ---------------------------------------------------------------- checks

    /** Every expected event exactly once (SampleCheck and check.py agree), no dead letters. */
    private void assertExactlyTheSample(List<String> lines, String dlqTopic) throws Exception {
        List<String> events =
                lines.stream()
                        .filter(l -> !l.contains(PositionFeeder.END))
                        .collect(Collectors.toList());
        Path got = Files.write(logs.resolve("events.jsonl"), events);
        List<String> dead;
        try (CommittedReader dlq = committed(dlqTopic)) {
            dead = dlq.awaitQuiet(0);
        }
        Path deadFile = Files.write(logs.resolve("dlq.jsonl"), dead);
        List<SampleCheck.Event> expected = SampleCheck.read(SAMPLE.resolve("expected.jsonl"));
        assertThat(SampleCheck.differences(expected, SampleCheck.read(got))).isEmpty();
        assertThat(events).hasSize(expected.size());
        assertThat(dead).isEmpty();
        assertThat(SampleReplay.checkPy(SAMPLE, got, deadFile))
                .contains("agreement: " + expected.size() + "/" + expected.size());
    }

    private static long number(Path chk) {
        return Long.parseLong(chk.getFileName().toString().substring("chk-".length()));
    }

    private static Optional<Path> latest(Path checkpoints) throws IOException {
        return Main.Checkpoint.latest(checkpoints).map(Main.Checkpoint::path);
    }

    /** Waits for a completed checkpoint numbered at least {@code n}, and returns it. */
    private static Path awaitCheckpointNumbered(Path checkpoints, long n) throws Exception {
        return awaitCheckpoint(checkpoints, "checkpoint " + n, p -> number(p) >= n);
    }

    /** Waits for a completed checkpoint newer than {@code previous}, and returns it. */
    private static Path awaitCheckpointOtherThan(Path checkpoints, Path previous) throws Exception {
        return awaitCheckpoint(
                checkpoints, "a checkpoint after " + previous, p -> !p.equals(previous));
    }

    /** Waits until the latest completed checkpoint is one {@code which} accepts, and returns it. */
    private static Path awaitCheckpoint(Path checkpoints, String what, Predicate<Path> which)
            throws Exception {
        AtomicReference<Path> found = new AtomicReference<>();
        await(
                what + " in " + checkpoints,
                () -> {
                    try {
                        latest(checkpoints).filter(which).ifPresent(found::set);
                    } catch (IOException e) {
                        // a checkpoint deleted while it was looked at: look again
                    }
                    return found.get() != null;
                });
        return found.get();
    }

    /** A reader of {@code topic} with this test's patience, the end markers left out. */
    private static CommittedReader committed(String topic) {
        return WAITS.committed(kafka, topic, QUIET);
    }

    private static void await(String what, BooleanSupplier done) throws InterruptedException {
        WAITS.await(what, done);
    }

    // ---------------------------------------------------------------- Kafka

    /** The four topics of one test, named after it, with the sample's fences in. */
    private static JobTopics topics(String name) throws Exception {
        JobTopics t = JobTopics.named(name).create(kafka, POSITION_PARTITIONS, 2, 3);
        try (KafkaProducer<byte[], byte[]> producer = KafkaTopics.producer(kafka)) {
            t.sendFences(producer, SAMPLE.resolve("fences.jsonl"));
        }
        return t;
    }

    /** The job's options: the same for every start of one test. */
    private static List<String> jobArgs(JobTopics topics, String name) {
        Map<String, String> options = topics.options(kafka, name);
        options.put("parallelism", "2");
        List<String> args = new ArrayList<>();
        options.forEach(
                (key, value) -> {
                    args.add("--" + key);
                    args.add(value);
                });
        return args;
    }

    /** The sample's positions to {@code topic}, {@code chunk} at a time, {@code pause} apart. */
    private static PositionFeeder feeder(String topic, int chunk, Duration pause)
            throws IOException {
        return new PositionFeeder(
                () -> KafkaTopics.producer(kafka),
                topic,
                POSITION_PARTITIONS,
                SAMPLE.resolve("positions.jsonl"),
                chunk,
                pause,
                PATIENCE);
    }

    /** Waits until {@code percent} of the positions are written. */
    private static void awaitFed(PositionFeeder feeder, int percent) throws Exception {
        int count = (int) (((long) percent * feeder.total() + 99) / 100);
        await(percent + "% of the positions written", () -> feeder.hasFed(count));
    }

    // ---------------------------------------------------------------- processes

    /**
     * Starts {@code quadfence run} with the options of one test, the way the launcher does, in the
     * test's directory (so its checkpoints go to quadfence-checkpoints there), with its output in a
     * file of its own; kills whatever still runs when closed.
     */
    private static final class Runs implements AutoCloseable {
        private final Path dir;
        private final Path logs;
        private final Path logConfig;
        private final List<String> options;
        private final List<Run> started = new ArrayList<>();

        Runs(Path dir, Path logs, List<String> options) throws IOException {
            this.dir = dir;
            this.logs = logs;
            this.options = options;
            // The launcher's logging, and the job's state changes and checkpoints on top, to
            // tell a slow start from a job that fails and restarts.
            String config =
                    Files.readString(Path.of("src/main/resources/log4j2-cli.properties"))
                            + String.join(
                                    "\n",
                                    "",
                                    "appender.console.layout.pattern = %d{HH:mm:ss.SSS} %-5p"
                                            + " %c{1} - %m%n",
                                    String.join("\n", RunLogs.JOB_PROGRESS),
                                    "");
            this.logConfig = Files.writeString(logs.resolve("log4j2.properties"), config);
        }

        Run start(String... flags) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.add("-Xmx512m");
            cmd.addAll(launcherJvmFlags());
            cmd.add("-Dlog4j2.configurationFile=" + logConfig);
            cmd.add("-cp");
            cmd.add(classpath());
            cmd.add(Main.class.getName());
            cmd.add("run");
            // The test's options, then the start's own: the last value of a key wins.
            cmd.addAll(options);
            cmd.addAll(Arrays.asList(flags));
            Path log = logs.resolve("run-" + (started.size() + 1) + ".log");
            Process p =
                    new ProcessBuilder(cmd)
                            .directory(dir.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            Run run = new Run(p, log);
            started.add(run);
            return run;
        }

        @Override
        public void close() throws InterruptedException {
            for (Run r : started) {
                r.process.destroyForcibly();
            }
            for (Run r : started) {
                r.process.waitFor(30, TimeUnit.SECONDS);
            }
        }

        /** The JVM flags of the launcher (Flink's --add-opens list for Java 17). */
        private static List<String> launcherJvmFlags() throws IOException {
            String script = Files.readString(LAUNCHER);
            int start = script.indexOf("opens=\"");
            int end = script.indexOf('"', start + "opens=\"".length());
            assertThat(start).as("the launcher's opens=\"...\" flags").isNotNegative();
            return Arrays.stream(script.substring(start + "opens=\"".length(), end).split("\\s+"))
                    .filter(s -> !s.isEmpty())
                    .collect(Collectors.toList());
        }

        // Surefire and failsafe start tests with a manifest-only jar; the real class path (the
        // launcher's, and the test classes) is in this property.
        private static String classpath() {
            String cp = System.getProperty("surefire.test.class.path");
            return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
        }
    }

    /** One started {@code quadfence run}, with its output in a file. */
    private static final class Run {
        private final Process process;
        private final Path log;

        Run(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        String output() throws IOException {
            return Files.exists(log) ? Files.readString(log) : "";
        }

        boolean isAlive() {
            return process.isAlive();
        }

        /** Waits for an output line that contains {@code text}, and returns it. */
        String awaitLine(String text) throws Exception {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (System.nanoTime() < deadline) {
                for (String line : output().split("\n")) {
                    if (line.contains(text)) {
                        return line;
                    }
                }
                if (!process.isAlive()) {
                    throw new AssertionError(
                            "quadfence run exited ("
                                    + process.exitValue()
                                    + ") before saying '"
                                    + text
                                    + "':\n"
                                    + output());
                }
                Thread.sleep(100);
            }
            throw new AssertionError("no line with '" + text + "' in:\n" + output());
        }

        /** Waits for the line that names the checkpoint it resumes from, and returns that. */
        Path awaitResume() throws Exception {
            String line = awaitLine("quadfence: resuming from checkpoint ");
            return Path.of(
                    line.replaceAll(".*resuming from checkpoint (.*) \\(completed .*", "$1"));
        }

        int awaitExit() throws Exception {
            assertThat(process.waitFor(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                    .as("exited")
                    .isTrue();
            return process.exitValue();
        }

        /** SIGKILL on the java process itself: no shutdown hook, nothing flushed. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }

        /** SIGTERM, as Ctrl-C or a service manager stops it; waits until it has exited. */
        void stop() throws Exception {
            process.destroy();
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped by SIGTERM").isTrue();
        }
    }
}
