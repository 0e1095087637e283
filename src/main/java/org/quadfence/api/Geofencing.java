package org.quadfence.api;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

import org.quadfence.io.InputRules;
import org.quadfence.io.RecordChecks;
import org.quadfence.model.CompactStringSerializer;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Membership;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.options.JobOptions;
import org.quadfence.options.QuadfenceOptions;
import org.quadfence.stages.DeadLetterSplitter;
import org.quadfence.stages.EventOrderer;
import org.quadfence.stages.FenceProperties;
import org.quadfence.stages.FenceRouter;
import org.quadfence.stages.FencesFirstTileMatcher;
import org.quadfence.stages.MembershipTracker;
import org.quadfence.stages.PathTiles;
import org.quadfence.stages.PathTracker;
import org.quadfence.stages.PropertiesJoiner;
import org.quadfence.stages.SequencedEvent;
import org.quadfence.stages.StageKeys;
import org.quadfence.stages.Tiers;
import org.quadfence.stages.TileMatcher;
import org.quadfence.stages.TileShards;
import org.quadfence.tiles.TileGrid;
import org.quadfence.time.BacklogGate;
import org.quadfence.time.EventTimeStage;
import org.quadfence.time.LateFilter;

import java.io.Serializable;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Geofencing as one step of a DataStream job: positions and fence changes in, events, each entity's
 * current fences and dead letters out. Build one with {@link #builder()}:
 *
 * <pre>{@code
 * GeofenceStreams out =
 *         Geofencing.builder()
 *                 .setExitMarginMeters(25)
 *                 .setDwell(Duration.ofMinutes(5))
 *                 .build()
 *                 .apply(positions, fences);
 * out.events().print();
 * }</pre>
 *
 * <p>The output is a function of the input alone (contract section 3): positions are taken in event
 * time, and fence changes apply from their timestamp on. By default the streams get their
 * timestamps and watermarks here, from the records' event time with the bound {@link
 * Builder#setMaxOutOfOrderness}; with {@link Builder#useStreamWatermarks()} they keep those they
 * carry (assigned at the source, per partition, as the Kafka job does).
 *
 * <pre>
 * positions --checks--> Position --late?--keyBy(tile of the point, per tier)--\
 *                \--> dead letters   \--> dead letters                     TileMatcher --> Membership
 * fences ----checks--> FenceChange --keyBy(fence id)--> FenceRouter ----/      |      keyBy(entity)
 *             |  \--> dead letters          TileUpdate by tile (and tier)        v
 *             |                                                     MembershipTracker --> current fences
 *             \--> properties --keyBy(fence id)--> PropertiesJoiner <--keyBy(fence)--/
 *                                                       |  keyBy(entity)
 *                                                       v
 *                                                  EventOrderer --> events
 * </pre>
 *
 * <p>With {@link Builder#setCrossing} (contract section 10), positions first go through a
 * PathTracker keyed by entity, which adds the path from the entity's previous position; each step
 * goes to its tile and to every other tile its path meets, and CROSS events (with {@link
 * GeofenceEvent#from()} and {@link GeofenceEvent#at()}) join the others.
 *
 * <p>With a tile level above {@link Tiers#WIDE_LEVEL} there are two TileMatchers, one per tier of
 * {@link Tiers}; every position goes to both, and the MembershipTracker joins their answers. Every
 * operator has the uid of its stage after the prefix {@link Builder#setUidPrefix}: keep the prefix
 * and the options that shape state ({@code tile-level}, {@code tile-shards}) to restore savepoints.
 */
public final class Geofencing implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The metric that counts fences used after a repair ({@code fence-repair make-valid}). */
    public static final String FENCES_REPAIRED = "fencesRepaired";

    /** Key groups of a job whose environment sets none: Flink's default up to parallelism 85. */
    static final int MAX_PARALLELISM = 128;

    private final JobOptions options;
    private final String uidPrefix;
    private final boolean streamWatermarks;
    private final boolean currentFences;
    private final boolean fencesFirst;

    private Geofencing(
            JobOptions options,
            String uidPrefix,
            boolean streamWatermarks,
            boolean currentFences,
            boolean fencesFirst) {
        this.options = options;
        this.uidPrefix = uidPrefix;
        this.streamWatermarks = streamWatermarks;
        this.currentFences = currentFences;
        this.fencesFirst = fencesFirst;
    }

    /**
     * The same geofencing, whose tile stages read fence updates first while their watermark is
     * behind the positions' ({@link FencesFirstTileMatcher}): positions then wait in their source,
     * not in memory, while a large fences input is read. Only for a job that does not checkpoint
     * (Flink refuses such stages in one that does), such as a replay of files. Its state is never
     * kept, so it also spreads each tile over as many shards as subtasks when the parallelism
     * divides {@code tile-shards}: one copy of each fence update per subtask.
     */
    public Geofencing readingFencesFirst() {
        return new Geofencing(options, uidPrefix, streamWatermarks, currentFences, true);
    }

    /**
     * The shards per tile: option {@code tile-shards}, or, in a job that reads fences first (its
     * state is never kept, so never rescaled), the parallelism when that divides the option. A
     * tile's shards are then spread as evenly over the subtasks as with the option, one per
     * subtask, and each subtask takes one copy of each fence update instead of several.
     */
    private int tileShards(int parallelism) {
        int option = options.intValue("tile-shards");
        boolean fewer = parallelism > 0 && parallelism < option && option % parallelism == 0;
        return fencesFirst && fewer ? parallelism : option;
    }

    /** A builder with the job's defaults (README, "Options"). */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Geofencing as the job's options say, with the job's uids (no prefix) and the watermarks of
     * its sources: what the Kafka job and {@code replay} run.
     *
     * @param currentFences whether {@link GeofenceStreams#currentFences} gets records
     */
    public static Geofencing of(JobOptions options, boolean currentFences) {
        return new Geofencing(options, "", true, currentFences, false);
    }

    /** What the checks of the input records enforce, as the options say. */
    public InputRules rules() {
        return options.inputRules();
    }

    /** Geofencing of the library's own records; bad ones become dead letters. */
    public GeofenceStreams apply(DataStream<Position> positions, DataStream<FenceChange> fences) {
        RecordChecks checks = new RecordChecks(rules());
        return applyParsed(
                positions
                        .map(checks::check)
                        .returns(new TypeHint<Parsed<Position>>() {})
                        .uid(uidPrefix + "positions-checks")
                        .name("positions: checks"),
                checked(fences, checks));
    }

    /**
     * Geofencing of positions of the user's own type, made by {@code extractor}; records it cannot
     * make a valid position of become dead letters.
     */
    public <T> GeofenceStreams apply(
            DataStream<T> positions,
            PositionExtractor<T> extractor,
            DataStream<FenceChange> fences) {
        RecordChecks checks = new RecordChecks(rules());
        return applyParsed(
                positions
                        .map(r -> Extracted.position(r, extractor, checks))
                        .returns(new TypeHint<Parsed<Position>>() {})
                        .uid(uidPrefix + "positions-extracted")
                        .name("positions: extracted"),
                checked(fences, checks));
    }

    private DataStream<Parsed<FenceChange>> checked(
            DataStream<FenceChange> fences, RecordChecks checks) {
        return fences.map(checks::check)
                .returns(new TypeHint<Parsed<FenceChange>>() {})
                .uid(uidPrefix + "fences-checks")
                .name("fences: checks");
    }

    /**
     * Geofencing of records as parsed from their JSON ({@link JsonRecords}), whose dead letters
     * join the others.
     */
    public GeofenceStreams applyParsed(
            DataStream<Parsed<Position>> parsedPositions,
            DataStream<Parsed<FenceChange>> parsedFences) {
        StreamExecutionEnvironment env = parsedPositions.getExecutionEnvironment();
        if (env.getMaxParallelism() <= 0) {
            env.setMaxParallelism(MAX_PARALLELISM);
        }
        Tiers tiers = new Tiers(options.intValue("tile-level"));
        TileShards shards =
                new TileShards(tileShards(env.getParallelism()), env.getMaxParallelism());

        SingleOutputStreamOperator<Position> valid =
                parsedPositions
                        .process(new DeadLetterSplitter<Position>(DeadLetterSplitter.DEAD_LETTERS))
                        .returns(Position.class)
                        .uid(uidPrefix + "positions-dead-letters")
                        .name("positions: valid");
        SingleOutputStreamOperator<Position> positions =
                timed(valid, Position::timestamp, "positions")
                        .process(
                                new LateFilter(
                                        DeadLetterSplitter.DEAD_LETTERS,
                                        options.doubleValue("max-accuracy-meters"),
                                        options.millis("max-backlog"),
                                        onePartitionPerSubtask()
                                                ? options.millis("max-out-of-orderness")
                                                : -1))
                        .returns(Position.class)
                        .uid(uidPrefix + "positions-late")
                        .name("positions: on time");
        SingleOutputStreamOperator<Position> gated = backlogGate(positions);
        SingleOutputStreamOperator<FenceChange> validFences = valid(parsedFences);
        DataStream<FenceChange> fences = timed(validFences, FenceChange::timestamp, "fences");

        SingleOutputStreamOperator<TileUpdate> tileUpdates =
                fences.keyBy(new StageKeys.FenceKey(), CompactStringSerializer.TYPE)
                        .process(
                                new FenceRouter(
                                        tiers,
                                        options.doubleValue("exit-margin-meters"),
                                        options.doubleValue("max-accuracy-meters"),
                                        options.intValue("max-vertices")))
                        .returns(TileUpdate.class)
                        .uid(uidPrefix + "fence-router")
                        .name("FenceRouter");

        DataStream<Membership> memberships =
                options.booleanValue("crossing")
                        ? matchPaths(tiers, shards, tileUpdates, gated)
                        : eachTier(
                                tiers,
                                (grid, uid, name, answersEveryPosition) ->
                                        match(
                                                grid,
                                                shards,
                                                tileUpdates,
                                                gated,
                                                uid,
                                                name,
                                                answersEveryPosition));

        SingleOutputStreamOperator<SequencedEvent> bare = entityStage(memberships);
        DataStream<GeofenceEvent> events = eventStages(bare, fences);

        DataStream<DeadLetter> deadLetters =
                valid.getSideOutput(DeadLetterSplitter.DEAD_LETTERS)
                        .union(
                                positions.getSideOutput(DeadLetterSplitter.DEAD_LETTERS),
                                validFences.getSideOutput(DeadLetterSplitter.DEAD_LETTERS),
                                tileUpdates.getSideOutput(DeadLetterSplitter.DEAD_LETTERS));
        if (gated != positions) {
            deadLetters = deadLetters.union(gated.getSideOutput(DeadLetterSplitter.DEAD_LETTERS));
        }
        return new GeofenceStreams(
                events, bare.getSideOutput(MembershipTracker.CURRENT_FENCES), deadLetters);
    }

    /**
     * Whether each subtask of the positions reads one partition: with the stage's own watermarks
     * (per subtask), or in a job that reads fences first (a replay of files, one split each). A
     * Kafka source subtask may read several partitions, each with its own watermark.
     */
    private boolean onePartitionPerSubtask() {
        return !streamWatermarks || fencesFirst;
    }

    /**
     * With option {@code max-backlog}, the positions through the {@link BacklogGate}, keyed by
     * entity; without, {@code positions} as they are.
     */
    private SingleOutputStreamOperator<Position> backlogGate(
            SingleOutputStreamOperator<Position> positions) {
        long maxBacklog = options.millis("max-backlog");
        if (maxBacklog == 0) {
            return positions;
        }
        return positions
                .keyBy(new StageKeys.EntityOfPosition(), CompactStringSerializer.TYPE)
                .process(new BacklogGate(DeadLetterSplitter.DEAD_LETTERS, maxBacklog))
                .returns(Position.class)
                .uid(uidPrefix + "backlog-gate")
                .name("BacklogGate: backlog positions");
    }

    /**
     * The event path alone, on memberships made elsewhere: the entity stage, the properties join
     * and the ordering, with the fences' properties from {@code parsedFences}. The job harness
     * measures the event path's own rate with it (docs/benchmarks.md, goal 4 of issue 21).
     */
    DataStream<GeofenceEvent> eventPath(
            DataStream<Membership> memberships, DataStream<Parsed<FenceChange>> parsedFences) {
        return eventStages(
                entityStage(memberships),
                timed(valid(parsedFences), FenceChange::timestamp, "fences"));
    }

    /** The valid fence changes; the others go to the dead letters' side output. */
    private SingleOutputStreamOperator<FenceChange> valid(
            DataStream<Parsed<FenceChange>> parsedFences) {
        return parsedFences
                .process(
                        new DeadLetterSplitter<FenceChange>(
                                DeadLetterSplitter.DEAD_LETTERS, FENCES_REPAIRED))
                .returns(FenceChange.class)
                .uid(uidPrefix + "fences-dead-letters")
                .name("fences: valid");
    }

    /** The entity stage: each entity's step from one set of fences to the next. */
    private SingleOutputStreamOperator<SequencedEvent> entityStage(
            DataStream<Membership> memberships) {
        return memberships
                .keyBy(new StageKeys.EntityKey(), CompactStringSerializer.TYPE)
                .transform(
                        "MembershipTracker",
                        TypeInformation.of(SequencedEvent.class),
                        waiting(
                                new MembershipTracker(
                                        options.millis("dwell-ms"),
                                        options.millis("entity-ttl"),
                                        options.booleanValue("exit-on-expiry"),
                                        currentFences)))
                .uid(uidPrefix + "membership-tracker")
                .name("MembershipTracker");
    }

    /**
     * The fences' properties joined into the entity stage's events, then each entity's in order.
     */
    private DataStream<GeofenceEvent> eventStages(
            SingleOutputStreamOperator<SequencedEvent> bare, DataStream<FenceChange> fences) {
        SingleOutputStreamOperator<SequencedEvent> withProperties =
                fences.map(FenceProperties::of)
                        .returns(FenceProperties.class)
                        .uid(uidPrefix + "fence-properties")
                        .name("fences: properties")
                        .keyBy(new StageKeys.PropertiesKey(), CompactStringSerializer.TYPE)
                        .connect(
                                bare.keyBy(
                                        new StageKeys.EventFenceKey(),
                                        CompactStringSerializer.TYPE))
                        .transform(
                                "PropertiesJoiner",
                                TypeInformation.of(SequencedEvent.class),
                                waiting(new PropertiesJoiner()))
                        .uid(uidPrefix + "properties-joiner")
                        .name("PropertiesJoiner: fence properties into events");

        return withProperties
                .keyBy(new StageKeys.EventEntityKey(), CompactStringSerializer.TYPE)
                .transform(
                        "EventOrderer",
                        TypeInformation.of(GeofenceEvent.class),
                        waiting(new EventOrderer()))
                .uid(uidPrefix + "event-orderer")
                .name("EventOrderer: events in order");
    }

    /** {@code records} with event-time timestamps and watermarks, unless they carry their own. */
    private <T> DataStream<T> timed(
            SingleOutputStreamOperator<T> records, EventTime<T> time, String name) {
        if (streamWatermarks) {
            return records;
        }
        return records.assignTimestampsAndWatermarks(
                        WatermarkStrategy.<T>forBoundedOutOfOrderness(
                                        Duration.ofMillis(options.millis("max-out-of-orderness")))
                                .withTimestampAssigner((r, ts) -> time.of(r))
                                .withIdleness(Duration.ofMillis(options.millis("idle-timeout"))))
                .uid(uidPrefix + name + "-watermarks")
                .name(name + ": timed");
    }

    /** The event time of a record. */
    interface EventTime<T> extends Serializable {
        long of(T record);
    }

    /**
     * The tile stage of one tier: its updates, copied to each shard of their tile, and every
     * position keyed by its tile there and the shard of its entity.
     */
    private DataStream<Membership> match(
            TileGrid grid,
            TileShards shards,
            DataStream<TileUpdate> tileUpdates,
            DataStream<Position> positions,
            String uid,
            String name,
            boolean answersEveryPosition) {
        return tileStage(
                grid,
                shards,
                tileUpdates,
                positions.keyBy(
                        new StageKeys.TileOfPosition(grid, shards),
                        TypeInformation.of(TileKey.class)),
                TypeInformation.of(Position.class),
                uid,
                name,
                ": fences containing each position",
                answersEveryPosition);
    }

    /**
     * The tile stages with option {@code crossing} (contract section 10): each entity's positions
     * go through the path stage, keyed by entity, which adds the path from the entity's previous
     * position; each tier's tile stage then takes every step at its position's tile and at every
     * other tile of the tier its path meets. The tile stages keep their uids and their fences.
     */
    private DataStream<Membership> matchPaths(
            Tiers tiers,
            TileShards shards,
            DataStream<TileUpdate> tileUpdates,
            DataStream<Position> positions) {
        double maxMeters = options.doubleValue("crossing-max-meters");
        SingleOutputStreamOperator<Step> steps =
                positions
                        .keyBy(new StageKeys.EntityOfPosition(), CompactStringSerializer.TYPE)
                        .transform(
                                "PathTracker",
                                TypeInformation.of(Step.class),
                                waiting(
                                        new PathTracker(
                                                options.millis("entity-ttl"),
                                                options.millis("crossing-max-gap"),
                                                maxMeters)))
                        .uid(uidPrefix + "path-tracker")
                        .name("PathTracker");
        return eachTier(
                tiers,
                (grid, uid, name, answersEveryPosition) ->
                        matchSteps(
                                grid,
                                shards,
                                tileUpdates,
                                steps,
                                maxMeters,
                                uid,
                                name,
                                answersEveryPosition));
    }

    /**
     * The answers of the tile stage of each tier: the fine tier answers every position, the wide
     * one (above tile level 7) only those in or near its fences.
     */
    private static DataStream<Membership> eachTier(Tiers tiers, TierStage stage) {
        DataStream<Membership> memberships =
                stage.of(tiers.fine(), "tile-matcher", "TileMatcher", true);
        if (tiers.wide() != null) {
            memberships =
                    memberships.union(
                            stage.of(
                                    tiers.wide(),
                                    "wide-tile-matcher",
                                    "TileMatcher (wide fences)",
                                    false));
        }
        return memberships;
    }

    /** Adds the tile stage of one tier, with its uid and name. */
    private interface TierStage {
        DataStream<Membership> of(
                TileGrid grid, String uid, String name, boolean answersEveryPosition);
    }

    /** The tile stage of one tier with option {@code crossing}: as {@link #match}, with steps. */
    private DataStream<Membership> matchSteps(
            TileGrid grid,
            TileShards shards,
            DataStream<TileUpdate> tileUpdates,
            DataStream<Step> steps,
            double maxMeters,
            String uid,
            String name,
            boolean answersEveryPosition) {
        return tileStage(
                grid,
                shards,
                tileUpdates,
                steps.flatMap(new PathTiles(grid, maxMeters))
                        .returns(Step.class)
                        .uid(uidPrefix + uid + "-paths")
                        .name(name + ": to tiles")
                        .keyBy(new StageKeys.TileOfStep(shards), TypeInformation.of(TileKey.class)),
                TypeInformation.of(Step.class),
                uid,
                name,
                ": fences met by each step",
                answersEveryPosition);
    }

    /**
     * The tile stage of one tier: its updates, copied to each shard of their tile, and {@code
     * records} (positions or steps) keyed by tile shard; the replay's reads fences first.
     */
    private <P> DataStream<Membership> tileStage(
            TileGrid grid,
            TileShards shards,
            DataStream<TileUpdate> tileUpdates,
            KeyedStream<P, TileKey> records,
            TypeInformation<P> type,
            String uid,
            String name,
            String what,
            boolean answersEveryPosition) {
        TileMatcher<P> stage =
                new TileMatcher<>(
                        type,
                        grid,
                        options.intValue("node-capacity"),
                        options.intValue("max-depth"),
                        options.doubleValue("exit-margin-meters"),
                        options.intValue("tile-level"),
                        shards.count(),
                        answersEveryPosition);
        return shardedUpdates(tileUpdates, grid.level(), shards, uid, name)
                .connect(records)
                .transform(
                        name,
                        TypeInformation.of(Membership.class),
                        waiting(fencesFirst ? new FencesFirstTileMatcher<>(stage) : stage))
                .uid(uidPrefix + uid)
                .name(name + what);
    }

    /** A tier's tile updates, copied to each shard of their tile, keyed by tile shard. */
    private KeyedStream<TileUpdate, TileKey> shardedUpdates(
            DataStream<TileUpdate> tileUpdates,
            int level,
            TileShards shards,
            String uid,
            String name) {
        int count = shards.count();
        return tileUpdates
                .flatMap(
                        (TileUpdate u, Collector<TileUpdate> out) -> {
                            if (u.tile() >>> (2 * level) == 1) {
                                for (int shard = 0; shard < count; shard++) {
                                    out.collect(u.withShard(shard));
                                }
                            }
                        })
                .returns(TileUpdate.class)
                .uid(uidPrefix + uid + "-updates")
                .name(name + ": to shards")
                .keyBy(new StageKeys.TileOfUpdate(shards), TypeInformation.of(TileKey.class));
    }

    /** {@code stage} with the limit of records waiting in memory. */
    private <S extends EventTimeStage<?, ?, ?>> S waiting(S stage) {
        stage.setWaitingLimit(options.intValue("max-waiting-records"));
        stage.setMaxBacklog(options.millis("max-backlog"));
        return stage;
    }

    /** Positions of the user's records, or dead letters. */
    private static final class Extracted {

        private Extracted() {}

        static <T> Parsed<Position> position(
                T record, PositionExtractor<T> extractor, RecordChecks checks) {
            Position p;
            try {
                p = extractor.position(record);
            } catch (Exception e) {
                return Parsed.failed(
                        new DeadLetter(
                                DeadLetter.POSITIONS,
                                "no position could be made of the record: " + e,
                                String.valueOf(record)));
            }
            return p == null
                    ? Parsed.failed(
                            new DeadLetter(
                                    DeadLetter.POSITIONS,
                                    "no position could be made of the record: the extractor"
                                            + " gave none",
                                    String.valueOf(record)))
                    : checks.check(p);
        }
    }

    /**
     * The settings of {@link Geofencing}, each with the default and meaning of the job option of
     * the same name (README, "Options"). {@link #build()} checks them together.
     */
    public static final class Builder {

        private final Map<String, String> given = new LinkedHashMap<>();
        private String uidPrefix = "quadfence-";
        private boolean streamWatermarks;
        private boolean currentFences = true;

        private Builder() {}

        /** Option {@code tile-level}: the level of the global quadtree whose cells are keys. */
        public Builder setTileLevel(int level) {
            return set(QuadfenceOptions.TILE_LEVEL, level);
        }

        /** Option {@code tile-shards}: subtasks a busy tile's positions are spread over. */
        public Builder setTileShards(int shards) {
            return set(QuadfenceOptions.TILE_SHARDS, shards);
        }

        /** Option {@code node-capacity}: fences a quadtree node holds before it splits. */
        public Builder setNodeCapacity(int capacity) {
            return set(QuadfenceOptions.NODE_CAPACITY, capacity);
        }

        /** Option {@code max-depth}: the deepest level of a tile's quadtree below the tile. */
        public Builder setMaxDepth(int depth) {
            return set(QuadfenceOptions.MAX_DEPTH, depth);
        }

        /** Option {@code max-out-of-orderness}: how late a record may be and still count. */
        public Builder setMaxOutOfOrderness(Duration bound) {
            return set(QuadfenceOptions.MAX_OUT_OF_ORDERNESS, bound);
        }

        /**
         * Option {@code max-backlog} (contract section 12): how far behind the watermark a position
         * of an entity that was offline may be, later than its entity's earlier ones, and still be
         * taken, against the fences of its own time.
         */
        public Builder setMaxBacklog(Duration backlog) {
            return set(QuadfenceOptions.MAX_BACKLOG, backlog);
        }

        /** Option {@code idle-timeout}: an input silent this long stops holding time back. */
        public Builder setIdleTimeout(Duration timeout) {
            return set(QuadfenceOptions.IDLE_TIMEOUT, timeout);
        }

        /** Option {@code max-future}: records further ahead of the clock are dead letters. */
        public Builder setMaxFuture(Duration ahead) {
            return set(QuadfenceOptions.MAX_FUTURE, ahead);
        }

        /** Option {@code max-vertices}: polygon fences with more are dead letters. */
        public Builder setMaxVertices(int vertices) {
            return set(QuadfenceOptions.MAX_VERTICES, vertices);
        }

        /** Option {@code max-record-bytes}: longer JSON records are dead letters. */
        public Builder setMaxRecordBytes(long bytes) {
            return set(QuadfenceOptions.MAX_RECORD_BYTES, bytes);
        }

        /**
         * Option {@code fence-repair}: whether JSON polygon fences that are not valid are repaired
         * (make-valid) or dead letters (reject, the default).
         */
        public Builder setFenceRepair(QuadfenceOptions.FenceRepair repair) {
            return set(QuadfenceOptions.FENCE_REPAIR, repair);
        }

        /** Option {@code exit-margin-meters}: hysteresis of EXIT (contract section 6). */
        public Builder setExitMarginMeters(double meters) {
            return set(QuadfenceOptions.EXIT_MARGIN_METERS, meters);
        }

        /**
         * Option {@code max-accuracy-meters}: positions whose {@link Position#accuracy} is above it
         * are ignored, and the tiles measure accuracy exactly up to it (contract section 11).
         */
        public Builder setMaxAccuracyMeters(double meters) {
            return set(QuadfenceOptions.MAX_ACCURACY_METERS, meters);
        }

        /** Option {@code dwell-ms}: time in a fence after which one DWELL event is emitted. */
        public Builder setDwell(Duration dwell) {
            return set(QuadfenceOptions.DWELL_MS, dwell);
        }

        /** Option {@code entity-ttl}: time without a position after which one is forgotten. */
        public Builder setEntityTtl(Duration ttl) {
            return set(QuadfenceOptions.ENTITY_TTL, ttl);
        }

        /** Option {@code exit-on-expiry}: a forgotten entity first leaves its fences. */
        public Builder setExitOnExpiry(boolean exit) {
            return set(QuadfenceOptions.EXIT_ON_EXPIRY, exit);
        }

        /** Option {@code crossing}: CROSS events for fences passed between positions. */
        public Builder setCrossing(boolean on) {
            return set(QuadfenceOptions.CROSSING, on);
        }

        /** Option {@code crossing-max-gap}: longer steps are not tested for CROSS (0: no limit). */
        public Builder setCrossingMaxGap(Duration gap) {
            return set(QuadfenceOptions.CROSSING_MAX_GAP, gap);
        }

        /** Option {@code crossing-max-meters}: longer steps are not tested for CROSS. */
        public Builder setCrossingMaxMeters(double meters) {
            return set(QuadfenceOptions.CROSSING_MAX_METERS, meters);
        }

        /** Option {@code max-waiting-records}: records a keyed stage keeps waiting in memory. */
        public Builder setMaxWaitingRecords(int records) {
            return set(QuadfenceOptions.MAX_WAITING_RECORDS, records);
        }

        /**
         * Whether {@link GeofenceStreams#currentFences} gets records (the default); off saves one
         * record per change of an entity's set when nothing reads them.
         */
        public Builder setCurrentFences(boolean on) {
            this.currentFences = on;
            return this;
        }

        /** What every operator's uid starts with; {@code "quadfence-"} unless set. */
        public Builder setUidPrefix(String prefix) {
            this.uidPrefix = prefix;
            return this;
        }

        /**
         * Keep the timestamps and watermarks the input streams carry instead of assigning them from
         * the records' event time: for sources that make watermarks per partition.
         */
        public Builder useStreamWatermarks() {
            this.streamWatermarks = true;
            return this;
        }

        /**
         * The configured geofencing.
         *
         * @throws IllegalArgumentException naming the setting that is out of range
         */
        public Geofencing build() {
            return new Geofencing(
                    JobOptions.of(given), uidPrefix, streamWatermarks, currentFences, false);
        }

        /** Sets {@code option} as a user would write it; a duration in milliseconds. */
        private Builder set(ConfigOption<?> option, Object value) {
            given.put(
                    option.key(),
                    String.valueOf(value instanceof Duration d ? d.toMillis() : value));
            return this;
        }
    }
}
