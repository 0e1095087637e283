package org.quadfence.options;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.description.TextElement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

import static org.apache.flink.configuration.ConfigOptions.key;

/**
 * The job's options as Flink {@link ConfigOption}s, in the style of the Kafka connector's {@code
 * KafkaSourceOptions}: each with its type, default and description. {@link JobOptions} reads them
 * from the command line and property files; docs/options.md, {@code jobs/local.properties} and
 * {@code --help} list them in the order of {@link #all()}.
 */
public final class QuadfenceOptions {

    /** Each option's type, in the order the options are listed; filled as they are declared. */
    private static final Map<ConfigOption<?>, Class<?>> TYPES = new LinkedHashMap<>();

    // ---------------------------------------------------------------- Kafka

    public static final ConfigOption<String> BOOTSTRAP_SERVERS =
            option(
                    String.class,
                    key("bootstrap-servers").stringType().defaultValue("localhost:9092"),
                    "Kafka bootstrap servers");

    public static final ConfigOption<String> POSITIONS_TOPIC =
            option(
                    String.class,
                    key("positions-topic").stringType().defaultValue("positions"),
                    "Kafka topic of positions");

    public static final ConfigOption<String> FENCES_TOPIC =
            option(
                    String.class,
                    key("fences-topic").stringType().defaultValue("fences"),
                    "Kafka topic of fence changes: compacted, record key = fence id; read from its"
                            + " beginning whenever the job starts without a checkpoint");

    public static final ConfigOption<String> EVENTS_TOPIC =
            option(
                    String.class,
                    key("events-topic").stringType().defaultValue("geofence-events"),
                    "Kafka topic the events go to, keyed by entity id");

    public static final ConfigOption<String> DLQ_TOPIC =
            option(
                    String.class,
                    key("dlq-topic").stringType().defaultValue("geofence-dlq"),
                    "Kafka topic the dead letters go to");

    public static final ConfigOption<String> MEMBERSHIPS_TOPIC =
            option(
                    String.class,
                    key("memberships-topic").stringType().noDefaultValue(),
                    "compacted Kafka topic of each entity's current fences, keyed by"
                            + " [\"group\",\"entityId\"] (contract section 9); empty: not"
                            + " written");

    public static final ConfigOption<String> GROUP_ID =
            option(
                    String.class,
                    key("group-id").stringType().defaultValue("quadfence"),
                    "Kafka consumer group id of the sources");

    public static final ConfigOption<String> TRANSACTIONAL_ID_PREFIX =
            option(
                    String.class,
                    key("transactional-id-prefix").stringType().noDefaultValue(),
                    "prefix of the Kafka sinks' transactional ids, unique per job on a Kafka"
                            + " cluster (two jobs sharing it abort each other's transactions);"
                            + " empty: group-id and job-name joined by '-'");

    public static final ConfigOption<StartingOffsets> STARTING_OFFSETS =
            option(
                    StartingOffsets.class,
                    key("starting-offsets")
                            .enumType(StartingOffsets.class)
                            .defaultValue(StartingOffsets.COMMITTED),
                    "where positions are read from without a checkpoint: earliest, latest or"
                            + " committed (committed falls back to earliest)");

    public static final ConfigOption<Delivery> DELIVERY =
            option(
                    Delivery.class,
                    key("delivery").enumType(Delivery.class).defaultValue(Delivery.EXACTLY_ONCE),
                    "exactly-once (transactional Kafka sinks, read with read_committed) or"
                            + " at-least-once, and Flink's checkpointing mode");

    // ---------------------------------------------------------------- time

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            option(
                    Duration.class,
                    key("max-out-of-orderness").durationType().defaultValue(Duration.ofSeconds(1)),
                    "how far behind the newest record (event time) a record may arrive and still"
                            + " count; a later position is a dead letter \"late\"");

    public static final ConfigOption<Duration> MAX_BACKLOG =
            option(
                    Duration.class,
                    key("max-backlog").durationType().defaultValue(Duration.ZERO),
                    "at most 1d: a position behind its partition's watermark by at most this,"
                            + " later than every earlier position of its entity there, is a"
                            + " backlog position, taken at once against the fences of its time"
                            + " (contract section 12); an entity's timers then wait for its next"
                            + " position, or up to this long; 0: off, every position behind is"
                            + " late");

