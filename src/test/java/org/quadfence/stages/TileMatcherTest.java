package org.quadfence.stages;

import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.model.TileKey;
import org.quadfence.model.TileUpdate;
import org.quadfence.tiles.TileGrid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TileMatcherTest
        extends StageTestBase<
                KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership>> {

    private static final TileGrid GRID = new TileGrid(2);
    private static final long TILE = GRID.tileOf(10, 10);

    @Override
    KeyedTwoInputStreamOperatorTestHarness<TileKey, TileUpdate, Position, Membership> newHarness()
            throws Exception {
        return tileMatcher(GRID);
    }

    /** The fence holds {@code box} of the tile from {@code t} on; null: it leaves the tile. */
    private void fence(String id, long t, Box box) throws Exception {
        harness.processElement1(
                new TileUpdate(TILE, Groups.DEFAULT, id, t, box == null ? null : Boxes.of(box)), t);
    }

    private void position(String entity, long t, double lon, double lat) throws Exception {
        harness.processElement2(new Position(entity, lon, lat, t), t);
    }

    private void watermark(long t) throws Exception {
        harness.processBothWatermarks(new Watermark(t));
    }

    private List<String> matches() {
        List<String> s =
                harness.extractOutputValues().stream()
                        .map(
                                m ->
                                        m.entityId()
                                                + "@"
                                                + m.timestamp()
                                                + Arrays.toString(m.fenceIds()))
                        .collect(Collectors.toList());
        harness.getOutput().clear();
        return s;
    }

    @Test
    void aPositionIsMatchedOnlyOnceTheWatermarkPassesIt() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        position("e", 10, 10, 10);
        watermark(9);
        assertThat(matches()).isEmpty();
        watermark(10);
        assertThat(matches()).containsExactly("e@10[A]");
    }

    @Test
    void everyPositionGetsAnAnswerFromTheTierThatAnswersEveryPosition() throws Exception {
        assertThat(onePositionInAFenceAndOneOutside())
                .containsExactlyInAnyOrder("in@10[A]", "out@10[]");
    }

    @Test
    void theOtherTierAnswersOnlyPositionsInOrNearItsFences() throws Exception {
        harness.close();
        harness = tileMatcher(GRID, false);
        harness.open();
        assertThat(onePositionInAFenceAndOneOutside()).containsExactly("in@10[A]");
    }

    private List<String> onePositionInAFenceAndOneOutside() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        position("in", 10, 10, 10);
        position("out", 10, 1, 1);
        watermark(10);
        return matches();
    }

    @Test
    void aFenceChangeAtThePositionsTimeAppliesFirst() throws Exception {
        position("e", 10, 10, 10);
        fence("A", 10, new Box(5, 5, 15, 15));
        fence("B", 10, new Box(0, 0, 1, 1));
        watermark(10);
        assertThat(matches()).containsExactly("e@10[A]");
    }

    @Test
    void outOfOrderPositionsSeeTheFencesInForceAtTheirOwnTime() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        fence("A", 5, null);
        position("e", 6, 10, 10);
        position("e", 4, 10, 10);
        watermark(10);
        assertThat(matches()).containsExactly("e@4[A]", "e@6[]");
    }

    @Test
    void boundaryPointsAreInsideAndHitsAreSortedById() throws Exception {
        fence("z", 1, new Box(5, 5, 15, 15));
        fence("a", 1, new Box(15, 15, 20, 20));
        fence("m", 1, GRID.cell(TILE));
        position("e", 2, 15, 15);
        watermark(2);
        assertThat(matches()).containsExactly("e@2[a, m, z]");
    }

    @Test
    void aPositionBehindThisTasksClockIsMatchedAtOnceSoEveryTierAnswersForIt() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        watermark(100);
        position("e", 50, 10, 10);
        assertThat(matches()).containsExactly("e@50[A]");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1); // the fence only
    }

    @Test
    void aLateFenceChangeTakesEffectWhenItArrives() throws Exception {
        watermark(100);
        fence("A", 50, new Box(5, 5, 15, 15));
        position("e", 101, 10, 10);
        watermark(101);
        assertThat(matches()).containsExactly("e@101[A]");
    }

    @Test
    void aPointAtLon180IsLookedUpAtMinus180() throws Exception {
        long westTile = GRID.tileOf(-180, 10);
        assertThat(GRID.tileOf(180, 10)).isEqualTo(westTile);
        harness.processElement1(
                new TileUpdate(
                        westTile, Groups.DEFAULT, "am", 1, Boxes.of(new Box(-180, 0, -180, 20))),
                1);
        harness.processElement2(new Position("e", 180, 10, 2), 2);
        watermark(2);
        assertThat(matches()).containsExactly("e@2[am]");
    }

    @Test
    void aRestoredMatcherRebuildsItsIndexFromState() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        fence("B", 1, new Box(9, 9, 11, 11));
        watermark(1);
        fence("B", 3, null);
        position("e", 3, 10, 10);
        restart();
        position("f", 4, 10, 10);
        watermark(4);
        assertThat(matches()).containsExactly("e@3[A]", "f@4[A]");
    }

    @Test
    void aRestoreWithAnotherTileLevelIsRefusedWithoutRestartsNamingTheOption() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        OperatorSubtaskState snapshot = harness.snapshot(1, 2);
        var other = tileMatcher(new TileGrid(3));
        assertThatThrownBy(() -> other.initializeState(snapshot))
                .isInstanceOf(SuppressRestartsException.class)
                .hasRootCauseMessage(
                        "cannot restore: the checkpoint or savepoint was taken with tile-level 2"
                                + " and the job now has tile-level 3; the fences' tiles depend"
                                + " on it. Restore with tile-level 2, or start without the"
                                + " checkpoint (./quadfence run --fresh)");
    }

    @Test
    void aTileThatHoldsNoFencesKeepsNoIndexAfterMatchingPositions() throws Exception {
        position("e", 1, 10, 10);
        watermark(1);
        assertThat(matches()).containsExactly("e@1[]");
        assertThat(harness.numKeyedStateEntries()).isZero();
    }

    @Test
    void theCopiesOfAnUpdateForTwoShardsOfASubtaskWaitAsOnePiece() throws Exception {
        TileShards two = new TileShards(2, 128);
        var matcher =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        new TileMatcher<>(
                                TypeInformation.of(Position.class), GRID, 4, 8, 0, 2, 2, true),
                        new StageKeys.TileOfUpdate(two),
                        new StageKeys.TileOfPosition(GRID, two),
                        TypeInformation.of(TileKey.class));
        use(matcher);
        // Two copies as the network gives them: equal, not the same objects.
        for (int shard = 0; shard < 2; shard++) {
            harness.processElement1(
                    new TileUpdate(
                            TILE,
                            Groups.DEFAULT,
                            new String("A".toCharArray()),
                            5,
                            Boxes.of(new Box(5, 5, 15, 15)),
                            shard),
                    5);
        }
        List<TileUpdate> waiting = new ArrayList<>();
        for (int shard = 0; shard < 2; shard++) {
            waiting.addAll(pending(two.key(Groups.DEFAULT, TILE, shard), 5));
        }
        assertThat(waiting).hasSize(2);
        assertThat(waiting.get(1).piece()).isSameAs(waiting.get(0).piece());
        assertThat(waiting.get(1).fenceId()).isSameAs(waiting.get(0).fenceId());
    }

    /** The tile updates of {@code key} that wait for time {@code t}. */
    private List<TileUpdate> pending(TileKey key, long t) throws Exception {
        AbstractStreamOperator<?> operator = (AbstractStreamOperator<?>) harness.getOperator();
        operator.setCurrentKey(key);
        MapState<Long, List<TileUpdate>> chunks =
                operator.getKeyedStateBackend()
                        .getPartitionedState(
                                VoidNamespace.INSTANCE,
                                VoidNamespaceSerializer.INSTANCE,
                                new MapStateDescriptor<>(
                                        "pending-tile-updates-chunks",
                                        Types.LONG,
                                        Types.LIST(TypeInformation.of(TileUpdate.class))));
        List<TileUpdate> all = new ArrayList<>();
        for (List<TileUpdate> chunk : chunks.values()) {
            all.addAll(chunk);
        }
        return all;
    }

    @Test
    void aBurstAtOneMillisecondIsMatchedWhole() throws Exception {
        fence("A", 1, new Box(5, 5, 15, 15));
        for (int i = 0; i < 1000; i++) {
            position("e" + i, 2, 10, 10);
        }
        watermark(2);
        assertThat(matches()).hasSize(1000).allMatch(m -> m.endsWith("@2[A]"));
        assertThat(harness.numKeyedStateEntries()).isEqualTo(1);
    }

    /** A tile stage with option max-backlog, and a backlog position read behind the watermark. */
    private void withMaxBacklog(long ms) throws Exception {
        harness.close();
        TileMatcher<Position> stage =
                new TileMatcher<>(TypeInformation.of(Position.class), GRID, 4, 8, 0, 2, 1, true);
        stage.setMaxBacklog(ms);
        TileShards oneShard = new TileShards(1, MAX_PARALLELISM);
        harness =
                new KeyedTwoInputStreamOperatorTestHarness<>(
                        stage,
                        new StageKeys.TileOfUpdate(oneShard),
                        new StageKeys.TileOfPosition(GRID, oneShard),
                        TypeInformation.of(TileKey.class));
        harness.open();
    }

    private void backlogPosition(String entity, long t, long watermark) throws Exception {
        harness.processElement2(new Position(entity, 10, 10, t).inBacklog(watermark), t);
    }

    @Test
    void aBacklogPositionMeetsTheFencesInForceAtItsOwnTime() throws Exception {
        withMaxBacklog(60_000);
        fence("A", 1, new Box(5, 5, 15, 15));
        fence("A", 20, new Box(0, 0, 1, 1));
        fence("B", 30, new Box(5, 5, 15, 15));
        fence("C", 5, new Box(5, 5, 15, 15));
        fence("C", 25, null);
        watermark(40);
        backlogPosition("early", 10, 40);
        backlogPosition("late", 35, 40);
        assertThat(harness.extractOutputValues())
                .extracting(m -> m.entityId() + Arrays.toString(m.fenceIds()))
                .containsExactly("early[A, C]", "late[B]");
        assertThat(harness.extractOutputValues())
                .allMatch(m -> m.backlogWatermark() == 40 && m.takenAt() == 41);
        harness.getOutput().clear();
        position("now", 50, 10, 10);
        watermark(50);
        assertThat(matches()).as("the index is as it was").containsExactly("now@50[B]");
    }

    @Test
    void whatAChangeReplacedIsForgottenOnceTheWatermarkIsMaxBacklogPastIt() throws Exception {
        withMaxBacklog(100);
        fence("A", 1, new Box(5, 5, 15, 15));
        fence("A", 20, null);
        watermark(119);
        backlogPosition("kept", 19, 119);
        watermark(121);
        backlogPosition("forgotten", 19, 121);
        assertThat(matches()).containsExactly("kept@19[A]", "forgotten@19[]");
    }

    @Test
    void aRestoreWithAnotherMaxBacklogIsRefusedNamingTheOption() throws Exception {
        withMaxBacklog(60_000);
        fence("A", 1, new Box(5, 5, 15, 15));
        OperatorSubtaskState snapshot = harness.snapshot(1, 2);
        var other = tileMatcher(GRID);
        assertThatThrownBy(() -> other.initializeState(snapshot))
                .isInstanceOf(SuppressRestartsException.class)
                .hasStackTraceContaining("max-backlog 60000 and the job now has max-backlog 0");
    }
}
