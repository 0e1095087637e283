package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Circle fences: validation, cases with no rounding at stake, and bounding boxes. */
class CircleTest {

    @Test
    void theRadiusMustBePositiveAndAtMost20000Km() {
        assertThatThrownBy(() -> new Circle(0, 0, 0))
                .hasMessage("radiusMeters must be > 0 and <= 20000000: 0.0");
        assertThatThrownBy(() -> new Circle(0, 0, -1)).hasMessageContaining("-1.0");
        assertThatThrownBy(() -> new Circle(0, 0, Double.NaN)).hasMessageContaining("NaN");
        assertThatThrownBy(() -> new Circle(0, 0, 20_000_000.5))
                .hasMessageContaining("2.00000005E7");
        assertThatThrownBy(() -> new Circle(200, 0, 1))
                .hasMessage("lon out of range [-180, 180]: 200.0");
        assertThatThrownBy(() -> new Circle(0, -91, 1))
                .hasMessage("lat out of range [-90, 90]: -91.0");
        assertThat(new Circle(0, 0, 20_000_000).radiusMeters()).isEqualTo(20_000_000);
    }

    @Test
    void theCentreIsInsideAndTheAntipodeNeverIs() {
        Circle c = new Circle(12.5, -33.25, 0.5);
        assertThat(c.contains(12.5, -33.25)).isTrue();
        assertThat(c.distanceMeters(12.5, -33.25)).isZero();
        Circle widest = new Circle(0, 0, Circle.MAX_RADIUS_METERS);
        // Half the circumference is 20,015 km: 15 km short of the antipode is outside, 22 km in.
        assertThat(widest.contains(180, 0)).isFalse();
        assertThat(widest.contains(-180, 0)).isFalse();
        assertThat(widest.contains(180, 0.1)).isFalse();
        assertThat(widest.contains(180, 0.2)).isTrue();
        assertThat(widest.contains(0, 90)).isTrue();
        assertThat(widest.bounds()).containsExactly(Box.WORLD);
    }

    @Test
    void aCircleOverAPoleCoversEveryLongitudeUpToThePole() {
        Circle north = new Circle(10, 89.5, 60_000);
        assertThat(north.contains(-170, 90)).isTrue();
        assertThat(north.contains(123, 90)).isTrue();
        assertThat(north.contains(-170, 89.99)).isTrue();
        assertThat(north.contains(-170, 89.9)).isFalse();
        assertThat(north.bounds()).hasSize(1);
        Box b = north.bounds().get(0);
        assertThat(b.minX()).isEqualTo(-180);
        assertThat(b.maxX()).isEqualTo(180);
        assertThat(b.maxY()).isEqualTo(90);
        assertThat(b.minY())
                .isCloseTo(89.5 - 60_000 / (Math.PI / 180 * Earth.RADIUS_METERS), within(1e-6));
        Circle south = new Circle(-19.4468536376953125, -89.9, 20_000);
        assertThat(south.contains(77, -90)).isTrue();
        assertThat(south.bounds().get(0).minY()).isEqualTo(-90);
        assertThat(south.bounds().get(0).minX()).isEqualTo(-180);
        Circle near = new Circle(10, 89.5, 50_000);
        assertThat(near.contains(10, 90)).isFalse();
        assertThat(near.bounds().get(0).maxX()).isLessThan(180);
    }

    @Test
    void aCircleAcrossTheAntimeridianHasTwoBoxesAndLon180IsLonMinus180() {
        Circle c = new Circle(180, 0, 100_000);
        List<Box> boxes = c.bounds();
        assertThat(boxes).hasSize(2);
        assertThat(boxes.get(0).minX()).isEqualTo(-180);
        assertThat(boxes.get(1).maxX()).isEqualTo(180);
        assertThat(c.contains(-179.5, 0)).isTrue();
        assertThat(c.contains(179.5, 0.5)).isTrue();
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            Circle r =
                    new Circle(
                            random.nextBoolean() ? 180 : -180 + 2 * random.nextDouble(),
                            -90 + 180 * random.nextDouble(),
                            1 + 1e6 * random.nextDouble());
            double lat = -90 + 180 * random.nextDouble();
            assertThat(r.contains(180, lat)).isEqualTo(r.contains(-180, lat));
            assertThat(r.distanceMeters(180, lat)).isEqualTo(r.distanceMeters(-180, lat));
        }
    }

    @Test
    void theBoundsHoldEveryPointInside() {
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 50_000; i++) {
            Circle c =
                    new Circle(
                            -180 + 360 * random.nextDouble(),
                            random.nextInt(10) == 0
                                    ? 90 - random.nextDouble()
                                    : -90 + 180 * random.nextDouble(),
                            Math.min(
                                    Circle.MAX_RADIUS_METERS,
                                    Math.pow(10, 7.4 * random.nextDouble())));
            double[] p =
                    EarthTest.away(
                            c.lon(),
                            c.lat(),
                            c.radiusMeters() * Math.sqrt(random.nextDouble()),
                            2 * Math.PI * random.nextDouble());
            if (c.contains(p[0], p[1])) {
                boolean in = false;
                for (Box b : c.bounds()) {
                    in |= b.contains(p[0], p[1]) || (p[0] == 180 && b.contains(-180, p[1]));
                }
                assertThat(in).as("%s %s, point (%s, %s)", c, c.bounds(), p[0], p[1]).isTrue();
            }
        }
    }
}
