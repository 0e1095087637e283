package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plain reader gives exactly what Jackson gives, on generated position records of every shape
 * the contract allows (and some it does not) and on random mutations of them.
 */
class PlainPositionReaderTest {

    private static final long NOW = System.currentTimeMillis();

    private final Random random = new Random(20261124);
    private final PositionCodec codec = new PositionCodec();

    @Test
    void theCommonRecordIsReadWithoutJackson() {
        byte[] line =
                "{\"entityId\":\"truck-17\",\"lon\":-73.98570,\"lat\":40.7484,\"timestamp\":1732233600000}"
                        .getBytes(StandardCharsets.UTF_8);
        assertThat(PlainPositionReader.read(line, InputRules.DEFAULTS))
                .isEqualTo(new Position("truck-17", -73.9857, 40.7484, 1732233600000L));
    }

    @Test
    void everyGeneratedRecordReadsAsJacksonReadsIt() {
        int plain = 0;
        for (int i = 0; i < 100_000; i++) {
            byte[] record = record().getBytes(StandardCharsets.UTF_8);
            if (i % 3 == 0) {
                record = mutate(record);
            }
            if (PlainPositionReader.read(record, InputRules.DEFAULTS) != null) {
                plain++;
            }
            assertSame(record, codec.parse(record), codec.parseWithJackson(record));
        }
        assertThat(plain).as("records the plain reader took").isGreaterThan(10_000);
    }

    @Test
    void aCoordinateOfAnyLengthIsTheDoubleParseDoubleGives() {
        for (int i = 0; i < 200_000; i++) {
            int digits = 1 + random.nextInt(18);
            int fraction = random.nextInt(digits + 1);
            StringBuilder number = new StringBuilder(random.nextBoolean() ? "-" : "");
            String significand = String.valueOf(Math.abs(random.nextLong()) % pow10(digits));
            significand = "0".repeat(digits - significand.length()) + significand;
            String whole = significand.substring(0, digits - fraction).replaceFirst("^0+(?=.)", "");
            number.append(whole.isEmpty() ? "0" : whole);
            if (fraction > 0) {
                number.append('.').append(significand.substring(digits - fraction));
            }
            // An integer is a long first, as Jackson reads it: "-0" is 0.0.
            double want =
                    fraction == 0
                            ? (double) Long.parseLong(number.toString())
                            : Double.parseDouble(number.toString());
            if (Math.abs(want) > 90) {
                continue;
            }
            Position p =
                    PlainPositionReader.read(
                            ("{\"entityId\":\"e\",\"lon\":0,\"lat\":"
                                            + number
                                            + ",\"timestamp\":1}")
                                    .getBytes(StandardCharsets.UTF_8),
                            InputRules.DEFAULTS);
            assertThat(p).as(number.toString()).isNotNull();
            assertThat(Double.doubleToRawLongBits(p.lat()))
                    .as(number.toString())
                    .isEqualTo(Double.doubleToRawLongBits(want));
        }
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static void assertSame(byte[] record, Parsed<Position> got, Parsed<Position> want) {
        String text = new String(record, StandardCharsets.UTF_8);
        assertThat(got.value()).as(text).isEqualTo(want.value());
        if (want.deadLetter() != null) {
            assertThat(got.deadLetter()).as(text).isEqualTo(want.deadLetter());
        }
    }

    private String record() {
        List<String> fields = new ArrayList<>();
        fields.add(field("entityId", pick(ids())));
        fields.add(field("lon", pick(numbers(180))));
        fields.add(field("lat", pick(numbers(90))));
        fields.add(field("timestamp", pick(timestamps())));
        if (random.nextInt(4) == 0) {
            fields.add(field("group", pick(ids())));
        }
        if (random.nextInt(8) == 0) {
            fields.add(field(pick(List.of("speed", "lon", "entityId", "extra")), "1"));
        }
        if (random.nextInt(10) == 0) {
            fields.remove(random.nextInt(fields.size()));
        }
        Collections.shuffle(fields, random);
        return space() + "{" + String.join("," + space(), fields) + "}" + space();
    }

    private String field(String name, String value) {
        return space() + "\"" + name + "\"" + space() + ":" + space() + value + space();
    }

    private String space() {
        return random.nextInt(5) == 0 ? pick(List.of(" ", "\n", "\t ", "\r\n")) : "";
    }

    private List<String> ids() {
        return List.of(
                "\"truck-17\"",
                "\"a\"",
                "\"\"",
                "\"" + "x".repeat(256) + "\"",
                "\"" + "x".repeat(257) + "\"",
                "\"caf\u00e9\"",
                "\"tab\\tid\"",
                "\"quote\\\"d\"",
                "\"~!@#$%^&*()\"",
                "17",
                "null",
                "\"default\"");
    }

    private List<String> numbers(int bound) {
        return List.of(
                String.valueOf(random.nextDouble() * 2 * bound - bound),
                String.format(
                        Locale.ROOT,
                        "%." + random.nextInt(14) + "f",
                        random.nextDouble() * 2 * bound - bound),
                "0",
                "-0",
                "-0.0",
                String.valueOf(bound),
                "-" + bound,
                String.valueOf(bound) + ".0000001",
                "1e1",
                "1E-5",
                "2.5e+1",
                "01",
                "1.",
                ".5",
                "+1",
                "1e400",
                "123456789012345678901234567890123",
                "\"12\"",
                "true",
                "NaN");
    }

    private List<String> timestamps() {
        return List.of(
                String.valueOf(NOW - random.nextInt(1_000_000_000)),
                "1732233600000",
                String.valueOf(NOW + 7_200_000),
                "0",
                "-1",
                "253402300799999",
                "253402300799999000",
                "9223372036854775807",
                "99999999999999999999",
                "1.7322336e12",
                "1732233600000.0",
                "1732233600000.5",
                "\"2024-11-22T00:00:00Z\"",
                "007");
    }

    // Half the time the first option (a valid value), so that many records are valid.
    private String pick(List<String> options) {
        return options.get(random.nextBoolean() ? 0 : random.nextInt(options.size()));
    }

    private byte[] mutate(byte[] record) {
        byte[] b = record.clone();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n && b.length > 0; i++) {
            b[random.nextInt(b.length)] =
                    (byte) "{}\":,.-+eE0123456789 \\x\u00ff".charAt(random.nextInt(24));
        }
        return b;
    }
}
