package org.quadfence.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.job.GeofenceJob;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateFormatTest {

    @TempDir Path checkpoints;

    private Main.Restore latestWithOneCheckpoint() throws Exception {
        Path chk = Files.createDirectories(checkpoints.resolve("job-1").resolve("chk-3"));
        Files.writeString(chk.resolve("_metadata"), "x");
        Main.Restore restore = Main.Restore.latest(checkpoints);
        assertThat(restore.claim()).isTrue();
        return restore;
    }

    @Test
    void checkpointsOfAnEarlierQuadfenceAreRefusedWithWhatToDo() throws Exception {
        Main.Restore restore = latestWithOneCheckpoint();
        assertThatThrownBy(() -> StateFormat.check(checkpoints, restore))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("state format 2 or earlier")
                .hasMessageContaining("./quadfence run --fresh");
    }

    @Test
    void checkpointsOfThisFormatResumeAndAFreshStartRecordsIt() throws Exception {
        StateFormat.check(checkpoints, Main.Restore.fresh(checkpoints));
        assertThat(checkpoints.resolve(StateFormat.FILE)).hasContent(GeofenceJob.STATE_FORMAT);
        StateFormat.check(checkpoints, latestWithOneCheckpoint());
    }

    @Test
    void anotherFormatOnRecordIsNamed() throws Exception {
        Main.Restore restore = latestWithOneCheckpoint();
        Files.writeString(checkpoints.resolve(StateFormat.FILE), "4\n");
        assertThatThrownBy(() -> StateFormat.check(checkpoints, restore))
                .hasMessageContaining(
                        "have state format 4, which this quadfence (state format "
                                + GeofenceJob.STATE_FORMAT);
    }
}
