package org.quadfence.cli;

import org.quadfence.options.JobOptions;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * What makes a resumed run the same job (contract 8a, "A resume is the same job"): the sources it
 * reads (bootstrap servers, topics, group id) and the options that shape its state, kept in a file
 * {@code resume-identity.properties} beside the checkpoints of {@code ./quadfence run}. A resume
 * with other values would go on with another broker's offsets, or with state cut for other options;
 * it stops before it starts instead, naming what differs and the two ways on.
 */
final class ResumeIdentity {

    static final String FILE = "resume-identity.properties";

    /** The options a checkpoint is bound to. */
    static final List<String> KEYS =
            List.of(
                    "bootstrap-servers",
                    "positions-topic",
                    "fences-topic",
                    "group-id",
                    "tile-level",
                    "tile-shards",
                    "exit-margin-meters",
                    "max-vertices",
                    "crossing");

    private ResumeIdentity() {}

    /**
     * Refuses to resume from checkpoints taken with other sources or state-shaping options, and
     * records this run's for the checkpoints to come. Checkpoints without a record (of a quadfence
     * before this check) resume as they did.
     *
     * @throws IllegalStateException when {@code restore} resumes from checkpoints in {@code
     *     checkpoints} recorded with another value of one of {@link #KEYS}
     */
    static void check(Path checkpoints, Main.Restore restore, JobOptions options)
            throws IOException {
        Path file = checkpoints.resolve(FILE);
        if (restore.claim() && Files.exists(file)) {
            Properties then = new Properties();
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                then.load(in);
            }
            for (String key : KEYS) {
                String old = then.getProperty(key);
                String now = options.get(key);
                if (old != null && !old.equals(now)) {
                    throw new IllegalStateException(refusal(restore, key, old, now));
                }
            }
        }
        Properties now = new Properties();
        KEYS.forEach(key -> now.setProperty(key, options.get(key)));
        Files.createDirectories(checkpoints);
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            now.store(out, "what the checkpoints beside this file were taken with");
        }
    }

    private static String refusal(Main.Restore restore, String key, String old, String now) {
        return "cannot resume from "
                + restore.path()
                + ": it was taken with "
                + key
                + " '"
                + old
                + "', this run has '"
                + now
                + "'. Start over with ./quadfence run --fresh (the earlier checkpoints are moved"
                + " aside), or take that state on purpose with --from-savepoint "
                + restore.path();
    }
}
