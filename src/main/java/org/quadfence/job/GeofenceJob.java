package org.quadfence.job;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Membership;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import java.time.Duration;

/**
 * The geofence job graph. It only wires: sources and sinks come in as parameters (files for tests
 * and replay, Kafka on a cluster).
 *
 * <pre>
 * positions --split--> Position --late?--keyBy(tile of the point, per tier)--\
 *                \--> dead letters   \--> dead letters                     TileMatcher --> Membership
 * fences ----split--> FenceChange --keyBy(fence id)--> FenceRouter -----/      |      keyBy(entity)
 *             |  \--> dead letters          TileUpdate by tile (and tier)        v
 *             |                                                     MembershipTracker
 *             \--> properties --keyBy(fence id)--> PropertiesJoiner <--keyBy(fence)--/
 *                                                       |  keyBy(entity)
 *                                                       v
 *                                                  EventOrderer --> events
 * </pre>
 *
 * <p>With a tile level above {@link Tiers#WIDE_LEVEL} there are two TileMatchers, one per tier of
 * {@link Tiers}; every position goes to both, and the MembershipTracker joins their answers.
 */
public final class GeofenceJob {

    /** The dead letters of every stage. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", TypeInformation.of(DeadLetter.class));

    /** The layout of the job's state; checkpoints of another layout are not restored. */
    public static final String STATE_FORMAT = StateOptions.FORMAT;

    /** Key groups of a job whose environment sets none: Flink's default up to parallelism 85. */
    static final int MAX_PARALLELISM = 128;

    // Dead letters carry no event time and must not move the watermark.
    private static final long NO_TIME = Long.MIN_VALUE;

    private GeofenceJob() {}

    /** Where the job reads and writes; {@code sinkParallelism} 0 keeps the default. */
    public record Io(
            Source<Parsed<Position>, ?, ?> positions,
            Source<Parsed<FenceChange>, ?, ?> fences,
            Sink<GeofenceEvent> events,
            Sink<DeadLetter> deadLetters,
            int sinkParallelism) {}

    /** Adds the job's operators to {@code env}. */
    public static void build(StreamExecutionEnvironment env, JobOptions options, Io io) {
        Tiers tiers = new Tiers(options.intValue("tile-level"));
        if (env.getMaxParallelism() <= 0) {
            env.setMaxParallelism(MAX_PARALLELISM);
        }
        TileShards shards =
                new TileShards(options.intValue("tile-shards"), env.getMaxParallelism());
        Duration bound = Duration.ofMillis(options.millis("max-out-of-orderness"));
        Duration idle = Duration.ofMillis(options.millis("idle-timeout"));

        SingleOutputStreamOperator<Position> parsed =
                env.fromSource(
                                io.positions(),
                                WatermarkStrategy.<Parsed<Position>>forBoundedOutOfOrderness(bound)
                                        .withTimestampAssigner(
                                                (r, ts) -> r.ok() ? r.value().timestamp() : NO_TIME)
                                        .withIdleness(idle),
                                "positions source",
                                new TypeHint<Parsed<Position>>() {}.getTypeInfo())
                        .uid("positions-source")
                        .process(new DeadLetterSplitter<Position>(DEAD_LETTERS))
                        .returns(Position.class)
                        .uid("positions-dead-letters")
                        .name("positions: dead letters aside");
        SingleOutputStreamOperator<Position> positions =
                parsed.process(new LateFilter(DEAD_LETTERS))
                        .returns(Position.class)
                        .uid("positions-late")
                        .name("positions: late ones aside");

        SingleOutputStreamOperator<FenceChange> fences =
                env.fromSource(
                                io.fences(),
                                WatermarkStrategy.<Parsed<FenceChange>>forBoundedOutOfOrderness(
                                                bound)
                                        .withTimestampAssigner(
                                                (r, ts) -> r.ok() ? r.value().timestamp() : NO_TIME)
                                        .withIdleness(idle),
                                "fences source",
                                new TypeHint<Parsed<FenceChange>>() {}.getTypeInfo())
                        .uid("fences-source")
                        .process(new DeadLetterSplitter<FenceChange>(DEAD_LETTERS))
                        .returns(FenceChange.class)
                        .uid("fences-dead-letters")
                        .name("fences: dead letters aside");

        SingleOutputStreamOperator<TileUpdate> tileUpdates =
                fences.keyBy(new FenceKey())
                        .process(
                                new FenceRouter(
                                        tiers,
                                        options.doubleValue("exit-margin-meters"),
                                        options.intValue("max-vertices")))
                        .returns(TileUpdate.class)
                        .uid("fence-router")
                        .name("FenceRouter: fence versions to tiles");

        DataStream<Membership> memberships =
                match(
                        options,
                        tiers.fine(),
                        shards,
                        tileUpdates,
                        positions,
                        "tile-matcher",
                        "TileMatcher");
        if (tiers.wide() != null) {
            memberships =
                    memberships.union(
                            match(
                                    options,
                                    tiers.wide(),
                                    shards,
                                    tileUpdates,
                                    positions,
                                    "wide-tile-matcher",
                                    "TileMatcher (wide fences)"));
        }

        SingleOutputStreamOperator<SequencedEvent> bare =
                memberships
                        .keyBy(new EntityKey())
                        .transform(
                                "MembershipTracker",
                                TypeInformation.of(SequencedEvent.class),
                                waiting(
                                        new MembershipTracker(
                                                options.millis("dwell-ms"),
                                                options.millis("entity-ttl"),
                                                options.booleanValue("exit-on-expiry")),
                                        options))
                        .uid("membership-tracker")
                        .name("MembershipTracker: ENTER, EXIT, DWELL");

        SingleOutputStreamOperator<SequencedEvent> withProperties =
                fences.map(FenceProperties::of)
                        .returns(FenceProperties.class)
                        .uid("fence-properties")
                        .name("fences: properties")
                        .keyBy(new PropertiesKey())
                        .connect(bare.keyBy(new EventFenceKey()))
                        .transform(
                                "PropertiesJoiner",
                                TypeInformation.of(SequencedEvent.class),
                                waiting(new PropertiesJoiner(), options))
                        .uid("properties-joiner")
                        .name("PropertiesJoiner: fence properties into events");

        SingleOutputStreamOperator<GeofenceEvent> events =
                withProperties
                        .keyBy(new EventEntityKey())
                        .transform(
                                "EventOrderer",
                                TypeInformation.of(GeofenceEvent.class),
                                waiting(new EventOrderer(), options))
                        .uid("event-orderer")
                        .name("EventOrderer: each entity's events in order");

        DataStream<DeadLetter> deadLetters =
                parsed.getSideOutput(DEAD_LETTERS)
                        .union(
                                positions.getSideOutput(DEAD_LETTERS),
                                fences.getSideOutput(DEAD_LETTERS),
                                tileUpdates.getSideOutput(DEAD_LETTERS));

        parallelism(events.sinkTo(io.events()).uid("events-sink").name("events sink"), io);
        parallelism(
                deadLetters
                        .sinkTo(io.deadLetters())
                        .uid("dead-letters-sink")
                        .name("dead letters sink"),
                io);
    }

