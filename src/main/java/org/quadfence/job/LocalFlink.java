package org.quadfence.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;

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
}
