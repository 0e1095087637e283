package org.quadfence.model;

import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.testutils.DeeplyEqualsChecker;

import org.junit.jupiter.api.Nested;
import org.quadfence.geo.ShapePiece;
import org.quadfence.stages.EntityState;
import org.quadfence.stages.EntityStateSerializer;
import org.quadfence.stages.FenceProperties;
import org.quadfence.stages.FencePropertiesSerializer;
import org.quadfence.stages.SequencedEvent;
import org.quadfence.stages.SequencedEventSerializer;

import java.lang.reflect.RecordComponent;
import java.util.Objects;

/** The records' own serializers pass Flink's own tests of a serializer. */
class RecordSerializersTest {

    // A record's equals compares arrays by identity; these compare them by content.
    private static final DeeplyEqualsChecker RECORDS =
            new DeeplyEqualsChecker()
                    .withCustomCheck(
                            (a, b) -> a instanceof Record && b instanceof Record,
                            (a, b, checker) -> sameRecord((Record) a, (Record) b));

    @Nested
    class OfPosition extends Base<Position> {
        OfPosition() {
            super(PositionSerializer.INSTANCE, Position.class, RecordSamples.positions());
        }
    }

    @Nested
    class OfMembership extends Base<Membership> {
        OfMembership() {
            super(MembershipSerializer.INSTANCE, Membership.class, RecordSamples.memberships());
        }
    }

    @Nested
    class OfGeofenceEvent extends Base<GeofenceEvent> {
        OfGeofenceEvent() {
            super(GeofenceEventSerializer.INSTANCE, GeofenceEvent.class, RecordSamples.events());
        }
    }

    @Nested
    class OfStep extends Base<Step> {
        OfStep() {
            super(StepSerializer.INSTANCE, Step.class, RecordSamples.steps());
        }
    }

    @Nested
    class OfWaypoint extends Base<Waypoint> {
        OfWaypoint() {
            super(WaypointSerializer.INSTANCE, Waypoint.class, RecordSamples.waypoints());
        }
    }

    @Nested
    class OfTileKey extends Base<TileKey> {
        OfTileKey() {
            super(TileKeySerializer.INSTANCE, TileKey.class, RecordSamples.tileKeys());
        }
    }

    @Nested
    class OfShapePiece extends Base<ShapePiece> {
        OfShapePiece() {
            super(ShapePieceSerializer.INSTANCE, ShapePiece.class, RecordSamples.shapePieces());
        }
    }

    @Nested
    class OfTileUpdate extends Base<TileUpdate> {
        OfTileUpdate() {
            super(TileUpdateSerializer.INSTANCE, TileUpdate.class, RecordSamples.tileUpdates());
        }
    }

    @Nested
    class OfSequencedEvent extends Base<SequencedEvent> {
        OfSequencedEvent() {
            super(
                    SequencedEventSerializer.INSTANCE,
                    SequencedEvent.class,
                    RecordSamples.sequencedEvents());
        }
    }

    @Nested
    class OfEntityState extends Base<EntityState> {
        OfEntityState() {
            super(EntityStateSerializer.INSTANCE, EntityState.class, RecordSamples.entityStates());
        }
    }

    @Nested
    class OfFenceChange extends Base<FenceChange> {
        OfFenceChange() {
            super(FenceChangeSerializer.INSTANCE, FenceChange.class, RecordSamples.fenceChanges());
        }
    }

    @Nested
    class OfFenceRules extends Base<FenceRules> {
        OfFenceRules() {
            super(FenceRulesSerializer.INSTANCE, FenceRules.class, RecordSamples.fenceRules());
        }
    }

    @Nested
    class OfFenceProperties extends Base<FenceProperties> {
        OfFenceProperties() {
            super(
                    FencePropertiesSerializer.INSTANCE,
                    FenceProperties.class,
                    RecordSamples.fenceProperties());
        }
    }

    @Nested
    class OfCompactString extends Base<String> {
        OfCompactString() {
            super(
                    CompactStringSerializer.INSTANCE,
                    String.class,
                    new String[] {
                        "",
                        "truck-17",
                        "3:abcdepot-1",
                        "zürich-é-ÿ",
                        "中文 fence",
                        "lone \ud800 surrogate \udfff",
                        "x".repeat(70_000),
                        "€".repeat(200)
                    });
        }
    }

    abstract static class Base<T> extends SerializerTestBase<T> {

        private final TypeSerializer<T> serializer;
        private final Class<T> type;
        private final T[] samples;

        Base(TypeSerializer<T> serializer, Class<T> type, T[] samples) {
            super(RECORDS);
            this.serializer = serializer;
            this.type = type;
            this.samples = samples;
        }

        @Override
        protected TypeSerializer<T> createSerializer() {
            return serializer;
        }

        @Override
        protected int getLength() {
            return -1;
        }

        @Override
        protected Class<T> getTypeClass() {
            return type;
        }

        @Override
        protected T[] getTestData() {
            return samples;
        }
    }

    static boolean sameRecord(Record a, Record b) {
        if (a.getClass() != b.getClass()) {
            return false;
        }
        try {
            for (RecordComponent c : a.getClass().getRecordComponents()) {
                Object x = c.getAccessor().invoke(a);
                Object y = c.getAccessor().invoke(b);
                boolean same =
                        x instanceof Record r && y instanceof Record s
                                ? sameRecord(r, s)
                                : Objects.deepEquals(x, y);
                if (!same) {
                    return false;
                }
            }
            return true;
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
