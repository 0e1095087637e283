package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.RandomShapes;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Polygon#contains} against JTS's {@code IndexedPointInAreaLocator} (boundary counted
 * inside) on seeded random fences with dyadic coordinates and points on their edges, vertices, one
 * ulp off them, on grid lines and at lon +-180. JTS's robust predicates round once products
 * underflow, so a point one ulp off 0 (a subnormal coordinate) is held to {@link BruteForce}
 * instead.
 */
class PolygonPropertyTest {

    private static final int FENCES = 3000;
    private static final int POINTS = 200;

    @Test
    void containsAgreesWithJtsOnEdgesVerticesAndEverywhereElse() {
        SplittableRandom random = new SplittableRandom(42);
        RandomShapes shapes = new RandomShapes(random);
        long checked = 0;
        long inside = 0;
        long boundary = 0;
        for (int k = 0; k < FENCES; k++) {
            double size = Math.scalb(1.0, random.nextInt(-6, 7));
            double quantum = Math.scalb(size, -random.nextInt(2, 10));
            double x = random.nextInt(8) == 0 ? 180 - size / 4 : -180 + 360 * random.nextDouble();
            double y = random.nextInt(8) == 0 ? 90 - size / 4 : -90 + 180 * random.nextDouble();
            Polygon fence = shapes.fence(x, y, size, quantum);
            RandomShapes.Reference jts = new RandomShapes.Reference(fence);
            for (double[] p : shapes.points(fence, quantum * 4, quantum * 2, POINTS)) {
                boolean expected =
                        subnormal(p)
                                ? BruteForce.contains(fence.coordinates(), p[0], p[1])
                                : jts.contains(p[0], p[1]);
                assertThat(fence.contains(p[0], p[1]))
                        .as("%s, point (%s, %s)", fence, p[0], p[1])
                        .isEqualTo(expected);
                checked++;
                inside += expected ? 1 : 0;
                boundary += jts.onBoundary(p[0], p[1]) ? 1 : 0;
            }
        }
        assertThat(inside).isBetween(checked / 5, checked * 4 / 5);
        assertThat(boundary).as("points on an edge or vertex").isGreaterThan(checked / 4);
    }

    private static boolean subnormal(double[] p) {
        return Math.abs(p[0]) < Double.MIN_NORMAL && p[0] != 0
                || Math.abs(p[1]) < Double.MIN_NORMAL && p[1] != 0;
    }
}
