package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Rectangle;
import org.quadfence.model.AttributeMatch;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Parsed;
import org.quadfence.model.WeeklySchedule;
import org.quadfence.model.WeeklySchedule.Window;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The {@code rules} of a fence upsert (contract section 11), read through {@link FenceChangeCodec}.
 */
class FenceRulesCodecTest {

    private static final String MS_RULE =
            " must be an integer number of milliseconds from 0 to 253402300799999, got ";
    private static final String MARGIN_RULE =
            "rules.exitMarginMeters must be a number of metres from 0 to 1000000, got ";
    private static final String VALID_UNTIL_RULE =
            "rules.validUntil must be an event time from 0 to 253402300799999"
                    + " (1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z), as epoch milliseconds"
                    + " or an ISO-8601 instant, got ";
    private static final String DAYS = "(days are MON TUE WED THU FRI SAT SUN)";

    private final FenceChangeCodec codec = new FenceChangeCodec();

    private Parsed<FenceChange> upsert(String rules) {
        return line("{\"fenceId\":\"f\",\"rect\":[1,2,3,4],\"rules\":" + rules + "}");
    }

    private Parsed<FenceChange> line(String text) {
        return codec.parse(null, text.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE);
    }

    private FenceRules rules(String rules) {
        Parsed<FenceChange> parsed = upsert(rules);
        assertThat(parsed.deadLetter()).isNull();
        return parsed.value().rules();
    }

    private static String schedule(String weekly) {
        return "{\"schedule\":{\"timeZone\":\"America/Chicago\",\"weekly\":" + weekly + "}}";
    }

    private static String window(String days, String from, String to) {
        return "{\"days\":" + days + ",\"from\":" + from + ",\"to\":" + to + "}";
    }

    @Test
    void anUpsertWithoutRulesOrWithEmptyRulesHasNone() {
        assertThat(line("{\"fenceId\":\"f\",\"rect\":[1,2,3,4]}").value().rules())
                .isSameAs(FenceRules.NONE);
        assertThat(rules("{}")).isSameAs(FenceRules.NONE);
    }

    @Test
    void eachTimeRuleIsRead() {
        assertThat(rules("{\"dwellMs\":600000}").dwellMs()).isEqualTo(600_000);
        assertThat(rules("{\"dwellMs\":0}").dwellMs()).isZero();
        assertThat(rules("{\"enterAfterMs\":30000}").enterAfterMs()).isEqualTo(30_000);
        assertThat(rules("{\"exitAfterMs\":253402300799999}").exitAfterMs())
                .isEqualTo(253_402_300_799_999L);
        assertThat(rules("{\"exitAfterMs\":6e4}").exitAfterMs()).isEqualTo(60_000);
        assertThat(rules("{\"enterAfterMs\":1000.0}").enterAfterMs()).isEqualTo(1000);
    }

    @Test
    void absentRulesKeepTheirDefaults() {
        FenceRules r = rules("{\"enterAfterMs\":5}");
        assertThat(r.dwellMs()).isEqualTo(FenceRules.JOB_DWELL);
        assertThat(r.exitMarginMeters()).isNaN();
        assertThat(r.exitAfterMs()).isZero();
        assertThat(r.validUntil()).isEqualTo(FenceRules.NO_END);
        assertThat(r.schedule()).isNull();
        assertThat(r.match()).isNull();
    }

    @Test
    void theExitMarginIsAnyFiniteNumberOfMetresInRange() {
        assertThat(rules("{\"exitMarginMeters\":25.5}").exitMarginMeters()).isEqualTo(25.5);
        assertThat(rules("{\"exitMarginMeters\":1000000}").exitMarginMeters()).isEqualTo(1_000_000);
        assertThat(
                        Double.doubleToRawLongBits(
                                rules("{\"exitMarginMeters\":-0.0}").exitMarginMeters()))
                .isZero();
        assertThat(rules("{\"exitMarginMeters\":-0.0}"))
                .isEqualTo(rules("{\"exitMarginMeters\":0}"));
    }

