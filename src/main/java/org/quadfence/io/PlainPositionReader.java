package org.quadfence.io;

import com.fasterxml.jackson.core.io.NumberInput;
import org.quadfence.model.Groups;
import org.quadfence.model.Position;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the plainest position records without a JSON parser: one object of the fields {@code
 * entityId}, {@code lon}, {@code lat}, {@code timestamp} and optionally {@code group}, each once,
 * in any order, with printable-ASCII strings without escapes, plain JSON numbers for the
 * coordinates and an integer timestamp, every rule of {@link PositionCodec} kept. That is what
 * producers send, and it is read here without the parser's objects and buffers per record.
 *
 * <p>Anything else, valid or not (an escape, another field, a fraction in the timestamp, a value
 * out of range), gives null, and {@link PositionCodec} reads the record with Jackson, which gives
 * its position or its dead letter. So whatever this reads, Jackson would read the same way ({@code
 * PlainPositionReaderTest} compares the two on generated and mutated records).
 */
final class PlainPositionReader {

    // The longest number taken here; longer ones go to Jackson.
    private static final int MAX_NUMBER_CHARS = 32;
    // A timestamp of at most this many digits fits a long.
    private static final int MAX_TIMESTAMP_DIGITS = 18;
    // Below 2^53: a significand of this many digits is an exact double.
    private static final int MAX_EXACT_DIGITS = 15;
    private static final double[] POWERS_OF_TEN = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15
    };
    private static final byte[][] FIELDS = {
        ascii("entityId"), ascii("group"), ascii("lon"), ascii("lat"), ascii("timestamp")
    };
    private static final String FIELD_CODES = "egoat";

    private final byte[] in;
    private int at;

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private PlainPositionReader(byte[] in) {
        this.in = in;
    }

    /** The position the record holds, or null when Jackson must read it. */
    static Position read(byte[] utf8, InputRules rules) {
        if (utf8 == null || utf8.length > rules.maxRecordBytes()) {
            return null;
        }
        return new PlainPositionReader(utf8).position(rules);
    }

    private Position position(InputRules rules) {
        String entityId = null;
        String group = null;
        double lon = Double.NaN;
        double lat = Double.NaN;
        long timestamp = -1;
        skipSpace();
        if (!take('{')) {
            return null;
        }
        skipSpace();
        if (peek() == '}') {
            return null;
        }
        do {
            skipSpace();
            int field = fieldName();
            skipSpace();
            if (!take(':')) {
                return null;
            }
            skipSpace();
            switch (field) {
                case 'e' -> {
                    if (entityId != null || (entityId = string()) == null) {
                        return null;
                    }
                }
                case 'g' -> {
                    if (group != null || (group = string()) == null) {
                        return null;
                    }
                }
                case 'o' -> {
                    if (!Double.isNaN(lon) || Double.isNaN(lon = number(180))) {
                        return null;
                    }
                }
                case 'a' -> {
                    if (!Double.isNaN(lat) || Double.isNaN(lat = number(90))) {
                        return null;
                    }
                }
                case 't' -> {
                    if (timestamp >= 0 || (timestamp = integer()) < 0) {
                        return null;
                    }
                }
                default -> {
                    return null;
                }
            }
            skipSpace();
        } while (take(','));
        if (!take('}')) {
            return null;
        }
        skipSpace();
        if (at != in.length
                || entityId == null
                || entityId.isEmpty()
                || entityId.length() > Limits.MAX_ID_CHARS
                || Double.isNaN(lon)
                || Double.isNaN(lat)
                || timestamp < 0
                || timestamp > Timestamps.MAX
                || rules.isFuture(timestamp)) {
            return null;
        }
        return new Position(entityId, lon, lat, timestamp, group == null ? Groups.DEFAULT : group);
    }

    /** 'e', 'g', 'o', 'a' or 't' for the five fields; 0 for anything else. */
    private int fieldName() {
        if (!take('"')) {
            return 0;
        }
        // Compared where they stand: a name is read five times a record, and needs no String.
        for (int f = 0; f < FIELDS.length; f++) {
            byte[] name = FIELDS[f];
            int end = at + name.length;
            if (end < in.length
                    && in[end] == '"'
                    && Arrays.equals(in, at, end, name, 0, name.length)) {
                at = end + 1;
                return FIELD_CODES.charAt(f);
            }
        }
        return 0;
    }

    /** A string of printable ASCII without escapes; null for anything else. */
    private String string() {
        if (!take('"')) {
            return null;
        }
        int start = at;
        while (at < in.length) {
            byte b = in[at];
            if (b == '"') {
                String s = new String(in, start, at - start, StandardCharsets.ISO_8859_1);
                at++;
                return s;
            }
            if (b < 0x20 || b > 0x7e || b == '\\') {
                return null;
            }
            at++;
        }
        return null;
    }

    /**
     * A JSON number with a finite value in [-bound, bound]; NaN for anything else. Its value is
     * Jackson's: the correctly rounded double ({@link Double#parseDouble}'s, here by Jackson's
     * FastDoubleParser, as {@link Limits#jsonFactory} reads), but an integer is a long first, so
     * "-0" is 0.0.
     */
    private double number(int bound) {
        int start = at;
        take('-');
        if (!digits(true)) {
            return Double.NaN;
        }
        boolean integer = true;
        if (take('.')) {
            integer = false;
            if (!digits(false)) {
                return Double.NaN;
            }
        }
        boolean exponent = take('e') || take('E');
        if (exponent) {
            integer = false;
            if (!take('+')) {
                take('-');
            }
            if (!digits(false)) {
                return Double.NaN;
            }
        }
        if (at - start > MAX_NUMBER_CHARS) {
            return Double.NaN;
        }
        double v = exponent ? parse(start) : decimal(start);
        if (integer && v == 0) {
            return 0.0;
        }
        return v >= -bound && v <= bound ? v : Double.NaN;
    }

    private double parse(int start) {
        String text = new String(in, start, at - start, StandardCharsets.ISO_8859_1);
        return NumberInput.parseDouble(text, true);
    }

    /**
     * The value of the number from {@code start} to here, an optional minus, digits, and a point
     * and digits if any: {@link Double#parseDouble}'s. With at most 15 digits the significand and
     * the power of ten are exact doubles, so one division rounds once, to the nearest double of the
     * decimal, as parseDouble does (Clinger's fast path); longer numbers go to parseDouble.
     */
    private double decimal(int start) {
        boolean negative = in[start] == '-';
        long significand = 0;
        int digits = 0;
        int fraction = 0;
        for (int i = negative ? start + 1 : start; i < at; i++) {
            byte b = in[i];
            if (b == '.') {
                fraction = at - i - 1;
            } else {
                significand = significand * 10 + (b - '0');
                digits++;
            }
        }
        if (digits > MAX_EXACT_DIGITS) {
            return parse(start);
        }
        double v = significand / POWERS_OF_TEN[fraction];
        return negative ? -v : v;
    }

    /** Digits of a JSON integer part (no leading zero) or of a fraction or exponent. */
    private boolean digits(boolean integerPart) {
        int start = at;
        while (at < in.length && in[at] >= '0' && in[at] <= '9') {
            at++;
        }
        if (at == start) {
            return false;
        }
        return !integerPart || in[start] != '0' || at - start == 1;
    }

    /** A JSON integer without sign, fraction or exponent, of at most 18 digits; -1 otherwise. */
    private long integer() {
        int start = at;
        if (!digits(true) || at - start > MAX_TIMESTAMP_DIGITS) {
            return -1;
        }
        if (at < in.length && (in[at] == '.' || in[at] == 'e' || in[at] == 'E')) {
            return -1;
        }
        long v = 0;
        for (int i = start; i < at; i++) {
            v = v * 10 + (in[i] - '0');
        }
        return v;
    }

    private void skipSpace() {
        while (at < in.length) {
            byte b = in[at];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return;
            }
            at++;
        }
    }

    private int peek() {
        return at < in.length ? in[at] : -1;
    }

    private boolean take(char c) {
        if (at < in.length && in[at] == c) {
            at++;
            return true;
        }
        return false;
    }
}
