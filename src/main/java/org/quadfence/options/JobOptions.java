package org.quadfence.options;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.configuration.MemorySize;

import org.quadfence.io.InputRules;
import org.quadfence.io.Limits;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.quadfence.options.QuadfenceOptions.CHANGELOG_MATERIALIZE_INTERVAL;
import static org.quadfence.options.QuadfenceOptions.CHECKPOINT_INTERVAL;
import static org.quadfence.options.QuadfenceOptions.CHECKPOINT_TIMEOUT;
import static org.quadfence.options.QuadfenceOptions.CROSSING_MAX_METERS;
import static org.quadfence.options.QuadfenceOptions.EXIT_MARGIN_METERS;
import static org.quadfence.options.QuadfenceOptions.MAX_ACCURACY_METERS;
import static org.quadfence.options.QuadfenceOptions.MAX_BACKLOG;
import static org.quadfence.options.QuadfenceOptions.MAX_DEPTH;
import static org.quadfence.options.QuadfenceOptions.MAX_RECORD_BYTES;
import static org.quadfence.options.QuadfenceOptions.MAX_VERTICES;
import static org.quadfence.options.QuadfenceOptions.MAX_WAITING_RECORDS;
import static org.quadfence.options.QuadfenceOptions.NODE_CAPACITY;
import static org.quadfence.options.QuadfenceOptions.PARALLELISM;
import static org.quadfence.options.QuadfenceOptions.RESTART_ATTEMPTS;
import static org.quadfence.options.QuadfenceOptions.TILE_LEVEL;
import static org.quadfence.options.QuadfenceOptions.TILE_SHARDS;
import static org.quadfence.options.QuadfenceOptions.TOLERABLE_CHECKPOINT_FAILURES;
import static org.quadfence.options.QuadfenceOptions.WATERMARK_INTERVAL;

/**
 * The job's options ({@link QuadfenceOptions}) with the values a user gave. Values come from a
 * properties file ({@code --config FILE}) and from {@code --key value} arguments; the command line
 * wins. An unknown key is an error that lists the valid ones. Keys that start with {@code kafka.}
 * are passed to the Kafka clients as they are (without the prefix). An option the user did not give
 * has its default, and {@link #isSet} tells the two apart, so that a cluster's own setting can
 * stand where the user gave none ({@code job.JobEnvironment}).
 */
public final class JobOptions implements Serializable {

    private static final long serialVersionUID = 2L;

    /**
     * The options by key, in the order of {@link QuadfenceOptions#all()}: their default as text
     * (empty: none) and their description.
     */
    public static final Map<String, String[]> KNOWN = known();

    /** The latest event time (9999-12-31T23:59:59.999Z): also the longest duration option. */
    public static final long MAX_EVENT_TIME = 253_402_300_799_999L;

    /** Flink's least checkpoint interval and timeout. */
    /** The largest {@code crossing-max-meters}: it bounds the tiles one position's path meets. */
    public static final double MOST_CROSSING_METERS = 1_000_000;

    private static final Duration LEAST_CHECKPOINT_TIME = Duration.ofMillis(10);

    /** The longest {@code max-backlog}: fence versions and entities are kept this long. */
    private static final Duration MOST_BACKLOG = Duration.ofDays(1);

    private static final Map<String, ConfigOption<?>> BY_KEY =
            QuadfenceOptions.all().stream()
                    .collect(
                            Collectors.toMap(
                                    ConfigOption::key, o -> o, (a, b) -> a, LinkedHashMap::new));

    /** The options the user gave, as typed values. */
    private final Configuration given;

    /** The options the user gave, as the user wrote them: for messages. */
    private final Map<String, String> written;

    /** The {@code kafka.}-prefixed options, with their prefix. */
    private final Map<String, String> kafka;

    private JobOptions(
            Configuration given, Map<String, String> written, Map<String, String> kafka) {
        this.given = given;
        this.written = written;
        this.kafka = kafka;
    }

