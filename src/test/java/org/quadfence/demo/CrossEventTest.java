package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Waypoint;
import org.quadfence.tiles.TileGrid;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A CROSS event as the job writes it (contract section 10) read by the demo: its console line, in
 * the columns of ENTER and EXIT lines with the crossing point, and its path on the map's data.
 */
class CrossEventTest {

    private static final String CROSS =
            "{\"entityId\":\"truck-017\",\"fenceId\":\"toll-02\",\"event\":\"CROSS\","
                    + "\"timestamp\":1732233661000,\"lon\":-87.66690,\"lat\":41.88289,"
                    + "\"from\":{\"timestamp\":1732233660000,\"lon\":-87.66691,\"lat\":41.88275},"
                    + "\"at\":{\"timestamp\":1732233660571,\"lon\":-87.6669043,\"lat\":41.8828342},"
                    + "\"properties\":{\"name\":\"Toll gate Ashland Ave north of Madison St\","
                    + "\"kind\":\"toll\"}}";
    private static final String ENTER =
            "{\"entityId\":\"taxi-283\",\"fenceId\":\"zone-old-town\",\"event\":\"ENTER\","
                    + "\"timestamp\":1732233661000,\"lon\":-87.63501,\"lat\":41.90450,"
                    + "\"properties\":{\"name\":\"Old Town\",\"kind\":\"zone\"}}";

    @TempDir Path tmp;

    private final City city = new City(42, 14, 1732233600000L);

    // As the demo reads the events topic (EventFeed).
    private static GeofenceEvent decode(String json) {
        return new GeofenceEventCodec().decode(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theJsonOfACrossHasItsPathAndThatOfAnEnterHasNone() {
        GeofenceEvent c = decode(CROSS);
        assertThat(c.event()).isEqualTo(EventType.CROSS);
        assertThat(c.from()).isEqualTo(new Waypoint(1732233660000L, -87.66691, 41.88275));
        assertThat(c.at()).isEqualTo(new Waypoint(1732233660571L, -87.6669043, 41.8828342));
        assertThat(c.lat()).isEqualTo(41.88289);
        GeofenceEvent e = decode(ENTER);
        assertThat(e.event()).isEqualTo(EventType.ENTER);
        assertThat(e.from()).isNull();
        assertThat(e.at()).isNull();
        assertThatThrownBy(() -> decode("{\"entityId\":\"x\"}"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theConsolePrintsACrossLineInTheColumnsOfAnEnterLineWithTheCrossingPoint()
            throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> lines;
        try (Console console =
                new Console(
                        new PrintStream(bytes, true, StandardCharsets.UTF_8), false, city::fence)) {
            console.event(decode(ENTER));
            console.event(decode(CROSS));
            long until = System.currentTimeMillis() + 5_000;
            do {
                Thread.sleep(50);
                lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
            } while (lines.size() < 2 && System.currentTimeMillis() < until);
        }

        assertThat(lines).hasSize(2);
        String enter = lines.get(0);
        String cross = lines.get(1);
        assertThat(cross)
                .doesNotContain("\u001b[")
                .contains(
                        "  CROSS  truck-017  Toll gate Ashland Ave north of Madison St   toll-02 ")
                // at, not the position after the gate
                .endsWith("41.88283, -87.66690");
        assertThat(cross.indexOf("CROSS")).isEqualTo(enter.indexOf("ENTER"));
        assertThat(cross.indexOf("truck-017")).isEqualTo(enter.indexOf("taxi-283"));
        assertThat(cross.indexOf("Toll gate")).isEqualTo(enter.indexOf("Old Town"));
        assertThat(cross.indexOf("toll-02")).isEqualTo(enter.indexOf("zone-old-town"));
        assertThat(cross.indexOf("41.88283")).isEqualTo(enter.indexOf("41.90450"));
        assertThat(cross.length()).isEqualTo(enter.length());
    }

    @Test
    void aCrossInABurstTakesTheLineOfAnEnterAndTheSkippedCountStaysTrue() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        GeofenceEvent enter = decode(ENTER);
        int enters = 40;
        long notShown;
        List<String> lines;
        try (Console console =
                new Console(
                        new PrintStream(bytes, true, StandardCharsets.UTF_8), false, city::fence)) {
            for (int k = 0; k < enters; k++) {
                console.event(enter);
            }
            console.event(decode(CROSS));
            // A second's worth of lines, at most: all that fit in the queue.
            Thread.sleep(2_500);
            notShown = console.notShown();
            lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        }

        assertThat(lines).hasSizeLessThanOrEqualTo(Console.LINES_PER_SECOND + 1);
        assertThat(lines).filteredOn(l -> l.contains("  CROSS  ")).hasSize(1);
        assertThat(lines.size() + notShown).isEqualTo(enters + 1);
    }

    @Test
    void colorsMarkACrossYellow() throws Exception {
        try (Console console =
                new Console(new PrintStream(new ByteArrayOutputStream()), true, city::fence)) {
            assertThat(console.format(decode(CROSS))).contains("\u001b[1;33mCROSS\u001b[0m");
        }
    }

    @Test
    void theMapsDataHoldsTheCrossingWithItsPathAndTheGates() throws Exception {
        GeofenceEvent cross = decode(CROSS);
        GeofenceEvent enter = decode(ENTER);
        MapPage map = new MapPage(tmp, city, new TileGrid(14), 16, 10, "test");

        map.write(
                true,
                1732233662000L,
                new Fleet.FleetView(List.of(), List.of(), 0, 0),
                List.of(enter, cross),
                List.of(cross),
                Map.of("updated", 1732233662000L, "crosses", 1));

        String script = Files.readString(tmp.resolve("map-data.js"));
        assertThat(script).startsWith("qfUpdate(").endsWith(");\n");
        JsonNode data =
                new ObjectMapper()
                        .readTree(script.substring("qfUpdate(".length(), script.length() - 3));
        JsonNode c = data.get("crossings");
        assertThat(c).hasSize(1);
        assertThat(c.get(0).get("v").asText()).isEqualTo("truck-017");
        assertThat(c.get(0).get("f").asText()).isEqualTo("toll-02");
        assertThat(c.get(0).get("t").asLong()).isEqualTo(1732233661000L);
        assertThat(c.get(0).get("lat").asDouble()).isEqualTo(41.88289);
        assertThat(c.get(0).get("from").get("t").asLong()).isEqualTo(1732233660000L);
        assertThat(c.get(0).get("from").get("lon").asDouble()).isEqualTo(-87.66691);
        assertThat(c.get(0).get("at").get("t").asLong()).isEqualTo(1732233660571L);
        assertThat(c.get(0).get("at").get("lat").asDouble()).isEqualTo(41.882834);
        assertThat(c.get(0).get("at").get("lon").asDouble()).isEqualTo(-87.666904);
        assertThat(data.get("events").findValuesAsText("e")).containsExactly("ENTER", "CROSS");
        assertThat(data.get("fences").findValuesAsText("kind")).contains("toll");
        String page = Files.readString(tmp.resolve("map.html"));
        assertThat(page).contains("\"crossings\":[{\"t\":1732233661000,\"v\":\"truck-017\"");
    }
}
