package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.quadfence.model.DeadLetter;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeadLetterCodecTest {

    private final DeadLetterCodec codec = new DeadLetterCodec();

    @Test
    void aDeadLetterIsWrittenAsTheContractsCompactJson() {
        DeadLetter d =
                new DeadLetter("positions", "lat out of range [-90, 90]: 91.2", "{\"lat\":91.2}");
        assertThat(new String(codec.encode(d), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"input\":\"positions\",\"error\":\"lat out of range [-90, 90]: 91.2\","
                                + "\"raw\":\"{\\\"lat\\\":91.2}\"}");
    }

    @Test
    void aRepairedFenceIsReportedWithRepairedTrueAfterTheErrorAndReadBack() {
        DeadLetter d =
                DeadLetter.repaired(
                        "fences", "ring 0 of polygon 0 intersects itself at [1.0, 1.0]", "{}");
        assertThat(d.repaired()).isTrue();
        assertThat(new String(codec.encode(d), StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"input\":\"fences\",\"error\":\"repaired (make-valid): ring 0 of"
                                + " polygon 0 intersects itself at [1.0, 1.0]\",\"repaired\":true,"
                                + "\"raw\":\"{}\"}");
        assertThat(codec.decode(codec.encode(d))).isEqualTo(d);
        assertThat(new DeadLetter("fences", "e", "r").repaired()).isFalse();
        assertThat(
                        codec.decode(
                                "{\"input\":\"fences\",\"error\":\"e\",\"repaired\":false,\"raw\":\"r\"}"
                                        .getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(new DeadLetter("fences", "e", "r"));
    }

    @Test
    void anyTextSurvivesARoundTrip() {
        DeadLetter d =
                new DeadLetter(
                        "fences",
                        "timestamp must be integer epoch milliseconds or an ISO-8601 instant:"
                                + " \"\\\"",
                        "line\r\n\t\u0000 caf\u00e9 \uD83D\uDE9A \uFFFD </script>");
        assertThat(codec.decode(codec.encode(d))).isEqualTo(d);
    }

    @Test
    void anUnpairedSurrogateInAnErrorIsWrittenAsAnEscapeNotAFailure() {
        DeadLetter d = new DeadLetter("positions", "bad \uD800", "x");
        assertThat(new String(codec.encode(d), StandardCharsets.UTF_8)).contains("bad \\uD800");
    }

    @Test
    void rawTextIsTheRecordDecodedWithReplacementAndCutWithoutSplittingAPair() {
        assertThat(DeadLetterCodec.raw(null)).isEmpty();
        assertThat(DeadLetterCodec.raw(new byte[] {'a', (byte) 0xff, 'b'})).isEqualTo("a\uFFFDb");
        String emoji = "\uD83D\uDE9A";
        String raw =
                DeadLetterCodec.raw(("x" + emoji.repeat(3000)).getBytes(StandardCharsets.UTF_8));
        assertThat(raw).hasSize(Limits.MAX_RAW_CHARS - 1).startsWith("x" + emoji).endsWith(emoji);
        String threeByte = "\u20ac".repeat(5000);
        assertThat(DeadLetterCodec.raw(threeByte.getBytes(StandardCharsets.UTF_8)))
                .isEqualTo(threeByte.substring(0, Limits.MAX_RAW_CHARS));
    }

    @Test
    void decodingSomethingElseFailsWithTheReason() {
        assertThatThrownBy(
                        () ->
                                codec.decode(
                                        "{\"input\":\"positions\"}"
                                                .getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a dead letter needs the string fields input, error and raw");
        assertThatThrownBy(() -> codec.decode("{\"input\":1}".getBytes(StandardCharsets.UTF_8)))
                .hasMessage("input must be a string, got 1");
    }
}