    private static Map<String, String[]> known() {
        Map<String, String[]> m = new LinkedHashMap<>();
        for (ConfigOption<?> o : QuadfenceOptions.all()) {
            m.put(
                    o.key(),
                    new String[] {
                        o.hasDefaultValue() ? QuadfenceOptions.text(o.defaultValue()) : "",
                        QuadfenceOptions.description(o)
                    });
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * Every option with its meaning and default, for {@code --help}: {@code --key meaning (default:
     * value)}, wrapped at 100 columns.
     */
    public static String describe() {
        StringBuilder out =
                new StringBuilder(
                        "job options (--key value, or key=value in --config FILE; the command line"
                                + " wins):");
        KNOWN.forEach(
                (key, d) ->
                        out.append(System.lineSeparator())
                                .append(
                                        Help.entry(
                                                "--" + key,
                                                d[1]
                                                        + " (default: "
                                                        + (d[0].isEmpty() ? "none" : d[0])
                                                        + ")")));
        return out.append(System.lineSeparator())
                .append(Help.entry("--kafka.*", "passed to the Kafka clients without the prefix"))
                .toString();
    }

    /** The defaults alone. */
    public static JobOptions defaults() {
        return of(Map.of());
    }

    /**
     * Options from key/value pairs, checked. An empty value of an option without a default ({@code
     * parallelism}, {@code transactional-id-prefix}) leaves it unset.
     *
     * @throws IllegalArgumentException naming an unknown key (and the valid ones), or an option and
     *     its bad value
     */
    public static JobOptions of(Map<String, String> values) {
        Configuration given = new Configuration();
        Map<String, String> written = new TreeMap<>();
        Map<String, String> kafka = new TreeMap<>();
        for (Map.Entry<String, String> e : values.entrySet()) {
            String key = e.getKey();
            String value = e.getValue().trim();
            if (key.startsWith("kafka.")) {
                kafka.put(key, value);
                continue;
            }
            ConfigOption<?> option = BY_KEY.get(key);
            if (option == null) {
                throw new IllegalArgumentException(
                        "unknown option '"
                                + key
                                + "'; valid options: "
                                + String.join(", ", KNOWN.keySet())
                                + ", and kafka.*");
            }
            if (!value.isEmpty() || option.hasDefaultValue()) {
                set(given, option, value);
                written.put(key, value);
            }
        }
        JobOptions o = new JobOptions(given, written, Collections.unmodifiableMap(kafka));
        o.check();
        return o;
    }

    private static <T> void set(Configuration given, ConfigOption<T> option, String value) {
        Configuration text = new Configuration();
        text.setString(option.key(), value);
        T typed;
        try {
            typed = text.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    option.key() + " must be " + expected(option) + ", got '" + value + "'");
        }
        given.set(option, typed);
    }

    private static String expected(ConfigOption<?> option) {
        Class<?> type = QuadfenceOptions.type(option);
        if (type == Duration.class) {
            return "a duration such as 1000 (milliseconds), 500ms, 1s, 2min or 1h";
        }
        if (type == MemorySize.class) {
            return "a size in bytes such as 16777216, or with a unit: 512kb, 16mb, 1gb";
        }
        if (type == Integer.class) {
            return "an integer";
        }
        if (type == Double.class) {
            return "a number";
        }
        if (type == Boolean.class) {
            return "true or false";
        }
        return "one of "
                + Arrays.stream(type.getEnumConstants())
                        .map(String::valueOf)
                        .collect(Collectors.joining(", "));
    }

    /**
     * Options from a command line of {@code --key value} pairs and an optional {@code --config
     * FILE}; the command line wins over the file.
     */
    public static JobOptions fromArgs(String[] args) throws IOException {
        return of(parseArgs(args, Map.of()));
    }

    /**
     * Reads {@code --key value} pairs (and {@code --config FILE}, whose values the command line
     * overrides); keys listed in {@code own} are left out of the options and returned in it.
     */
    public static Map<String, String> parseArgs(String[] args, Map<String, String> own)
            throws IOException {
        Map<String, String> fromCli = new LinkedHashMap<>();
        Map<String, String> merged = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--") || a.length() == 2) {
                throw new IllegalArgumentException("expected --key value, got '" + a + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String key = a.substring(2);
            String value = args[++i];
            if (key.equals("config")) {
                merged.putAll(readProperties(Path.of(value)));
            } else {
                fromCli.put(key, value);
            }
        }
        merged.putAll(fromCli);
        for (String k : own.keySet()) {
            if (merged.containsKey(k)) {
                own.put(k, merged.remove(k));
            }
        }
        return merged;
    }

    private static Map<String, String> readProperties(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("config file not found: " + file);
        }
        Properties p = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            p.load(in);
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    private void check() {
        within(TILE_LEVEL, 0, 16);
        within(TILE_SHARDS, 1, 128);
        within(NODE_CAPACITY, 1, Integer.MAX_VALUE);
        within(MAX_DEPTH, 0, 30);
        within(TOLERABLE_CHECKPOINT_FAILURES, 0, Integer.MAX_VALUE);
        within(RESTART_ATTEMPTS, 1, Integer.MAX_VALUE);
        within(MAX_WAITING_RECORDS, 1, Integer.MAX_VALUE);
        within(MAX_VERTICES, 3, Integer.MAX_VALUE);
        within(PARALLELISM, 1, Integer.MAX_VALUE);
        checkRecordBytes();
        double margin = get(EXIT_MARGIN_METERS);
        if (!(margin >= 0 && margin <= 1_000_000)) {
            throw new IllegalArgumentException(
                    "exit-margin-meters must be 0 to 1000000, got " + written(EXIT_MARGIN_METERS));
        }
        double accuracy = get(MAX_ACCURACY_METERS);
        if (!(accuracy >= 0 && accuracy <= 1_000_000)) {
            throw new IllegalArgumentException(
                    "max-accuracy-meters must be 0 to 1000000, got "
                            + written(MAX_ACCURACY_METERS));
        }
        double crossingMeters = get(CROSSING_MAX_METERS);
        if (!(crossingMeters > 0 && crossingMeters <= MOST_CROSSING_METERS)) {
            throw new IllegalArgumentException(
                    "crossing-max-meters must be more than 0 and at most 1000000, got "
                            + written(CROSSING_MAX_METERS));
        }
        for (ConfigOption<Duration> o : Arrays.asList(CHECKPOINT_INTERVAL, CHECKPOINT_TIMEOUT)) {
            if (get(o).compareTo(LEAST_CHECKPOINT_TIME) < 0) {
                throw new IllegalArgumentException(
                        o.key() + " must be at least 10ms, got " + written(o));
            }
        }
        if (get(CHANGELOG_MATERIALIZE_INTERVAL).compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "changelog-materialize-interval must be at least 1s, got "
                            + written(CHANGELOG_MATERIALIZE_INTERVAL));
        }
        if (get(MAX_BACKLOG).compareTo(MOST_BACKLOG) > 0) {
            throw new IllegalArgumentException(
                    "max-backlog must be at most 1d, got " + written(MAX_BACKLOG));
        }
        if (get(WATERMARK_INTERVAL).compareTo(Duration.ofMillis(1)) < 0) {
            throw new IllegalArgumentException(
                    "watermark-interval must be at least 1ms, got " + written(WATERMARK_INTERVAL));
        }
        Duration longest = Duration.ofMillis(MAX_EVENT_TIME);
        for (ConfigOption<?> o : QuadfenceOptions.all()) {
            if (get(o) instanceof Duration d && d.compareTo(longest) > 0) {
                throw new IllegalArgumentException(
                        o.key() + " must be at most " + MAX_EVENT_TIME + " ms, got " + written(o));
            }
        }
    }

