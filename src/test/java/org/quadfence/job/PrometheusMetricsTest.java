package org.quadfence.job;

import org.apache.flink.configuration.Configuration;

import org.junit.jupiter.api.Test;

import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code --metrics-port} option and the reporter settings it leads to. */
class PrometheusMetricsTest {

    @Test
    void aPortIsANumberUpTo65535AndZeroOrOffMeanNone() {
        assertThat(PrometheusMetrics.port("9249")).isEqualTo(9249);
        assertThat(PrometheusMetrics.port(" 65535 ")).isEqualTo(65535);
        assertThat(PrometheusMetrics.port("0")).isZero();
        assertThat(PrometheusMetrics.port("off")).isZero();
        for (String bad : new String[] {"65536", "-1", "on", "", "9249x"}) {
            assertThatThrownBy(() -> PrometheusMetrics.port(bad))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--metrics-port must be a port");
        }
    }

    @Test
    void aFreePortGetsFlinksPrometheusReporterAndTheLoopbackUrl() throws Exception {
        int port = freePort();
        Configuration conf = new Configuration();

        PrometheusMetrics.Served served = PrometheusMetrics.enable(conf, port);

        assertThat(served.url()).isEqualTo("http://127.0.0.1:" + port + "/metrics");
        assertThat(served.note()).contains(served.url());
        assertThat(conf.toMap())
                .containsEntry(
                        "metrics.reporter.prom.factory.class",
                        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory")
                .containsEntry("metrics.reporter.prom.port", Integer.toString(port));
    }

    @Test
    void aTakenPortOrNoneLeavesTheReporterOutAndSaysWhy() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            Configuration conf = new Configuration();

            PrometheusMetrics.Served served = PrometheusMetrics.enable(conf, taken.getLocalPort());

            assertThat(served.url()).isNull();
            assertThat(served.note())
                    .contains("port " + taken.getLocalPort() + " is in use")
                    .contains("runs without them");
            assertThat(conf.keySet()).noneMatch(k -> k.startsWith("metrics.reporter."));
        }
        Configuration conf = new Configuration();
        assertThat(PrometheusMetrics.enable(conf, 0).url()).isNull();
        assertThat(conf.keySet()).isEmpty();
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
