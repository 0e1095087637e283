package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Coordinates read by the job (positions, fences) are the doubles {@link Double#parseDouble} gives
 * for their text, bit for bit, also where the text has more digits than a double holds: the readers
 * use Jackson's FastDoubleParser, not the JDK's.
 */
class DoubleParsingTest {

    private final Random random = new Random(20261129);

    @Test
    void positionsReadEveryCoordinateAsParseDoubleDoes() {
        PositionCodec codec = new PositionCodec();
        readEveryNumberAsParseDouble(
                text -> {
                    Parsed<Position> parsed =
                            codec.parse(
                                    utf8(
                                            "{\"entityId\":\"e\",\"lon\":"
                                                    + text
                                                    + ",\"lat\":0.5,\"timestamp\":1}"));
                    return parsed.ok() ? parsed.value().lon() : null;
                });
    }

    @Test
    void fencesReadEveryCoordinateAsParseDoubleDoes() {
        FenceChangeCodec codec = new FenceChangeCodec();
        readEveryNumberAsParseDouble(
                text -> {
                    Parsed<FenceChange> parsed =
                            codec.parse(
                                    null,
                                    utf8("{\"fenceId\":\"f\",\"rect\":[" + text + ",0,180,1]}"),
                                    0);
                    return parsed.ok() ? parsed.value().rect().minLon() : null;
                });
    }

    /** {@code read} gives each number's double (null: the record was refused) as parseDouble. */
    private void readEveryNumberAsParseDouble(Function<String, Double> read) {
        for (String text : numbers()) {
            Double value = read.apply(text);
            assertThat(value).as(text).isNotNull();
            assertThat(Double.doubleToRawLongBits(value))
                    .as(text)
                    .isEqualTo(Double.doubleToRawLongBits(Double.parseDouble(text)));
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Longitudes in [-180, 180) as JSON numbers: 1 to 40 significant digits, with and without an
     * exponent, the decimals halfway between two neighbouring doubles (the hardest to round), and
     * two of the most characters a number may have.
     */
    private List<String> numbers() {
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            double v = random.nextDouble() * 360 - 180;
            String exact = new BigDecimal(v).toPlainString();
            texts.add(exact.substring(0, Math.min(exact.length(), 3 + random.nextInt(40))));
            double next = Math.nextUp(v);
            texts.add(
                    new BigDecimal(v)
                            .add(new BigDecimal(next))
                            .multiply(new BigDecimal("0.5"))
                            .toString());
            texts.add(Math.round(v * 1e6) / 1e6 + "e0");
            texts.add(
                    new BigDecimal(v)
                                    .movePointLeft(3)
                                    .round(new MathContext(1 + random.nextInt(25)))
                                    .toPlainString()
                            + "E3");
        }
        // As long as a number may be (Limits.MAX_NUMBER_CHARS): past the plain reader's, to
        // Jackson.
        texts.add("-179." + "9".repeat(Limits.MAX_NUMBER_CHARS - 6));
        texts.add("0." + "0".repeat(400) + "1" + "5".repeat(Limits.MAX_NUMBER_CHARS - 404));
        texts.removeIf(
                t -> t.endsWith(".") || t.endsWith("-") || Math.abs(Double.parseDouble(t)) > 180);
        return texts;
    }
}
