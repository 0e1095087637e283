package org.quadfence.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonParser.NumberType;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** The rule for "timestamp" fields, shared by positions, fence changes and events. */
final class Timestamps {

    static final String RULE =
            "timestamp must be integer epoch milliseconds or an ISO-8601 instant: ";

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
        return new BadRecord("timestamp out of the range of epoch milliseconds: " + value);
    }
}
