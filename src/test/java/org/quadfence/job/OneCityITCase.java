package org.quadfence.job;

import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.options.JobOptions;
import org.quadfence.stages.StageLoad;
import org.quadfence.testing.MiniClusters;
import org.quadfence.testing.SampleReplay;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole city in one tile of the default tile level: every fence and every position in one level-7
 * tile. The tile's work spreads over the subtasks (at parallelism 4 no keyed stage gives a subtask
 * more than 30% of its records), and the events are the same at parallelism 1, 2 and 4, and those
 * of a brute-force reference. A replay at parallelism 2 spreads the tile over two shards, not the
 * four of option {@code tile-shards}: one copy of each fence update per subtask.
 */
class OneCityITCase {

    @RegisterExtension static final MiniClusterExtension FLINK = MiniClusters.loopback(4);

    private static final double LON = -75.16;
    private static final double LAT = 39.95;
    private static final int FENCES = 600;
    private static final int ENTITIES = 2_000;
    private static final int ROUNDS = 8;

    @TempDir static Path dir;

    private static final List<double[]> boxes = new ArrayList<>();

    @BeforeAll
    static void writeTheCity() throws IOException {
        Random random = new Random(7);
        List<String> fences = new ArrayList<>();
        for (int i = 0; i < FENCES; i++) {
            double w = 0.002 + random.nextDouble() * 0.03;
            double h = 0.002 + random.nextDouble() * 0.02;
            double x = LON + random.nextGaussian() * 0.05 - w / 2;
            double y = LAT + random.nextGaussian() * 0.05 - h / 2;
            boxes.add(new double[] {x, y, x + w, y + h});
            fences.add(
                    String.format(
                            Locale.ROOT,
                            "{\"fenceId\":\"f%03d\",\"rect\":[%.6f,%.6f,%.6f,%.6f]}",
                            i,
                            x,
                            y,
                            x + w,
                            y + h));
        }
        Files.write(dir.resolve("fences.jsonl"), fences);
        double[][] at = new double[ENTITIES][2];
        for (double[] p : at) {
            p[0] = LON + random.nextGaussian() * 0.05;
            p[1] = LAT + random.nextGaussian() * 0.05;
        }
        List<String> positions = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
            for (int e = 0; e < ENTITIES; e++) {
                at[e][0] += random.nextGaussian() * 0.004;
                at[e][1] += random.nextGaussian() * 0.004;
                positions.add(
                        String.format(
                                Locale.ROOT,
                                "{\"entityId\":\"e%04d\",\"lon\":%.6f,\"lat\":%.6f,"
                                        + "\"timestamp\":%d}",
                                e,
                                at[e][0],
                                at[e][1],
                                1_700_000_000_000L + round * 10_000L + e * 4L));
            }
        }
        Files.write(dir.resolve("positions.jsonl"), positions);
    }

    @Test
    void theCityIsOneTileOfTheDefaultLevel() throws IOException {
        TileGrid grid = new TileGrid(7);
        assertThat(
                        Files.readAllLines(dir.resolve("positions.jsonl")).stream()
                                .map(OneCityITCase::point)
                                .map(p -> grid.tileOf(p[0], p[1]))
                                .distinct())
                .hasSize(1);
    }

    @Test
    void everyKeyedStageSpreadsTheCityAndTheEventsAreTheBruteForceOnesAtEveryParallelism()
            throws Exception {
        Map<String, List<String>> one = replay(1).events();
        Map<String, List<String>> four = replay(4).events();
        Map<String, List<String>> expected = bruteForce();
        assertThat(expected.values().stream().mapToInt(List::size).sum()).isGreaterThan(10_000);
        assertThat(one).isEqualTo(expected);
        assertThat(four).isEqualTo(expected);
    }

    @Test
    void aReplayWithMoreShardsThanSubtasksTakesOneCopyOfEachFenceUpdatePerSubtask()
            throws Exception {
        Run two = replay(2);
        // Every fence lies in the city's tile: one update each, and 8 rounds of every entity.
        long positions = (long) ENTITIES * ROUNDS;
        String tileStage = "TileMatcher: " + (positions + 2 * FENCES) + " records in 2 subtasks";
        assertThat(two.summary())
                .anySatisfy(
                        line -> {
                            assertThat(line).startsWith(tileStage);
                            assertThat(busiest(line)).isLessThanOrEqualTo(55);
                        });
        assertThat(two.events()).isEqualTo(bruteForce());
    }

    /** The events by entity and the per-stage summary of one replay. */
    private record Run(Map<String, List<String>> events, List<String> summary) {}

    private Run replay(int parallelism) throws Exception {
        JobOptions options = JobOptions.of(Map.of("parallelism", String.valueOf(parallelism)));
        Path events = dir.resolve("events-" + parallelism + ".jsonl");
        JobExecutionResult result =
                SampleReplay.replay(
                        options,
                        dir.resolve("fences.jsonl"),
                        dir.resolve("positions.jsonl"),
                        events,
                        dir.resolve("dlq-" + parallelism + ".jsonl"));
        List<String> summary = StageLoad.summary(result.getAllAccumulatorResults());
        assertThat(summary).hasSize(5);
        if (parallelism == 4) {
            for (String line : summary) {
                assertThat(busiest(line)).as(line).isLessThanOrEqualTo(30);
            }
        }
        ObjectMapper json = new ObjectMapper();
        Map<String, List<String>> byEntity = new TreeMap<>();
        for (String line : Files.readAllLines(events)) {
            JsonNode e = json.readTree(line);
            byEntity.computeIfAbsent(e.get("entityId").asText(), k -> new ArrayList<>())
                    .add(
                            e.get("event").asText()
                                    + " "
                                    + e.get("fenceId").asText()
                                    + " @"
                                    + e.get("timestamp").asLong());
        }
        return new Run(byEntity, summary);
    }

    /** Contract section 3 over every fence, per entity in time order. */
    private static Map<String, List<String>> bruteForce() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, List<JsonNode>> positions = new TreeMap<>();
        for (String line : Files.readAllLines(dir.resolve("positions.jsonl"))) {
            JsonNode p = json.readTree(line);
            positions.computeIfAbsent(p.get("entityId").asText(), k -> new ArrayList<>()).add(p);
        }
        Map<String, List<String>> out = new TreeMap<>();
        positions.forEach(
                (entity, list) -> {
                    list.sort((a, b) -> Long.compare(time(a), time(b)));
                    TreeMap<String, Boolean> was = new TreeMap<>();
                    for (JsonNode p : list) {
                        double lon = p.get("lon").asDouble();
                        double lat = p.get("lat").asDouble();
                        TreeMap<String, Boolean> now = new TreeMap<>();
                        for (int i = 0; i < boxes.size(); i++) {
                            double[] b = boxes.get(i);
                            if (rounded(b[0]) <= lon
                                    && lon <= rounded(b[2])
                                    && rounded(b[1]) <= lat
                                    && lat <= rounded(b[3])) {
                                now.put(String.format(Locale.ROOT, "f%03d", i), true);
                            }
                        }
                        for (String f : was.keySet()) {
                            if (!now.containsKey(f)) {
                                add(out, entity, "EXIT " + f + " @" + time(p));
                            }
                        }
                        for (String f : now.keySet()) {
                            if (!was.containsKey(f)) {
                                add(out, entity, "ENTER " + f + " @" + time(p));
                            }
                        }
                        was = now;
                    }
                });
        return out;
    }

    /** The busiest subtask's share of a stage's records, in percent, from its summary line. */
    private static int busiest(String summaryLine) {
        Matcher m = Pattern.compile("busiest subtask (\\d+)%").matcher(summaryLine);
        assertThat(m.find()).as(summaryLine).isTrue();
        return Integer.parseInt(m.group(1));
    }

    // The fence file holds six decimals.
    private static double rounded(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.6f", v));
    }

    private static void add(Map<String, List<String>> out, String entity, String event) {
        out.computeIfAbsent(entity, k -> new ArrayList<>()).add(event);
    }

    private static long time(JsonNode p) {
        return p.get("timestamp").asLong();
    }

    private static double[] point(String line) {
        Matcher m = Pattern.compile("\"lon\":([-0-9.]+),\"lat\":([-0-9.]+)").matcher(line);
        assertThat(m.find()).isTrue();
        return new double[] {Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))};
    }
}
