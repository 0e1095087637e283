package org.quadfence.job;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobOptionsTest {

    @Test
    void durationsTakeMillisecondsOrAUnit() {
        assertThat(JobOptions.parseDuration("d", "1000")).isEqualTo(1000);
        assertThat(JobOptions.parseDuration("d", "500ms")).isEqualTo(500);
        assertThat(JobOptions.parseDuration("d", "1s")).isEqualTo(1000);
        assertThat(JobOptions.parseDuration("d", "2min")).isEqualTo(120_000);
        assertThatThrownBy(() -> JobOptions.parseDuration("max-out-of-orderness", "soon"))
                .hasMessageContaining("max-out-of-orderness must be a duration");
    }

    @Test
    void anUnknownKeyIsAnErrorThatListsTheValidOnes() {
        assertThatThrownBy(() -> JobOptions.of(Map.of("tile-levle", "7")))
                .hasMessageContaining("unknown option 'tile-levle'")
                .hasMessageContaining("tile-level");
    }

    @Test
    void theCommandLineWinsOverTheConfigFile(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "tile-level=5\nnode-capacity=3\nkafka.security.protocol=SSL\n");
        JobOptions o =
                JobOptions.fromArgs(
                        new String[] {"--config", file.toString(), "--tile-level", "9"});
        assertThat(o.intValue("tile-level")).isEqualTo(9);
        assertThat(o.intValue("node-capacity")).isEqualTo(3);
        assertThat(o.kafkaProperties()).containsEntry("security.protocol", "SSL");
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> JobOptions.of(Map.of("delivery", "twice")))
                .hasMessage("delivery must be one of exactly-once, at-least-once, got 'twice'");
        assertThatThrownBy(() -> JobOptions.of(Map.of("tile-level", "x")))
                .hasMessage("tile-level must be an integer, got 'x'");
    }

    @Test
    void theShippedOptionFilesNameOnlyRealOptionsAndLocalNamesThemAll() throws Exception {
        for (String name : new String[] {"local", "cluster", "demo"}) {
            Properties p = new Properties();
            try (var in = Files.newInputStream(Path.of("jobs", name + ".properties"))) {
                p.load(in);
            }
            Map<String, String> m = new HashMap<>();
            p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
            JobOptions.of(m);
            if (name.equals("local")) {
                assertThat(m.keySet()).containsAll(JobOptions.KNOWN.keySet());
                m.forEach((k, v) -> assertThat(v).as(k).isEqualTo(JobOptions.KNOWN.get(k)[0]));
            }
        }
    }

    @Test
    void theReadmeOptionsTableListsEveryOptionWithItsDefaultAndWholeMeaning() throws Exception {
        Map<String, String[]> rows = new LinkedHashMap<>();
        boolean inOptions = false;
        for (String line : Files.readAllLines(Path.of("README.md"))) {
            if (line.startsWith("## ")) {
                inOptions = line.equals("## Options");
            } else if (inOptions && line.startsWith("| `") && !line.startsWith("| `kafka.*`")) {
                String[] cells = line.split("\\|");
                String key = cells[1].trim().replace("`", "");
                String value = cells[2].trim().replace("`", "");
                rows.put(key, new String[] {value.equals("(none)") ? "" : value, cells[3].trim()});
            }
        }
        assertThat(rows.keySet()).containsAll(JobOptions.KNOWN.keySet());
        JobOptions.KNOWN.forEach(
                (key, known) -> {
                    assertThat(rows.get(key)[0]).as(key + " default").isEqualTo(known[0]);
                    assertThat(rows.get(key)[1]).as(key + " meaning").isEqualTo(known[1]);
                });
    }

    @Test
    void theDemoOptionsAreEachCommentedAndMakeEventsShowUpQuickly() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("jobs/demo.properties"));
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).trim();
            if (!line.isEmpty() && !line.startsWith("#")) {
                assertThat(lines.get(i - 1)).as("comment above " + line).startsWith("#");
                String[] kv = line.split("=", 2);
                m.put(kv[0], kv[1]);
            }
        }
        JobOptions o = JobOptions.of(m);
        assertThat(m).doesNotContainKey("bootstrap-servers");
        assertThat(o.get("delivery")).isEqualTo("exactly-once");
        assertThat(o.get("starting-offsets")).isEqualTo("earliest");
        assertThat(o.millis("checkpoint-interval")).isLessThanOrEqualTo(3000);
        assertThat(o.intValue("tile-level")).isBetween(12, 14);
    }
}