    public static final ConfigOption<Duration> IDLE_TIMEOUT =
            option(
                    Duration.class,
                    key("idle-timeout").durationType().defaultValue(Duration.ofSeconds(10)),
                    "a Kafka partition read to its end and silent this long, while the broker"
                            + " answers, stops holding back the watermark (a file is never idle:"
                            + " it holds the watermark until it is read)");

    public static final ConfigOption<Duration> MAX_FUTURE =
            option(
                    Duration.class,
                    key("max-future").durationType().defaultValue(Duration.ofHours(1)),
                    "a position or fence change whose event time is further ahead of the"
                            + " machine's clock is a dead letter \"future\" and moves no"
                            + " watermark; 0: off");

    public static final ConfigOption<Duration> WATERMARK_INTERVAL =
            option(
                    Duration.class,
                    key("watermark-interval").durationType().defaultValue(Duration.ofMillis(100)),
                    "how often the sources emit a watermark, at least 1ms; every stage hands its"
                            + " records on at watermarks, so a position waits about half of this"
                            + " on top of max-out-of-orderness");

    // ---------------------------------------------------------------- failures

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            option(
                    Duration.class,
                    key("checkpoint-interval").durationType().defaultValue(Duration.ofSeconds(10)),
                    "checkpoint interval, at least 10ms; exactly-once output becomes visible at"
                            + " checkpoints");

    public static final ConfigOption<Duration> CHECKPOINT_TIMEOUT =
            option(
                    Duration.class,
                    key("checkpoint-timeout").durationType().defaultValue(Duration.ofMinutes(2)),
                    "a checkpoint not complete after this long (at least 10ms) is aborted");

    public static final ConfigOption<Integer> TOLERABLE_CHECKPOINT_FAILURES =
            option(
                    Integer.class,
                    key("tolerable-checkpoint-failures").intType().defaultValue(3),
                    "checkpoint failures in a row (at least 0) the job survives before it"
                            + " restarts");

    public static final ConfigOption<RestartStrategy> RESTART_STRATEGY =
            option(
                    RestartStrategy.class,
                    key("restart-strategy")
                            .enumType(RestartStrategy.class)
                            .defaultValue(RestartStrategy.EXPONENTIAL_DELAY),
                    "after a failure: exponential-delay (1 s doubling to 1 min, without end),"
                            + " fixed-delay (restart-attempts times, 10 s apart) or none");

    public static final ConfigOption<Integer> RESTART_ATTEMPTS =
            option(
                    Integer.class,
                    key("restart-attempts").intType().defaultValue(10),
                    "restarts of the fixed-delay strategy (at least 1) before the job fails");

    // ---------------------------------------------------------------- index

    public static final ConfigOption<Integer> TILE_LEVEL =
            option(
                    Integer.class,
                    key("tile-level").intType().defaultValue(7),
                    "level of the global quadtree whose cells are the keyed tiles, 0 to 16");

    public static final ConfigOption<Integer> TILE_SHARDS =
            option(
                    Integer.class,
                    key("tile-shards").intType().defaultValue(4),
                    "shards per tile, 1 to 128: a tile's positions are spread over this many"
                            + " subtasks by entity, each with a copy of the tile's fences");

    public static final ConfigOption<Integer> NODE_CAPACITY =
            option(
                    Integer.class,
                    key("node-capacity").intType().defaultValue(16),
                    "fences a quadtree node holds before it splits, at least 1");

    public static final ConfigOption<Integer> MAX_DEPTH =
            option(
                    Integer.class,
                    key("max-depth").intType().defaultValue(10),
                    "deepest level of a tile's quadtree below the tile, 0 to 30");

    // ---------------------------------------------------------------- events

    public static final ConfigOption<Integer> MAX_WAITING_RECORDS =
            option(
                    Integer.class,
                    key("max-waiting-records").intType().defaultValue(1_048_576),
                    "records waiting for the watermark in memory per subtask of a keyed stage,"
                            + " at least 1; more wait in keyed state (lower it for small"
                            + " TaskManager heaps with RocksDB)");

    public static final ConfigOption<Integer> MAX_VERTICES =
            option(
                    Integer.class,
                    key("max-vertices").intType().defaultValue(100_000),
                    "a polygon fence with more vertices than this (at least 3) is a dead letter");