    // A record of the largest fence that max-vertices allows must never be too large.
    private void checkRecordBytes() {
        long bytes = get(MAX_RECORD_BYTES).getBytes();
        if (bytes > Limits.MOST_RECORD_BYTES) {
            throw new IllegalArgumentException(
                    "max-record-bytes must be at most 1gb, got " + written(MAX_RECORD_BYTES));
        }
        int vertices = get(MAX_VERTICES);
        long least = Limits.leastRecordBytes(vertices);
        if (bytes < least) {
            throw new IllegalArgumentException(
                    "max-record-bytes must be at least "
                            + least
                            + " bytes (80 a vertex + 1mb) for max-vertices "
                            + vertices
                            + ", so that every fence max-vertices allows fits; got "
                            + (isSet(MAX_RECORD_BYTES)
                                    ? written(MAX_RECORD_BYTES)
                                    : "the default " + QuadfenceOptions.text(get(MAX_RECORD_BYTES)))
                            + (least > Limits.MOST_RECORD_BYTES
                                    ? "; max-vertices can be at most "
                                            + Limits.mostVertices(Limits.MOST_RECORD_BYTES)
                                    : ""));
        }
    }

    private void within(ConfigOption<Integer> option, int least, int most) {
        Integer v = get(option);
        if (v != null && (v < least || v > most)) {
            throw new IllegalArgumentException(
                    option.key()
                            + (most == Integer.MAX_VALUE
                                    ? " must be at least " + least
                                    : " must be " + least + " to " + most)
                            + ", got "
                            + written(option));
        }
    }

