package org.quadfence.index;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.geo.Box;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random interleavings of inserts, removes, updates and queries, each query checked against brute
 * force over a plain map (in the style of JTS's SpatialIndexTester). Coordinates are drawn to hit
 * the hard cases often: split lines of every level, box edges, nested and identical boxes, zero
 * sizes, the root's own edges.
 */
class QuadTreeBruteForceTest {

    // Dyadic sizes, so that every split line of the first levels is exactly representable.
    private static final Box BOUNDS = new Box(-7.25, 3.5, 120.75, 67.5);
    private static final int OPS = 2000;

    static Stream<Arguments> runs() {
        int[][] shapes = {{1, 3}, {1, 6}, {2, 8}, {4, 20}, {8, 6}, {16, 40}};
        List<Arguments> runs = new ArrayList<>();
        for (long seed = 1; seed <= 3; seed++) {
            for (int[] s : shapes) {
                runs.add(Arguments.of(seed, s[0], s[1]));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "seed {0}, capacity {1}, maxDepth {2}")
    @MethodSource("runs")
    void everyQueryMatchesBruteForceThroughRandomChanges(long seed, int capacity, int maxDepth) {
        Random rnd = new Random(seed * 1_000_003 + capacity * 101 + maxDepth);
        Gen gen = new Gen(rnd);
        QuadTree<String> tree = new QuadTree<>(BOUNDS, capacity, maxDepth);
        Map<String, Box> model = new LinkedHashMap<>();
        int next = 0;
        for (int op = 0; op < OPS; op++) {
            int kind = rnd.nextInt(100);
            // Grow for the first half, then hover, so collapses get their turn.
            int grow = op < OPS / 2 ? 40 : 25;
            if (kind < grow || model.isEmpty()) {
                String id = "f" + next++;
                Box box = gen.box(model);
                tree.insert(id, box);
                model.put(id, box);
            } else if (kind < 50) {
                String id = rnd.nextInt(10) == 0 ? "absent" + op : gen.pick(model);
                assertThat(tree.remove(id)).isEqualTo(model.remove(id) != null);
            } else if (kind < 60) {
                String id = rnd.nextInt(4) == 0 ? "f" + next++ : gen.pick(model);
                Box box = gen.box(model);
                tree.update(new String(id), box);
                model.put(id, box);
            } else if (kind < 85) {
                double[] p = gen.point(model);
                List<String> got = tree.query(p[0], p[1]);
                assertThat(got)
                        .as("point (%s, %s) at op %d", p[0], p[1], op)
                        .doesNotHaveDuplicates()
                        .containsExactlyInAnyOrderElementsOf(containing(model, p[0], p[1]));
            } else {
                Box area = gen.area(model);
                List<String> got = new ArrayList<>();
                tree.query(area, got::add);
                assertThat(got)
                        .as("area %s at op %d", area, op)
                        .doesNotHaveDuplicates()
                        .containsExactlyInAnyOrderElementsOf(meeting(model, area));
            }
            assertThat(tree.size()).isEqualTo(model.size());
            if (op % 500 == 0) {
                tree.checkInvariants();
                checkBulkBuildAgrees(gen, model, capacity, maxDepth);
            }
        }
        tree.checkInvariants();
        for (String id : new ArrayList<>(model.keySet())) {
            assertThat(tree.box(id)).isEqualTo(model.get(id));
            tree.remove(id);
        }
        assertThat(tree.nodeCount()).isEqualTo(1);
        assertThat(tree.storedPairs()).isZero();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2})
    void aTreeGrownPastSeveralTableDepthsMatchesBruteForceWhileItShrinksAgain(long seed) {
        // Thousands of items, so that the top-level lookup table grows to depth 4 or 5 and every
        // split, collapse and first or last marker above that depth has to refresh it.
        Random rnd = new Random(seed);
        Gen gen = new Gen(rnd);
        QuadTree<String> tree = new QuadTree<>(BOUNDS, 4, 12);
        Map<String, Box> model = new LinkedHashMap<>();
        for (int i = 0; i < 6000; i++) {
            Box box = rnd.nextInt(50) == 0 ? gen.box(model) : gen.smallBox();
            tree.insert("g" + i, box);
            model.put("g" + i, box);
            if (i % 10 == 0) {
                checkPoint(tree, model, gen.point(model));
            }
        }
        tree.checkInvariants();
        assertThat(tree.nodes().grid.k).isGreaterThanOrEqualTo(4);
        List<String> ids = new ArrayList<>(model.keySet());
        java.util.Collections.shuffle(ids, rnd);
        for (int i = 0; i < ids.size(); i++) {
            Box box = model.remove(ids.get(i));
            assertThat(tree.box(ids.get(i))).isEqualTo(box);
            assertThat(tree.remove(ids.get(i))).isTrue();
            if (i % 10 == 0) {
                checkPoint(tree, model, gen.point(model));
            }
            if (i % 1000 == 0) {
                tree.checkInvariants();
            }
        }
        tree.checkInvariants();
        assertThat(tree.size()).isZero();
    }

    private static void checkPoint(QuadTree<String> tree, Map<String, Box> model, double[] p) {
        assertThat(tree.query(p[0], p[1]))
                .as("point (%s, %s)", p[0], p[1])
                .doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(containing(model, p[0], p[1]));
    }

    private static void checkBulkBuildAgrees(
            Gen gen, Map<String, Box> model, int capacity, int maxDepth) {
        QuadTree<String> built = QuadTree.build(BOUNDS, capacity, maxDepth, model);
        built.checkInvariants();
        for (int i = 0; i < 20; i++) {
            double[] p = gen.point(model);
            assertThat(built.query(p[0], p[1]))
                    .doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(containing(model, p[0], p[1]));
        }
    }

    private static Set<String> containing(Map<String, Box> model, double x, double y) {
        Set<String> out = new HashSet<>();
        model.forEach(
                (id, b) -> {
                    if (b.contains(x, y)) {
                        out.add(id);
                    }
                });
        return out;
    }

    private static Set<String> meeting(Map<String, Box> model, Box area) {
        Set<String> out = new HashSet<>();
        model.forEach(
                (id, b) -> {
                    if (b.intersects(area)) {
                        out.add(id);
                    }
                });
        return out;
    }

    /** Draws boxes, points and areas that favour the edge cases. */
    private static final class Gen {
        private final Random rnd;

        Gen(Random rnd) {
            this.rnd = rnd;
        }

        String pick(Map<String, Box> model) {
            if (model.isEmpty()) {
                return "none";
            }
            int i = rnd.nextInt(model.size());
            for (String id : model.keySet()) {
                if (i-- == 0) {
                    return id;
                }
            }
            throw new AssertionError();
        }

        /** A coordinate on a split line of one of the first levels, or anywhere. */
        double x() {
            return coord(BOUNDS.minX(), BOUNDS.maxX());
        }

        double y() {
            return coord(BOUNDS.minY(), BOUNDS.maxY());
        }

        private double coord(double min, double max) {
            if (rnd.nextInt(3) == 0) {
                return min + (max - min) * rnd.nextDouble();
            }
            int k = rnd.nextInt(11);
            long m = rnd.nextInt((1 << k) + 1);
            return min + (max - min) * m / (1 << k);
        }

        Box box(Map<String, Box> model) {
            int kind = rnd.nextInt(100);
            if (kind < 10 && !model.isEmpty()) {
                return model.get(pick(model)); // identical
            }
            if (kind < 20 && !model.isEmpty()) {
                Box b = model.get(pick(model)); // nested, or sharing edges
                double x0 = between(b.minX(), b.maxX());
                double y0 = between(b.minY(), b.maxY());
                return new Box(x0, y0, between(x0, b.maxX()), between(y0, b.maxY()));
            }
            if (kind < 21) {
                return BOUNDS;
            }
            if (kind < 30) {
                double x = x();
                double y = y();
                return new Box(x, y, x, y); // zero size
            }
            if (kind < 38) {
                double x = x(); // a line
                double y0 = y();
                double y1 = y();
                return new Box(x, Math.min(y0, y1), x, Math.max(y0, y1));
            }
            if (kind < 55) {
                double x0 = x(); // snapped corners: any size
                double x1 = x();
                double y0 = y();
                double y1 = y();
                return new Box(
                        Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1));
            }
            double w = (BOUNDS.maxX() - BOUNDS.minX()) * Math.pow(2, -2 - rnd.nextInt(9));
            double h = (BOUNDS.maxY() - BOUNDS.minY()) * Math.pow(2, -2 - rnd.nextInt(9));
            double x = x();
            double y = y();
            if (rnd.nextBoolean()) {
                w *= rnd.nextDouble();
                h *= rnd.nextDouble();
            }
            return new Box(x, y, Math.min(BOUNDS.maxX(), x + w), Math.min(BOUNDS.maxY(), y + h));
        }

        /** A box of at most 1/256 of the bounds each way, anywhere. */
        Box smallBox() {
            double x = x();
            double y = y();
            double w = (BOUNDS.maxX() - BOUNDS.minX()) / 256 * rnd.nextDouble();
            double h = (BOUNDS.maxY() - BOUNDS.minY()) / 256 * rnd.nextDouble();
            return new Box(x, y, Math.min(BOUNDS.maxX(), x + w), Math.min(BOUNDS.maxY(), y + h));
        }

        private double between(double a, double b) {
            return switch (rnd.nextInt(4)) {
                case 0 -> a;
                case 1 -> b;
                case 2 -> a + (b - a) / 2;
                default -> Math.min(b, a + (b - a) * rnd.nextDouble());
            };
        }

        double[] point(Map<String, Box> model) {
            int kind = rnd.nextInt(10);
            if (kind < 5 && !model.isEmpty()) {
                Box b = model.get(pick(model)); // on its edges or corners
                double x =
                        rnd.nextBoolean()
                                ? between(b.minX(), b.maxX())
                                : pickOf(b.minX(), b.maxX());
                double y =
                        rnd.nextBoolean()
                                ? between(b.minY(), b.maxY())
                                : pickOf(b.minY(), b.maxY());
                return new double[] {nudge(x), nudge(y)};
            }
            if (kind < 6) {
                return new double[] {
                    pickOf(BOUNDS.minX(), BOUNDS.maxX()), pickOf(BOUNDS.minY(), BOUNDS.maxY())
                };
            }
            if (kind < 7) {
                return new double[] {
                    BOUNDS.minX() - 1 + rnd.nextDouble() * 200, BOUNDS.maxY() + rnd.nextInt(2)
                };
            }
            return new double[] {x(), y()};
        }

        /** One ulp off, now and then: just outside or just inside an edge. */
        private double nudge(double v) {
            return switch (rnd.nextInt(8)) {
                case 0 -> Math.nextUp(v);
                case 1 -> Math.nextDown(v);
                default -> v;
            };
        }

        private double pickOf(double a, double b) {
            return rnd.nextBoolean() ? a : b;
        }

        Box area(Map<String, Box> model) {
            int kind = rnd.nextInt(10);
            if (kind < 2 && !model.isEmpty()) {
                return model.get(pick(model));
            }
            if (kind < 3) {
                return rnd.nextBoolean()
                        ? BOUNDS
                        : new Box(
                                BOUNDS.minX() - 10,
                                BOUNDS.minY() - 10,
                                BOUNDS.maxX() + 10,
                                BOUNDS.maxY() + 10);
            }
            if (kind < 4) {
                double[] p = point(model);
                return new Box(p[0], p[1], p[0], p[1]);
            }
            return box(model);
        }
    }
}
