package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Groups;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** The {@code accuracy} and {@code attributes} of a position (contract section 11). */
class PositionAccuracyCodecTest {

    private static final String HEAD =
            "{\"entityId\":\"e\",\"lon\":1.5,\"lat\":2.5,\"timestamp\":7";
    private static final String ACCURACY_RULE =
            "accuracy must be a number of metres from 0 to 1000000, got ";
    private static final String ATTRIBUTES_RULE =
            "attributes must be an object of at most 64 names with string values, got ";

    private final PositionCodec codec = new PositionCodec();

    private Position read(String fields) {
        Parsed<Position> parsed = codec.parse(HEAD + fields + "}");
        assertThat(parsed.deadLetter()).isNull();
        return parsed.value();
    }

    private static Map<String, String> attributes(int names, int valueChars) {
        return IntStream.range(0, names)
                .boxed()
                .collect(
                        Collectors.toMap(
                                i -> String.format("n%02d", i), i -> "v".repeat(valueChars)));
    }

    private static String json(Map<String, String> attributes) {
        return attributes.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
                .collect(Collectors.joining(",", "{", "}"));
    }

    @Test
    void aPositionWithoutAccuracyOrAttributesHasAccuracy0AndNoAttributes() {
        Position p = read("");
        assertThat(p.accuracy()).isZero();
        assertThat(p.attributes()).isNull();
    }

    @Test
    void accuracyIsAnyFiniteNumberOfMetresInRange() {
        assertThat(read(",\"accuracy\":12.5").accuracy()).isEqualTo(12.5);
        assertThat(read(",\"accuracy\":0").accuracy()).isZero();
        assertThat(read(",\"accuracy\":1000000").accuracy()).isEqualTo(1_000_000);
        assertThat(read(",\"accuracy\":1e3").accuracy()).isEqualTo(1000);
        assertThat(read(",\"accuracy\":-0.0")).isEqualTo(read(",\"accuracy\":0"));
    }

