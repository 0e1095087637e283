package org.quadfence.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.model.AttributeMatch;
import org.quadfence.model.FenceRules;
import org.quadfence.model.WeeklySchedule;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads and writes the {@code "rules"} object of a fence upsert (contract section 11):
 *
 * <pre>
 * {"dwellMs":600000,"exitMarginMeters":25,"enterAfterMs":30000,"exitAfterMs":60000,
 *  "validUntil":"2025-01-01T00:00:00Z",
 *  "schedule":{"timeZone":"America/Chicago",
 *              "weekly":[{"days":["MON","TUE"],"from":"07:00","to":"09:30"}]},
 *  "match":{"fleet":["north","south"]}}
 * </pre>
 *
 * <ul>
 *   <li>{@code dwellMs}, {@code enterAfterMs}, {@code exitAfterMs}: JSON numbers with an integral
 *       value (as for timestamps, "1.0" and exponent forms included), 0 to {@link
 *       Limits#MAX_RULE_MS};
 *   <li>{@code exitMarginMeters}: a finite JSON number, 0 to {@link Limits#MAX_EXIT_MARGIN_METERS};
 *   <li>{@code validUntil}: an event time in either form of a timestamp (epoch ms or an ISO-8601
 *       instant), in [0, 253402300799999], never checked against {@code max-future};
 *   <li>{@code schedule}: exactly {@code timeZone}, an IANA zone id of the JVM's time-zone data
 *       (not an offset such as "+02:00"), and {@code weekly}, 1 to {@link
 *       Limits#MAX_SCHEDULE_WINDOWS} windows of exactly {@code days} (1 to 7 distinct of MON TUE
 *       WED THU FRI SAT SUN, upper case), {@code from} ("HH:MM", 00:00 to 23:59) and {@code to}
 *       ("HH:MM", 00:01 to 24:00);
 *   <li>{@code match}: an object of at most {@link Limits#MAX_MATCH_NAMES} attribute names, each
 *       with an array of 1 to {@link Limits#MAX_MATCH_VALUES} strings.
 * </ul>
 *
 * <p>Anything else is a {@link BadRecord} whose message names the rule: another rule name, or
 * another field in a schedule or a window, a value of another type (JSON null included) or out of
 * range, an unknown day or zone, a day given twice, a malformed time. A rule given twice is the
 * parser's "duplicate field". An empty object is {@link FenceRules#NONE}.
 */
public final class FenceRulesCodec {

    private static final String RULES =
            "dwellMs, exitMarginMeters, enterAfterMs, exitAfterMs, validUntil, schedule, match";
    private static final String[] DAYS = {"MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"};
    private static final String DAY_NAMES = String.join(" ", DAYS);
    private static final String WINDOW_FORM = "{\"days\":[..],\"from\":\"HH:MM\",\"to\":\"HH:MM\"}";
    // Copied once: ZoneId.getAvailableZoneIds() makes a new set on every call.
    private static final Set<String> ZONES = Set.copyOf(ZoneId.getAvailableZoneIds());

    private FenceRulesCodec() {}

    /**
     * The rules whose value starts at the parser's current token, read through its last token.
     *
     * @throws BadRecord when the value breaks a rule
     */
    static FenceRules read(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(
                    "rules must be an object of rules (" + RULES + "), got " + Json.describe(p));
        }
        long dwellMs = FenceRules.JOB_DWELL;
        double margin = Double.NaN;
        long enterAfterMs = 0;
        long exitAfterMs = 0;
        long validUntil = FenceRules.NO_END;
        WeeklySchedule schedule = null;
        AttributeMatch match = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "dwellMs" -> dwellMs = ms(p, name);
                case "exitMarginMeters" -> margin = margin(p);
                case "enterAfterMs" -> enterAfterMs = ms(p, name);
                case "exitAfterMs" -> exitAfterMs = ms(p, name);
                case "validUntil" -> validUntil = validUntil(p);
                case "schedule" -> schedule = schedule(p);
                case "match" -> match = match(p);
                default ->
                        throw new BadRecord(
                                "rules: unknown rule "
                                        + Json.quote(name)
                                        + " (rules are "
                                        + RULES
                                        + ")");
            }
        }
        FenceRules rules =
                new FenceRules(
                        dwellMs, margin, enterAfterMs, exitAfterMs, validUntil, schedule, match);
        return rules.isNone() ? FenceRules.NONE : rules;
    }

    /**
     * Writes {@code rules} as the object {@link #read} reads back as equal rules, each rule only
     * when it is not its default; {@link FenceRules#NONE} is {@code {}}.
     */
    public static void write(JsonGenerator g, FenceRules rules) throws IOException {
        g.writeStartObject();
        if (rules.dwellMs() != FenceRules.JOB_DWELL) {
            g.writeNumberField("dwellMs", rules.dwellMs());
        }
        if (!Double.isNaN(rules.exitMarginMeters())) {
            g.writeNumberField("exitMarginMeters", rules.exitMarginMeters());
        }
        if (rules.enterAfterMs() != 0) {
            g.writeNumberField("enterAfterMs", rules.enterAfterMs());
        }
        if (rules.exitAfterMs() != 0) {
            g.writeNumberField("exitAfterMs", rules.exitAfterMs());
        }
        if (rules.validUntil() != FenceRules.NO_END) {
            g.writeNumberField("validUntil", rules.validUntil());
        }
        if (rules.schedule() != null) {
            g.writeObjectFieldStart("schedule");
            g.writeStringField("timeZone", rules.schedule().zone().getId());
            g.writeArrayFieldStart("weekly");
            for (WeeklySchedule.Window w : rules.schedule().windows()) {
                g.writeStartObject();
                g.writeArrayFieldStart("days");
                for (int d = 0; d < DAYS.length; d++) {
                    if ((w.days() & (1 << d)) != 0) {
                        g.writeString(DAYS[d]);
                    }
                }
                g.writeEndArray();
                g.writeStringField("from", clock(w.fromMinute()));
                g.writeStringField("to", clock(w.toMinute()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        if (rules.match() != null) {
            g.writeObjectFieldStart("match");
            for (Map.Entry<String, Set<String>> e : rules.match().allowed().entrySet()) {
                g.writeArrayFieldStart(e.getKey());
                for (String v : e.getValue()) {
                    g.writeString(v);
                }
                g.writeEndArray();
            }
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** The rule of {@code dwellMs}, {@code enterAfterMs} and {@code exitAfterMs}, for messages. */
    static String msRule(String name) {
        return "rules."
                + name
                + " must be an integer number of milliseconds from 0 to "
                + Limits.MAX_RULE_MS
                + ", got ";
    }

    /** The rule of {@code exitMarginMeters}, for messages. */
    static String marginRule() {
        return "rules.exitMarginMeters must be a number of metres from 0 to "
                + Limits.MAX_EXIT_MARGIN_METERS
                + ", got ";
    }

    /** The rule of {@code validUntil}, for messages. */
    static String validUntilRule() {
        return "rules.validUntil must be an event time from 0 to "
                + Timestamps.MAX
                + " (1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z), as epoch milliseconds"
                + " or an ISO-8601 instant, got ";
    }

    /** The rule of {@code match}, for messages. */
    static String matchRule() {
        return "rules.match must be an object of at most "
                + Limits.MAX_MATCH_NAMES
                + " attribute names, each with an array of 1 to "
                + Limits.MAX_MATCH_VALUES
                + " strings, got ";
    }

    /** The rule of the values of one name of {@code match}, for messages. */
    static String matchValuesRule(String name) {
        return "rules.match: attribute "
                + Json.quote(name)
                + " must have an array of 1 to "
                + Limits.MAX_MATCH_VALUES
                + " strings, got ";
    }

    /**
     * Throws the dead letter of a schedule whose zone is not an IANA zone id of the JVM's time-zone
     * data.
     */
    static void checkZone(String id) {
        if (!ZONES.contains(id)) {
            throw new BadRecord(
                    "rules.schedule.timeZone: unknown time zone "
                            + Json.quote(id)
                            + " (an IANA time zone id such as \"America/Chicago\")");
        }
    }

    private static long ms(JsonParser p, String name) throws IOException {
        long ms = isNumber(p) ? wholeNumber(p, Limits.MAX_RULE_MS) : -1;
        if (ms < 0) {
            throw new BadRecord(msRule(name) + Json.describe(p));
        }
        return ms;
    }

    private static boolean isNumber(JsonParser p) {
        JsonToken t = p.currentToken();
        return t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT;
    }

    /**
     * The value of the current JSON number when it is integral (1000, 1e3, 1000.0, as for
     * timestamps) and in [0, {@code most}], else -1.
     */
    private static long wholeNumber(JsonParser p, long most) throws IOException {
        // From the text, not with getNumberType(): in Jackson 2.18 that leaves the text of a
        // number beyond a long (or with a fraction) behind, and getDoubleValue() of the next
        // number returns it; a delete reads on after malformed rules.
        BigDecimal d;
        try {
            d = new BigDecimal(p.getText());
        } catch (NumberFormatException e) {
            // An exponent beyond an int: far out of range.
            return -1;
        }
        if (d.signum() < 0
                || d.compareTo(BigDecimal.valueOf(most)) > 0
                || (d.signum() != 0 && d.stripTrailingZeros().scale() > 0)) {
            return -1;
        }
        return d.longValueExact();
    }

    private static double margin(JsonParser p) throws IOException {
        if (!isNumber(p)) {
            throw new BadRecord(marginRule() + Json.describe(p));
        }
        double v = p.getDoubleValue();
        if (!(v >= 0 && v <= Limits.MAX_EXIT_MARGIN_METERS)) {
            throw new BadRecord(marginRule() + p.getText());
        }
        // -0.0 is 0: one value, so that equal rules are equal records.
        return v + 0.0;
    }

    private static long validUntil(JsonParser p) throws IOException {
        long t = -1;
        if (isNumber(p)) {
            t = wholeNumber(p, Timestamps.MAX);
        } else if (p.currentToken() == JsonToken.VALUE_STRING) {
            try {
                t = Timestamps.read(p);
            } catch (BadRecord e) {
                // Not an instant: the rule's message below, not the timestamp's.
            }
        }
        if (t < Timestamps.MIN || t > Timestamps.MAX) {
            throw new BadRecord(validUntilRule() + Json.describe(p));
        }
        return t;
    }

    private static WeeklySchedule schedule(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(
                    "rules.schedule must be an object {\"timeZone\":..,\"weekly\":[..]}, got "
                            + Json.describe(p));
        }
        ZoneId zone = null;
        List<WeeklySchedule.Window> windows = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "timeZone" -> zone = zone(p);
                case "weekly" -> windows = weekly(p);
                default ->
                        throw new BadRecord(
                                "rules.schedule: unknown field "
                                        + Json.quote(name)
                                        + " (a schedule has timeZone and weekly)");
            }
        }
        if (zone == null) {
            throw new BadRecord("rules.schedule: missing field timeZone");
        }
        if (windows == null) {
            throw new BadRecord("rules.schedule: missing field weekly");
        }
        return new WeeklySchedule(zone, windows);
    }

    private static ZoneId zone(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new BadRecord(
                    "rules.schedule.timeZone must be an IANA time zone id such as"
                            + " \"America/Chicago\", got "
                            + Json.describe(p));
        }
        String id = p.getText();
        checkZone(id);
        return ZoneId.of(id);
    }

    private static List<WeeklySchedule.Window> weekly(JsonParser p) throws IOException {
        String rule =
                "rules.schedule.weekly must be an array of 1 to "
                        + Limits.MAX_SCHEDULE_WINDOWS
                        + " windows "
                        + WINDOW_FORM
                        + ", got ";
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRecord(rule + Json.describe(p));
        }
        List<WeeklySchedule.Window> windows = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (windows.size() == Limits.MAX_SCHEDULE_WINDOWS) {
                throw new BadRecord(rule + "more than " + Limits.MAX_SCHEDULE_WINDOWS);
            }
            windows.add(window(p, "rules.schedule.weekly[" + windows.size() + "]"));
        }
        if (windows.isEmpty()) {
            throw new BadRecord(rule + "an empty array");
        }
        return windows;
    }

    private static WeeklySchedule.Window window(JsonParser p, String at) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(
                    at + " must be an object " + WINDOW_FORM + ", got " + Json.describe(p));
        }
        int days = 0;
        int from = -1;
        int to = -1;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "days" -> days = days(p, at + ".days");
                case "from" -> from = time(p, at + ".from", 0, 23 * 60 + 59, "00:00 to 23:59");
                case "to" -> to = time(p, at + ".to", 1, 24 * 60, "00:01 to 24:00");
                default ->
                        throw new BadRecord(
                                at
                                        + ": unknown field "
                                        + Json.quote(name)
                                        + " (a window has days, from and to)");
            }
        }
        if (days == 0) {
            throw new BadRecord(at + ": missing field days");
        }
        if (from < 0) {
            throw new BadRecord(at + ": missing field from");
        }
        if (to < 0) {
            throw new BadRecord(at + ": missing field to");
        }
        return new WeeklySchedule.Window(days, from, to);
    }

    /** A bit set of days, bit 0 Monday. */
    private static int days(JsonParser p, String at) throws IOException {
        String rule =
                at + " must be an array of 1 to 7 distinct days out of " + DAY_NAMES + ", got ";
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRecord(rule + Json.describe(p));
        }
        int days = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            int d = p.currentToken() == JsonToken.VALUE_STRING ? day(p.getText()) : -1;
            if (d < 0) {
                throw new BadRecord(
                        at + ": unknown day " + Json.describe(p) + " (days are " + DAY_NAMES + ")");
            }
            if ((days & (1 << d)) != 0) {
                throw new BadRecord(at + ": " + Json.describe(p) + " is given twice");
            }
            days |= 1 << d;
        }
        if (days == 0) {
            throw new BadRecord(rule + "an empty array");
        }
        return days;
    }

    private static int day(String name) {
        for (int d = 0; d < DAYS.length; d++) {
            if (DAYS[d].equals(name)) {
                return d;
            }
        }
        return -1;
    }

    /** Minutes after midnight of an "HH:MM" string, in [least, most]. */
    private static int time(JsonParser p, String at, int least, int most, String range)
            throws IOException {
        int minute = -1;
        if (p.currentToken() == JsonToken.VALUE_STRING) {
            String s = p.getText();
            if (s.length() == 5
                    && s.charAt(2) == ':'
                    && digits(s.charAt(0), s.charAt(1))
                    && digits(s.charAt(3), s.charAt(4))) {
                int h = Integer.parseInt(s, 0, 2, 10);
                int m = Integer.parseInt(s, 3, 5, 10);
                minute = m < 60 ? h * 60 + m : -1;
            }
        }
        if (minute < least || minute > most) {
            throw new BadRecord(
                    at
                            + " must be a local time \"HH:MM\" from "
                            + range
                            + ", got "
                            + Json.describe(p));
        }
        return minute;
    }

    private static boolean digits(char a, char b) {
        return a >= '0' && a <= '9' && b >= '0' && b <= '9';
    }

    private static String clock(int minute) {
        return String.format("%02d:%02d", minute / 60, minute % 60);
    }

    private static AttributeMatch match(JsonParser p) throws IOException {
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord(matchRule() + Json.describe(p));
        }
        Map<String, Set<String>> allowed = new TreeMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            if (allowed.size() == Limits.MAX_MATCH_NAMES) {
                throw new BadRecord(matchRule() + "more than " + Limits.MAX_MATCH_NAMES + " names");
            }
            String name = p.currentName();
            p.nextToken();
            allowed.put(name, values(p, name));
        }
        return new AttributeMatch(allowed);
    }

    private static Set<String> values(JsonParser p, String name) throws IOException {
        if (p.currentToken() != JsonToken.START_ARRAY) {
            throw new BadRecord(matchValuesRule(name) + Json.describe(p));
        }
        Set<String> values = new LinkedHashSet<>();
        int n = 0;
        while (p.nextToken() != JsonToken.END_ARRAY) {
            if (n++ == Limits.MAX_MATCH_VALUES) {
                throw new BadRecord(matchValuesRule(name) + "more than " + Limits.MAX_MATCH_VALUES);
            }
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw new BadRecord(matchValuesRule(name) + Json.describe(p) + " in it");
            }
            values.add(p.getText());
        }
        if (n == 0) {
            throw new BadRecord(matchValuesRule(name) + "an empty array");
        }
        return values;
    }
}
