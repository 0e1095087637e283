package org.quadfence.demo;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.job.LocalFlink;
import org.quadfence.job.PrometheusMetrics;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.GrafanaDashboard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The job's metrics through Flink's own Prometheus reporter, as {@code ./quadfence demo} serves
 * them: scraped on 127.0.0.1 while the demo runs (its broker, fleet and job on a local Flink), they
 * hold the job's own counters with the positions it took in, and every metric the Grafana dashboard
 * of the compose set-up queries. A reporter that cannot listen does not stop a job.
 */
class DemoMetricsITCase {

    private static final Duration PATIENCE = Duration.ofMinutes(2);
    private static final String OPERATOR = "flink_taskmanager_job_task_operator_";

    @TempDir Path tmp;

    @Test
    void theDemoServesTheJobsOwnMetricsAndEveryDashboardMetricWhileItRuns() throws Exception {
        int port = freePort();
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        CompletableFuture<Demo.Summary> demo =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                return Demo.run(
                                        new Demo.Settings(
                                                demoOptions(),
                                                30,
                                                300,
                                                42,
                                                tmp,
                                                new PrintStream(
                                                        console, true, StandardCharsets.UTF_8),
                                                false,
                                                port));
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        });

        Map<String, Double> scraped = Map.of();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!demo.isDone() && System.nanoTime() < deadline) {
            scraped = scrape(port);
            if (scraped.getOrDefault(OPERATOR + "positionsIn", 0.0) > 0
                    && scraped.keySet().containsAll(GrafanaDashboard.metrics())) {
                break;
            }
            Thread.sleep(1000);
        }
        Demo.Summary summary = demo.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        String out = console.toString(StandardCharsets.UTF_8);
        assertThat(summary.jobFailed()).as(out).isFalse();
        assertThat(out).contains("; metrics http://127.0.0.1:" + port + "/metrics");
        assertThat(scraped.get(OPERATOR + "positionsIn")).as(out).isPositive();
        assertThat(scraped)
                .containsKeys(
                        OPERATOR + "enterEvents",
                        OPERATOR + "deadLetters",
                        OPERATOR + "latePositions",
                        OPERATOR + "candidates");
        assertThat(scraped.keySet()).containsAll(GrafanaDashboard.metrics());
        // Gone with the demo's Flink: the port is free again.
        new ServerSocket(port).close();
    }

    @Test
    void aReporterThatCannotListenLeavesTheJobToRun() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            // As if another process took the port after PrometheusMetrics found it free.
            Configuration conf = LocalFlink.configuration();
            PrometheusMetrics.settings(taken.getLocalPort()).forEach(conf::setString);
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createLocalEnvironment(conf);
            long count = 0;
            try (CloseableIterator<Long> numbers = env.fromSequence(1, 100).executeAndCollect()) {
                while (numbers.hasNext()) {
                    numbers.next();
                    count++;
                }
            }
            assertThat(count).isEqualTo(100);
        }
    }

    /**
     * The scrape's metrics, each the sum of its series; empty while nothing listens. The reporter's
     * text format: "# ..." comments and "name{labels} value" lines.
     */
    private static Map<String, Double> scrape(int port) throws InterruptedException {
        HttpRequest get =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build();
        String body;
        try {
            body =
                    HttpClient.newHttpClient()
                            .send(get, HttpResponse.BodyHandlers.ofString())
                            .body();
        } catch (IOException notYet) {
            return Map.of();
        }
        Map<String, Double> sums = new HashMap<>();
        for (String line : body.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = line.indexOf('{') >= 0 ? line.indexOf('{') : line.indexOf(' ');
            double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            sums.merge(line.substring(0, end), Double.isNaN(value) ? 0 : value, Double::sum);
        }
        return sums;
    }

    private static JobOptions demoOptions() throws IOException {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("jobs/demo.properties"))) {
            p.load(in);
        }
        Map<String, String> options = new HashMap<>();
        p.stringPropertyNames().forEach(k -> options.put(k, p.getProperty(k)));
        return JobOptions.of(options);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
