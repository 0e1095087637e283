package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.RandomShapes;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The hysteresis distance of rectangles, polygons and circles. */
class DistanceTest {

    private static final double DEGREE = Math.PI / 180 * Earth.RADIUS_METERS;

    @Test
    void insideAndOnTheBoundaryIsZero() {
        Rectangle r = new Rectangle(0, 0, 1, 1);
        Polygon p = Polygon.of(new double[][][] {{{0, 0, 2, 0, 0, 2, 0, 0}}});
        for (double[] q : new double[][] {{0.5, 0.5}, {1, 0.5}, {0, 0}, {1, 1}}) {
            assertThat(r.distanceMeters(q[0], q[1])).isZero();
            assertThat(p.distanceMeters(q[0], q[1])).isZero();
        }
        assertThat(new Circle(5, 5, 1000).distanceMeters(5, 5)).isZero();
    }

    @Test
    void knownDistances() {
        Rectangle r = new Rectangle(0, 0, 1, 1);
        assertThat(r.distanceMeters(0.5, 2)).isCloseTo(DEGREE, within(1e-6));
        assertThat(r.distanceMeters(0.5, -1)).isCloseTo(DEGREE, within(1e-6));
        assertThat(r.distanceMeters(2, 0.5)).isEqualTo(Earth.haversineMeters(2, 0.5, 1, 0.5));
        assertThat(r.distanceMeters(2, 2)).isEqualTo(Earth.haversineMeters(2, 2, 1, 1));
        Circle c = new Circle(0, 0, 1000);
        assertThat(c.distanceMeters(0, 1)).isCloseTo(DEGREE - 1000, within(1e-6));
        Polygon diamond = Polygon.of(new double[][][] {{{0, -1, 1, 0, 0, 1, -1, 0, 0, -1}}});
        // Near the equator the nearest point of the edge (1, 0)-(0, 1) to (1, 1) is its middle.
        double d = diamond.distanceMeters(1, 1);
        assertThat(d).isCloseTo(Earth.haversineMeters(1, 1, 0.5, 0.5), within(50.0));
        assertThat(d).isGreaterThan(0);
    }

    @Test
    void theShortestWayCrossesTheAntimeridian() {
        Rectangle east = new Rectangle(170, -10, 180, 10);
        assertThat(east.distanceMeters(-179, 0)).isCloseTo(DEGREE, within(1e-6));
        assertThat(east.distanceMeters(-180, 5)).isZero();
        Rectangle across = new Rectangle(170, 0, -170, 10);
        assertThat(across.distanceMeters(-165, 5))
                .isEqualTo(Earth.haversineMeters(-165, 5, -170, 5));
        assertThat(across.distanceMeters(165, 5)).isEqualTo(Earth.haversineMeters(165, 5, 170, 5));
        Polygon west =
                Polygon.of(new double[][][] {{{-180, 0, -170, 0, -170, 10, -180, 10, -180, 0}}});
        assertThat(west.distanceMeters(179, 5))
                .isCloseTo(Earth.haversineMeters(179, 5, 180, 5), within(1e-6));
        assertThat(west.distanceMeters(180, 5)).isZero();
        assertThat(west.distanceMeters(-180, 5)).isZero();
        assertThat(west.distanceMeters(180, 11)).isEqualTo(west.distanceMeters(-180, 11));
    }

    @Test
    void aRectangleAndTheSamePolygonAreTheSameDistanceAway() {
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 2000; i++) {
            double x = -179 + 350 * random.nextDouble();
            double y = -80 + 150 * random.nextDouble();
            double w = 8 * random.nextDouble();
            double h = 8 * random.nextDouble();
            Rectangle r = new Rectangle(x, y, x + w, y + h);
            Polygon p =
                    Polygon.of(new double[][][] {{{x, y, x + w, y, x + w, y + h, x, y + h, x, y}}});
            double px = -180 + 360 * random.nextDouble();
            double py = -90 + 180 * random.nextDouble();
            assertThat(p.distanceMeters(px, py)).isEqualTo(r.distanceMeters(px, py));
        }
    }

    @Test
    void outsideIsMoreThanZeroAndWithinTheDistanceIsWithinTheGrownBounds() {
        SplittableRandom random = new SplittableRandom(10);
        RandomShapes shapes = new RandomShapes(random);
        for (int i = 0; i < 500; i++) {
            double size = Math.scalb(1.0, random.nextInt(-8, 4));
            Polygon p =
                    shapes.fence(
                            -180 + 360 * random.nextDouble(),
                            -90 + 180 * random.nextDouble(),
                            size,
                            size / 64);
            Circle c =
                    new Circle(
                            -180 + 360 * random.nextDouble(),
                            -90 + 180 * random.nextDouble(),
                            1 + 1e5 * random.nextDouble());
            for (Shape s : List.of(p, c)) {
                double meters = DEGREE * size * random.nextDouble();
                List<Box> grown = s.boundsWithin(meters);
                for (double[] q : shapes.points(p, size / 8, size / 8, 100)) {
                    double lon = q[0] + size * (random.nextDouble() - 0.5);
                    double lat =
                            Math.max(-90, Math.min(90, q[1] + size * (random.nextDouble() - 0.5)));
                    lon = ((lon + 180) % 360 + 360) % 360 - 180;
                    double d = s.distanceMeters(lon, lat);
                    assertThat(d > 0).isEqualTo(!s.contains(lon, lat));
                    if (d <= meters) {
                        double x = lon;
                        assertThat(
                                        grown.stream()
                                                .anyMatch(
                                                        b ->
                                                                b.contains(x, lat)
                                                                        || (x == -180
                                                                                && b.contains(
                                                                                        180, lat))
                                                                        || (x == 180
                                                                                && b.contains(
                                                                                        -180,
                                                                                        lat))))
                                .as("%s within %s of (%s, %s): %s", s, meters, lon, lat, grown)
                                .isTrue();
                    }
                }
            }
        }
    }
}
