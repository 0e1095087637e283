package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Random bytes and random mutations of sample lines never make a codec throw, and every dead letter
 * comes from a rule rather than from the codecs' safety net.
 */
class CodecFuzzTest {

    private static final byte[] JSONISH =
            "{}[]\":,.-+eE0123456789 \\ntrufalsNI\u00e9\uD83D\uDE9Au\"entityId\"lon\"lat\"timestamp\"rect"
                    .getBytes(StandardCharsets.UTF_8);

    private final Random random = new Random(20241122);
    private final PositionCodec positions = new PositionCodec();
    private final FenceChangeCodec fences = new FenceChangeCodec();
    private final FenceChangeCodec repairing =
            new FenceChangeCodec(InputRules.DEFAULTS.withMakeValid(true));
    private final GeofenceEventCodec events = new GeofenceEventCodec();
    private final DeadLetterCodec deadLetters = new DeadLetterCodec();

    @Test
    void randomBytesNeverMakeACodecThrow() {
        for (int i = 0; i < 10_000; i++) {
            byte[] b = new byte[random.nextInt(120)];
            if (i % 2 == 0) {
                random.nextBytes(b);
            } else {
                for (int j = 0; j < b.length; j++) {
                    b[j] = JSONISH[random.nextInt(JSONISH.length)];
                }
            }
            check(b);
        }
    }

    @Test
    void mutatedSampleLinesNeverMakeACodecThrow() {
        List<byte[]> lines = new ArrayList<>();
        for (String file : new String[] {"positions.jsonl", "fences.jsonl"}) {
            for (byte[] line : Samples.lines("sample-nasty", file)) {
                if (line.length < 10_000) {
                    lines.add(line);
                }
            }
        }
        // Polygon fences too, for the repair.
        for (byte[] line : Samples.lines("sample-features-nasty", "fences.jsonl")) {
            if (line.length < 3_000
                    && new String(line, StandardCharsets.UTF_8).contains("Polygon")) {
                lines.add(line);
            }
        }
        for (int i = 0; i < 20_000; i++) {
            check(mutate(lines.get(random.nextInt(lines.size()))));
        }
    }

    @Test
    void randomPolygonsOnASmallGridNeverMakeTheRepairThrow() {
        int used = 0;
        int repaired = 0;
        for (int i = 0; i < 3_000; i++) {
            StringBuilder g = new StringBuilder("[");
            int polygons = 1 + random.nextInt(3);
            for (int p = 0; p < polygons; p++) {
                g.append(p > 0 ? ",[" : "[");
                int rings = 1 + random.nextInt(3);
                for (int r = 0; r < rings; r++) {
                    g.append(r > 0 ? ",[" : "[");
                    int n = 1 + random.nextInt(9);
                    String first = null;
                    for (int k = 0; k < n; k++) {
                        // A coarse grid: repeated, collinear and touching positions are common.
                        String pos =
                                "["
                                        + (random.nextInt(9) - 4) * 0.5
                                        + ","
                                        + (random.nextInt(9) - 4) * 0.5
                                        + "]";
                        first = first == null ? pos : first;
                        g.append(k > 0 ? "," : "").append(pos);
                    }
                    if (random.nextInt(10) > 0) {
                        g.append(',').append(first);
                    }
                    g.append(']');
                }
                g.append(']');
            }
            String line =
                    "{\"type\":\"Feature\",\"id\":\"f\",\"geometry\":{\"type\":\"MultiPolygon\","
                            + "\"coordinates\":"
                            + g.append(']')
                            + "}}";
            byte[] b = line.getBytes(StandardCharsets.UTF_8);
            Parsed<FenceChange> f = repairing.parse(null, b, Long.MIN_VALUE);
            if (f.ok()) {
                used++;
                assertThat(org.quadfence.geo.Polygon.of(f.value().polygons()).coordinates())
                        .isNotEmpty();
                if (f.notice() != null) {
                    repaired++;
                    assertThat(f.notice().repaired()).isTrue();
                    checkDeadLetter(f.notice());
                    assertThat(fences.parse(null, b, Long.MIN_VALUE).ok()).isFalse();
                }
            } else {
                checkDeadLetter(f.deadLetter());
            }
        }
        assertThat(repaired).isPositive();
        assertThat(used).isGreaterThan(repaired);
    }

    private byte[] mutate(byte[] line) {
        byte[] b = line.clone();
        for (int n = 1 + random.nextInt(3); n > 0 && b.length > 0; n--) {
            int at = random.nextInt(b.length);
            switch (random.nextInt(5)) {
                case 0 -> b[at] = (byte) random.nextInt(256);
                case 1 -> b[at] = JSONISH[random.nextInt(JSONISH.length)];
                case 2 -> b = Arrays.copyOf(b, at);
                case 3 -> b = splice(b, at, Arrays.copyOfRange(b, random.nextInt(at + 1), at));
                default ->
                        b =
                                splice(
                                        b,
                                        at,
                                        new byte[0],
                                        Math.min(b.length, at + 1 + random.nextInt(8)));
            }
        }
        return b;
    }

    private static byte[] splice(byte[] b, int at, byte[] insert) {
        return splice(b, at, insert, at);
    }

    /** b with b[at, resume) replaced by insert. */
    private static byte[] splice(byte[] b, int at, byte[] insert, int resume) {
        byte[] out = new byte[at + insert.length + b.length - resume];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(b, resume, out, at + insert.length, b.length - resume);
        return out;
    }

    private void check(byte[] b) {
        Parsed<Position> p = positions.parse(b);
        if (p.ok()) {
            Position v = p.value();
            assertThat(v.lon()).isBetween(-180.0, 180.0);
            assertThat(v.lat()).isBetween(-90.0, 90.0);
            assertThat(v.entityId()).isNotEmpty();
        } else {
            checkDeadLetter(p.deadLetter());
        }
        byte[] key =
                b.length > 0 && random.nextBoolean()
                        ? Arrays.copyOf(b, random.nextInt(b.length))
                        : null;
        for (Parsed<FenceChange> f :
                List.of(
                        fences.parse(null, b, Long.MIN_VALUE),
                        repairing.parse(null, b, Long.MIN_VALUE),
                        fences.parse(key, b, 0),
                        fences.parse(b, null, 0))) {
            if (!f.ok()) {
                checkDeadLetter(f.deadLetter());
            }
        }
        assertThatCode(() -> decodeEvent(b)).doesNotThrowAnyException();
        Throwable t = catchThrowable(() -> deadLetters.decode(b));
        assertThat(t == null || t instanceof IllegalArgumentException).as("%s", t).isTrue();
    }

    private void decodeEvent(byte[] b) {
        try {
            events.encode(events.decode(b));
        } catch (IllegalArgumentException expected) {
            // a rejection is fine; anything else fails the test
        }
    }

    private void checkDeadLetter(DeadLetter d) {
        assertThat(d.error()).isNotBlank().doesNotStartWith("unreadable record");
        assertThat(d.raw().length()).isLessThanOrEqualTo(Limits.MAX_RAW_CHARS);
        assertThat(deadLetters.decode(deadLetters.encode(d))).isEqualTo(d);
    }
}
