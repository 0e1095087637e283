package org.quadfence.testing;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** Flink MiniClusters for tests: loopback only, four slots. */
public final class MiniClusters {

    private MiniClusters() {}

    /** A MiniCluster of one TaskManager with {@code slots} slots, listening on 127.0.0.1. */
    public static MiniClusterExtension loopback(int slots) {
        return loopback(slots, new Configuration());
    }

    /** The same, with the settings of {@code more} too. */
    public static MiniClusterExtension loopback(int slots, Configuration more) {
        Configuration conf = new Configuration(more);
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.setString("jobmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.bind-host", "127.0.0.1");
        conf.setString("taskmanager.host", "127.0.0.1");
        return new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder()
                        .setNumberTaskManagers(1)
                        .setNumberSlotsPerTaskManager(slots)
                        .setConfiguration(conf)
                        .build());
    }
}
