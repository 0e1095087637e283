package org.quadfence.job;

import org.apache.flink.changelog.fs.FsStateChangelogOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.StateChangelogOptions;

import java.nio.file.Path;

/** The configuration of a Flink inside this process that listens on loopback only. */
public final class LocalFlink {

    private LocalFlink() {}

    /** A configuration whose web UI, JobManager and TaskManager bind to 127.0.0.1. */
    public static Configuration configuration() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        return conf;
    }

    /**
     * Has the TaskManagers of {@code conf} keep the changes of option {@code state-changelog} in
     * {@code directory}, a durable storage ({@link JobEnvironment#DURABLE_CHANGELOG_STORAGE}).
     */
    public static Configuration keepingChangelogIn(Configuration conf, Path directory) {
        conf.set(
                StateChangelogOptions.STATE_CHANGE_LOG_STORAGE,
                JobEnvironment.DURABLE_CHANGELOG_STORAGE);
        conf.set(FsStateChangelogOptions.BASE_PATH, directory.toUri().toString());
        return conf;
    }
}