    @Test
    void validUntilIsAnEventTimeInEitherFormAndNeverTooFarAhead() {
        assertThat(rules("{\"validUntil\":1735689600000}").validUntil()).isEqualTo(1735689600000L);
        assertThat(rules("{\"validUntil\":\"2025-01-01T00:00:00Z\"}").validUntil())
                .isEqualTo(Instant.parse("2025-01-01T00:00:00Z").toEpochMilli());
        assertThat(rules("{\"validUntil\":0}").validUntil()).isZero();
        // Beyond max-future, which holds for the fence's timestamp but not for validUntil.
        assertThat(rules("{\"validUntil\":\"9999-12-31T23:59:59.999Z\"}").validUntil())
                .isEqualTo(253_402_300_799_999L);
    }

    @Test
    void aScheduleIsReadIntoItsZoneAndWindows() {
        FenceRules r =
                rules(
                        schedule(
                                "["
                                        + window("[\"MON\",\"TUE\"]", "\"07:00\"", "\"09:30\"")
                                        + ","
                                        + window("[\"SUN\",\"SAT\"]", "\"22:00\"", "\"24:00\"")
                                        + ","
                                        + window("[\"WED\"]", "\"00:00\"", "\"00:01\"")
                                        + ","
                                        + window("[\"THU\"]", "\"23:59\"", "\"23:59\"")
                                        + "]"));
        assertThat(r.schedule())
                .isEqualTo(
                        new WeeklySchedule(
                                ZoneId.of("America/Chicago"),
                                List.of(
                                        new Window(0b11, 7 * 60, 9 * 60 + 30),
                                        new Window(0b110_0000, 22 * 60, 24 * 60),
                                        new Window(0b100, 0, 1),
                                        new Window(0b1000, 23 * 60 + 59, 23 * 60 + 59))));
    }

    @Test
    void aScheduleOfSixtyFourWindowsOfSevenDaysIsRead() {
        String every = "[\"MON\",\"TUE\",\"WED\",\"THU\",\"FRI\",\"SAT\",\"SUN\"]";
        String windows =
                IntStream.range(0, 64)
                        .mapToObj(i -> window(every, "\"07:00\"", "\"08:00\""))
                        .collect(Collectors.joining(",", "[", "]"));
        assertThat(rules(schedule(windows)).schedule().windows()).hasSize(64);
    }

    @Test
    void aMatchIsReadIntoItsNamesAndValues() {
        FenceRules r =
                rules("{\"match\":{\"kind\":[\"van\"],\"fleet\":[\"south\",\"north\",\"south\"]}}");
        assertThat(r.match())
                .isEqualTo(
                        new AttributeMatch(
                                Map.of("fleet", Set.of("north", "south"), "kind", Set.of("van"))));
        assertThat(rules("{\"match\":{}}").match()).isEqualTo(new AttributeMatch(Map.of()));
    }

    @Test
    void rulesSitBesideTheIdOfAGeoJsonFeature() {
        Parsed<FenceChange> parsed =
                line(
                        "{\"type\":\"Feature\",\"id\":\"zone-9\",\"rules\":{\"dwellMs\":5},"
                                + "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
                                + "[[[0,0],[1,0],[1,1],[0,1],[0,0]]]},\"properties\":{\"a\":1}}");
        assertThat(parsed.value().rules().dwellMs()).isEqualTo(5);
        assertThat(parsed.value().properties()).isEqualTo("{\"a\":1}");
    }

    @Test
    void rulesInsidePropertiesAreOnlyProperties() {
        Parsed<FenceChange> parsed =
                line("{\"fenceId\":\"f\",\"rect\":[1,2,3,4],\"properties\":{\"rules\":{\"x\":1}}}");
        assertThat(parsed.value().rules()).isSameAs(FenceRules.NONE);
    }

