package org.quadfence.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResumeIdentityTest {

    @TempDir Path checkpoints;

    private static JobOptions options(String... keyValues) {
        Map<String, String> values = new java.util.HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            values.put(keyValues[i], keyValues[i + 1]);
        }
        return JobOptions.of(values);
    }

    private Main.Restore latest() throws Exception {
        Path chk = Files.createDirectories(checkpoints.resolve("job-1").resolve("chk-4"));
        Files.writeString(chk.resolve("_metadata"), "x");
        return Main.Restore.latest(checkpoints);
    }

    @Test
    void aResumeAgainstAnotherBrokerIsRefusedNamingTheOptionBothValuesAndTheWaysOn()
            throws Exception {
        ResumeIdentity.check(
                checkpoints,
                Main.Restore.fresh(checkpoints),
                options("bootstrap-servers", "b:9092"));
        Main.Restore restore = latest();
        assertThatThrownBy(
                        () ->
                                ResumeIdentity.check(
                                        checkpoints,
                                        restore,
                                        options("bootstrap-servers", "a:9092")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bootstrap-servers 'b:9092', this run has 'a:9092'")
                .hasMessageContaining("--fresh")
                .hasMessageContaining("--from-savepoint " + restore.path());
    }

    @Test
    void everySourceAndStateShapingOptionBindsTheCheckpoints() throws Exception {
        Map<String, String> other =
                Map.of(
                        "bootstrap-servers", "elsewhere:9092",
                        "positions-topic", "p2",
                        "fences-topic", "f2",
                        "group-id", "g2",
                        "tile-level", "9",
                        "tile-shards", "2",
                        "exit-margin-meters", "25",
                        "max-vertices", "5000",
                        "crossing", "true");
        for (String key : ResumeIdentity.KEYS) {
            ResumeIdentity.check(checkpoints, Main.Restore.fresh(checkpoints), options());
            Main.Restore restore = latest();
            assertThatThrownBy(
                            () ->
                                    ResumeIdentity.check(
                                            checkpoints, restore, options(key, other.get(key))))
                    .as(key)
                    .hasMessageContaining("taken with " + key + " ");
        }
    }

    @Test
    void theSameOptionsResumeAndOtherOptionsDoNotMatter() throws Exception {
        ResumeIdentity.check(checkpoints, Main.Restore.fresh(checkpoints), options());
        assertThatCode(
                        () ->
                                ResumeIdentity.check(
                                        checkpoints, latest(), options("dwell-ms", "60000")))
                .doesNotThrowAnyException();
    }

    @Test
    void aSavepointIsTakenOnPurposeAndRecordsTheNewSources() throws Exception {
        ResumeIdentity.check(
                checkpoints, Main.Restore.fresh(checkpoints), options("group-id", "one"));
        Main.Restore restore = latest();
        ResumeIdentity.check(
                checkpoints, Main.Restore.savepoint(restore.path()), options("group-id", "two"));
        assertThatCode(
                        () ->
                                ResumeIdentity.check(
                                        checkpoints, latest(), options("group-id", "two")))
                .doesNotThrowAnyException();
    }

    @Test
    void checkpointsWithoutARecordResumeAsBefore() throws Exception {
        assertThatCode(() -> ResumeIdentity.check(checkpoints, latest(), options()))
                .doesNotThrowAnyException();
    }
}