    // Defaults pass the checks: a value that fails one was given.
    private String written(ConfigOption<?> option) {
        return written.get(option.key());
    }

    /** Whether the user gave {@code option} (on the command line or in a --config file). */
    public boolean isSet(ConfigOption<?> option) {
        return given.contains(option);
    }

    /** The option's value: the one given, else its default (null for none). */
    public <T> T get(ConfigOption<T> option) {
        return given.get(option);
    }

    private ConfigOption<?> option(String key) {
        ConfigOption<?> option = BY_KEY.get(key);
        if (option == null) {
            throw new IllegalArgumentException("unknown option '" + key + "'");
        }
        return option;
    }

    /** The option's value as text, as a user writes it (see {@link QuadfenceOptions#text}). */
    public String get(String key) {
        Object v = get(option(key));
        return v == null ? "" : QuadfenceOptions.text(v);
    }

    /** The value of an integer option. */
    public int intValue(String key) {
        Object v = get(option(key));
        if (!(v instanceof Integer)) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + get(key) + "'");
        }
        return (Integer) v;
    }

    /** The value of a numeric option. */
    public double doubleValue(String key) {
        Object v = get(option(key));
        if (!(v instanceof Number)) {
            throw new IllegalArgumentException(key + " must be a number, got '" + get(key) + "'");
        }
        return ((Number) v).doubleValue();
    }

    /** The value of a true-or-false option. */
    public boolean booleanValue(String key) {
        Object v = get(option(key));
        if (!(v instanceof Boolean)) {
            throw new IllegalArgumentException(
                    key + " must be true or false, got '" + get(key) + "'");
        }
        return (Boolean) v;
    }

    /** The value of a size option, in bytes. */
    public long bytes(String key) {
        Object v = get(option(key));
        if (!(v instanceof MemorySize)) {
            throw new IllegalArgumentException(key + " is not a size option");
        }
        return ((MemorySize) v).getBytes();
    }

    /** The value of a duration option, in milliseconds. */
    public long millis(String key) {
        Object v = get(option(key));
        if (!(v instanceof Duration)) {
            throw new IllegalArgumentException(key + " is not a duration option");
        }
        return ((Duration) v).toMillis();
    }

    /** The {@code kafka.}-prefixed options, with the prefix taken off. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        kafka.forEach((k, v) -> p.setProperty(k.substring("kafka.".length()), v));
        return p;
    }

    /** Every option with its value as text (defaults included, empty for none), for logging. */
    public Map<String, String> asMap() {
        Map<String, String> m = new TreeMap<>();
        KNOWN.keySet().forEach(k -> m.put(k, get(k)));
        m.putAll(kafka);
        return Collections.unmodifiableMap(m);
    }

    /**
     * What the Flink web UI shows of the options: {@link #asMap()}, with the values of {@code
     * kafka.} options that Flink deems secret (passwords, JAAS configurations, ...) hidden.
     */
    public Map<String, String> forDisplay() {
        Map<String, String> m = new TreeMap<>(asMap());
        m.replaceAll(
                (k, v) ->
                        k.startsWith("kafka.") && GlobalConfiguration.isSensitive(k)
                                ? GlobalConfiguration.HIDDEN_CONTENT
                                : v);
        return m;
    }

    /** What the checks of the input records enforce, as these options say. */
    public InputRules inputRules() {
        return new InputRules(
                intValue("max-vertices"),
                millis("max-future"),
                (int) bytes("max-record-bytes"),
                get(QuadfenceOptions.FENCE_REPAIR) == QuadfenceOptions.FenceRepair.MAKE_VALID);
    }
}