    @Test
    void aDeleteIgnoresItsRulesEvenMalformedOnes() {
        for (String rules :
                List.of(
                        "{\"dwellMs\":5}",
                        "{\"dwellMs\":-5,\"match\":{\"a\":[1]}}",
                        "{\"dwellMs\":99999999999999999999,\"exitMarginMeters\":1.5}",
                        "{\"validUntil\":1.5e400}",
                        "{\"schedule\":{\"weekly\":[{\"days\":[\"MOM\",[1,{\"x\":[]}]]}]}}",
                        "{\"schedule\":{\"timeZone\":\"UTC\"}}",
                        "[1,[2,{\"a\":3}]]",
                        "null",
                        "7")) {
            for (String record :
                    List.of(
                            "{\"fenceId\":\"f\",\"deleted\":true,\"rules\":"
                                    + rules
                                    + ",\"timestamp\":5}",
                            "{\"fenceId\":\"f\",\"rules\":"
                                    + rules
                                    + ",\"deleted\":true,"
                                    + "\"timestamp\":5}")) {
                assertThat(line(record).value()).as(record).isEqualTo(FenceChange.delete("f", 5));
            }
        }
    }

    @Test
    void numbersAfterTheRulesReadAsWritten() {
        String after = ",\"circle\":{\"lon\":1,\"lat\":2,\"radiusMeters\":3},\"timestamp\":4}";
        Parsed<FenceChange> ok =
                line(
                        "{\"fenceId\":\"f\",\"rules\":{\"dwellMs\":1.0e3,\"validUntil\":5e0,"
                                + "\"exitMarginMeters\":2.5}"
                                + after);
        assertThat(ok.value().circle()).isEqualTo(new Circle(1, 2, 3));
        assertThat(ok.value().timestamp()).isEqualTo(4);
        // A number beyond a long, or a fraction, must not change the numbers read after it.
        for (String rules :
                List.of("{\"enterAfterMs\":12345678901234567890}", "{\"validUntil\":1.5}")) {
            assertThat(line("{\"fenceId\":\"f\",\"rules\":" + rules + after).deadLetter().error())
                    .startsWith("rules.");
        }
    }

    @Test
    void malformedJsonInTheRulesOfADeleteIsStillNotJson() {
        Parsed<FenceChange> parsed =
                line("{\"fenceId\":\"f\",\"deleted\":true,\"rules\":{\"dwellMs\":}}");
        assertThat(parsed.deadLetter().error()).startsWith("not JSON: ");
    }

    @Test
    void writtenRulesReadBackAsTheSameRules() {
        FenceRules all =
                new FenceRules(
                        0,
                        12.5,
                        30_000,
                        253_402_300_799_999L,
                        1_735_689_600_000L,
                        new WeeklySchedule(
                                ZoneId.of("Australia/Lord_Howe"),
                                List.of(
                                        new Window(0b1010101, 0, 1440),
                                        new Window(0b1000000, 22 * 60, 6 * 60))),
                        new AttributeMatch(
                                Map.of(
                                        "fleet",
                                        Set.of("north", "s\u00fcd \"x\""),
                                        "k",
                                        Set.of(""))));
        for (FenceRules r :
                List.of(
                        all,
                        FenceRules.NONE,
                        new FenceRules(FenceRules.JOB_DWELL, 0, 0, 0, 0, null, null),
                        new FenceRules(
                                7,
                                Double.NaN,
                                0,
                                1,
                                FenceRules.NO_END,
                                null,
                                new AttributeMatch(Map.of())))) {
            String json = write(r);
            assertThat(rules(json)).as(json).isEqualTo(r);
        }
        assertThat(write(FenceRules.NONE)).isEqualTo("{}");
        assertThat(write(all))
                .isEqualTo(
                        "{\"dwellMs\":0,\"exitMarginMeters\":12.5,\"enterAfterMs\":30000,"
                                + "\"exitAfterMs\":253402300799999,\"validUntil\":1735689600000,"
                                + "\"schedule\":{\"timeZone\":\"Australia/Lord_Howe\",\"weekly\":["
                                + "{\"days\":[\"MON\",\"WED\",\"FRI\",\"SUN\"],"
                                + "\"from\":\"00:00\",\"to\":\"24:00\"},"
                                + "{\"days\":[\"SUN\"],\"from\":\"22:00\",\"to\":\"06:00\"}]},"
                                + "\"match\":{\"fleet\":[\"north\",\"s\u00fcd \\\"x\\\"\"],"
                                + "\"k\":[\"\"]}}");
    }

