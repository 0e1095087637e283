package org.quadfence.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.RecoveryClaimMode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.demo.Demo;
import org.quadfence.options.Help;
import org.quadfence.options.JobOptions;
import org.quadfence.options.QuadfenceOptions;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command line's checks, and how {@code run} finds what it resumes from. */
class MainTest {

    @TempDir Path dir;

    @Test
    void aMissingInputFileIsNamedInTheError() {
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            dir.resolve("nope.jsonl").toString(),
                                            "--positions",
                                            dir.resolve("p.jsonl").toString(),
                                            "--output",
                                            dir.resolve("o.jsonl").toString()
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--fences: no such file")
                .hasMessageContaining("nope.jsonl");
    }

    @Test
    void replayWithoutAnOutputSaysWhatItNeeds() throws Exception {
        Path f = Files.writeString(dir.resolve("f.jsonl"), "");
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            f.toString(),
                                            "--positions",
                                            f.toString()
                                        }))
                .hasMessageStartingWith("replay needs --output FILE");
    }

    @Test
    void anUnknownOptionOrCommandIsAClearError() throws Exception {
        Path f = Files.writeString(dir.resolve("f.jsonl"), "");
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "replay",
                                            "--fences",
                                            f.toString(),
                                            "--positions",
                                            f.toString(),
                                            "--output",
                                            f.toString(),
                                            "--tile-lvl",
                                            "3"
                                        }))
                .hasMessageContaining("unknown option 'tile-lvl'");
        assertThatThrownBy(() -> Main.run(new String[] {"replai"}))
                .hasMessageStartingWith("unknown command 'replai'");
        assertThatThrownBy(() -> Main.run(new String[] {"run", "--delivery"}))
                .hasMessage("option --delivery needs a value");
    }

    @Test
    void runSaysWhenItsDeadLettersOrRepairedFencesChange() throws Exception {
        java.util.concurrent.BlockingQueue<Map<String, Object>> answers =
                new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.TreeMap<String, Long> none = new java.util.TreeMap<>();
        java.util.TreeMap<String, Long> some = new java.util.TreeMap<>();
        some.put("positions\tlate", 2L);
        some.put("repaired\ta ring intersects itself", 1L);
        for (java.util.TreeMap<String, Long> counts : List.of(none, none, some, some)) {
            answers.add(Map.of(org.quadfence.job.DeadLetterTally.ACCUMULATOR, counts));
        }
        org.apache.flink.core.execution.JobClient client =
                (org.apache.flink.core.execution.JobClient)
                        java.lang.reflect.Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {org.apache.flink.core.execution.JobClient.class},
                                (proxy, method, args) -> {
                                    if (method.getName().equals("getAccumulators")) {
                                        Map<String, Object> next = answers.poll();
                                        return next == null
                                                ? new java.util.concurrent.CompletableFuture<>()
                                                : java.util.concurrent.CompletableFuture
                                                        .completedFuture(next);
                                    }
                                    throw new UnsupportedOperationException(method.getName());
                                });
        java.io.PrintStream out = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(printed, true));
        Main.DeadLetterStatus status = new Main.DeadLetterStatus(20);
        try {
            status.onJobSubmitted(client, null);
            long deadline = System.currentTimeMillis() + 10_000;
            while (!answers.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(200);
        } finally {
            status.onJobExecuted(null, null);
            System.setOut(out);
        }
        // Nothing while there is nothing to say; then the one change, once.
        assertThat(printed.toString())
                .isEqualTo(
                        "quadfence: dead letters: 2 (positions, late: 2); fences repaired: 1 (a"
                                + " ring intersects itself: 1)"
                                + System.lineSeparator());
    }

    @Test
    void aBadMetricsPortIsRefusedBeforeFlinkStarts() {
        assertThatThrownBy(() -> Main.run(new String[] {"run", "--metrics-port", "on"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--metrics-port must be a port");
        assertThatThrownBy(() -> Main.run(new String[] {"demo", "--metrics-port", "99999"}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--metrics-port must be a port");
    }

    @Test
    void freshIsAFlagWithoutAValue() {
        // Had --fresh taken the next argument for its value, the unknown option would go unseen.
        assertThatThrownBy(() -> Main.run(new String[] {"run", "--fresh", "--tile-lvl", "3"}))
                .hasMessageContaining("unknown option 'tile-lvl'");
    }

    @Test
    void freshAndFromSavepointTogetherAreRefused() {
        assertThatThrownBy(
                        () ->
                                Main.run(
                                        new String[] {
                                            "run", "--from-savepoint", dir.toString(), "--fresh"
                                        }))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("run takes --fresh or --from-savepoint PATH, not both");
    }

    @Test
    void aSavepointPathThatHoldsNoneIsRefusedBeforeFlinkStarts() throws Exception {
        Path empty = Files.createDirectory(dir.resolve("empty"));
        for (Path p : new Path[] {dir.resolve("nope"), empty}) {
            assertThatThrownBy(
                            () -> Main.run(new String[] {"run", "--from-savepoint", p.toString()}))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("--from-savepoint: no savepoint or checkpoint at " + p);
        }
    }

    @Test
    void aSavepointIsRestoredWithoutTakingItOver() throws Exception {
        Path chk = checkpoint("job", 4, 1000);
        Main.Restore restore = Main.Restore.savepoint(chk.toString());
        Configuration conf = new Configuration();
        restore.applyTo(conf);
        assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo(chk.toString());
        assertThat(conf.get(StateRecoveryOptions.RESTORE_MODE))
                .isEqualTo(RecoveryClaimMode.NO_CLAIM);
        assertThat(Main.Restore.savepoint(chk.resolve("_metadata").toString()).path())
                .isEqualTo(chk.resolve("_metadata").toString());
        // Another file system's savepoint cannot be checked here: Flink checks it.
        assertThat(Main.Restore.savepoint("s3://bucket/savepoint-1").path())
                .isEqualTo("s3://bucket/savepoint-1");
    }

    @Test
    void theLatestCheckpointIsTheOneCompletedLastAcrossJobIds() throws Exception {
        checkpoint("old-run", 57, 1000);
        // Started afresh or from an older savepoint: lower numbers, yet completed later.
        Path latest = checkpoint("new-run", 3, 2000);
        checkpoint("new-run", 2, 1500);
        // Cut off by a kill before its _metadata was written.
        Files.createDirectories(dir.resolve("new-run").resolve("chk-4"));
        Files.createDirectories(dir.resolve("new-run").resolve("shared"));

        Main.Restore restore = Main.Restore.latest(dir);
        assertThat(restore.path()).isEqualTo(latest.toString());
        assertThat(restore.note())
                .startsWith("resuming from checkpoint " + latest + " (completed ");
        Configuration conf = new Configuration();
        restore.applyTo(conf);
        assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo(latest.toString());
        assertThat(conf.get(StateRecoveryOptions.RESTORE_MODE)).isEqualTo(RecoveryClaimMode.CLAIM);
    }

    @Test
    void checkpointsCompletedAtTheSameTimeGoByNumber() throws Exception {
        checkpoint("a", 7, 1000);
        Path higher = checkpoint("a", 8, 1000);
        assertThat(Main.Checkpoint.latest(dir)).map(Main.Checkpoint::path).contains(higher);
    }

    @Test
    void checkpointsFlinkDeletesWhileTheyAreListedAreSkipped() throws Exception {
        // As Flink does once a newer checkpoint completes: checkpoints come and go, in jobs that
        // come and go, while the latest is looked up (a stop right after a checkpoint).
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong made = new AtomicLong();
        AtomicReference<Exception> failed = new AtomicReference<>();
        Thread flink =
                new Thread(
                        () -> {
                            try {
                                for (long id = 1; !done.get(); id++) {
                                    String job = "job-" + (id / 50);
                                    checkpoint(job, id + 1, id);
                                    Path old = dir.resolve(job).resolve("chk-" + id);
                                    Files.deleteIfExists(old.resolve("_metadata"));
                                    Files.deleteIfExists(old);
                                    if (id % 50 == 49) {
                                        Path previous = dir.resolve("job-" + (id / 50 - 1));
                                        try (var left = Files.list(previous)) {
                                            for (Path chk : left.toList()) {
                                                Files.deleteIfExists(chk.resolve("_metadata"));
                                                Files.deleteIfExists(chk);
                                            }
                                        } catch (NoSuchFileException none) {
                                            // the first job has no job before it
                                        }
                                        Files.deleteIfExists(previous);
                                    }
                                    made.set(id);
                                }
                            } catch (Exception e) {
                                failed.set(e);
                            }
                        });
        flink.start();
        try {
            long end = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            while (System.nanoTime() < end) {
                Main.Checkpoint.latest(dir);
            }
        } finally {
            done.set(true);
            flink.join();
        }
        // The lookups above raced with checkpoints that came and went, in jobs that came and went.
        assertThat(failed.get()).isNull();
        assertThat(made.get()).isGreaterThan(100);
    }

    @Test
    void withoutACompletedCheckpointTheRunStartsWithoutState() throws Exception {
        Files.createDirectories(dir.resolve("job").resolve("chk-1"));
        Main.Restore restore = Main.Restore.latest(dir);
        assertThat(restore.path()).isNull();
        assertThat(restore.note())
                .isEqualTo("no checkpoint in " + dir + "; starting without state");
        assertThat(Main.Restore.latest(dir.resolve("missing")).path()).isNull();
        Configuration conf = new Configuration();
        restore.applyTo(conf);
        assertThat(conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)).isEmpty();
    }

    @Test
    void freshMovesTheCheckpointsAsideInsteadOfDeletingThem() throws Exception {
        Path checkpoints = dir.resolve("quadfence");
        Path chk = checkpoint(checkpoints, "job", 5, 1000);

        Main.Restore restore = Main.Restore.fresh(checkpoints);
        assertThat(restore.path()).isNull();
        assertThat(checkpoints).doesNotExist();
        Path aside = Path.of(restore.note().replaceAll(".* are in (.*) \\(delete it.*", "$1"));
        assertThat(aside.getParent()).isEqualTo(dir);
        assertThat(aside.getFileName().toString()).startsWith("quadfence.before-");
        assertThat(aside.resolve(checkpoints.relativize(chk)).resolve("_metadata")).isRegularFile();
        assertThat(Main.Restore.latest(checkpoints).path()).isNull();
        // Twice within one second: a second name, nothing overwritten.
        checkpoint(checkpoints, "job", 1, 1000);
        Path again =
                Path.of(
                        Main.Restore.fresh(checkpoints)
                                .note()
                                .replaceAll(".* are in (.*) \\(delete it.*", "$1"));
        assertThat(again).isNotEqualTo(aside).exists();
        assertThat(Main.Restore.fresh(dir.resolve("never-ran")).note())
                .isEqualTo("--fresh: starting without state");
    }

    @Test
    void eachJobNameHasACheckpointDirectoryOfItsOwn() {
        Path root = dir.resolve("quadfence-checkpoints");
        assertThat(Main.checkpointDirectory(root, JobOptions.defaults()))
                .isEqualTo(root.resolve("quadfence"));
        assertThat(
                        Main.checkpointDirectory(
                                root, JobOptions.of(Map.of("job-name", "fleet/north east"))))
                .isEqualTo(root.resolve("fleet_north_east"));
        assertThat(Main.checkpointDirectory(root, JobOptions.of(Map.of("job-name", ".."))))
                .isEqualTo(root.resolve("_.."));
    }

    private Path checkpoint(String job, long id, long completedSecond) throws Exception {
        return checkpoint(dir, job, id, completedSecond);
    }

    /** A completed checkpoint {@code root/job/chk-id}, its _metadata written at that time. */
    private static Path checkpoint(Path root, String job, long id, long completedSecond)
            throws Exception {
        Path chk = Files.createDirectories(root.resolve(job).resolve("chk-" + id));
        Path metadata = Files.writeString(chk.resolve("_metadata"), "metadata");
        Files.setLastModifiedTime(
                metadata, FileTime.from(Instant.ofEpochSecond(1_700_000_000L + completedSecond)));
        return chk;
    }

    @Test
    void aReplayTakesWatermarksEvery10msUnlessTheCommandLineOrItsConfigSaysOtherwise()
            throws Exception {
        Map<String, String> own = new HashMap<>(Map.of("output", ""));
        assertThat(interval(Main.replayOptions(new String[] {"--output", "o"}, own)))
                .isEqualTo(Duration.ofMillis(10));
        assertThat(own).containsEntry("output", "o");
        assertThat(
                        interval(
                                Main.replayOptions(
                                        new String[] {"--watermark-interval", "250ms"},
                                        new HashMap<>())))
                .isEqualTo(Duration.ofMillis(250));
        Path config = Files.writeString(dir.resolve("job.properties"), "watermark-interval=1s\n");
        assertThat(
                        interval(
                                Main.replayOptions(
                                        new String[] {"--config", config.toString()},
                                        new HashMap<>())))
                .isEqualTo(Duration.ofSeconds(1));
    }

    private static Duration interval(JobOptions options) {
        return options.get(QuadfenceOptions.WATERMARK_INTERVAL);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void helpAloneListsEveryCommandAndEveryOptionAndExitsZero(String help) throws Exception {
        String printed = printed(() -> assertThat(Main.run(new String[] {help})).isZero());
        assertThat(printed)
                .contains(Demo.USAGE, Main.REPLAY, Main.RUN, JobOptions.describe())
                .contains("--tile-level")
                .contains("(default: 7)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void eachCommandsHelpListsItsFlagsAndEveryOptionWithMeaningAndDefaultAndExitsZero(String help)
            throws Exception {
        Map<String, List<Help.Flag>> commands =
                Map.of(
                        "demo", Demo.FLAGS,
                        "replay", Main.REPLAY_FLAGS,
                        "run", Main.RUN_FLAGS);
        Map<String, String> synopses =
                Map.of("demo", Demo.USAGE, "replay", Main.REPLAY, "run", Main.RUN);
        for (String command : commands.keySet()) {
            // Anywhere among the arguments, even after a flag that takes no value.
            String printed =
                    printed(
                            () ->
                                    assertThat(Main.run(new String[] {command, "--fresh", help}))
                                            .isZero());
            assertThat(printed)
                    .as(command)
                    .isEqualTo(
                            Help.of(synopses.get(command), commands.get(command))
                                    + System.lineSeparator());
            assertThat(commands.get(command)).extracting(Help.Flag::name).contains("--config FILE");
            for (Help.Flag f : commands.get(command)) {
                assertThat(printed.replaceAll("\\s+", " "))
                        .contains(f.name() + " " + f.meaning() + " (" + f.orElse() + ")");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void theJobJarsMainPrintsItsUsageAndEveryOptionForHelp(String help) throws Exception {
        String printed =
                printed(() -> ClusterMain.main(new String[] {"--config", "x.properties", help}));
        assertThat(printed)
                .isEqualTo(
                        Help.of(ClusterMain.USAGE, List.of(Help.CONFIG)) + System.lineSeparator())
                .startsWith("usage: flink run target/quadfence.jar")
                .contains("--delivery");
    }

    private interface Action {
        void run() throws Exception;
    }

    private static String printed(Action action) throws Exception {
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        System.setOut(
                new java.io.PrintStream(buffer, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setOut(original);
        }
        return buffer.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
