package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PositionCodecTest {

    private static final String TS = ",\"timestamp\":1732233600000}";

    private static final String RANGE =
            "timestamp out of range [0, 253402300799999] (1970-01-01T00:00:00Z to"
                    + " 9999-12-31T23:59:59.999Z): ";

    private final PositionCodec codec = new PositionCodec();

    static Stream<Arguments> badRecords() {
        String ok = "{\"entityId\":\"e\",\"lon\":1.5,\"lat\":2.5" + TS;
        return Stream.of(
                arguments("not JSON", "this is not json", "not JSON: Unrecognized token 'this'"),
                arguments("single quotes", "{'entityId':'e'}", "not JSON: Unexpected character ("),
                arguments(
                        "truncated JSON",
                        "{\"entityId\":\"e\",\"lon\":1.5,\"lat\":",
                        "not JSON: Unexpected end-of-input"),
                arguments("empty text", "", "empty record"),
                arguments("only whitespace", " \r\n", "empty record"),
                arguments("an array", "[" + ok + "]", "expected a JSON object, got an array"),
                arguments("a number", "42", "expected a JSON object, got 42"),
                arguments(
                        "a string",
                        "\"just a string\"",
                        "expected a JSON object, got \"just a string\""),
                arguments("null", "null", "expected a JSON object, got null"),
                arguments("an empty object", "{}", "missing field entityId"),
                arguments("two objects", ok + ok, "trailing content after the JSON object"),
                arguments("trailing garbage", ok + " x", "not JSON: Unrecognized token 'x'"),
                arguments("no lon", "{\"entityId\":\"e\",\"lat\":1" + TS, "missing field lon"),
                arguments("no lat", "{\"entityId\":\"e\",\"lon\":1" + TS, "missing field lat"),
                arguments(
                        "no timestamp",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2}",
                        "missing field timestamp"),
                arguments(
                        "field names are case-sensitive",
                        "{\"EntityId\":\"e\",\"lon\":1,\"lat\":2" + TS,
                        "missing field entityId"),
                arguments(
                        "a string lon",
                        "{\"entityId\":\"e\",\"lon\":\"45.0\",\"lat\":2" + TS,
                        "lon must be a number, got \"45.0\""),
                arguments(
                        "a boolean lat",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":true" + TS,
                        "lat must be a number, got true"),
                arguments(
                        "a null lat",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":null" + TS,
                        "lat must be a number, got null"),
                arguments(
                        "an array lon",
                        "{\"entityId\":\"e\",\"lon\":[1],\"lat\":2" + TS,
                        "lon must be a number, got an array"),
                arguments(
                        "a number entityId",
                        "{\"entityId\":17,\"lon\":1,\"lat\":2" + TS,
                        "entityId must be a string of 1 to 256 characters, got 17"),
                arguments(
                        "an empty entityId",
                        "{\"entityId\":\"\",\"lon\":1,\"lat\":2" + TS,
                        "entityId must be a string of 1 to 256 characters, got an empty string"),
                arguments(
                        "a 257-character entityId",
                        "{\"entityId\":\"" + "é".repeat(257) + "\",\"lon\":1,\"lat\":2" + TS,
                        "entityId must be a string of 1 to 256 characters, got 257 characters"),
                arguments(
                        "a NaN literal",
                        "{\"entityId\":\"e\",\"lon\":NaN,\"lat\":2" + TS,
                        "not JSON: Non-standard token 'NaN'"),
                arguments(
                        "an Infinity literal",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":-Infinity" + TS,
                        "not JSON: Non-standard token '-Infinity'"),
                arguments(
                        "a number too big for a double",
                        "{\"entityId\":\"e\",\"lon\":1e999,\"lat\":2" + TS,
                        "lon must be a finite number, got 1e999"),
                arguments(
                        "lat above 90",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":91.2" + TS,
                        "lat out of range [-90, 90]: 91.2"),
                arguments(
                        "lon just below -180",
                        "{\"entityId\":\"e\",\"lon\":-180.0001,\"lat\":2" + TS,
                        "lon out of range [-180, 180]: -180.0001"),
                arguments(
                        "a timestamp that is not a date",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"yesterday\"}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " \"yesterday\""),
                arguments(
                        "an impossible date",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"2024-13-45T25:61:00Z\"}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " \"2024-13-45T25:61:00Z\""),
                arguments(
                        "a local date-time without an offset",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"2024-11-22T00:00:00\"}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " \"2024-11-22T00:00:00\""),
                arguments(
                        "epoch milliseconds in a string",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"1732233600000\"}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " \"1732233600000\""),
                arguments(
                        "a fractional timestamp",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1732233600000.5}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " 1732233600000.5"),
                arguments(
                        "a timestamp in seconds with a fraction",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1732233600.25}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " 1732233600.25"),
                arguments(
                        "a boolean timestamp",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":true}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " true"),
                arguments(
                        "an object timestamp",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":{\"ms\":1}}",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " an object"),
                arguments(
                        "a timestamp beyond a long",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":9223372036854775808}",
                        RANGE + "9223372036854775808"),
                arguments(
                        "an integral float timestamp beyond a long",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1e19}",
                        RANGE + "1e19"),
                arguments(
                        "an exponent beyond any number",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1e99999999999}",
                        RANGE + "1e99999999999"),
                arguments(
                        "an instant beyond a long",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"+999999999-12-31T00:00:00Z\"}",
                        RANGE + "\"+999999999-12-31T00:00:00Z\""),
                arguments(
                        "a negative timestamp",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":-5}",
                        RANGE + "-5"),
                arguments(
                        "an instant before 1970",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"1969-12-31T23:59:59.999999Z\"}",
                        RANGE + "\"1969-12-31T23:59:59.999999Z\""),
                arguments(
                        "a timestamp in microseconds",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1732234643231000}",
                        RANGE + "1732234643231000"),
                arguments(
                        "an instant in the year 10000",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"+10000-01-01T00:00:00Z\"}",
                        RANGE + "\"+10000-01-01T00:00:00Z\""),
                arguments(
                        "a timestamp decades ahead of the clock",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":4070908800000}",
                        "future: event time 2099-01-01T00:00:00Z is "),
                arguments(
                        "a field given twice",
                        "{\"entityId\":\"e\",\"lat\":1,\"lon\":1,\"lat\":2" + TS,
                        "duplicate field 'lat'"),
                arguments(
                        "a field given twice inside an ignored field",
                        "{\"meta\":{\"a\":1,\"a\":2},\"entityId\":\"e\",\"lon\":1,\"lat\":2" + TS,
                        "duplicate field 'a'"),
                arguments(
                        "a number group",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"group\":3" + TS,
                        "group must be a string, got 3"),
                arguments(
                        "a null group",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"group\":null" + TS,
                        "group must be a string, got null"),
                arguments(
                        "deep nesting in an ignored field",
                        "{\"meta\":" + "[".repeat(64) + "]".repeat(64) + "," + ok.substring(1),
                        "nesting deeper than 64"),
                arguments(
                        "a string over the string limit",
                        "{\"entityId\":\"" + "x".repeat(Limits.MAX_STRING_CHARS + 1) + "\"}",
                        "over a limit: String value length"),
                arguments(
                        "a number over the number limit",
                        "{\"entityId\":\"e\",\"lon\":1" + "0".repeat(Limits.MAX_NUMBER_CHARS) + "}",
                        "over a limit: Number value length"),
                arguments(
                        "a control character in a string",
                        "{\"entityId\":\"a\u0001b\",\"lon\":1,\"lat\":2" + TS,
                        "not JSON: Illegal unquoted character"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    void aBadRecordIsADeadLetterWithAnActionableErrorAndItsRawText(
            String kind, String text, String error) {
        Parsed<Position> parsed = codec.parse(text);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.value()).isNull();
        assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.POSITIONS);
        assertThat(parsed.deadLetter().error()).startsWith(error);
        assertThat(parsed.deadLetter().raw())
                .isEqualTo(DeadLetterCodec.raw(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theExactErrorOfAnOutOfRangeLatitudeNamesTheRangeAndTheValue() {
        assertThat(codec.parse("{\"entityId\":\"e\",\"lon\":1,\"lat\":91.2" + TS).deadLetter())
                .isEqualTo(
                        new DeadLetter(
                                "positions",
                                "lat out of range [-90, 90]: 91.2",
                                "{\"entityId\":\"e\",\"lon\":1,\"lat\":91.2" + TS));
    }

    @Test
    void invalidUtf8IsADeadLetterWithTheBadBytesReplacedInTheRawText() {
        byte[] bytes =
                "{\"entityId\":\"e?\",\"lon\":1,\"lat\":2,\"timestamp\":1}"
                        .getBytes(StandardCharsets.UTF_8);
        bytes[14] = (byte) 0xff;
        Parsed<Position> parsed = codec.parse(bytes);
        assertThat(parsed.deadLetter().error())
                .isEqualTo("not JSON: Invalid UTF-8 start byte 0xff");
        assertThat(parsed.deadLetter().raw()).contains("\"e\uFFFD\"");
    }

    @Test
    void invalidUtf8InAnIgnoredFieldIsADeadLetterToo() {
        byte[] bytes =
                "{\"x\":\"??\",\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1}"
                        .getBytes(StandardCharsets.UTF_8);
        bytes[7] = (byte) 0xc3;
        bytes[8] = (byte) 0x28;
        assertThat(codec.parse(bytes).deadLetter().error()).startsWith("not JSON: Invalid UTF-8");
    }

    @Test
    void aRecordOverTheSizeLimitIsADeadLetterWithoutBeingParsedAndItsRawTextIsCut() {
        byte[] big = new byte[Limits.DEFAULT_MAX_RECORD_BYTES + 1];
        java.util.Arrays.fill(big, (byte) '[');
        Parsed<Position> parsed = codec.parse(big);
        assertThat(parsed.deadLetter().error())
                .isEqualTo(
                        "record too large: 16777217 bytes, over the 16777216-byte limit"
                                + " (max-record-bytes)");
        assertThat(parsed.deadLetter().raw()).hasSize(Limits.MAX_RAW_CHARS);
        PositionCodec small = new PositionCodec(InputRules.DEFAULTS.withMaxRecordBytes(1000));
        byte[] padded =
                ("{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":3" + " ".repeat(1000) + "}")
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(small.parse(padded).deadLetter().error())
                .isEqualTo(
                        "record too large: "
                                + padded.length
                                + " bytes, over the 1000-byte limit (max-record-bytes)");
        assertThat(codec.parse(padded).ok()).isTrue();
    }

    @Test
    void aNullValueIsADeadLetter() {
        assertThat(codec.parse((byte[]) null).deadLetter())
                .isEqualTo(new DeadLetter("positions", "empty record: no value", ""));
    }

    static Stream<Arguments> goodRecords() {
        long t = 1732233600000L;
        return Stream.of(
                arguments(
                        "the contract's example",
                        "{\"entityId\":\"truck-17\",\"lon\":-73.98570,\"lat\":40.74840,\"timestamp\":1732233600000}",
                        new Position("truck-17", -73.9857, 40.7484, t)),
                arguments(
                        "keys in another order, with spaces",
                        "{ \"timestamp\" : 1732233600000 , \"lat\" : 2 , \"lon\" : 1 , \"entityId\""
                                + " : \"e\" }\r\n",
                        new Position("e", 1, 2, t)),
                arguments(
                        "unknown fields of every kind",
                        "{\"fenceId\":\"world\",\"entityId\":\"e\",\"meta\":{\"src\":\"gps\",\"sats\":[1,2,3]},"
                            + "\"lon\":1,\"speed\":12.5,\"lat\":2,\"ok\":true,\"n\":null,\"timestamp\":1732233600000}",
                        new Position("e", 1, 2, t)),
                arguments(
                        "the edges of the ranges",
                        "{\"entityId\":\"e\",\"lon\":-180,\"lat\":90.0" + TS,
                        new Position("e", -180, 90, t)),
                arguments(
                        "the other edges",
                        "{\"entityId\":\"e\",\"lon\":180.0,\"lat\":-90" + TS,
                        new Position("e", 180, -90, t)),
                arguments(
                        "negative zero",
                        "{\"entityId\":\"e\",\"lon\":-0.0,\"lat\":-0" + TS,
                        new Position("e", -0.0, 0, t)),
                arguments(
                        "exponent notation",
                        "{\"entityId\":\"e\",\"lon\":4.50625e+1,\"lat\":-8.98359375E1" + TS,
                        new Position("e", 45.0625, -89.8359375, t)),
                arguments(
                        "an ISO-8601 instant",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"2024-11-22T00:00:00Z\"}",
                        new Position("e", 1, 2, t)),
                arguments(
                        "an ISO-8601 instant with milliseconds",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"2024-11-22T00:00:06.346Z\"}",
                        new Position("e", 1, 2, t + 6346)),
                arguments(
                        "an ISO-8601 instant with an offset",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"2024-11-22T02:00:00.5+02:00\"}",
                        new Position("e", 1, 2, t + 500)),
                arguments(
                        "an ISO-8601 instant with digits below the millisecond",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":\"1970-01-01T00:00:00.999999Z\"}",
                        new Position("e", 1, 2, 999)),
                arguments(
                        "an integral timestamp in exponent notation",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1.7322336e12}",
                        new Position("e", 1, 2, t)),
                arguments(
                        "an integral timestamp with a zero fraction",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":1732233600000.000}",
                        new Position("e", 1, 2, t)),
                arguments(
                        "a group",
                        "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"group\":\"fleet-A\"" + TS,
                        new Position("e", 1, 2, t, "fleet-A")),
                arguments(
                        "escapes and characters beyond the BMP in entityId",
                        "{\"entityId\":\"caf\\u00e9 \\\"\uD83D\uDE9A\\\"\",\"lon\":1,\"lat\":2"
                                + TS,
                        new Position("café \"\uD83D\uDE9A\"", 1, 2, t)),
                arguments(
                        "256 characters of entityId, counted as code points",
                        "{\"entityId\":\""
                                + "\uD83D\uDE9A".repeat(256)
                                + "\",\"lon\":1,\"lat\":2"
                                + TS,
                        new Position("\uD83D\uDE9A".repeat(256), 1, 2, t)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goodRecords")
    void aGoodRecordIsAPosition(String kind, String text, Position expected) {
        assertGood(codec, text, expected);
    }

    @Test
    void theLastMillisecondOfTheYear9999IsAnEventTimeWhenMaxFutureIsOff() {
        assertGood(
                new PositionCodec(new InputRules(100_000, 0)),
                "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":253402300799999}",
                new Position("e", 1, 2, 253402300799999L));
    }

    @Test
    void aTimeWithinMaxFutureOfTheClockIsAcceptedAndOneBeyondIsAFutureDeadLetter() {
        PositionCodec minute = new PositionCodec(new InputRules(100_000, 60_000));
        long now = System.currentTimeMillis();
        String soon = "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":" + (now + 30_000);
        String later = "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":" + (now + 600_000);
        assertThat(minute.parse(soon + "}").ok()).isTrue();
        assertThat(minute.parse(later + "}").deadLetter().error())
                .startsWith("future: event time ")
                .contains("minutes ahead of this machine's clock");
    }

    private static void assertGood(PositionCodec codec, String text, Position expected) {
        Parsed<Position> parsed = codec.parse(text);
        assertThat(parsed.deadLetter()).isNull();
        assertThat(parsed.ok()).isTrue();
        assertThat(parsed.value()).isEqualTo(expected);
    }

    @Test
    void aUtf8ByteOrderMarkIsIgnored() {
        byte[] text =
                ("\uFEFF{\"entityId\":\"e\",\"lon\":1,\"lat\":2" + TS)
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(codec.parse(text).value()).isEqualTo(new Position("e", 1, 2, 1732233600000L));
    }

    @Test
    void aPositionIsWrittenAsTheContractsCompactJsonWithItsGroupOnlyWhenNotTheDefault() {
        assertThat(text(codec.encode(new Position("truck-17", -73.9857, 40.7484, 1732233600000L))))
                .isEqualTo(
                        "{\"entityId\":\"truck-17\",\"lon\":-73.9857,\"lat\":40.7484,"
                                + "\"timestamp\":1732233600000}");
        assertThat(text(codec.encode(new Position("a\"b", 180, -0.0, 0, "fleet-ä"))))
                .isEqualTo(
                        "{\"entityId\":\"a\\\"b\",\"lon\":180.0,\"lat\":-0.0,\"timestamp\":0,"
                                + "\"group\":\"fleet-ä\"}");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(doubles = {0.1, -0.0, 1e-300, Double.MIN_VALUE, -180, 45.0625, 89.99999999999999})
    void aWrittenPositionReadsBackExactly(double v) {
        Position p = new Position("e\u0001🚚", v, v / 2, 253402300799999L, "g");
        Position back =
                new PositionCodec(new InputRules(100_000, 0)).parse(codec.encode(p)).value();
        assertThat(back).isEqualTo(p);
        assertThat(Double.doubleToRawLongBits(back.lon())).isEqualTo(Double.doubleToRawLongBits(v));
    }

    private static String text(byte[] utf8) {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