    public static final ConfigOption<MemorySize> MAX_RECORD_BYTES =
            option(
                    MemorySize.class,
                    key("max-record-bytes").memoryType().defaultValue(MemorySize.ofMebiBytes(16)),
                    "a position or fence record longer than this is a dead letter \"record too"
                            + " large\"; a size such as 16mb (kb, mb, gb: KiB, MiB, GiB), at most"
                            + " 1gb and at least 80 bytes a vertex of max-vertices + 1mb");

    public static final ConfigOption<FenceRepair> FENCE_REPAIR =
            option(
                    FenceRepair.class,
                    key("fence-repair")
                            .enumType(FenceRepair.class)
                            .defaultValue(FenceRepair.REJECT),
                    "a polygon that is not valid (OGC): reject (a dead letter) or make-valid"
                            + " (repaired by JTS GeometryFixer, used, and reported on the"
                            + " dead-letter output with \"repaired\":true)");

    public static final ConfigOption<Double> EXIT_MARGIN_METERS =
            option(
                    Double.class,
                    key("exit-margin-meters").doubleType().defaultValue(0.0),
                    "hysteresis, 0 to 1000000: an entity inside a fence leaves it only when it"
                            + " is farther than this many meters outside the fence (0: at once)");

    public static final ConfigOption<Double> MAX_ACCURACY_METERS =
            option(
                    Double.class,
                    key("max-accuracy-meters").doubleType().defaultValue(0.0),
                    "0 to 1000000: a position whose accuracy is above this many meters is ignored"
                            + " (counted, not a dead letter); the tiles measure accuracy exactly up"
                            + " to it (0: no limit, and accuracy measured only as far as the exit"
                            + " margin reaches)");

    public static final ConfigOption<Duration> DWELL_MS =
            option(
                    Duration.class,
                    key("dwell-ms").durationType().defaultValue(Duration.ZERO),
                    "event time an entity must stay in a fence for one DWELL event; 0: no DWELL");

    public static final ConfigOption<Duration> ENTITY_TTL =
            option(
                    Duration.class,
                    key("entity-ttl").durationType().defaultValue(Duration.ZERO),
                    "event time without a position after which an entity is forgotten; 0: never");

    public static final ConfigOption<Boolean> EXIT_ON_EXPIRY =
            option(
                    Boolean.class,
                    key("exit-on-expiry").booleanType().defaultValue(false),
                    "whether a forgotten entity first gets an EXIT from each of its fences");

    public static final ConfigOption<Boolean> CROSSING =
            option(
                    Boolean.class,
                    key("crossing").booleanType().defaultValue(false),
                    "whether a CROSS event reports each fence the straight path between two"
                            + " consecutive positions of an entity passes through without either"
                            + " position in it (contract section 10)");

    public static final ConfigOption<Duration> CROSSING_MAX_GAP =
            option(
                    Duration.class,
                    key("crossing-max-gap").durationType().defaultValue(Duration.ZERO),
                    "the longest event time between two consecutive positions whose path is"
                            + " tested for CROSS; 0: no limit");

    public static final ConfigOption<Double> CROSSING_MAX_METERS =
            option(
                    Double.class,
                    key("crossing-max-meters").doubleType().defaultValue(50000.0),
                    "the longest path (haversine meters, more than 0 and at most 1000000) between"
                            + " two consecutive positions that is tested for CROSS");

    // ---------------------------------------------------------------- runtime

    public static final ConfigOption<Integer> PARALLELISM =
            option(
                    Integer.class,
                    key("parallelism").intType().noDefaultValue(),
                    "operator parallelism, at least 1; empty: flink run -p or the cluster's"
                            + " parallelism.default");

    public static final ConfigOption<StateBackend> STATE_BACKEND =
            option(
                    StateBackend.class,
                    key("state-backend")
                            .enumType(StateBackend.class)
                            .defaultValue(StateBackend.HASHMAP),
                    "hashmap (heap) or rocksdb");

    public static final ConfigOption<Boolean> STATE_CHANGELOG =
            option(
                    Boolean.class,
                    key("state-changelog").booleanType().defaultValue(false),
                    "whether a checkpoint writes only the keyed state changed since the one"
                            + " before (Flink's changelog state backend), the whole state being"
                            + " written in the background every changelog-materialize-interval;"
                            + " needs a durable changelog storage (docs/operations.md)");

