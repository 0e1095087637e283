package org.quadfence.cli;

import org.quadfence.job.GeofenceJob;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The state format of the checkpoints that {@code ./quadfence run} keeps, in a file {@code
 * state-format} beside them. Flink fails a restore of another format deep in a state backend (a key
 * serializer that no longer matches), and its restart strategy would then try again and again; so a
 * run that would resume from checkpoints of an earlier quadfence stops before it starts, with a
 * message that says what to do.
 */
final class StateFormat {

    static final String FILE = "state-format";

    private StateFormat() {}

    /**
     * Refuses to resume from checkpoints of another format, and records this version's format for
     * the checkpoints to come.
     *
     * @throws IllegalStateException when {@code restore} resumes from checkpoints in {@code
     *     checkpoints} of another format
     */
    static void check(Path checkpoints, Main.Restore restore) throws IOException {
        Path file = checkpoints.resolve(FILE);
        String now = GeofenceJob.STATE_FORMAT;
        if (restore.claim()) {
            String then =
                    Files.exists(file)
                            ? Files.readString(file, StandardCharsets.UTF_8).trim()
                            : "2 or earlier";
            if (!GeofenceJob.READABLE_STATE_FORMATS.contains(then)) {
                throw new IllegalStateException(
                        "cannot resume: the checkpoints in "
                                + checkpoints
                                + " have state format "
                                + then
                                + ", which this quadfence (state format "
                                + now
                                + ") does not read; start without them: ./quadfence run --fresh"
                                + " (the fences topic is read again from its beginning)");
            }
        }
        Files.createDirectories(checkpoints);
        Files.writeString(file, now + "\n", StandardCharsets.UTF_8);
    }
}
