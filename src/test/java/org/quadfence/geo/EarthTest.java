package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Haversine distances and grown boxes. */
class EarthTest {

    private static final double DEGREE = Math.PI / 180 * Earth.RADIUS_METERS;

    @Test
    void oneDegreeOfLatitudeIs111195Metres() {
        assertThat(DEGREE).isCloseTo(111195.08, within(0.01));
        assertThat(Earth.haversineMeters(10, 20, 10, 21)).isCloseTo(DEGREE, within(1e-6));
        assertThat(Earth.haversineMeters(0, 0, 1, 0)).isCloseTo(DEGREE, within(1e-6));
    }

    @Test
    void theShortestWayCrossesTheAntimeridian() {
        assertThat(Earth.haversineMeters(179.5, 0, -179.5, 0)).isCloseTo(DEGREE, within(1e-6));
        assertThat(Earth.haversineMeters(180, 10, -180, 10)).isZero();
        assertThat(Earth.haversineMeters(0, 90, 123, 90)).isCloseTo(0, within(1e-6));
        assertThat(Earth.haversineMeters(0, 0, 180, 0)).isCloseTo(180 * DEGREE, within(1e-3));
    }

    @Test
    void aGrownBoxCoversEveryPointWithinTheDistance() {
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            double x = -180 + 360 * random.nextDouble();
            double y =
                    random.nextInt(10) == 0
                            ? 90 * (2 * random.nextInt(2) - 1)
                            : -90 + 180 * random.nextDouble();
            double w = random.nextInt(3) == 0 ? 0 : Math.min(180 - x, 5 * random.nextDouble());
            double h = random.nextInt(3) == 0 ? 0 : Math.min(90 - y, 5 * random.nextDouble());
            Box box = new Box(x, y, x + w, y + h);
            double meters = Math.pow(10, 7 * random.nextDouble());
            List<Box> grown = Earth.grow(box, meters);
            assertThat(grown).hasSizeBetween(1, 2);
            // A point of the box, then a point at most 'meters' from it.
            double px = x + w * random.nextDouble();
            double py = y + h * random.nextDouble();
            double[] q =
                    away(px, py, meters * random.nextDouble(), random.nextDouble() * 2 * Math.PI);
            if (Earth.haversineMeters(px, py, q[0], q[1]) <= meters) {
                assertThat(grown.stream().anyMatch(b -> b.contains(q[0], q[1])))
                        .as("%s grown by %s: %s, point (%s, %s)", box, meters, grown, q[0], q[1])
                        .isTrue();
            }
        }
    }

    @Test
    void growingSplitsAtTheAntimeridianAndOpensAtThePoles() {
        assertThat(Earth.grow(new Box(179.99, 0, 180, 0), 10_000)).hasSize(2);
        List<Box> polar = Earth.grow(new Box(10, 89.9, 10, 89.9), 20_000);
        assertThat(polar).containsExactly(new Box(-180, polar.get(0).minY(), 180, 90));
        assertThat(Earth.grow(new Box(1, 2, 3, 4), 0)).containsExactly(new Box(1, 2, 3, 4));
        assertThatThrownBy(() -> Earth.grow(Box.WORLD, -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Earth.grow(Box.WORLD, Double.NaN))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // The spherical destination point from (lon, lat) at a distance and bearing.
    static double[] away(double lon, double lat, double meters, double bearing) {
        double delta = meters / Earth.RADIUS_METERS;
        double phi = Math.toRadians(lat);
        double sin =
                Math.sin(phi) * Math.cos(delta)
                        + Math.cos(phi) * Math.sin(delta) * Math.cos(bearing);
        double phi2 = Math.asin(Math.max(-1, Math.min(1, sin)));
        double lambda =
                Math.toRadians(lon)
                        + Math.atan2(
                                Math.sin(bearing) * Math.sin(delta) * Math.cos(phi),
                                Math.cos(delta) - Math.sin(phi) * Math.sin(phi2));
        double x = Math.toDegrees(lambda);
        x = ((x + 180) % 360 + 360) % 360 - 180;
        return new double[] {x, Math.max(-90, Math.min(90, Math.toDegrees(phi2)))};
    }
}