    @Test
    void attributesAreASortedUnmodifiableMapOfStrings() {
        Position p = read(",\"attributes\":{\"kind\":\"van\",\"fleet\":\"north\",\"e\":\"\"}");
        assertThat(p.attributes())
                .containsExactly(
                        Map.entry("e", ""), Map.entry("fleet", "north"), Map.entry("kind", "van"));
        assertThatThrownBy(() -> p.attributes().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(read(",\"attributes\":{}").attributes()).isEmpty();
    }

    @Test
    void sixtyFourAttributesOfTheLargestSizeAreKept() {
        // Short enough values for 64 names, then one made longer to reach the limit exactly.
        int valueChars = Limits.MAX_ATTRIBUTES_CHARS / 64 - 20;
        Map<String, String> largest = attributes(64, valueChars);
        int chars = json(largest).length();
        largest.put("n00", "v".repeat(valueChars + Limits.MAX_ATTRIBUTES_CHARS - chars));
        assertThat(json(largest)).hasSize(Limits.MAX_ATTRIBUTES_CHARS);
        assertThat(read(",\"attributes\":" + json(largest)).attributes()).isEqualTo(largest);
    }

    @Test
    void theRecordWithAccuracyAndAttributesIsReadByJacksonWithThem() {
        byte[] record =
                (HEAD + ",\"accuracy\":8,\"attributes\":{\"fleet\":\"north\"}}")
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(PlainPositionReader.read(record, InputRules.DEFAULTS)).isNull();
        Position p = codec.parse(record).value();
        assertThat(p.accuracy()).isEqualTo(8);
        assertThat(p.attributes()).isEqualTo(Map.of("fleet", "north"));
        assertThat(codec.parse(record)).isEqualTo(codec.parseWithJackson(record));
    }

    @Test
    void aPositionEncodesItsAccuracyAndAttributesAndReadsBackAsItWas() {
        Position p =
                new Position(
                        "e",
                        1.5,
                        2.5,
                        7,
                        "g",
                        12.5,
                        read(",\"attributes\":{\"s\u00fcd\":\"a\\\"b\\u0001\",\"a\":\"\\uD800\"}")
                                .attributes());
        String text = new String(codec.encode(p), StandardCharsets.UTF_8);
        assertThat(text)
                .isEqualTo(
                        "{\"entityId\":\"e\",\"lon\":1.5,\"lat\":2.5,\"timestamp\":7,"
                            + "\"group\":\"g\",\"accuracy\":12.5,"
                            + "\"attributes\":{\"a\":\"\\uD800\",\"s\u00fcd\":\"a\\\"b\\u0001\"}}");
        assertThat(codec.parse(codec.encode(p)).value()).isEqualTo(p);
    }

    @Test
    void aPositionWithoutThemEncodesAsBefore() {
        assertThat(new String(codec.encode(new Position("e", 1, 2, 3)), StandardCharsets.UTF_8))
                .isEqualTo("{\"entityId\":\"e\",\"lon\":1.0,\"lat\":2.0,\"timestamp\":3}");
        Position empty = new Position("e", 1, 2, 3, Groups.DEFAULT, 0, Map.of());
        assertThat(new String(codec.encode(empty), StandardCharsets.UTF_8))
                .endsWith("\"timestamp\":3,\"attributes\":{}}");
    }

    static Stream<Arguments> badRecords() {
        Map<String, String> tooLarge = attributes(2, Limits.MAX_ATTRIBUTES_CHARS / 2);
        return Stream.of(
                arguments("a negative accuracy", ",\"accuracy\":-1", ACCURACY_RULE + "-1"),
                arguments(
                        "an accuracy over the limit",
                        ",\"accuracy\":1000000.001",
                        ACCURACY_RULE + "1000000.001"),
                arguments("an infinite accuracy", ",\"accuracy\":1e999", ACCURACY_RULE + "1e999"),
                arguments("a string accuracy", ",\"accuracy\":\"5\"", ACCURACY_RULE + "\"5\""),
                arguments("a null accuracy", ",\"accuracy\":null", ACCURACY_RULE + "null"),
                arguments("a boolean accuracy", ",\"accuracy\":true", ACCURACY_RULE + "true"),
                arguments("an object accuracy", ",\"accuracy\":{}", ACCURACY_RULE + "an object"),
                arguments("null attributes", ",\"attributes\":null", ATTRIBUTES_RULE + "null"),
                arguments(
                        "attributes in an array",
                        ",\"attributes\":[]",
                        ATTRIBUTES_RULE + "an array"),
                arguments(
                        "attributes in a string",
                        ",\"attributes\":\"a=b\"",
                        ATTRIBUTES_RULE + "\"a=b\""),
                arguments(
                        "a number attribute",
                        ",\"attributes\":{\"a\":\"b\",\"n\":5}",
                        ATTRIBUTES_RULE + "5 for \"n\""),
                arguments(
                        "a null attribute",
                        ",\"attributes\":{\"n\":null}",
                        ATTRIBUTES_RULE + "null for \"n\""),
                arguments(
                        "a nested attribute",
                        ",\"attributes\":{\"n\":{\"a\":\"b\"}}",
                        ATTRIBUTES_RULE + "an object for \"n\""),
                arguments(
                        "65 attributes",
                        ",\"attributes\":" + json(attributes(65, 1)),
                        ATTRIBUTES_RULE + "more than 64"),
                arguments(
                        "an attribute given twice",
                        ",\"attributes\":{\"a\":\"b\",\"a\":\"c\"}",
                        "duplicate field 'a'"),
                arguments(
                        "attributes over the size limit",
                        ",\"attributes\":" + json(tooLarge),
                        "attributes too large: "
                                + json(tooLarge).length()
                                + " characters of compact JSON, the limit is 65536"),
                arguments(
                        "attributes over the size limit once escaped",
                        ",\"attributes\":{\"a\":\"" + "\\u0001".repeat(11_000) + "\"}",
                        "attributes too large: 66008 characters of compact JSON, the limit is"
                                + " 65536"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRecords")
    void badAccuracyOrAttributesAreADeadLetterThatNamesThem(
            String name, String fields, String error) {
        String text = HEAD + fields + "}";
        Parsed<Position> parsed = codec.parse(text);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.POSITIONS);
        assertThat(parsed.deadLetter().error()).startsWith(error);
        assertThat(parsed.deadLetter().raw())
                .isEqualTo(DeadLetterCodec.raw(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void theLibraryPathChecksAccuracyAndAttributesAsTheReaderDoes() {
        RecordChecks checks = new RecordChecks(InputRules.DEFAULTS);
        Map<String, String> unsorted = new HashMap<>(Map.of("b", "2", "a", "1"));
        Position p = new Position("e", 1, 2, 3, null, 4.5, unsorted);
        Position checked = checks.check(p).value();
        assertThat(checked)
                .isEqualTo(
                        new Position(
                                "e", 1, 2, 3, Groups.DEFAULT, 4.5, Map.of("a", "1", "b", "2")));
        unsorted.put("c", "3");
        assertThat(checked.attributes()).containsOnlyKeys("a", "b");
        assertThatThrownBy(() -> checked.attributes().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThat(checks.check(new Position("e", 1, 2, 3, null, 7, null)).value())
                .isEqualTo(new Position("e", 1, 2, 3, Groups.DEFAULT, 7, null));

        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("n", null);
        Map<String, String> nullName = new HashMap<>();
        nullName.put(null, "v");
        Map<Position, String> bad =
                Map.of(
                        new Position("e", 1, 2, 3, "g", -1, null),
                        ACCURACY_RULE + "-1.0",
                        new Position("e", 1, 2, 3, "g", Double.NaN, null),
                        ACCURACY_RULE + "NaN",
                        new Position("e", 1, 2, 3, "g", 1e7, null),
                        ACCURACY_RULE + "1.0E7",
                        new Position("e", 1, 2, 3, "g", 0, attributes(65, 1)),
                        ATTRIBUTES_RULE + "65 names",
                        new Position("e", 1, 2, 3, "g", 0, nullValue),
                        ATTRIBUTES_RULE + "null for \"n\"",
                        new Position("e", 1, 2, 3, "g", 0, nullName),
                        ATTRIBUTES_RULE + "a null name",
                        new Position(
                                "e",
                                1,
                                2,
                                3,
                                "g",
                                0,
                                attributes(2, Limits.MAX_ATTRIBUTES_CHARS / 2)),
                        "attributes too large: ");
        bad.forEach(
                (position, error) -> {
                    Parsed<Position> parsed = checks.check(position);
                    assertThat(parsed.ok()).as(error).isFalse();
                    assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.POSITIONS);
                    assertThat(parsed.deadLetter().error()).startsWith(error);
                });
    }
}
