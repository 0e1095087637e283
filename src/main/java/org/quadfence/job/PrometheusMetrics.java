package org.quadfence.job;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.prometheus.PrometheusReporterFactory;

import org.quadfence.options.Help;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Flink's own Prometheus reporter on the local Flink of {@code ./quadfence run} and {@code demo}:
 * the Flink settings that start it, and the {@code --metrics-port} option that moves or disables
 * it. On a local Flink the JobManager and the TaskManager share one reporter, so one port serves
 * the metrics of both. Flink's reporter listens on every interface (it has no bind address); the
 * URL it is announced with is the loopback one.
 */
public final class PrometheusMetrics {

    /** The command-line option (an option of the command, not of the job). */
    public static final String OPTION = "metrics-port";

    /** Flink's own default port for the reporter. */
    public static final int DEFAULT_PORT = 9249;

    /** The option in {@code --help}. */
    public static final Help.Flag FLAG =
            new Help.Flag(
                    "--" + OPTION + " N",
                    "serve the job's metrics for Prometheus at http://127.0.0.1:N/metrics (Flink's"
                            + " reporter, which listens on every interface); 0 or off: none",
                    "default: " + DEFAULT_PORT);

    /** The reporter's name in Flink's settings: {@code metrics.reporter.prom.*}. */
    static final String REPORTER = "prom";

    private PrometheusMetrics() {}

    /**
     * The port that {@code --metrics-port VALUE} asks for: 1 to 65535, or 0 for none ({@code off}
     * is 0 too).
     *
     * @throws IllegalArgumentException for anything else
     */
    public static int port(String value) {
        String v = value.trim();
        if (v.equals("off")) {
            return 0;
        }
        try {
            int port = Integer.parseInt(v);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                "--"
                        + OPTION
                        + " must be a port (1 to 65535), or 0 or off for none; got '"
                        + value
                        + "'");
    }

    /** The Flink settings that start Flink's Prometheus reporter on {@code port}. */
    public static Map<String, String> settings(int port) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put(
                "metrics.reporter." + REPORTER + ".factory.class",
                PrometheusReporterFactory.class.getName());
        s.put("metrics.reporter." + REPORTER + ".port", Integer.toString(port));
        return s;
    }

    /**
     * Adds the reporter's settings to {@code conf} unless {@code port} is 0 or taken, and says
     * which.
     */
    public static Served enable(Configuration conf, int port) {
        if (port == 0) {
            return new Served(null, "metrics: off (--" + OPTION + " N serves them on port N)");
        }
        // Flink only logs an error when its reporter cannot listen, and runs the job without it;
        // a port in use is found here first, so that the console says so in one line. The socket
        // is bound as the reporter binds it: every interface.
        try (ServerSocket free = new ServerSocket(port)) {
            // free: closed again before Flink binds it
        } catch (IOException inUse) {
            return new Served(
                    null,
                    "metrics: port "
                            + port
                            + " is in use, so the job runs without them (--"
                            + OPTION
                            + " N picks another port, off none)");
        }
        settings(port).forEach(conf::setString);
        String url = "http://127.0.0.1:" + port + "/metrics";
        return new Served(url, "metrics (Prometheus): " + url);
    }

    /**
     * What {@link #enable} did.
     *
     * @param url where the metrics are served; null when they are not
     * @param note the line that tells the user
     */
    public record Served(String url, String note) {}
}
