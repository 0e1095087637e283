package org.quadfence.job;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The job's options: every option has a key, a default and a meaning. Values come from a properties
 * file ({@code --config FILE}) and from {@code --key value} arguments; the command line wins. An
 * unknown key is an error that lists the valid ones. Keys that start with {@code kafka.} are passed
 * to the Kafka clients as they are (without the prefix).
 */
public final class JobOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The options, in the order the README and jobs/ list them: key, default, meaning. */
    public static final Map<String, String[]> KNOWN = known();

    /** The latest event time (9999-12-31T23:59:59.999Z): also the longest dwell-ms and ttl. */
    public static final long MAX_EVENT_TIME = 253_402_300_799_999L;

    private final Map<String, String> values;

    private JobOptions(Map<String, String> values) {
        this.values = values;
    }

    private static Map<String, String[]> known() {
        Map<String, String[]> m = new LinkedHashMap<>();
        m.put(
                "tile-level",
                new String[] {"7", "level of the global quadtree whose cells are the keyed tiles"});
        m.put(
                "tile-shards",
                new String[] {
                    "4",
                    "shards per tile: a tile's positions are spread over this many subtasks by"
                            + " entity, each with a copy of the tile's fences"
                });
        m.put(
                "node-capacity",
                new String[] {"16", "fences a quadtree node holds before it splits"});
        m.put(
                "max-depth",
                new String[] {"10", "deepest level of a tile's quadtree below the tile"});
        m.put(
                "max-out-of-orderness",
                new String[] {
                    "1s",
                    "how late (event time) a record may arrive behind the newest one and still"
                            + " count"
                });
        m.put(
                "idle-timeout",
                new String[] {
                    "10s", "a partition or split silent this long stops holding back the watermark"
                });
        m.put(
                "max-future",
                new String[] {
                    "1h",
                    "a record whose event time is further ahead of the wall clock is a dead letter;"
                            + " 0: off"
                });
        m.put(
                "parallelism",
                new String[] {"", "operator parallelism; empty: the environment's default"});
        m.put(
                "checkpoint-interval",
                new String[] {
                    "10s", "checkpoint interval; exactly-once output becomes visible at checkpoints"
                });
        m.put(
                "delivery",
                new String[] {
                    "exactly-once", "exactly-once (transactional Kafka sink) or at-least-once"
                });
        m.put(
                "checkpoint-timeout",
                new String[] {"2min", "a checkpoint not complete after this long is aborted"});
        m.put(
                "tolerable-checkpoint-failures",
                new String[] {
                    "3", "checkpoint failures in a row the job survives before it restarts"
                });
        m.put(
                "restart-strategy",
                new String[] {
                    "exponential-delay",
                    "after a failure: exponential-delay (1 s doubling to 1 min, without end),"
                            + " fixed-delay (restart-attempts times, 10 s apart) or none"
                });
        m.put(
                "restart-attempts",
                new String[] {"10", "restarts of the fixed-delay strategy before the job fails"});
        m.put("state-backend", new String[] {"hashmap", "hashmap (heap) or rocksdb"});
        m.put("bootstrap-servers", new String[] {"localhost:9092", "Kafka bootstrap servers"});
        m.put("positions-topic", new String[] {"positions", "Kafka topic of positions"});
        m.put(
                "fences-topic",
                new String[] {
                    "fences", "Kafka topic of fence changes (compacted, key = fence id)"
                });
        m.put(
                "events-topic",
                new String[] {"geofence-events", "Kafka topic the ENTER/EXIT events go to"});
        m.put("dlq-topic", new String[] {"geofence-dlq", "Kafka topic the dead letters go to"});
        m.put(
                "memberships-topic",
                new String[] {
                    "",
                    "compacted Kafka topic of each entity's current fences, keyed by"
                            + " [\"group\",\"entityId\"]; empty: none"
                });
        m.put("group-id", new String[] {"quadfence", "Kafka consumer group id of the sources"});
        m.put(
                "transactional-id-prefix",
                new String[] {
                    "",
                    "prefix of the Kafka sink's transactional ids, unique per job on a Kafka"
                            + " cluster; empty: group-id and job-name joined by '-'"
                });
        m.put(
                "starting-offsets",
                new String[] {
                    "committed",
                    "where positions are read from without a checkpoint: earliest, latest or"
                            + " committed (committed falls back to earliest)"
                });
        m.put(
                "max-waiting-records",
                new String[] {
                    "1048576",
                    "records waiting for the watermark in memory per subtask of a keyed stage; more"
                            + " wait in keyed state (lower it for small TaskManager heaps with"
                            + " RocksDB)"
                });
        m.put(
                "max-vertices",
                new String[] {"100000", "a polygon fence with more vertices is a dead letter"});
        m.put(
                "exit-margin-meters",
                new String[] {
                    "0",
                    "hysteresis: an entity leaves a fence only when it is farther than this outside"
                            + " it"
                });
        m.put(
                "dwell-ms",
                new String[] {
                    "0", "event time in a fence after which one DWELL event is emitted; 0: no DWELL"
                });
        m.put(
                "entity-ttl",
                new String[] {
                    "0",
                    "event time without a position after which an entity is forgotten; 0: never"
                });
        m.put(
                "exit-on-expiry",
                new String[] {
                    "false", "a forgotten entity first gets an EXIT from each of its fences"
                });
        m.put("job-name", new String[] {"quadfence", "the Flink job's name"});
        return Collections.unmodifiableMap(m);
    }

    /**
     * Every option with its default and meaning, one per line, for {@code --help}: {@code --key
     * (default: value) meaning}.
     */
    public static String describe() {
        StringBuilder out =
                new StringBuilder("options (--key value, or key=value in --config FILE):");
        KNOWN.forEach(
                (key, d) ->
                        out.append(System.lineSeparator())
                                .append(
                                        String.format(
                                                "  --%-30s %s (default: %s)",
                                                key, d[1], d[0].isEmpty() ? "none" : d[0])));
        return out.append(System.lineSeparator())
                .append("  --kafka.*                        passed to the Kafka clients as is")
                .toString();
    }

    /** The defaults alone. */
    public static JobOptions defaults() {
        return of(Map.of());
    }

    /**
     * Options from key/value pairs, checked.
     *
     * @throws IllegalArgumentException naming an unknown key (and the valid ones) or a bad value
     */
    public static JobOptions of(Map<String, String> given) {
        Map<String, String> v = new TreeMap<>();
        KNOWN.forEach((k, d) -> v.put(k, d[0]));
        for (Map.Entry<String, String> e : given.entrySet()) {
            String key = e.getKey();
            if (!KNOWN.containsKey(key) && !key.startsWith("kafka.")) {
                throw new IllegalArgumentException(
                        "unknown option '"
                                + key
                                + "'; valid options: "
                                + String.join(", ", KNOWN.keySet())
                                + ", and kafka.*");
            }
            v.put(key, e.getValue().trim());
        }
        JobOptions o = new JobOptions(v);
        o.check();
        return o;
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
        int level = intValue("tile-level");
        if (level < 0 || level > 16) {
            throw new IllegalArgumentException("tile-level must be 0 to 16, got " + level);
        }
        if (intValue("tile-shards") < 1 || intValue("tile-shards") > 128) {
            throw new IllegalArgumentException("tile-shards must be 1 to 128");
        }
        if (intValue("node-capacity") < 1) {
            throw new IllegalArgumentException("node-capacity must be at least 1");
        }
        if (intValue("max-depth") < 0 || intValue("max-depth") > 30) {
            throw new IllegalArgumentException("max-depth must be 0 to 30");
        }
        millis("max-out-of-orderness");
        millis("idle-timeout");
        millis("checkpoint-interval");
        millis("max-future");
        millis("checkpoint-timeout");
        if (intValue("tolerable-checkpoint-failures") < 0) {
            throw new IllegalArgumentException("tolerable-checkpoint-failures must be at least 0");
        }
        oneOf("restart-strategy", "exponential-delay", "fixed-delay", "none");
        if (intValue("restart-attempts") < 1) {
            throw new IllegalArgumentException("restart-attempts must be at least 1");
        }
        for (String key : new String[] {"dwell-ms", "entity-ttl"}) {
            if (millis(key) > MAX_EVENT_TIME) {
                throw new IllegalArgumentException(
                        key + " must be at most " + MAX_EVENT_TIME + " ms, got " + get(key));
            }
        }
        if (intValue("max-waiting-records") < 1) {
            throw new IllegalArgumentException("max-waiting-records must be at least 1");
        }
        if (intValue("max-vertices") < 3) {
            throw new IllegalArgumentException("max-vertices must be at least 3");
        }
        oneOf("exit-on-expiry", "true", "false");
        double margin = doubleValue("exit-margin-meters");
        if (!(margin >= 0 && margin <= 1_000_000)) {
            throw new IllegalArgumentException(
                    "exit-margin-meters must be 0 to 1000000, got " + margin);
        }
        oneOf("delivery", "exactly-once", "at-least-once");
        oneOf("state-backend", "hashmap", "rocksdb");
        oneOf("starting-offsets", "earliest", "latest", "committed");
        if (!get("parallelism").isEmpty() && intValue("parallelism") < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
    }

    private void oneOf(String key, String... allowed) {
        String v = get(key);
        for (String a : allowed) {
            if (a.equals(v)) {
                return;
            }
        }
        throw new IllegalArgumentException(
                key + " must be one of " + String.join(", ", allowed) + ", got '" + v + "'");
    }

    /** The option's value as text. */
    public String get(String key) {
        String v = values.get(key);
        if (v == null) {
            throw new IllegalArgumentException("unknown option '" + key + "'");
        }
        return v;
    }

    /** The option's value as an integer. */
    public int intValue(String key) {
        String v = get(key);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be an integer, got '" + v + "'");
        }
    }

    /** The option's value as a number. */
    public double doubleValue(String key) {
        String v = get(key);
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a number, got '" + v + "'");
        }
    }

    /** The option's value as true or false. */
    public boolean booleanValue(String key) {
        return Boolean.parseBoolean(get(key));
    }

    /**
     * The option's value as milliseconds: a plain number is milliseconds, or a number with a unit
     * (ms, s, min, h), such as {@code 500ms}, {@code 1s}, {@code 2min}.
     */
    public long millis(String key) {
        return parseDuration(key, get(key));
    }

    static long parseDuration(String key, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) {
            i++;
        }
        String unit = t.substring(i).trim();
        long factor;
        switch (unit) {
            case "":
            case "ms":
                factor = 1;
                break;
            case "s":
                factor = 1000;
                break;
            case "min":
            case "m":
                factor = 60_000;
                break;
            case "h":
                factor = 3_600_000;
                break;
            default:
                factor = -1;
        }
        try {
            double n = Double.parseDouble(t.substring(0, i));
            if (factor > 0 && n >= 0) {
                return Math.round(n * factor);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                key + " must be a duration such as 1000, 500ms, 1s or 2min, got '" + text + "'");
    }

    /** The {@code kafka.}-prefixed options, with the prefix taken off. */
    public Properties kafkaProperties() {
        Properties p = new Properties();
        values.forEach(
                (k, v) -> {
                    if (k.startsWith("kafka.")) {
                        p.setProperty(k.substring("kafka.".length()), v);
                    }
                });
        return p;
    }

    /** Every option with its value, for logging. */
    public Map<String, String> asMap() {
        return Collections.unmodifiableMap(values);
    }
}
