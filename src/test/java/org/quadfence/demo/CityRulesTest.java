package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.io.GeofenceEventCodec;
import org.quadfence.model.FenceChange;
import org.quadfence.model.FenceRules;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Parsed;
import org.quadfence.tiles.TileGrid;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's fences with rules (contract section 11): depots with confirmation and DWELL times of
 * their own, school zones with schedules, how they travel to the job, and the visits of their
 * events on the console and the map.
 */
class CityRulesTest {

    // Wednesday 2026-12-02, 02:13:31 in Chicago.
    private static final long START = 1796199211000L;

    @TempDir Path tmp;

    private final City city = new City(42, 14, START);

    private static GeofenceEvent decode(String json) {
        return new GeofenceEventCodec().decode(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String event(String type, String vehicle, String fence, long t, long at) {
        return "{\"entityId\":\""
                + vehicle
                + "\",\"fenceId\":\""
                + fence
                + "\",\"event\":\""
                + type
                + "\",\"timestamp\":"
                + t
                + ",\"lon\":-87.63017,\"lat\":41.89195,\"enteredAt\":"
                + at
                + (type.equals("EXIT") ? ",\"durationMs\":" + (t - at) : "")
                + "}";
    }

    @Test
    void threeDepotsWaitBeforeAnEnterAndHaveDwellTimesOfTheirOwn() {
        List<City.Fence> depots =
                city.fences().stream()
                        .filter(f -> f.kind().equals("depot") && !f.rules().isNone())
                        .toList();

        assertThat(depots).extracting(City.Fence::id).contains("depot-01", "depot-02", "depot-03");
        for (City.Fence d : depots) {
            assertThat(d.rules().enterAfterMs()).as(d.id()).isPositive();
            assertThat(d.rules().dwellMs()).as(d.id()).isPositive();
            assertThat(d.rules().schedule()).as(d.id()).isNull();
            assertThat(d.about()).as(d.id()).startsWith("enter after ").contains(", dwell ");
        }
        City.Fence first = city.fence("depot-01");
        assertThat(first.rules().enterAfterMs()).isEqualTo(20_000);
        assertThat(first.rules().dwellMs()).isEqualTo(120_000);
        assertThat(first.about()).isEqualTo("enter after 20 s, dwell 2 min");
        assertThat(depots).anySatisfy(d -> assertThat(d.rules().exitAfterMs()).isPositive());
        assertThat(city.fence("depot-04").rules()).isEqualTo(FenceRules.NONE);
    }

    @Test
    void aSchoolZoneHoldsOnChicagoWeekdayMorningsOnly() {
        City.Fence school = city.fence(City.MORNING_SCHOOL);
        assertThat(school.kind()).isEqualTo("school");
        assertThat(school.about()).isEqualTo("schedule: Mon-Fri 07:00-09:30 Chicago time");
        FenceRules rules = school.rules();
        assertThat(rules.schedule().zone().getId()).isEqualTo("America/Chicago");

        assertThat(rules.applies(chicago("2026-12-02T07:00"), null)).isTrue();
        assertThat(rules.applies(chicago("2026-12-04T09:29"), null)).isTrue();
        assertThat(rules.applies(chicago("2026-12-02T09:30"), null)).isFalse();
        assertThat(rules.applies(chicago("2026-12-02T06:59"), null)).isFalse();
        assertThat(rules.applies(chicago("2026-12-02T14:00"), null)).isFalse();
        assertThat(rules.applies(chicago("2026-12-05T08:00"), null)).as("a Saturday").isFalse();
    }

    @Test
    void aSchoolZoneOnTheDemosClockIsOnAndOffInTheFirstMinutes() {
        assertSwitchesInTheFirstMinutes(START);
        // Its windows run over midnight, into the next day, as well.
        assertSwitchesInTheFirstMinutes(chicago("2026-12-05T23:58") + 30_000);
    }

    private static void assertSwitchesInTheFirstMinutes(long start) {
        City.Fence school = new City(42, 14, start).fence(City.DEMO_CLOCK_SCHOOL);
        FenceRules rules = school.rules();
        assertThat(school.about()).isEqualTo("schedule: on 2 min, off 2 min, on the demo's clock");

        // Off at the start, on from the first whole minute after it for 2 min, then off 2 min.
        assertThat(rules.applies(start, null)).isFalse();
        assertThat(rules.applies(start + 90_000, null)).isTrue();
        assertThat(rules.applies(start + 240_000, null)).isFalse();
        assertThat(rules.applies(start + 330_000, null)).isTrue();
        int on = 0;
        for (long t = start; t < start + 4 * 3_600_000L; t += 10_000) {
            on += rules.applies(t, null) ? 1 : 0;
        }
        assertThat(on).as("10 s steps on in four hours").isBetween(700, 740);
    }

    private static long chicago(String localDateTime) {
        return ZonedDateTime.of(LocalDateTime.parse(localDateTime), City.ZONE)
                .toInstant()
                .toEpochMilli();
    }

    @Test
    void theFencesTheDemoWritesReadBackWithTheirRules() throws Exception {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(
                        true, null, new ByteArraySerializer(), new ByteArraySerializer());
        FleetFeed.sendFences(producer, "fences", city, START - 60_000);

        FenceChangeCodec codec = new FenceChangeCodec();
        Map<String, FenceChange> read = new HashMap<>();
        for (ProducerRecord<byte[], byte[]> r : producer.history()) {
            Parsed<FenceChange> p = codec.parse(r.key(), r.value(), 0);
            assertThat(p.deadLetter()).as(new String(r.value(), StandardCharsets.UTF_8)).isNull();
            read.put(p.value().fenceId(), p.value());
        }

        assertThat(read).hasSameSizeAs(city.fences());
        for (City.Fence f : city.fences()) {
            assertThat(read.get(f.id()).rules()).as(f.id()).isEqualTo(f.rules());
        }
        JsonNode depot = new ObjectMapper().readTree(read.get("depot-01").properties());
        assertThat(depot.get("rules").asText()).isEqualTo("enter after 20 s, dwell 2 min");
        assertThat(read.get("depot-04").properties()).doesNotContain("rules");
    }

    @Test
    void consoleLinesShowAVisitsDurationAndAConfirmation() throws Exception {
        long t = START + 400_000;
        try (Console console =
                new Console(new PrintStream(new ByteArrayOutputStream()), false, city::fence)) {
            String exit =
                    console.format(decode(event("EXIT", "taxi-061", "depot-03", t, t - 252_000)));
            String confirmed =
                    console.format(decode(event("ENTER", "van-164", "depot-01", t, t - 20_000)));
            String dwell =
                    console.format(decode(event("DWELL", "van-164", "depot-01", t, t - 140_000)));
            String atOnce = console.format(decode(event("ENTER", "van-7", "cbd", t, t)));

            assertThat(exit).contains("  EXIT   taxi-061 ").endsWith("  after 4 min 12 s");
            assertThat(confirmed).contains("  ENTER  van-164 ").endsWith("  confirmed after 20 s");
            assertThat(dwell).contains("  DWELL  ").endsWith("  inside for 2 min 20 s");
            assertThat(atOnce).endsWith("41.89195, -87.63017");
            assertThat(exit.indexOf("41.89195")).isEqualTo(atOnce.indexOf("41.89195"));
        }
        assertThat(Console.duration(400)).isEqualTo("0.4 s");
        assertThat(Console.duration(7_350)).isEqualTo("7.4 s");
        assertThat(Console.duration(3_980)).isEqualTo("4 s");
        assertThat(Console.duration(9_960)).isEqualTo("10 s");
        assertThat(Console.duration(10_000)).isEqualTo("10 s");
        assertThat(Console.duration(59_600)).isEqualTo("1 min");
        assertThat(Console.duration(3_900_000)).isEqualTo("1 h 5 min");
    }

    @Test
    void anEventOfAFenceWithRulesTakesTheLineOfACommonOneInABurst() throws Exception {
        long t = START + 400_000;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<String> lines;
        try (Console console =
                new Console(
                        new PrintStream(bytes, true, StandardCharsets.UTF_8), false, city::fence)) {
            for (int k = 0; k < 40; k++) {
                console.event(decode(event("ENTER", "van-7", "cbd", t, t)));
            }
            console.event(decode(event("EXIT", "taxi-061", "depot-02", t, t - 252_000)));
            Thread.sleep(2_500);
            lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        }

        assertThat(lines).filteredOn(l -> l.contains(" depot-02 ")).hasSize(1);
    }

    @Test
    void theMapsDataHasTheRulesTheSchedulesAndTheVisits() throws Exception {
        long t = START + 400_000;
        MapPage map = new MapPage(tmp, city, new TileGrid(14), 16, 10, "test");

        map.write(
                true,
                START + 90_000,
                new Fleet.FleetView(List.of(), List.of(), 0, 0),
                List.of(decode(event("EXIT", "taxi-061", "depot-03", t, t - 252_000))),
                List.of(),
                Map.of("updated", t));

        String script = Files.readString(tmp.resolve("map-data.js"));
        JsonNode data =
                new ObjectMapper()
                        .readTree(script.substring("qfUpdate(".length(), script.length() - 3));
        JsonNode on = data.get("scheduleOn");
        assertThat(on.get(City.DEMO_CLOCK_SCHOOL).asBoolean()).isTrue();
        assertThat(on.get(City.MORNING_SCHOOL).asBoolean()).isFalse();
        assertThat(on.size()).isEqualTo(2);
        JsonNode depot = null;
        for (JsonNode f : data.get("fences")) {
            if (f.get("id").asText().equals("depot-01")) {
                depot = f;
            }
            if (f.get("id").asText().equals("depot-04")) {
                assertThat(f.has("rules")).isFalse();
            }
        }
        assertThat(depot.get("rules").asText()).isEqualTo("enter after 20 s, dwell 2 min");
        JsonNode exit = data.get("events").get(0);
        assertThat(exit.get("t").asLong() - exit.get("a").asLong()).isEqualTo(252_000);
    }
}