    public static final ConfigOption<Duration> CHANGELOG_MATERIALIZE_INTERVAL =
            option(
                    Duration.class,
                    key("changelog-materialize-interval")
                            .durationType()
                            .defaultValue(Duration.ofMinutes(1)),
                    "with state-changelog: how often the whole state is written in the"
                            + " background, at least 1s; the changes since then are kept in the"
                            + " changelog storage and replayed on a restore");

    public static final ConfigOption<String> JOB_NAME =
            option(
                    String.class,
                    key("job-name").stringType().defaultValue("quadfence"),
                    "the Flink job's name");

    /** What the {@code delivery} option takes. */
    public enum Delivery {
        EXACTLY_ONCE,
        AT_LEAST_ONCE;

        // Flink's Configuration reads an enum value by its toString(), ignoring case.
        @Override
        public String toString() {
            return spelling(this);
        }
    }

    /** What the {@code fence-repair} option takes. */
    public enum FenceRepair {
        REJECT,
        MAKE_VALID;

        @Override
        public String toString() {
            return spelling(this);
        }
    }

    /** What the {@code state-backend} option takes: Flink's names of its state backends. */
    public enum StateBackend {
        HASHMAP,
        ROCKSDB;

        @Override
        public String toString() {
            return spelling(this);
        }
    }

    /** What the {@code restart-strategy} option takes. */
    public enum RestartStrategy {
        EXPONENTIAL_DELAY,
        FIXED_DELAY,
        NONE;

        @Override
        public String toString() {
            return spelling(this);
        }
    }

    /** What the {@code starting-offsets} option takes. */
    public enum StartingOffsets {
        EARLIEST,
        LATEST,
        COMMITTED;

        @Override
        public String toString() {
            return spelling(this);
        }
    }

    private QuadfenceOptions() {}

    /** A value's spelling as users type it: lower case, words joined by '-' (exactly-once). */
    private static String spelling(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static <T> ConfigOption<T> option(
            Class<T> type, ConfigOption<T> option, String description) {
        ConfigOption<T> described = option.withDescription(description);
        TYPES.put(described, type);
        return described;
    }

    /**
     * Every option, in the order docs/options.md, {@code jobs/local.properties} and --help list.
     */
    public static List<ConfigOption<?>> all() {
        return Collections.unmodifiableList(new ArrayList<>(TYPES.keySet()));
    }

    /** The type of {@code option}'s values. */
    public static Class<?> type(ConfigOption<?> option) {
        Class<?> type = TYPES.get(option);
        if (type == null) {
            throw new IllegalArgumentException("not a quadfence option: " + option.key());
        }
        return type;
    }

    /** The option's description as plain text. */
    public static String description(ConfigOption<?> option) {
        return option.description().getBlocks().stream()
                .map(b -> ((TextElement) b).getFormat())
                .collect(Collectors.joining());
    }

    /**
     * A value as a user writes it: a duration in its largest whole unit ({@code 1s}, {@code 2min},
     * {@code 1500ms}, {@code 0}), a size in its largest whole unit ({@code 16mb}, {@code 1500}), a
     * whole number without a fraction, an enum in its lower case spelling.
     */
    public static String text(Object value) {
        if (value instanceof Duration d) {
            long ms = d.toMillis();
            if (ms == 0) {
                return "0";
            }
            if (ms % 3_600_000 == 0) {
                return ms / 3_600_000 + "h";
            }
            if (ms % 60_000 == 0) {
                return ms / 60_000 + "min";
            }
            return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
        }
        if (value instanceof MemorySize m) {
            return bytes(m.getBytes());
        }
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return String.valueOf(d.longValue());
        }
        return String.valueOf(value);
    }

    /** A number of bytes in its largest whole binary unit, as Flink reads it: 16mb, 3kb, 1500. */
    public static String bytes(long n) {
        if (n != 0) {
            for (String unit : new String[] {"gb", "mb", "kb"}) {
                long size = unit.equals("gb") ? 1L << 30 : unit.equals("mb") ? 1L << 20 : 1L << 10;
                if (n % size == 0) {
                    return n / size + unit;
                }
            }
        }
        return String.valueOf(n);
    }
}