    /**
     * The tile stage of one tier: its updates, copied to each shard of their tile, and every
     * position keyed by its tile there and the shard of its entity.
     */
    private static DataStream<Membership> match(
            JobOptions options,
            TileGrid grid,
            TileShards shards,
            DataStream<TileUpdate> tileUpdates,
            DataStream<Position> positions,
            String uid,
            String name) {
        int level = grid.level();
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
                .uid(uid + "-updates")
                .name(name + ": its tiles' updates, to each shard")
                .keyBy(new TileOfUpdate(shards), TypeInformation.of(TileKey.class))
                .connect(
                        positions.keyBy(
                                new TileOfPosition(grid, shards),
                                TypeInformation.of(TileKey.class)))
                .transform(
                        name,
                        TypeInformation.of(Membership.class),
                        waiting(
                                new TileMatcher(
                                        grid,
                                        options.intValue("node-capacity"),
                                        options.intValue("max-depth"),
                                        options.doubleValue("exit-margin-meters"),
                                        options.intValue("tile-level"),
                                        count),
                                options))
                .uid(uid)
                .name(name + ": fences containing each position");
    }

    /** {@code stage} with the job's limit of records waiting in memory. */
    private static <S extends EventTimeStage<?, ?, ?>> S waiting(S stage, JobOptions options) {
        stage.setWaitingLimit(options.intValue("max-waiting-records"));
        return stage;
    }

    private static void parallelism(DataStreamSink<?> sink, Io io) {
        if (io.sinkParallelism() > 0) {
            sink.setParallelism(io.sinkParallelism());
        }
    }

    /** The tile shard a position belongs to, in its group: the key of the tile stage. */
    static final class TileOfPosition implements KeySelector<Position, TileKey> {
        private static final long serialVersionUID = 1L;
        private final TileGrid grid;
        private final TileShards shards;

        TileOfPosition(TileGrid grid, TileShards shards) {
            this.grid = grid;
            this.shards = shards;
        }

        @Override
        public TileKey getKey(Position p) {
            return shards.key(
                    p.group(), grid.tileOf(p.lon(), p.lat()), shards.shardOf(p.entityId()));
        }
    }

    /** The tile shard an update is for: the key of the tile stage. */
    static final class TileOfUpdate implements KeySelector<TileUpdate, TileKey> {
        private static final long serialVersionUID = 1L;
        private final TileShards shards;

        TileOfUpdate(TileShards shards) {
            this.shards = shards;
        }

        @Override
        public TileKey getKey(TileUpdate u) {
            return shards.key(u.group(), u.tile(), u.shard());
        }
    }

    /** A fence in its group: the key of the fence stage. */
    static final class FenceKey implements KeySelector<FenceChange, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(FenceChange c) {
            return Keys.of(c.group(), c.fenceId());
        }
    }

    /** A fence's properties in its group: the key of the properties join. */
    static final class PropertiesKey implements KeySelector<FenceProperties, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(FenceProperties p) {
            return Keys.of(p.group(), p.fenceId());
        }
    }

    /** An event's fence in its group: the key of the properties join. */
    static final class EventFenceKey implements KeySelector<SequencedEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(SequencedEvent e) {
            return Keys.of(e.event().group(), e.event().fenceId());
        }
    }

    /** An event's entity in its group: the key of the event orderer. */
    static final class EventEntityKey implements KeySelector<SequencedEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(SequencedEvent e) {
            return Keys.of(e.event().group(), e.event().entityId());
        }
    }

    /** An entity in its group: the key of the entity stage. */
    static final class EntityKey implements KeySelector<Membership, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Membership m) {
            return Keys.of(m.group(), m.entityId());
        }
    }
}
