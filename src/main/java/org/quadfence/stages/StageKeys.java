package org.quadfence.stages;

import org.apache.flink.api.java.functions.KeySelector;

import org.quadfence.model.FenceChange;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

/** The keys of the keyed stages: what each stage's records are partitioned by. */
public final class StageKeys {

    private StageKeys() {}

    /** The tile shard a position belongs to, in its group: the key of the tile stage. */
    public static final class TileOfPosition implements KeySelector<Position, TileKey> {
        private static final long serialVersionUID = 1L;
        private final TileGrid grid;
        private final TileShards shards;

        public TileOfPosition(TileGrid grid, TileShards shards) {
            this.grid = grid;
            this.shards = shards;
        }

        @Override
        public TileKey getKey(Position p) {
            return shards.key(
                    p.group(), grid.tileOf(p.lon(), p.lat()), shards.shardOf(p.entityId()));
        }
    }

    /**
     * The tile shard a step goes to, in its group: the key of the tile stage with option {@code
     * crossing}. A position's own tile is the shard of its entity there, as {@link TileOfPosition}
     * has it.
     */
    public static final class TileOfStep implements KeySelector<Step, TileKey> {
        private static final long serialVersionUID = 1L;
        private final TileShards shards;

        public TileOfStep(TileShards shards) {
            this.shards = shards;
        }

        @Override
        public TileKey getKey(Step s) {
            return shards.key(s.to().group(), s.tile(), shards.shardOf(s.to().entityId()));
        }
    }

    /** A position's entity in its group: the key of the path stage (option {@code crossing}). */
    public static final class EntityOfPosition implements KeySelector<Position, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Position p) {
            return Keys.of(p.group(), p.entityId());
        }
    }

    /** The tile shard an update is for: the key of the tile stage. */
    public static final class TileOfUpdate implements KeySelector<TileUpdate, TileKey> {
        private static final long serialVersionUID = 1L;
        private final TileShards shards;

        public TileOfUpdate(TileShards shards) {
            this.shards = shards;
        }

        @Override
        public TileKey getKey(TileUpdate u) {
            return shards.key(u.group(), u.tile(), u.shard());
        }
    }

    /** A fence in its group: the key of the fence stage. */
    public static final class FenceKey implements KeySelector<FenceChange, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(FenceChange c) {
            return Keys.of(c.group(), c.fenceId());
        }
    }

    /** A fence's properties in its group: the key of the properties join. */
    public static final class PropertiesKey implements KeySelector<FenceProperties, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(FenceProperties p) {
            return Keys.of(p.group(), p.fenceId());
        }
    }

    /** An event's fence in its group: the key of the properties join. */
    public static final class EventFenceKey implements KeySelector<SequencedEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(SequencedEvent e) {
            return Keys.of(e.event().group(), e.event().fenceId());
        }
    }

    /** An event's entity in its group: the key of the event orderer. */
    public static final class EventEntityKey implements KeySelector<SequencedEvent, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(SequencedEvent e) {
            return Keys.of(e.event().group(), e.event().entityId());
        }
    }

    /** An entity in its group: the key of the entity stage. */
    public static final class EntityKey implements KeySelector<Membership, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public String getKey(Membership m) {
            return Keys.of(m.group(), m.entityId());
        }
    }
}
