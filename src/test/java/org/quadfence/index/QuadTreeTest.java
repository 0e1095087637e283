package org.quadfence.index;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class QuadTreeTest {

    private static final Box WORLD = Box.WORLD;

    private static List<String> inArea(QuadTree<String> tree, Box area) {
        List<String> out = new ArrayList<>();
        tree.query(area, out::add);
        return out;
    }

    @Test
    void refusesABoxThatStickOutOfTheBounds() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 4, 8);
        assertThatThrownBy(() -> tree.insert("a", new Box(170, 0, 180.5, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not inside bounds");
        assertThatThrownBy(() -> tree.update("a", new Box(0, -91, 1, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(tree.size()).isZero();
        assertThat(tree.query(175, 0.5)).isEmpty();
    }

    @Test
    void refusesADuplicateIdAndKeepsTheFirstBox() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 4, 8);
        tree.insert("a", new Box(0, 0, 1, 1));
        assertThatThrownBy(() -> tree.insert(new String("a"), new Box(5, 5, 6, 6)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already present");
        assertThat(tree.box("a")).isEqualTo(new Box(0, 0, 1, 1));
        assertThat(tree.query(5.5, 5.5)).isEmpty();
        assertThat(tree.size()).isEqualTo(1);
    }

    @Test
    void aBoxEqualToTheRootIsAMarkerFoundAtEveryCorner() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 8);
        tree.insert("world", WORLD);
        for (int i = 0; i < 50; i++) {
            tree.insert("small" + i, new Box(i, i, i + 0.5, i + 0.5));
        }
        tree.checkInvariants();
        assertThat(tree.query(-180, -90)).containsExactly("world");
        assertThat(tree.query(180, 90)).containsExactly("world");
        assertThat(tree.query(0, 0)).containsExactlyInAnyOrder("world", "small0");
        assertThat(tree.query(180.0000001, 0)).isEmpty();
        assertThat(inArea(tree, new Box(-1, -1, -0.5, -0.5))).containsExactly("world");
    }

    @Test
    void markersDoNotCountTowardsTheCapacity() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 2, 10);
        for (int i = 0; i < 100; i++) {
            tree.insert("cover" + i, new Box(-180 - 0.0, -90, 180, 90 - 0.0));
        }
        assertThat(tree.nodeCount()).isEqualTo(1);
        assertThat(tree.query(12, 34)).hasSize(100);
    }

    @Test
    void aPointOnASplitLineFindsBoxesOnBothSides() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 6);
        tree.insert("west", new Box(-10, -10, 0, 10));
        tree.insert("east", new Box(0, -10, 10, 10));
        tree.insert("south", new Box(-10, -10, 10, 0));
        tree.insert("apart", new Box(-10, 1, -1, 10));
        for (int i = 0; i < 40; i++) {
            // Far-away boxes that make splitting the root worth its copies.
            tree.insert("far" + i, new Box(100 + i, 50, 100.5 + i, 50.5));
        }
        tree.checkInvariants();
        assertThat(tree.height()).isPositive();
        assertThat(tree.query(0, 5)).containsExactlyInAnyOrder("west", "east");
        assertThat(tree.query(0, 0)).containsExactlyInAnyOrder("west", "east", "south");
        assertThat(tree.query(-1, 1)).containsExactlyInAnyOrder("west", "apart");
        assertThat(tree.query(Math.nextDown(0.0), 5)).containsExactly("west");
        assertThat(tree.query(Math.nextUp(0.0), 5)).containsExactly("east");
        assertThat(inArea(tree, new Box(0, 10, 0, 10))).containsExactlyInAnyOrder("west", "east");
    }

    @Test
    void aBoxTouchingASplitLineFromOneSideIsFoundOnTheLine() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 6);
        tree.insert("a", new Box(-90, -45, 0, 0));
        tree.insert("b", new Box(-90, -45, -45, -1));
        tree.insert("c", new Box(-170, -80, -160, -70));
        tree.checkInvariants();
        // (0, 0) lies in the north-east quadrant; "a" only touches it at its corner.
        assertThat(tree.query(0, 0)).containsExactly("a");
        assertThat(tree.query(-45, -1)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void pointsOnTheRootsMaxEdgesAreFound() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 8);
        tree.insert("ne", new Box(179, 89, 180, 90));
        tree.insert("e", new Box(180, -90, 180, 90));
        tree.insert("other", new Box(0, 0, 1, 1));
        assertThat(tree.query(180, 90)).containsExactlyInAnyOrder("ne", "e");
        assertThat(tree.query(180, -90)).containsExactly("e");
        assertThat(tree.query(Double.NaN, 0)).isEmpty();
        assertThat(tree.query(0, 90.5)).isEmpty();
    }

    @Test
    void zeroSizeBoxesAreFoundAtTheirOnePoint() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 2, 12);
        tree.insert("p", new Box(3.25, 4.5, 3.25, 4.5));
        tree.insert("line", new Box(3.25, 0, 3.25, 10));
        tree.insert("q", new Box(0, 0, 0, 0));
        tree.insert("r", new Box(-180, -90, -180, -90));
        tree.checkInvariants();
        assertThat(tree.query(3.25, 4.5)).containsExactlyInAnyOrder("p", "line");
        assertThat(tree.query(3.25, 7)).containsExactly("line");
        assertThat(tree.query(Math.nextUp(3.25), 4.5)).isEmpty();
        assertThat(tree.query(0, 0)).containsExactly("q");
        assertThat(tree.query(-180, -90)).containsExactly("r");
        assertThat(inArea(tree, new Box(3, 4, 4, 5))).containsExactlyInAnyOrder("p", "line");
    }

    @Test
    void fiveThousandIdenticalBoxesStopAtTheMaximumDepthAndLeaveCleanly() {
        assertTimeoutPreemptively(
                Duration.ofSeconds(10),
                () -> {
                    QuadTree<Integer> tree = new QuadTree<>(WORLD, 4, 14);
                    Box spot = new Box(10.001, 20.001, 10.002, 20.002);
                    for (int i = 0; i < 5000; i++) {
                        tree.insert(i, spot);
                    }
                    assertThat(tree.height()).isLessThanOrEqualTo(14);
                    assertThat(tree.query(10.0015, 20.0015)).hasSize(5000);
                    assertThat(tree.query(10.003, 20.0015)).isEmpty();
                    tree.checkInvariants();
                    for (int i = 0; i < 5000; i++) {
                        assertThat(tree.remove(i)).isTrue();
                    }
                    assertThat(tree.nodeCount()).isEqualTo(1);
                    assertThat(tree.storedPairs()).isZero();
                });
    }

    @Test
    void identicalBigBoxesAreNotCopiedAlongTheirEdgesDownToTheMaximumDepth() {
        QuadTree<Integer> tree = new QuadTree<>(WORLD, 4, 20);
        Box country = new Box(5.87, 47.27, 15.04, 55.06);
        for (int i = 0; i < 100; i++) {
            tree.insert(i, country);
        }
        tree.checkInvariants();
        // Splitting a leaf on the shared edge would hand all 100 boxes to two quadrants again.
        assertThat(tree.nodeCount()).isLessThan(200);
        assertThat(tree.storedPairs()).isLessThan(100 * 40);
        assertThat(tree.query(10, 50)).hasSize(100);
        assertThat(tree.query(5.87, 55.06)).hasSize(100);
        assertThat(tree.query(Math.nextDown(5.87), 50)).isEmpty();
    }

    @Test
    void identicalPointsWithAHugeMaximumDepthStopWhereCellsCannotBeHalved() {
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () -> {
                    QuadTree<Integer> tree = new QuadTree<>(new Box(0, 0, 1e300, 1e300), 1, 5000);
                    // Halving 1e300 down to the smallest subnormal takes about 2070 steps.
                    Box spot = new Box(0, 0, 0, 0);
                    for (int i = 0; i < 1000; i++) {
                        tree.insert(i, spot);
                    }
                    assertThat(tree.height()).isBetween(2000, 2200);
                    assertThat(tree.query(0, 0)).hasSize(1000);
                    assertThat(tree.query(Double.MIN_VALUE, 0)).isEmpty();
                    for (int i = 0; i < 1000; i++) {
                        tree.remove(i);
                    }
                    assertThat(tree.nodeCount()).isEqualTo(1);
                });
    }

    @Test
    void removesCollapseTheTreeBackIntoItsRoot() {
        QuadTree<Integer> tree = new QuadTree<>(WORLD, 8, 12);
        Random rnd = new Random(7);
        for (int i = 0; i < 2000; i++) {
            double x = -180 + 359 * rnd.nextDouble();
            double y = -90 + 179 * rnd.nextDouble();
            tree.insert(i, new Box(x, y, x + rnd.nextDouble(), y + rnd.nextDouble()));
        }
        int grown = tree.nodeCount();
        int deep = tree.height();
        assertThat(grown).isGreaterThan(100);
        for (int i = 0; i < 1000; i++) {
            tree.remove(i);
        }
        tree.checkInvariants();
        assertThat(tree.nodeCount()).isLessThan(grown);
        for (int i = 1000; i < 1992; i++) {
            tree.remove(i);
        }
        tree.checkInvariants();
        assertThat(tree.size()).isEqualTo(8);
        assertThat(tree.nodeCount()).isEqualTo(1);
        assertThat(tree.height()).isZero().isLessThan(deep);
        assertThat(tree.storedPairs()).isEqualTo(8);
    }

    @Test
    void removeReportsWhetherTheItemWasThere() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 4, 8);
        tree.insert("a", new Box(0, 0, 1, 1));
        assertThat(tree.remove("b")).isFalse();
        assertThat(tree.remove("a")).isTrue();
        assertThat(tree.remove("a")).isFalse();
        assertThat(tree.box("a")).isNull();
        assertThat(tree.query(0.5, 0.5)).isEmpty();
    }

    @Test
    void clearEmptiesTheTreeAndItCanBeFilledAgain() {
        QuadTree<Integer> tree = new QuadTree<>(WORLD, 2, 8);
        for (int i = 0; i < 100; i++) {
            tree.insert(i, new Box(i, 0, i + 1, 1));
        }
        tree.clear();
        assertThat(tree.size()).isZero();
        assertThat(tree.nodeCount()).isEqualTo(1);
        assertThat(tree.query(5.5, 0.5)).isEmpty();
        tree.insert(5, new Box(5, 0, 6, 1));
        assertThat(tree.query(5.5, 0.5)).containsExactly(5);
    }

    @Test
    void updateInsertsOrMovesAnItem() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 8);
        tree.update("a", new Box(0, 0, 1, 1));
        tree.insert("b", new Box(50, 50, 51, 51));
        tree.update("a", new Box(-100, -50, -99, -49));
        tree.update("a", new Box(-100, -50, -99, -49));
        tree.checkInvariants();
        assertThat(tree.size()).isEqualTo(2);
        assertThat(tree.query(0.5, 0.5)).isEmpty();
        assertThat(tree.query(-99.5, -49.5)).containsExactly("a");
        assertThat(tree.box("a")).isEqualTo(new Box(-100, -50, -99, -49));
    }

    @Test
    void anAreaQueryReportsAReplicatedBoxOnce() {
        QuadTree<String> tree = new QuadTree<>(WORLD, 1, 10);
        tree.insert("big", new Box(-100.3, -60.7, 120.1, 70.9));
        for (int i = 0; i < 200; i++) {
            tree.insert("s" + i, new Box(-170 + i, -80 + i * 0.5, -169.5 + i, -79.5 + i * 0.5));
        }
        tree.checkInvariants();
        assertThat(tree.storedPairs()).isGreaterThan(210);
        List<String> all = inArea(tree, WORLD);
        assertThat(all).hasSize(201).doesNotHaveDuplicates();
        assertThat(inArea(tree, new Box(0, 0, 0, 0))).containsExactly("big");
        assertThat(inArea(tree, new Box(120.1, 70.9, 179, 89))).contains("big");
    }

    @Test
    void aBulkBuiltTreeIsTheSameAsOneBuiltByInserts() {
        Random rnd = new Random(11);
        Map<Integer, Box> items = new HashMap<>();
        QuadTree<Integer> inserted = new QuadTree<>(WORLD, 8, 12);
        for (int i = 0; i < 3000; i++) {
            double x = -180 + 350 * rnd.nextDouble();
            double y = -90 + 170 * rnd.nextDouble();
            double s = rnd.nextInt(20) == 0 ? 10 * rnd.nextDouble() : 0.1 * rnd.nextDouble();
            Box box = new Box(x, y, x + s, y + s);
            items.put(i, box);
            inserted.insert(i, box);
        }
        QuadTree<Integer> built = QuadTree.build(WORLD, 8, 12, items);
        built.checkInvariants();
        assertThat(built.size()).isEqualTo(3000);
        assertThat(built.nodeCount()).isEqualTo(inserted.nodeCount());
        assertThat(built.storedPairs()).isEqualTo(inserted.storedPairs());
        for (int i = 0; i < 1000; i++) {
            double x = -180 + 360 * rnd.nextDouble();
            double y = -90 + 180 * rnd.nextDouble();
            assertThat(built.query(x, y)).containsExactlyInAnyOrderElementsOf(inserted.query(x, y));
        }
    }

    @Test
    void bulkBuildRefusesABoxOutsideTheBounds() {
        assertThatThrownBy(
                        () ->
                                QuadTree.build(
                                        new Box(0, 0, 10, 10),
                                        4,
                                        8,
                                        Map.of(
                                                "a",
                                                new Box(1, 1, 2, 2),
                                                "b",
                                                new Box(9, 9, 11, 10))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesNonsenseParameters() {
        assertThatThrownBy(() -> new QuadTree<>(WORLD, 0, 8))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QuadTree<>(WORLD, 4, -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new QuadTree<>(new Box(0, 0, Double.POSITIVE_INFINITY, 1), 4, 8))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLeafCellsTileTheRootOnceTheTreeHasSplit() {
        QuadTree<Integer> tree = new QuadTree<>(new Box(0, 0, 16, 16), 2, 6);
        for (int i = 0; i < 40; i++) {
            tree.insert(i, new Box(i % 8 + 0.25, i / 8 + 0.25, i % 8 + 0.5, i / 8 + 0.5));
        }
        java.util.List<Box> cells = new java.util.ArrayList<>();
        tree.leafCells(cells::add);
        assertThat(cells).hasSizeGreaterThan(4);
        double area = 0;
        for (Box c : cells) {
            area += (c.maxX() - c.minX()) * (c.maxY() - c.minY());
        }
        assertThat(area).isEqualTo(256.0);
    }
}
