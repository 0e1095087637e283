package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quadfence.geo.Rectangle;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class FenceChangeCodecTest {

    private static final long FILE = Long.MIN_VALUE;
    private static final String RECT = "\"rect\":[1,2,3,4]";
    private static final String RECT_RULE =
            "rect must be an array of 4 numbers [minLon, minLat, maxLon, maxLat], got ";

    private final FenceChangeCodec codec = new FenceChangeCodec();

    private Parsed<FenceChange> line(String text) {
        return codec.parse(null, bytes(text), FILE);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Arguments> badRecords() {
        String big = "x".repeat(Limits.MAX_PROPERTIES_CHARS);
        return Stream.of(
                arguments(
                        "properties over the limit",
                        "{\"fenceId\":\"F\",\"rect\":[1,2,3,4],\"properties\":{\"b\":\""
                                + big
                                + "\"}}",
                        "properties too large: 65544 characters of compact JSON, the limit is"
                                + " 65536"),
                arguments(
                        "a negative time",
                        "{\"fenceId\":\"F\",\"rect\":[1,2,3,4],\"timestamp\":-5}",
                        "timestamp out of range [0, 253402300799999]"),
                arguments(
                        "a time in microseconds",
                        "{\"fenceId\":\"F\",\"rect\":[1,2,3,4],\"timestamp\":1732234640891000}",
                        "timestamp out of range [0, 253402300799999]"),
                arguments(
                        "a delete far in the future",
                        "{\"fenceId\":\"F\",\"deleted\":true,\"timestamp\":4070908800000}",
                        "future: event time 2099-01-01T00:00:00Z is "),
                arguments(
                        "not JSON",
                        "fence depot-1 is a box",
                        "not JSON: Unrecognized token 'fence'"),
                arguments(
                        "truncated JSON",
                        "{\"fenceId\":\"F5\",\"rect\":[1,2,3,4],\"timestamp\"",
                        "not JSON: Unexpected end-of-input"),
                arguments(
                        "an array",
                        "[{\"fenceId\":\"f\"," + RECT + "}]",
                        "expected a JSON object, got an array"),
                arguments("a scalar", "true", "expected a JSON object, got true"),
                arguments("an empty object", "{}", "missing field fenceId"),
                arguments(
                        "a position",
                        "{\"entityId\":\"e1\",\"lon\":1,\"lat\":2}",
                        "missing field fenceId"),
                arguments(
                        "a delete without fenceId",
                        "{\"deleted\":true,\"timestamp\":1}",
                        "missing field fenceId"),
                arguments(
                        "an upsert without rect",
                        "{\"fenceId\":\"f\",\"timestamp\":1}",
                        "missing field rect or circle (or \"deleted\": true for a delete)"),
                arguments(
                        "deleted false without rect",
                        "{\"fenceId\":\"f\",\"deleted\":false}",
                        "missing field rect or circle (or \"deleted\": true for a delete)"),
                arguments(
                        "a number fenceId",
                        "{\"fenceId\":12," + RECT + "}",
                        "fenceId must be a string of 1 to 256 characters, got 12"),
                arguments(
                        "a null fenceId",
                        "{\"fenceId\":null," + RECT + "}",
                        "fenceId must be a string of 1 to 256 characters, got null"),
                arguments(
                        "an empty fenceId",
                        "{\"fenceId\":\"\",\"deleted\":true}",
                        "fenceId must be a string of 1 to 256 characters, got an empty string"),
                arguments(
                        "a 257-character fenceId",
                        "{\"fenceId\":\"" + "f".repeat(257) + "\"," + RECT + "}",
                        "fenceId must be a string of 1 to 256 characters, got 257 characters"),
                arguments(
                        "a rect of 3 numbers",
                        "{\"fenceId\":\"f\",\"rect\":[-180.0,-90,1.80e+2]}",
                        RECT_RULE + "3 values"),
                arguments(
                        "a rect of 5 numbers",
                        "{\"fenceId\":\"f\",\"rect\":[1,2,3,4,0]}",
                        RECT_RULE + "5 values"),
                arguments(
                        "an empty rect", "{\"fenceId\":\"f\",\"rect\":[]}", RECT_RULE + "0 values"),
                arguments(
                        "a rect in a string",
                        "{\"fenceId\":\"f\",\"rect\":\"[1,2,3,4]\"}",
                        RECT_RULE + "\"[1,2,3,4]\""),
                arguments(
                        "a rect as an object",
                        "{\"fenceId\":\"f\",\"rect\":{\"minLon\":1}}",
                        RECT_RULE + "an object"),
                arguments(
                        "a null corner",
                        "{\"fenceId\":\"f\",\"rect\":[93.5,null,95.5,79.75]}",
                        "rect[1] must be a number, got null"),
                arguments(
                        "a string corner",
                        "{\"fenceId\":\"f\",\"rect\":[53.5,\"56.75\",55.5,57.75]}",
                        "rect[1] must be a number, got \"56.75\""),
                arguments(
                        "a NaN corner",
                        "{\"fenceId\":\"f\",\"rect\":[-180.0,NaN,180.0,90.0]}",
                        "not JSON: Non-standard token 'NaN'"),
                arguments(
                        "a corner too big for a double",
                        "{\"fenceId\":\"f\",\"rect\":[1,2,1e400,4]}",
                        "rect[2] must be a finite number, got 1e400"),
                arguments(
                        "minLat above maxLat",
                        "{\"fenceId\":\"f\",\"rect\":[0,12.5,1,10]}",
                        "minLat 12.5 > maxLat 10.0"),
                arguments(
                        "a corner out of range",
                        "{\"fenceId\":\"f\",\"rect\":[0,0,181,1]}",
                        "maxLon out of range [-180, 180]: 181.0"),
                arguments(
                        "deleted as a string",
                        "{\"fenceId\":\"f\",\"deleted\":\"true\"}",
                        "deleted must be true or false, got \"true\""),
                arguments(
                        "deleted as a number",
                        "{\"fenceId\":\"f\",\"deleted\":1}",
                        "deleted must be true or false, got 1"),
                arguments(
                        "a delete with a rect",
                        "{\"fenceId\":\"f\",\"deleted\":true," + RECT + "}",
                        "a delete (\"deleted\": true) must not have a shape"),
                arguments(
                        "properties as an array",
                        "{\"fenceId\":\"f\"," + RECT + ",\"properties\":[1]}",
                        "properties must be a JSON object, got an array"),
                arguments(
                        "properties as a string",
                        "{\"fenceId\":\"f\"," + RECT + ",\"properties\":\"{}\"}",
                        "properties must be a JSON object, got \"{}\""),
                arguments(
                        "a field given twice inside properties",
                        "{\"fenceId\":\"f\"," + RECT + ",\"properties\":{\"a\":1,\"a\":2}}",
                        "duplicate field 'a'"),
                arguments(
                        "deep nesting inside properties",
                        "{\"fenceId\":\"f\","
                                + RECT
                                + ",\"properties\":"
                                + "{\"a\":".repeat(64)
                                + "1"
                                + "}".repeat(65),
                        "nesting deeper than 64"),
                arguments(
                        "a bad timestamp",
                        "{\"fenceId\":\"f\"," + RECT + ",\"timestamp\":\"not a time\"}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant: \"not"
                                + " a time\""),
                arguments(
                        "a null timestamp",
                        "{\"fenceId\":\"f\"," + RECT + ",\"timestamp\":null}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " null"),
                arguments(
                        "a fractional timestamp",
                        "{\"fenceId\":\"f\"," + RECT + ",\"timestamp\":0.5}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant: 0.5"),
                arguments(
                        "a non-string group",
                        "{\"fenceId\":\"f\"," + RECT + ",\"group\":[\"tenant-b\"]}",
                        "group must be a string, got an array"),
                arguments(
                        "a Feature whose geometry has no type",
                        "{\"type\":\"Feature\",\"id\":\"zone-9\",\"geometry\":{},\"properties\":null}",
                        "geometry must be a Polygon or a MultiPolygon, got no type"),
                arguments(
                        "a Feature with a Point",
                        "{\"type\":\"Feature\",\"id\":\"p\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}",
                        "geometry must be a Polygon or a MultiPolygon, got \"Point\""),
                arguments(
                        "a Feature without id",
                        "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,1],[0,0]]]}}",
                        "a GeoJSON Feature fence needs an \"id\": the fence id"),
                arguments(
                        "an unclosed ring",
                        "{\"type\":\"Feature\",\"id\":\"u\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[0,1],[0,0.5]]]}}",
                        "ring 0 of polygon 0 is not closed: first [0.0, 0.0] != last [0.0, 0.5]"),
                arguments(
                        "a Feature whose geometry is null",
                        "{\"type\":\"Feature\",\"id\":\"n\",\"geometry\":null,\"properties\":{}}",
                        "a Feature fence needs a Polygon or MultiPolygon geometry"),
                arguments(
                        "a Polygon without rings",
                        "{\"type\":\"Feature\",\"id\":\"e\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[]}}",
                        "coordinates needs at least one ring"),
                arguments(
                        "a hole touching its exterior ring twice",
                        "{\"type\":\"Feature\",\"id\":\"h\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
                            + "[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[0,2],[2,1],[2,4],[0,2]]]}}",
                        "invalid polygon (OGC): Interior is disconnected at ["),
                arguments(
                        "a circle of radius 0",
                        "{\"fenceId\":\"x\",\"circle\":{\"lon\":1,\"lat\":2,\"radiusMeters\":0}}",
                        "circle radiusMeters must be > 0 and <= 20000000: 0.0"),
                arguments(
                        "a rect and a circle",
                        "{\"fenceId\":\"x\","
                                + RECT
                                + ",\"circle\":{\"lon\":1,\"lat\":2,\"radiusMeters\":5}}",
                        "a fence has one shape: rect, circle or geometry, not several"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    void aBadRecordIsADeadLetterWithAnActionableErrorAndItsRawText(
            String kind, String text, String error) {
        Parsed<FenceChange> parsed = line(text);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.FENCES);
        assertThat(parsed.deadLetter().error()).startsWith(error);
        assertThat(parsed.deadLetter().raw()).isEqualTo(DeadLetterCodec.raw(bytes(text)));
    }

    @Test
    void anUpsertCarriesItsRectTimestampAndPropertiesAsCompactText() {
        Parsed<FenceChange> parsed =
                line(
                        "{\"fenceId\":\"depot-1\",\"rect\":[-74.0,40.7,-73.9,40.8],\"timestamp\":1732233000000,"
                            + " \"properties\": { \"name\" : \"Depot\", \"tier\": 1.10, \"big\":"
                            + " 1e400, \"z\": -0.0, \"tags\": [\"x\", {\"y\": null}], \"ok\": true"
                            + " } }");
        assertThat(parsed.value())
                .isEqualTo(
                        FenceChange.upsert(
                                "depot-1",
                                new Rectangle(-74.0, 40.7, -73.9, 40.8),
                                1732233000000L,
                                "{\"name\":\"Depot\",\"tier\":1.10,\"big\":1e400,\"z\":-0.0,"
                                        + "\"tags\":[\"x\",{\"y\":null}],\"ok\":true}"));
        assertThat(parsed.value().isDelete()).isFalse();
    }

    @Test
    void anEmptyMultiPolygonIsAFenceThatContainsNoPoint() {
        FenceChange c =
                line("{\"type\":\"Feature\",\"id\":\"none\",\"geometry\":{\"type\":\"MultiPolygon\","
                         + "\"coordinates\":[]},\"properties\":{\"a\":1}}")
                        .value();
        assertThat(c.isDelete()).isFalse();
        assertThat(c.polygons()).isEmpty();
        assertThat(c.properties()).isEqualTo("{\"a\":1}");
        assertThat(c.shape().contains(0, 0)).isFalse();
        assertThat(c.shape().bounds()).isEmpty();
    }

    @Test
    void aHoleTouchingItsExteriorRingAtAVertexIsValidUnderOgc() {
        FenceChange c =
                line("{\"type\":\"Feature\",\"id\":\"t\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
                         + "[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[0,0],[2,1],[1,2],[0,0]]]}}")
                        .value();
        assertThat(c.shape().contains(0, 0)).isTrue();
        assertThat(c.shape().contains(1, 1)).isFalse();
        assertThat(c.shape().contains(3, 3)).isTrue();
    }

    @Test
    void propertiesWithAnUnpairedSurrogateBecomeValidUnicodeText() {
        FenceChange c =
                line("{\"fenceId\":\"f\"," + RECT + ",\"properties\":{\"n\":\"a\\ud800\u00e9\"}}")
                        .value();
        assertThat(c.properties()).isEqualTo("{\"n\":\"a\\uD800\u00e9\"}");
    }

    @Test
    void nullPropertiesAreNoPropertiesAsInGeoJson() {
        assertThat(
                        line("{\"fenceId\":\"f\"," + RECT + ",\"properties\":null}")
                                .value()
                                .properties())
                .isNull();
    }

    @Test
    void aRectWithMinLonAboveMaxLonCrossesTheAntimeridianAndDegenerateRectsAreValid() {
        assertThat(line("{\"fenceId\":\"am\",\"rect\":[180.0,-90,-180.0,90.0]}").value().rect())
                .isEqualTo(new Rectangle(180, -90, -180, 90));
        assertThat(line("{\"fenceId\":\"p\",\"rect\":[-0.0,1,-0.0,1]}").value().rect())
                .isEqualTo(new Rectangle(-0.0, 1, -0.0, 1));
    }

    @Test
    void aDeleteIsAFenceChangeWithoutRect() {
        assertThat(
                        line("{\"timestamp\":\"2024-11-22T00:00:02.048Z\",\"deleted\":true,\"fenceId\":\"F31\"}")
                                .value())
                .isEqualTo(FenceChange.delete("F31", 1732233602048L));
    }

    @Test
    void aDeleteIgnoresProperties() {
        assertThat(line("{\"fenceId\":\"f\",\"deleted\":true,\"properties\":{\"a\":1}}").value())
                .isEqualTo(FenceChange.delete("f", FILE));
    }

    @Test
    void deletedFalseWithARectIsAnUpsert() {
        assertThat(line("{\"fenceId\":\"f\",\"deleted\":false," + RECT + "}").value())
                .isEqualTo(FenceChange.upsert("f", new Rectangle(1, 2, 3, 4), FILE, null));
    }

    @Test
    void withoutATimestampAFileChangeHoldsFromTheBeginningOfTime() {
        FenceChange c =
                line("{\"fenceId\":\"f\"," + RECT + ",\"group\":\"fleet-a\",\"owner\":\"ops\"}")
                        .value();
        assertThat(c.timestamp()).isEqualTo(Long.MIN_VALUE);
        assertThat(c.properties()).isNull();
    }

    @Test
    void withoutATimestampAKafkaChangeHoldsFromTheRecordTimestamp() {
        assertThat(codec.parse(bytes("f"), bytes("{\"fenceId\":\"f\"," + RECT + "}"), 42).value())
                .isEqualTo(FenceChange.upsert("f", new Rectangle(1, 2, 3, 4), 42, null));
        assertThat(
                        codec.parse(
                                        bytes("f"),
                                        bytes("{\"fenceId\":\"f\"," + RECT + ",\"timestamp\":7}"),
                                        42)
                                .value()
                                .timestamp())
                .isEqualTo(7);
    }

    @Test
    void aKafkaTombstoneDeletesTheFenceItsKeyNamesAtTheRecordTimestamp() {
        assertThat(codec.parse(bytes("depot-1"), null, 42).value())
                .isEqualTo(FenceChange.delete("depot-1", 42));
    }

    @Test
    void aTombstoneNeedsAKeyThatIsAFenceId() {
        assertThat(codec.parse(null, null, 42).deadLetter())
                .isEqualTo(new DeadLetter("fences", "empty record: no value and no key", ""));
        assertThat(codec.parse(new byte[0], null, 42).deadLetter().error())
                .isEqualTo(
                        "the key of a tombstone must be a fence id of 1 to 256 characters, got 0"
                                + " characters");
        assertThat(codec.parse(new byte[] {(byte) 0xc3}, null, 42).deadLetter().error())
                .isEqualTo("record key is not valid UTF-8");
    }

    @Test
    void aKafkaRecordWhoseKeyIsNotItsFenceIdIsADeadLetter() {
        String value = "{\"fenceId\":\"b\"," + RECT + "}";
        Parsed<FenceChange> parsed = codec.parse(bytes("a"), bytes(value), 42);
        assertThat(parsed.deadLetter())
                .isEqualTo(
                        new DeadLetter(
                                "fences",
                                "record key \"a\" differs from fenceId \"b\"; the key of a fence"
                                        + " change must be its fenceId",
                                value));
    }

    @Test
    void aKafkaRecordKeyedByItsFenceIdIsFineForNonAsciiIdsToo() {
        String value = "{\"fenceId\":\"d\\u00e9p\u00f4t\",\"deleted\":true}";
        assertThat(codec.parse(bytes("dép\u00f4t"), bytes(value), 42).value())
                .isEqualTo(FenceChange.delete("dépôt", 42));
    }

    @Test
    void propertiesOfExactlyTheLimitAreKept() {
        String blob = "x".repeat(Limits.MAX_PROPERTIES_CHARS - 8);
        Parsed<FenceChange> p =
                line(
                        "{\"fenceId\":\"F\",\"rect\":[1,2,3,4],\"properties\":{\"b\": \""
                                + blob
                                + "\"}}");
        assertThat(p.ok()).isTrue();
        assertThat(p.value().properties()).hasSize(Limits.MAX_PROPERTIES_CHARS);
    }

    @Test
    void aFenceChangesIdentityIsItsIdTimeAndGroupOnlyWhenNotTheDefault() {
        assertThat(text(codec.encodeIdentity(FenceChange.delete("dépôt \"1\"", 42))))
                .isEqualTo("{\"fenceId\":\"dépôt \\\"1\\\"\",\"timestamp\":42}");
        FenceChange grouped =
                FenceChange.upsert("f", new Rectangle(1, 2, 3, 4), -1, "{}").inGroup("fleet-a");
        assertThat(text(codec.encodeIdentity(grouped)))
                .isEqualTo("{\"fenceId\":\"f\",\"timestamp\":-1,\"group\":\"fleet-a\"}");
    }

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