    private static String write(FenceRules r) {
        return new String(
                Json.write(Limits.jsonFactory(), g -> FenceRulesCodec.write(g, r)),
                StandardCharsets.UTF_8);
    }

    @Test
    void anUpsertWithRulesKeepsTheRestOfItsFields() {
        Parsed<FenceChange> parsed =
                line(
                        "{\"fenceId\":\"f\",\"rules\":{\"enterAfterMs\":5},\"rect\":[1,2,3,4],"
                                + "\"timestamp\":9,\"group\":\"g\",\"properties\":{\"a\":1}}");
        assertThat(parsed.value())
                .isEqualTo(
                        FenceChange.upsert("f", new Rectangle(1, 2, 3, 4), 9, "{\"a\":1}")
                                .inGroup("g")
                                .withRules(
                                        new FenceRules(
                                                FenceRules.JOB_DWELL,
                                                Double.NaN,
                                                5,
                                                0,
                                                FenceRules.NO_END,
                                                null,
                                                null)));
    }

    static Stream<Arguments> badRules() {
        String ok = window("[\"MON\"]", "\"07:00\"", "\"08:00\"");
        String tooManyWindows =
                IntStream.range(0, 65).mapToObj(i -> ok).collect(Collectors.joining(",", "[", "]"));
        String tooManyNames =
                IntStream.range(0, 65)
                        .mapToObj(i -> "\"n" + i + "\":[\"v\"]")
                        .collect(Collectors.joining(",", "{\"match\":{", "}}"));
        String tooManyValues =
                IntStream.range(0, 65)
                        .mapToObj(i -> "\"v" + i + "\"")
                        .collect(Collectors.joining(",", "{\"match\":{\"fleet\":[", "]}}"));
        return Stream.of(
                arguments(
                        "rules that are not an object",
                        "[1]",
                        "rules must be an object of rules (dwellMs, exitMarginMeters,"
                                + " enterAfterMs, exitAfterMs, validUntil, schedule, match), got an"
                                + " array"),
                arguments("null rules", "null", "rules must be an object of rules ("),
                arguments(
                        "an unknown rule",
                        "{\"dwell\":5}",
                        "rules: unknown rule \"dwell\" (rules are dwellMs, exitMarginMeters,"
                                + " enterAfterMs, exitAfterMs, validUntil, schedule, match)"),
                arguments(
                        "rule names are case-sensitive",
                        "{\"DwellMs\":5}",
                        "rules: unknown rule \"DwellMs\""),
                arguments(
                        "a rule given twice",
                        "{\"dwellMs\":5,\"dwellMs\":6}",
                        "duplicate field 'dwellMs'"),
                arguments(
                        "a negative enterAfterMs",
                        "{\"enterAfterMs\":-5}",
                        "rules.enterAfterMs" + MS_RULE + "-5"),
                arguments(
                        "a null dwellMs", "{\"dwellMs\":null}", "rules.dwellMs" + MS_RULE + "null"),
                arguments(
                        "a string dwellMs",
                        "{\"dwellMs\":\"5\"}",
                        "rules.dwellMs" + MS_RULE + "\"5\""),
                arguments(
                        "a boolean exitAfterMs",
                        "{\"exitAfterMs\":true}",
                        "rules.exitAfterMs" + MS_RULE + "true"),
                arguments(
                        "a fraction of a millisecond",
                        "{\"dwellMs\":1.5}",
                        "rules.dwellMs" + MS_RULE + "1.5"),
                arguments(
                        "a time beyond the span of event times",
                        "{\"exitAfterMs\":253402300800000}",
                        "rules.exitAfterMs" + MS_RULE + "253402300800000"),
                arguments(
                        "a time beyond a long",
                        "{\"dwellMs\":99999999999999999999}",
                        "rules.dwellMs" + MS_RULE + "99999999999999999999"),
                arguments(
                        "a huge exponent",
                        "{\"dwellMs\":1e999}",
                        "rules.dwellMs" + MS_RULE + "1e999"),
                arguments("a negative margin", "{\"exitMarginMeters\":-1}", MARGIN_RULE + "-1"),
                arguments(
                        "a margin over the limit",
                        "{\"exitMarginMeters\":1000000.5}",
                        MARGIN_RULE + "1000000.5"),
                arguments(
                        "an infinite margin",
                        "{\"exitMarginMeters\":1e999}",
                        MARGIN_RULE + "1e999"),
                arguments(
                        "a string margin", "{\"exitMarginMeters\":\"25\"}", MARGIN_RULE + "\"25\""),
                arguments("a null margin", "{\"exitMarginMeters\":null}", MARGIN_RULE + "null"),
                arguments("a negative validUntil", "{\"validUntil\":-1}", VALID_UNTIL_RULE + "-1"),
                arguments(
                        "validUntil in microseconds",
                        "{\"validUntil\":1732234640891000}",
                        VALID_UNTIL_RULE + "1732234640891000"),
                arguments(
                        "validUntil not an instant",
                        "{\"validUntil\":\"tomorrow\"}",
                        VALID_UNTIL_RULE + "\"tomorrow\""),
                arguments(
                        "validUntil without an offset",
                        "{\"validUntil\":\"2025-01-01T00:00:00\"}",
                        VALID_UNTIL_RULE + "\"2025-01-01T00:00:00\""),
                arguments("a null validUntil", "{\"validUntil\":null}", VALID_UNTIL_RULE + "null"),
                arguments(
                        "a fraction in validUntil",
                        "{\"validUntil\":1.5}",
                        VALID_UNTIL_RULE + "1.5"),
                arguments(
                        "a schedule that is not an object",
                        "{\"schedule\":[]}",
                        "rules.schedule must be an object {\"timeZone\":..,\"weekly\":[..]}, got an"
                                + " array"),
                arguments(
                        "a null schedule",
                        "{\"schedule\":null}",
                        "rules.schedule must be an object"),
                arguments(
                        "an unknown field in a schedule",
                        "{\"schedule\":{\"timeZone\":\"UTC\",\"weekly\":[" + ok + "],\"zone\":1}}",
                        "rules.schedule: unknown field \"zone\" (a schedule has timeZone and"
                                + " weekly)"),
                arguments(
                        "a schedule without a zone",
                        "{\"schedule\":{\"weekly\":[" + ok + "]}}",
                        "rules.schedule: missing field timeZone"),
                arguments(
                        "a schedule without windows",
                        "{\"schedule\":{\"timeZone\":\"UTC\"}}",
                        "rules.schedule: missing field weekly"),
                arguments(
                        "an unknown zone",
                        "{\"schedule\":{\"timeZone\":\"Mars/Olympus\",\"weekly\":[" + ok + "]}}",
                        "rules.schedule.timeZone: unknown time zone \"Mars/Olympus\" (an IANA time"
                                + " zone id such as \"America/Chicago\")"),
                arguments(
                        "an offset instead of a zone",
                        "{\"schedule\":{\"timeZone\":\"+02:00\",\"weekly\":[" + ok + "]}}",
                        "rules.schedule.timeZone: unknown time zone \"+02:00\""),
                arguments(
                        "a zone in the wrong case",
                        "{\"schedule\":{\"timeZone\":\"america/chicago\",\"weekly\":[" + ok + "]}}",
                        "rules.schedule.timeZone: unknown time zone \"america/chicago\""),
                arguments(
                        "a number zone",
                        "{\"schedule\":{\"timeZone\":2,\"weekly\":[" + ok + "]}}",
                        "rules.schedule.timeZone must be an IANA time zone id such as"
                                + " \"America/Chicago\", got 2"),
                arguments(
                        "no windows",
                        schedule("[]"),
                        "rules.schedule.weekly must be an array of 1 to 64 windows"
                            + " {\"days\":[..],\"from\":\"HH:MM\",\"to\":\"HH:MM\"}, got an empty"
                            + " array"),
                arguments(
                        "65 windows",
                        schedule(tooManyWindows),
                        "rules.schedule.weekly must be an array of 1 to 64 windows"
                            + " {\"days\":[..],\"from\":\"HH:MM\",\"to\":\"HH:MM\"}, got more than"
                            + " 64"),
                arguments(
                        "windows in an object",
                        schedule("{}"),
                        "rules.schedule.weekly must be an array"),
                arguments(
                        "a window that is not an object",
                        schedule("[" + ok + ",5]"),
                        "rules.schedule.weekly[1] must be an object"
                                + " {\"days\":[..],\"from\":\"HH:MM\",\"to\":\"HH:MM\"}, got 5"),
                arguments(
                        "an unknown field in a window",
                        schedule("[{\"days\":[\"MON\"],\"from\":\"07:00\",\"tz\":1}]"),
                        "rules.schedule.weekly[0]: unknown field \"tz\" (a window has days, from"
                                + " and to)"),
                arguments(
                        "a window without days",
                        schedule("[{\"from\":\"07:00\",\"to\":\"08:00\"}]"),
                        "rules.schedule.weekly[0]: missing field days"),
                arguments(
                        "a window without from",
                        schedule("[{\"days\":[\"MON\"],\"to\":\"08:00\"}]"),
                        "rules.schedule.weekly[0]: missing field from"),
                arguments(
                        "a window without to",
                        schedule("[{\"days\":[\"MON\"],\"from\":\"08:00\"}]"),
                        "rules.schedule.weekly[0]: missing field to"),
                arguments(
                        "an unknown day",
                        schedule(
                                "["
                                        + ok
                                        + ","
                                        + window("[\"MON\",\"MOM\"]", "\"07:00\"", "\"08:00\"")
                                        + "]"),
                        "rules.schedule.weekly[1].days: unknown day \"MOM\" " + DAYS),
                arguments(
                        "a day in lower case",
                        schedule("[" + window("[\"mon\"]", "\"07:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].days: unknown day \"mon\" " + DAYS),
                arguments(
                        "a day as a number",
                        schedule("[" + window("[1]", "\"07:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].days: unknown day 1 " + DAYS),
                arguments(
                        "a repeated day",
                        schedule(
                                "["
                                        + window(
                                                "[\"MON\",\"TUE\",\"MON\"]",
                                                "\"07:00\"",
                                                "\"08:00\"")
                                        + "]"),
                        "rules.schedule.weekly[0].days: \"MON\" is given twice"),
                arguments(
                        "no days",
                        schedule("[" + window("[]", "\"07:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].days must be an array of 1 to 7 distinct days out"
                                + " of MON TUE WED THU FRI SAT SUN, got an empty array"),
                arguments(
                        "days as a string",
                        schedule("[" + window("\"MON\"", "\"07:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].days must be an array of 1 to 7 distinct days out"
                                + " of MON TUE WED THU FRI SAT SUN, got \"MON\""),
                arguments(
                        "a time with seconds",
                        schedule("[" + window("[\"MON\"]", "\"07:00:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time \"HH:MM\" from 00:00 to"
                                + " 23:59, got \"07:00:00\""),
                arguments(
                        "an hour of one digit",
                        schedule("[" + window("[\"MON\"]", "\"7:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time \"HH:MM\" from 00:00 to"
                                + " 23:59, got \"7:00\""),
                arguments(
                        "from at 24:00",
                        schedule("[" + window("[\"MON\"]", "\"24:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time \"HH:MM\" from 00:00 to"
                                + " 23:59, got \"24:00\""),
                arguments(
                        "to after 24:00",
                        schedule("[" + window("[\"MON\"]", "\"07:00\"", "\"24:01\"") + "]"),
                        "rules.schedule.weekly[0].to must be a local time \"HH:MM\" from 00:01 to"
                                + " 24:00, got \"24:01\""),
                arguments(
                        "to at 00:00",
                        schedule("[" + window("[\"MON\"]", "\"07:00\"", "\"00:00\"") + "]"),
                        "rules.schedule.weekly[0].to must be a local time \"HH:MM\" from 00:01 to"
                                + " 24:00, got \"00:00\""),
                arguments(
                        "minute 60",
                        schedule("[" + window("[\"MON\"]", "\"00:60\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time \"HH:MM\" from 00:00 to"
                                + " 23:59, got \"00:60\""),
                arguments(
                        "a signed hour",
                        schedule("[" + window("[\"MON\"]", "\"+7:00\"", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time"),
                arguments(
                        "a time as a number",
                        schedule("[" + window("[\"MON\"]", "700", "\"08:00\"") + "]"),
                        "rules.schedule.weekly[0].from must be a local time \"HH:MM\" from 00:00 to"
                                + " 23:59, got 700"),
                arguments(
                        "a null to",
                        schedule("[" + window("[\"MON\"]", "\"07:00\"", "null") + "]"),
                        "rules.schedule.weekly[0].to must be a local time \"HH:MM\" from 00:01 to"
                                + " 24:00, got null"),
                arguments(
                        "a match that is not an object",
                        "{\"match\":[\"fleet\"]}",
                        "rules.match must be an object of at most 64 attribute names, each with an"
                                + " array of 1 to 64 strings, got an array"),
                arguments("a null match", "{\"match\":null}", "rules.match must be an object"),
                arguments(
                        "a match of 65 names",
                        tooManyNames,
                        "rules.match must be an object of at most 64 attribute names, each with an"
                                + " array of 1 to 64 strings, got more than 64 names"),
                arguments(
                        "a match value that is a string",
                        "{\"match\":{\"fleet\":\"north\"}}",
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got \"north\""),
                arguments(
                        "a match without values",
                        "{\"match\":{\"fleet\":[]}}",
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got an empty array"),
                arguments(
                        "a match of 65 values",
                        tooManyValues,
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got more than 64"),
                arguments(
                        "a match value that is a number",
                        "{\"match\":{\"fleet\":[\"a\",1]}}",
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got 1 in it"),
                arguments(
                        "a null match value",
                        "{\"match\":{\"fleet\":[null]}}",
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got null in it"),
                arguments(
                        "a match name given twice",
                        "{\"match\":{\"fleet\":[\"a\"],\"fleet\":[\"b\"]}}",
                        "duplicate field 'fleet'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRules")
    void malformedRulesMakeTheUpsertADeadLetterThatNamesTheRule(
            String name, String rules, String error) {
        String text = "{\"fenceId\":\"f\",\"rect\":[1,2,3,4],\"rules\":" + rules + "}";
        Parsed<FenceChange> parsed = line(text);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.FENCES);
        assertThat(parsed.deadLetter().error()).startsWith(error);
        assertThat(parsed.deadLetter().raw())
                .isEqualTo(DeadLetterCodec.raw(text.getBytes(StandardCharsets.UTF_8)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRules")
    void malformedRulesBeforeTheShapeAreReportedAsRulesToo(
            String name, String rules, String error) {
        Parsed<FenceChange> parsed =
                line(
                        "{\"fenceId\":\"f\",\"rules\":"
                                + rules
                                + ",\"rect\":[1,2,3,4],\"timestamp\":1}");
        assertThat(parsed.deadLetter().error()).startsWith(error);
    }

    @Test
    void theRulesOfARecordGivenTwiceAreADeadLetter() {
        assertThat(upsert("{},\"rules\":{}").deadLetter().error())
                .isEqualTo("duplicate field 'rules'");
    }

    @Test
    void theLibraryPathChecksTheRangesOfRules() {
        RecordChecks checks = new RecordChecks(InputRules.DEFAULTS);
        FenceChange fence = FenceChange.upsert("f", new Rectangle(1, 2, 3, 4), 5, null);
        FenceRules good =
                new FenceRules(0, 0, 1, 2, 3, null, new AttributeMatch(Map.of("a", Set.of("b"))));
        assertThat(checks.check(fence.withRules(good)).value().rules()).isEqualTo(good);
        assertThat(checks.check(fence).value().rules()).isSameAs(FenceRules.NONE);

        Map<FenceRules, String> bad =
                Map.of(
                        new FenceRules(-5, Double.NaN, 0, 0, FenceRules.NO_END, null, null),
                        "rules.dwellMs" + MS_RULE + "-5",
                        new FenceRules(-1, Double.NaN, -1, 0, FenceRules.NO_END, null, null),
                        "rules.enterAfterMs" + MS_RULE + "-1",
                        new FenceRules(
                                -1, Double.NaN, 0, Long.MAX_VALUE, FenceRules.NO_END, null, null),
                        "rules.exitAfterMs" + MS_RULE + Long.MAX_VALUE,
                        new FenceRules(-1, 1e7, 0, 0, FenceRules.NO_END, null, null),
                        MARGIN_RULE + "1.0E7",
                        new FenceRules(
                                -1, Double.POSITIVE_INFINITY, 0, 0, FenceRules.NO_END, null, null),
                        MARGIN_RULE + "Infinity",
                        new FenceRules(-1, Double.NaN, 0, 0, -7, null, null),
                        VALID_UNTIL_RULE + "-7",
                        new FenceRules(
                                -1,
                                Double.NaN,
                                0,
                                0,
                                FenceRules.NO_END,
                                new WeeklySchedule(
                                        ZoneId.of("+02:00"), List.of(new Window(1, 0, 60))),
                                null),
                        "rules.schedule.timeZone: unknown time zone \"+02:00\"",
                        new FenceRules(
                                -1,
                                Double.NaN,
                                0,
                                0,
                                FenceRules.NO_END,
                                null,
                                new AttributeMatch(
                                        IntStream.range(0, 65)
                                                .boxed()
                                                .collect(
                                                        Collectors.toMap(
                                                                i -> "n" + i, i -> Set.of("v"))))),
                        "rules.match must be an object of at most 64 attribute names, each with an"
                                + " array of 1 to 64 strings, got 65 names",
                        new FenceRules(
                                -1,
                                Double.NaN,
                                0,
                                0,
                                FenceRules.NO_END,
                                null,
                                new AttributeMatch(
                                        Map.of(
                                                "fleet",
                                                IntStream.range(0, 65)
                                                        .mapToObj(i -> "v" + i)
                                                        .collect(Collectors.toSet())))),
                        "rules.match: attribute \"fleet\" must have an array of 1 to 64 strings,"
                                + " got 65 strings");
        bad.forEach(
                (rules, error) -> {
                    Parsed<FenceChange> parsed = checks.check(fence.withRules(rules));
                    assertThat(parsed.ok()).as(error).isFalse();
                    assertThat(parsed.deadLetter().input()).isEqualTo(DeadLetter.FENCES);
                    assertThat(parsed.deadLetter().error()).startsWith(error);
                });
    }
}
