package org.quadfence.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonParser.NumberType;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** The rule for "timestamp" fields, shared by positions, fence changes and events. */
final class Timestamps {

    static final String RULE =
            "timestamp must be integer epoch milliseconds or an ISO-8601 instant: ";

    /** The earliest event time accepted: 1970-01-01T00:00:00Z. */
    static final long MIN = 0;

    /** The latest event time accepted: 9999-12-31T23:59:59.999Z. */
    static final long MAX = 253_402_300_799_999L;

    /** Longer strings are not ISO-8601 instants; the parser is not even tried. */
    private static final int MAX_INSTANT_CHARS = 64;

    private Timestamps() {}

    /**
     * Epoch milliseconds from a JSON number with an integral value that fits a long (1732233600000,
     * 1.7322336e12, 1732233600000.0) or from an ISO-8601 date-time string with an offset
     * ("2024-11-22T00:00:00Z", "2024-11-22T02:00:00.5+02:00"); digits below the millisecond are
     * dropped (floor).
     */
    static long read(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case VALUE_NUMBER_INT -> {
                if (p.getNumberType() == NumberType.BIG_INTEGER) {
                    throw outOfRange(p.getText());
                }
                yield p.getLongValue();
            }
            case VALUE_NUMBER_FLOAT -> integral(p);
            case VALUE_STRING -> instant(p.getText());
            default -> throw new BadRecord(RULE + Json.describe(p));
        };
    }

    /**
     * The time of an input record, as {@link #read}, in [{@link #MIN}, {@link #MAX}]: anything else
     * (negative times, microseconds or nanoseconds sent by mistake) is the dead letter "timestamp
     * out of range".
     */
    static long readEventTime(JsonParser p) throws IOException {
        long t = read(p);
        if (t < MIN || t > MAX) {
            throw outOfRange(
                    p.currentToken() == JsonToken.VALUE_STRING
                            ? Json.quote(p.getText())
                            : p.getText());
        }
        return t;
    }

    private static long integral(JsonParser p) throws IOException {
        BigDecimal d;
        try {
            d = p.getDecimalValue();
        } catch (NumberFormatException e) {
            throw outOfRange(p.getText());
        }
        if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
            throw new BadRecord(RULE + p.getText());
        }
        try {
            return d.longValueExact();
        } catch (ArithmeticException e) {
            throw outOfRange(p.getText());
        }
    }

    private static long instant(String s) {
        if (s.length() <= MAX_INSTANT_CHARS) {
            try {
                return OffsetDateTime.parse(s).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                // not an instant: reported below, with the rule
            } catch (ArithmeticException e) {
                throw outOfRange(Json.quote(s));
            }
        }
        throw new BadRecord(RULE + Json.quote(s));
    }

    private static BadRecord outOfRange(String value) {
        return new BadRecord(
                "timestamp out of range [0, "
                        + MAX
                        + "] (1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z): "
                        + value
                        + "; event times are epoch milliseconds (not seconds, microseconds or"
                        + " nanoseconds)");
    }

    /** An event time as an ISO-8601 instant, for messages. */
    static String format(long t) {
        return Instant.ofEpochMilli(t).toString();
    }

    /** A duration for messages: the largest whole unit, such as "3 days" or "12 minutes". */
    static String describeDuration(long ms) {
        long[] sizes = {365L * 86_400_000, 86_400_000, 3_600_000, 60_000, 1000, 1};
        String[] names = {"year", "day", "hour", "minute", "second", "millisecond"};
        int i = 0;
        while (i < sizes.length - 1 && ms < sizes[i]) {
            i++;
        }
        long n = ms / sizes[i];
        return n + " " + names[i] + (n == 1 ? "" : "s");
    }
}
