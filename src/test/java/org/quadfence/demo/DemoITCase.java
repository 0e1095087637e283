package org.quadfence.demo;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo end to end, as {@code ./quadfence demo --duration 25} runs it but with a smaller fleet:
 * embedded broker, fleet, the job on a local Flink with its web UI, and the reader. Events come
 * back, the console shows them, and the map holds the fences and the events.
 */
class DemoITCase {

    @TempDir Path tmp;

    @Test
    void eventsComeBackAndTheMapShowsThem() throws Exception {
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(Path.of("jobs/demo.properties"))) {
            p.load(in);
        }
        Map<String, String> options = new HashMap<>();
        p.stringPropertyNames().forEach(k -> options.put(k, p.getProperty(k)));
        ByteArrayOutputStream console = new ByteArrayOutputStream();

        Demo.Summary s =
                Demo.run(
                        new Demo.Settings(
                                JobOptions.of(options),
                                25,
                                500,
                                42,
                                tmp,
                                new PrintStream(console, true, StandardCharsets.UTF_8),
                                false));

        assertThat(s.jobFailed()).isFalse();
        assertThat(s.positions()).isGreaterThan(5_000);
        assertThat(s.enters()).isPositive();
        assertThat(s.exits()).isPositive();
        assertThat(s.inside()).as("vehicles inside, by the memberships topic").isPositive();
        String out = console.toString(StandardCharsets.UTF_8);
        assertThat(out)
                .contains(
                        "  ENTER  ",
                        "  EXIT   ",
                        " status ",
                        " vehicles inside, busiest ",
                        "job cancelled",
                        "broker shut down")
                .doesNotContain("\u001b[");
        String page = Files.readString(s.map());
        assertThat(page)
                .contains("\"id\":\"cbd\"", "\"id\":\"tile-corner\"", "\"markers\":[\"cbd\"]")
                .contains("\"e\":\"ENTER\"", "\"e\":\"EXIT\"")
                .contains("\"kind\":\"toll\"", "\"crossings\":[")
                .contains("\"live\":false");
        assertThat(tmp.resolve("map-data.js")).exists();
    }
}
