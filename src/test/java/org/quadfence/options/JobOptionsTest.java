package org.quadfence.options;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.GlobalConfiguration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.quadfence.api.Geofencing;
import org.quadfence.options.QuadfenceOptions.Delivery;
import org.quadfence.options.QuadfenceOptions.RestartStrategy;
import org.quadfence.options.QuadfenceOptions.StartingOffsets;
import org.quadfence.options.QuadfenceOptions.StateBackend;
import org.quadfence.testing.ReadmeTable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobOptionsTest {

    @ParameterizedTest
    @CsvSource({"1000, 1000", "500ms, 500", "1s, 1000", "2min, 120000", "1h, 3600000", "0, 0"})
    void durationsTakeMillisecondsOrANumberWithAUnit(String text, long millis) {
        JobOptions o = JobOptions.of(Map.of("max-out-of-orderness", text));
        assertThat(o.millis("max-out-of-orderness")).isEqualTo(millis);
        assertThat(o.get(QuadfenceOptions.MAX_OUT_OF_ORDERNESS))
                .isEqualTo(Duration.ofMillis(millis));
    }

    @Test
    void aDurationIsWrittenBackInItsLargestWholeUnit() {
        JobOptions o =
                JobOptions.of(
                        Map.of(
                                "max-out-of-orderness", "1500",
                                "idle-timeout", "120000",
                                "max-future", "3600s",
                                "checkpoint-interval", "2000ms"));
        assertThat(o.get("max-out-of-orderness")).isEqualTo("1500ms");
        assertThat(o.get("idle-timeout")).isEqualTo("2min");
        assertThat(o.get("max-future")).isEqualTo("1h");
        assertThat(o.get("checkpoint-interval")).isEqualTo("2s");
        assertThat(o.get("dwell-ms")).isEqualTo("0");
    }

    @Test
    void somethingElseThanADurationIsNamed() {
        for (String bad : List.of("soon", "-1s", "1.5s", "")) {
            assertThatThrownBy(() -> JobOptions.of(Map.of("max-out-of-orderness", bad)))
                    .hasMessage(
                            "max-out-of-orderness must be a duration such as 1000 (milliseconds),"
                                    + " 500ms, 1s, 2min or 1h, got '"
                                    + bad
                                    + "'");
        }
    }

    @Test
    void listedValuesAreTakenInTheirSpellingInAnyCase() {
        JobOptions o =
                JobOptions.of(
                        Map.of(
                                "delivery", "AT-LEAST-ONCE",
                                "state-backend", "RocksDB",
                                "restart-strategy", "fixed-delay",
                                "starting-offsets", "Latest"));
        assertThat(o.get(QuadfenceOptions.DELIVERY)).isEqualTo(Delivery.AT_LEAST_ONCE);
        assertThat(o.get(QuadfenceOptions.STATE_BACKEND)).isEqualTo(StateBackend.ROCKSDB);
        assertThat(o.get(QuadfenceOptions.RESTART_STRATEGY)).isEqualTo(RestartStrategy.FIXED_DELAY);
        assertThat(o.get(QuadfenceOptions.STARTING_OFFSETS)).isEqualTo(StartingOffsets.LATEST);
        assertThat(o.get("delivery")).isEqualTo("at-least-once");
        assertThat(o.get("state-backend")).isEqualTo("rocksdb");
        // Java's name of the value is not a spelling users type.
        assertThatThrownBy(() -> JobOptions.of(Map.of("delivery", "EXACTLY_ONCE")))
                .hasMessage(
                        "delivery must be one of exactly-once, at-least-once, got 'EXACTLY_ONCE'");
    }

    @Test
    void anUnknownKeyIsAnErrorThatListsTheValidOnes() {
        assertThatThrownBy(() -> JobOptions.of(Map.of("tile-levle", "7")))
                .hasMessageContaining("unknown option 'tile-levle'")
                .hasMessageContaining("tile-level");
    }

    @Test
    void theCommandLineWinsOverTheConfigFile(@TempDir Path dir) throws Exception {
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
        assertThatThrownBy(() -> JobOptions.of(Map.of("exit-margin-meters", "far")))
                .hasMessage("exit-margin-meters must be a number, got 'far'");
        assertThatThrownBy(() -> JobOptions.of(Map.of("exit-on-expiry", "yes")))
                .hasMessage("exit-on-expiry must be true or false, got 'yes'");
    }

    @ParameterizedTest
    @CsvSource({
        "tile-level, 0, 16",
        "tile-shards, 1, 128",
        "node-capacity, 1,",
        "max-depth, 0, 30",
        "tolerable-checkpoint-failures, 0,",
        "restart-attempts, 1,",
        "max-waiting-records, 1,",
        "max-vertices, 3,",
        "parallelism, 1,"
    })
    void aNumberOutsideItsRangeIsRefusedAndTheRangeIsInItsMeaning(
            String key, int least, Integer most) {
        String range = most == null ? "at least " + least : least + " to " + most;
        assertThat(JobOptions.KNOWN.get(key)[1]).contains(range);
        assertThat(JobOptions.of(Map.of(key, String.valueOf(least))).intValue(key))
                .isEqualTo(least);
        assertThatThrownBy(() -> JobOptions.of(Map.of(key, String.valueOf(least - 1))))
                .hasMessage(key + " must be " + range + ", got " + (least - 1));
        if (most != null) {
            assertThat(JobOptions.of(Map.of(key, String.valueOf(most))).intValue(key))
                    .isEqualTo(most);
            assertThatThrownBy(() -> JobOptions.of(Map.of(key, String.valueOf(most + 1))))
                    .hasMessage(key + " must be " + range + ", got " + (most + 1));
        }
    }

    @Test
    void theRangesOfTheOtherOptionsAreCheckedAndInTheirMeaning() {
        assertThat(JobOptions.KNOWN.get("exit-margin-meters")[1]).contains("0 to 1000000");
        assertThat(
                        JobOptions.of(Map.of("exit-margin-meters", "1000000"))
                                .doubleValue("exit-margin-meters"))
                .isEqualTo(1e6);
        for (String bad : List.of("-0.5", "1000000.5", "NaN")) {
            assertThatThrownBy(() -> JobOptions.of(Map.of("exit-margin-meters", bad)))
                    .hasMessageStartingWith("exit-margin-meters must be 0 to 1000000, got ");
        }
        for (String key : List.of("checkpoint-interval", "checkpoint-timeout")) {
            assertThat(JobOptions.KNOWN.get(key)[1]).contains("at least 10ms");
            assertThat(JobOptions.of(Map.of(key, "10ms")).millis(key)).isEqualTo(10);
            assertThatThrownBy(() -> JobOptions.of(Map.of(key, "9")))
                    .hasMessage(key + " must be at least 10ms, got 9");
        }
        assertThat(JobOptions.KNOWN.get("watermark-interval")[1]).contains("at least 1ms");
        assertThat(JobOptions.of(Map.of("watermark-interval", "1ms")).millis("watermark-interval"))
                .isEqualTo(1);
        assertThatThrownBy(() -> JobOptions.of(Map.of("watermark-interval", "0")))
                .hasMessage("watermark-interval must be at least 1ms, got 0");
        String most = String.valueOf(JobOptions.MAX_EVENT_TIME);
        for (String key : List.of("dwell-ms", "entity-ttl", "max-future", "idle-timeout")) {
            assertThat(JobOptions.of(Map.of(key, most)).millis(key))
                    .isEqualTo(JobOptions.MAX_EVENT_TIME);
            for (String bad : List.of("253402300800000", "9999999999999d")) {
                assertThatThrownBy(() -> JobOptions.of(Map.of(key, bad)))
                        .hasMessage(key + " must be at most " + most + " ms, got " + bad);
            }
        }
    }

    @Test
    void maxRecordBytesIsASizeThatAdmitsEveryFenceMaxVerticesAllows() {
        JobOptions defaults = JobOptions.defaults();
        assertThat(defaults.bytes("max-record-bytes")).isEqualTo(16L << 20);
        assertThat(defaults.get("max-record-bytes")).isEqualTo("16mb");
        assertThat(defaults.inputRules().maxRecordBytes()).isEqualTo(16 << 20);
        assertThat(JobOptions.of(Map.of("max-record-bytes", "67108864")).get("max-record-bytes"))
                .isEqualTo("64mb");
        assertThat(JobOptions.of(Map.of("max-record-bytes", "1gb")).bytes("max-record-bytes"))
                .isEqualTo(1L << 30);
        // 100,000 vertices need 80 bytes each and 1mb besides: 9,048,576 bytes.
        assertThat(JobOptions.of(Map.of("max-record-bytes", "9048576")).bytes("max-record-bytes"))
                .isEqualTo(9_048_576);
        assertThatThrownBy(() -> JobOptions.of(Map.of("max-record-bytes", "9048575")))
                .hasMessage(
                        "max-record-bytes must be at least 9048576 bytes (80 a vertex + 1mb) for"
                                + " max-vertices 100000, so that every fence max-vertices allows"
                                + " fits; got 9048575");
        assertThatThrownBy(() -> JobOptions.of(Map.of("max-vertices", "1000000")))
                .hasMessage(
                        "max-record-bytes must be at least 81048576 bytes (80 a vertex + 1mb) for"
                                + " max-vertices 1000000, so that every fence max-vertices allows"
                                + " fits; got the default 16mb");
        assertThat(
                        JobOptions.of(Map.of("max-vertices", "1000000", "max-record-bytes", "80mb"))
                                .intValue("max-vertices"))
                .isEqualTo(1_000_000);
        assertThat(
                        JobOptions.of(Map.of("max-vertices", "10000", "max-record-bytes", "2mb"))
                                .bytes("max-record-bytes"))
                .isEqualTo(2L << 20);
        assertThatThrownBy(() -> JobOptions.of(Map.of("max-record-bytes", "2gb")))
                .hasMessage("max-record-bytes must be at most 1gb, got 2gb");
        assertThatThrownBy(
                        () ->
                                JobOptions.of(
                                        Map.of(
                                                "max-vertices",
                                                "20000000",
                                                "max-record-bytes",
                                                "1gb")))
                .hasMessageEndingWith("; max-vertices can be at most 13408665");
        assertThatThrownBy(() -> JobOptions.of(Map.of("max-record-bytes", "lots")))
                .hasMessage(
                        "max-record-bytes must be a size in bytes such as 16777216, or with a unit:"
                                + " 512kb, 16mb, 1gb, got 'lots'");
        assertThat(JobOptions.KNOWN.get("max-record-bytes")[1])
                .contains("at most 1gb and at least 80 bytes a vertex of max-vertices + 1mb");
    }

    @Test
    void fenceRepairIsRejectOrMakeValid() {
        assertThat(JobOptions.defaults().inputRules().makeValid()).isFalse();
        assertThat(JobOptions.of(Map.of("fence-repair", "make-valid")).inputRules().makeValid())
                .isTrue();
        assertThat(JobOptions.of(Map.of("fence-repair", "MAKE-VALID")).inputRules().makeValid())
                .isTrue();
        assertThat(
                        Geofencing.builder()
                                .setFenceRepair(QuadfenceOptions.FenceRepair.MAKE_VALID)
                                .setMaxRecordBytes(32 << 20)
                                .build()
                                .rules())
                .isEqualTo(new org.quadfence.io.InputRules(100_000, 3_600_000, 32 << 20, true));
        assertThatThrownBy(() -> JobOptions.of(Map.of("fence-repair", "fix")))
                .hasMessage("fence-repair must be one of reject, make-valid, got 'fix'");
    }

    @Test
    void anOptionGivenIsSetEvenAtItsDefaultAndOneLeftOutHasItsDefault() {
        JobOptions o = JobOptions.of(Map.of("checkpoint-interval", "10s"));
        assertThat(o.isSet(QuadfenceOptions.CHECKPOINT_INTERVAL)).isTrue();
        assertThat(o.isSet(QuadfenceOptions.STATE_BACKEND)).isFalse();
        assertThat(o.get(QuadfenceOptions.STATE_BACKEND)).isEqualTo(StateBackend.HASHMAP);
        assertThat(o.get(QuadfenceOptions.TILE_LEVEL)).isEqualTo(7);
        assertThat(o.get(QuadfenceOptions.EXIT_ON_EXPIRY)).isFalse();
        assertThat(o.get(QuadfenceOptions.EXIT_MARGIN_METERS)).isZero();
    }

    @Test
    void anEmptyValueLeavesAnOptionWithoutADefaultUnset() {
        JobOptions o = JobOptions.of(Map.of("parallelism", " ", "transactional-id-prefix", ""));
        assertThat(o.isSet(QuadfenceOptions.PARALLELISM)).isFalse();
        assertThat(o.get(QuadfenceOptions.PARALLELISM)).isNull();
        assertThat(o.get("parallelism")).isEmpty();
        assertThat(o.get("transactional-id-prefix")).isEmpty();
        assertThat(JobOptions.of(o.asMap()).asMap()).isEqualTo(o.asMap());
    }

    @Test
    void theWebUiSeesEveryOptionButNoKafkaSecret() {
        String jaas =
                "org.apache.kafka.common.security.plain.PlainLoginModule required password=\"s\";";
        JobOptions o =
                JobOptions.of(
                        Map.of(
                                "kafka.sasl.jaas.config", jaas,
                                "kafka.ssl.truststore.password", "s",
                                "kafka.security.protocol", "SASL_SSL"));
        assertThat(o.forDisplay())
                .containsEntry("kafka.sasl.jaas.config", GlobalConfiguration.HIDDEN_CONTENT)
                .containsEntry("kafka.ssl.truststore.password", GlobalConfiguration.HIDDEN_CONTENT)
                .containsEntry("kafka.security.protocol", "SASL_SSL")
                .containsEntry("tile-level", "7")
                .containsKeys(JobOptions.KNOWN.keySet().toArray(new String[0]));
        assertThat(o.kafkaProperties()).containsEntry("sasl.jaas.config", jaas);
    }

    // ---------------------------------------------------------------- in step with the options

    @Test
    void everyShippedOptionFileNamesOnlyRealOptionsWithValidValues() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("jobs"))) {
            files = s.filter(f -> f.toString().endsWith(".properties")).sorted().toList();
        }
        assertThat(files).hasSizeGreaterThanOrEqualTo(4);
        for (Path f : files) {
            Properties p = new Properties();
            try (var in = Files.newInputStream(f)) {
                p.load(in);
            }
            Map<String, String> m = new HashMap<>();
            p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
            JobOptions.of(m);
        }
    }

    @Test
    void localPropertiesListsEveryOptionInOrderWithItsDefaultAndMeaning() throws Exception {
        Map<String, String[]> listed = new LinkedHashMap<>();
        List<String> comment = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("jobs/local.properties"))) {
            if (line.startsWith("# ") && !line.startsWith("# ---")) {
                comment.add(line.substring(2));
            } else if (!line.isBlank() && !line.startsWith("#")) {
                String[] kv = line.split("=", 2);
                listed.put(kv[0], new String[] {kv[1], String.join(" ", comment)});
                comment.clear();
            } else {
                comment.clear();
            }
        }
        assertThat(listed.keySet()).containsExactlyElementsOf(JobOptions.KNOWN.keySet());
        JobOptions.KNOWN.forEach(
                (key, known) -> {
                    assertThat(listed.get(key)[0]).as(key + " default").isEqualTo(known[0]);
                    assertThat(listed.get(key)[1]).as(key + " meaning").isEqualTo(known[1]);
                });
    }

    @Test
    void theOptionsPageListsEveryOptionInOrderWithItsDefaultAndMeaning() throws Exception {
        Map<String, String[]> rows = new LinkedHashMap<>();
        for (List<String> row :
                ReadmeTable.rows("docs/options.md", "| option | default | meaning |")) {
            String value = row.get(1);
            rows.put(row.get(0), new String[] {value.equals("(none)") ? "" : value, row.get(2)});
        }
        assertThat(rows.remove("kafka.*")).isNotNull();
        assertThat(rows.keySet()).containsExactlyElementsOf(JobOptions.KNOWN.keySet());
        JobOptions.KNOWN.forEach(
                (key, known) -> {
                    assertThat(rows.get(key)[0]).as(key + " default").isEqualTo(known[0]);
                    assertThat(rows.get(key)[1]).as(key + " meaning").isEqualTo(known[1]);
                });
    }

    @Test
    void helpListsEveryOptionInOrderWithItsMeaningAndDefault() {
        Map<String, String> entries = new LinkedHashMap<>();
        String key = null;
        String indent = " ".repeat(Help.MEANING_COLUMN);
        for (String line : JobOptions.describe().split(System.lineSeparator())) {
            assertThat(line.length()).as(line).isLessThanOrEqualTo(100);
            if (line.startsWith("  --")) {
                key = line.trim().split(" ", 2)[0].substring(2);
                entries.put(
                        key,
                        line.length() > indent.length() ? line.substring(indent.length()) : "");
            } else if (line.startsWith(indent)) {
                entries.merge(key, line.trim(), (a, b) -> a.isEmpty() ? b : a + " " + b);
            }
        }
        assertThat(entries.remove("kafka.*")).isNotNull();
        assertThat(entries.keySet()).containsExactlyElementsOf(JobOptions.KNOWN.keySet());
        JobOptions.KNOWN.forEach(
                (k, known) ->
                        assertThat(entries.get(k))
                                .isEqualTo(
                                        known[1]
                                                + " (default: "
                                                + (known[0].isEmpty() ? "none" : known[0])
                                                + ")"));
    }

    @Test
    void everyOptionHasADescriptionAndATypeOfItsOwn() {
        for (ConfigOption<?> o : QuadfenceOptions.all()) {
            assertThat(QuadfenceOptions.description(o)).as(o.key()).isNotBlank();
            if (o.hasDefaultValue()) {
                assertThat(QuadfenceOptions.type(o)).isEqualTo(o.defaultValue().getClass());
            }
        }
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
        // The demo's toll gates are seen only by the paths between positions.
        assertThat(o.get("crossing")).isEqualTo("true");
        assertThat(o.millis("crossing-max-gap")).isBetween(2_000L, 60_000L);
    }
}
