package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The fixture of the job's stages' harness tests: each stage's operator test harness, keyed as the
 * job keys the stage, built in one place; and the harness of the current test, opened before it,
 * closed after it, and restored from its own snapshot to play a restart.
 *
 * @param <H> the harness of the stage under test
 */
abstract class StageTestBase<H extends AbstractStreamOperatorTestHarness<?>> {

    static final int MAX_PARALLELISM = 128;

    /** The current test's harness, open. */
    H harness;

    /** A harness of the stage under test as the test class sets it up, not yet opened. */
    abstract H newHarness() throws Exception;

    @BeforeEach
    void openHarness() throws Exception {
        harness = newHarness();
        harness.open();
    }

    @AfterEach
    void closeHarness() throws Exception {
        harness.close();
    }

    /** Goes on with {@code next}, opened, instead of the current harness. */
    void use(H next) throws Exception {
        harness.close();
        harness = next;
        harness.open();
    }

    /** Takes a snapshot and goes on with a new harness restored from it: a restart. */
    void restart() throws Exception {
        OperatorSubtaskState snapshot = harness.snapshot(1, 2);
        harness.close();
        harness = newHarness();
        harness.initializeState(snapshot);
        harness.open();
    }

    /** The fence stage, for the tiers of {@code tiers}, without an exit margin. */
    static KeyedOneInputStreamOperatorTestHarness<String, FenceChange, TileUpdate> fenceRouter(
            Tiers tiers) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new FenceRouter(tiers, 0, 100_000)),
                new StageKeys.FenceKey(),
                Types.STRING);
    }

    /**
     * The tile stage for the tiles of {@code grid}: one shard a tile, no exit margin, an answer for
     * every position.
     */
    static KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership>
            tileMatcher(TileGrid grid) throws Exception {
        return tileMatcher(grid, true);
    }

    /** The tile stage for the tiles of {@code grid}, answering every position or not. */
    static KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership>
            tileMatcher(TileGrid grid, boolean answersEveryPosition) throws Exception {
        TileShards oneShard = new TileShards(1, MAX_PARALLELISM);
        return new KeyedTwoInputStreamOperatorTestHarness<>(
                new TileMatcher<>(
                        TypeInformation.of(Position.class),
                        grid,
                        4,
                        8,
                        0,
                        grid.level(),
                        1,
                        answersEveryPosition),
                new StageKeys.TileOfUpdate(oneShard),
                new StageKeys.TileOfPosition(grid, oneShard),
                TypeInformation.of(TileKey.class));
    }

    /** The entity stage with these dwell time, entity-ttl and exit-on-expiry. */
    static KeyedOneInputStreamOperatorTestHarness<String, Membership, SequencedEvent>
            membershipTracker(long dwellMs, long ttlMs, boolean exitOnExpiry) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new MembershipTracker(dwellMs, ttlMs, exitOnExpiry),
                new StageKeys.EntityKey(),
                Types.STRING);
    }

    /** The fixture of the entity stage's tests: no dwell, no entity-ttl, unless a test says. */
    abstract static class EntityStage
            extends StageTestBase<
                    KeyedOneInputStreamOperatorTestHarness<String, Membership, SequencedEvent>> {

        @Override
        KeyedOneInputStreamOperatorTestHarness<String, Membership, SequencedEvent> newHarness()
                throws Exception {
            return membershipTracker(0, 0, false);
        }

        /**
         * The events emitted since the last call, each as "ENTER A @10 1.0" (the event, the fence,
         * the time and the latitude of its position); clears the output.
         */
        List<String> events() {
            List<String> s =
                    harness.extractOutputValues().stream()
                            .map(SequencedEvent::event)
                            .map(
                                    e ->
                                            e.event()
                                                    + " "
                                                    + e.fenceId()
                                                    + " @"
                                                    + e.timestamp()
                                                    + " "
                                                    + e.lat())
                            .collect(Collectors.toList());
            harness.getOutput().clear();
            return s;
        }
    }
}
