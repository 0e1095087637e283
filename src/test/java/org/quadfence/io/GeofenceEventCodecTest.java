package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.model.EventType;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GeofenceEventCodecTest {

    private final GeofenceEventCodec codec = new GeofenceEventCodec();

    @Test
    void thePlainWriterWritesTheBytesJacksonWrites() {
        java.util.Random random = new java.util.Random(7);
        String[] ids = {"truck-17", "a", "caf\u00e9", "quo\"te", "back\\slash", "tab\t", "x y~"};
        String[] groups = {"default", "fleet-2", "gr\u00fcn", "q\"g"};
        String[] properties = {
            null, "{}", "{\"name\":\"Depot\",\"n\":[1,2.5,null]}", "{\"name\":\"D\u00e9p\u00f4t\"}"
        };
        double[] coordinates = {0, -0.0, 1e-7, -73.9857, 180, -90, 40.748400000000004, 1e20};
        for (int i = 0; i < 5_000; i++) {
            GeofenceEvent e =
                    new GeofenceEvent(
                            ids[random.nextInt(ids.length)],
                            ids[random.nextInt(ids.length)],
                            EventType.values()[random.nextInt(EventType.values().length)],
                            random.nextInt(3) == 0 ? random.nextLong() : 1732233600000L + i,
                            random.nextBoolean()
                                    ? coordinates[random.nextInt(coordinates.length)]
                                    : random.nextDouble() * 360 - 180,
                            random.nextBoolean()
                                    ? coordinates[random.nextInt(coordinates.length)]
                                    : random.nextDouble() * 180 - 90,
                            properties[random.nextInt(properties.length)],
                            groups[random.nextInt(groups.length)]);
            assertThat(new String(codec.encode(e), StandardCharsets.UTF_8))
                    .isEqualTo(new String(codec.encodeWithJackson(e), StandardCharsets.UTF_8));
        }
    }

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Test
    void anEventIsWrittenAsTheContractsCompactJson() {
        GeofenceEvent e =
                new GeofenceEvent(
                        "truck-17",
                        "depot-1",
                        EventType.ENTER,
                        1732233600000L,
                        -73.9857,
                        40.7484,
                        null);
        assertThat(text(codec.encode(e)))
                .isEqualTo(
                        "{\"entityId\":\"truck-17\",\"fenceId\":\"depot-1\",\"event\":\"ENTER\","
                                + "\"timestamp\":1732233600000,\"lon\":-73.9857,\"lat\":40.7484}");
    }

    @Test
    void propertiesAreEmbeddedAsAnObjectNotAString() {
        GeofenceEvent e =
                new GeofenceEvent(
                        "e", "f", EventType.EXIT, 1, 2, 3, "{\"name\":\"Depot\",\"tier\":1.10}");
        assertThat(text(codec.encode(e)))
                .isEqualTo(
                        "{\"entityId\":\"e\",\"fenceId\":\"f\",\"event\":\"EXIT\",\"timestamp\":1,"
                            + "\"lon\":2.0,\"lat\":3.0,\"properties\":{\"name\":\"Depot\",\"tier\":1.10}}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            doubles = {
                0.1,
                -0.0,
                0.0,
                1e-300,
                Double.MIN_VALUE,
                180,
                -180,
                45.0625,
                179.99999999999997
            })
    void coordinatesSurviveARoundTripExactly(double v) {
        GeofenceEvent e = new GeofenceEvent("e", "f", EventType.ENTER, -1, v, -v, null);
        GeofenceEvent back = codec.decode(codec.encode(e));
        assertThat(back).isEqualTo(e);
        assertThat(Double.doubleToRawLongBits(back.lon())).isEqualTo(Double.doubleToRawLongBits(v));
    }

    @Test
    void eventsWithTheirFencesPropertiesSurviveARoundTrip() {
        String properties =
                "{\"name\":\"Dépôt \\\"1\\\"\\n\",\"n\":[1e-300,-0.0],\"bad\":\"\\udc00\"}";
        String line =
                "{\"fenceId\":\"dépôt \uD83D\uDE9A\",\"rect\":[1,2,3,4],\"properties\":"
                        + properties
                        + "}";
        FenceChange fence =
                new FenceChangeCodec()
                        .parse(null, line.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE)
                        .value();
        GeofenceEvent e =
                new GeofenceEvent(
                        "caf\u00e9 \"x\"",
                        fence.fenceId(),
                        EventType.EXIT,
                        Long.MAX_VALUE,
                        0.1,
                        -0.0,
                        fence.properties());
        byte[] once = codec.encode(e);
        assertThat(codec.decode(once)).isEqualTo(e);
        assertThat(codec.encode(codec.decode(once))).isEqualTo(once);
    }

    @Test
    void decodingReadsTheGroupAndIgnoresUnknownFields() {
        assertThat(
                        codec.decode(
                                ("{\"group\":\"g\",\"x\":[1],\"entityId\":\"e\",\"fenceId\":\"f\","
                                     + "\"event\":\"EXIT\","
                                     + "\"timestamp\":\"1970-01-01T00:00:00.001Z\",\"lon\":1,\"lat\":2}")
                                        .getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new GeofenceEvent("e", "f", EventType.EXIT, 1, 1, 2, null, "g"));
    }

    @Test
    void aNonDefaultGroupIsWrittenAndTheDefaultOneIsNot() {
        assertThat(
                        new String(
                                codec.encode(
                                        new GeofenceEvent(
                                                "e", "f", EventType.ENTER, 1, 1, 2, null, "g")),
                                StandardCharsets.UTF_8))
                .contains("\"group\":\"g\"");
        assertThat(
                        new String(
                                codec.encode(
                                        new GeofenceEvent(
                                                "e", "f", EventType.ENTER, 1, 1, 2, null)),
                                StandardCharsets.UTF_8))
                .doesNotContain("group");
    }

    @Test
    void decodingSomethingElseFailsWithTheReason() {
        assertThatThrownBy(() -> codec.decode("[]".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected a JSON object, got an array");
        assertThatThrownBy(
                        () ->
                                codec.decode(
                                        ("{\"entityId\":\"e\",\"fenceId\":\"f\",\"event\":\"DWELLING\","
                                             + "\"timestamp\":1,\"lon\":1,\"lat\":2}")
                                                .getBytes(StandardCharsets.UTF_8)))
                .hasMessage("event must be one of [ENTER, EXIT, DWELL, CROSS], got \"DWELLING\"");
        assertThatThrownBy(
                        () -> codec.decode("{\"entityId\":\"e\"}".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("an event needs entityId, fenceId, event, timestamp, lon and lat");
    }
}
