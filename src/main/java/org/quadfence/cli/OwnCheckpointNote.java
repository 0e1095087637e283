package org.quadfence.cli;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.JobListener;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Says when a run of {@code ./quadfence run} has completed its first checkpoint of its own: {@code
 * quadfence: first checkpoint of this run completed: PATH; a restart resumes from it}. Until then a
 * restart resumes from the checkpoint this run restored (or from nothing): the events it made
 * visible meanwhile may be that checkpoint's own, which a restore commits again, and a job working
 * through a backlog can take a minute for its first checkpoint.
 */
final class OwnCheckpointNote implements JobListener {

    private final Path checkpoints;
    private final long intervalMs;
    private volatile Thread thread;

    /** Looks for the run's checkpoints in {@code checkpoints} every {@code intervalMs}. */
    OwnCheckpointNote(Path checkpoints, long intervalMs) {
        this.checkpoints = checkpoints;
        this.intervalMs = intervalMs;
    }

    @Override
    public void onJobSubmitted(JobClient client, Throwable failure) {
        if (client == null) {
            return;
        }
        String job = client.getJobID().toHexString();
        Thread t = new Thread(() -> await(job), "quadfence-own-checkpoint");
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    private void await(String job) {
        while (!Thread.currentThread().isInterrupted()) {
            try {
                Thread.sleep(intervalMs);
                Optional<Main.Checkpoint> own =
                        Main.Checkpoint.latest(checkpoints)
                                .filter(
                                        c ->
                                                c.path()
                                                        .getParent()
                                                        .getFileName()
                                                        .toString()
                                                        .equals(job));
                if (own.isPresent()) {
                    System.out.println(line(own.get().path()));
                    return;
                }
            } catch (InterruptedException e) {
                return;
            } catch (IOException e) {
                // A checkpoint deleted while it was looked at: look again.
            }
        }
    }

    static String line(Path checkpoint) {
        return "quadfence: first checkpoint of this run completed: "
                + checkpoint
                + "; a restart resumes from it";
    }

    @Override
    public void onJobExecuted(JobExecutionResult result, Throwable failure) {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }
}
