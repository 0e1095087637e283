package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The orientation predicate against exact BigDecimal arithmetic, where rounding would lie. */
class OrientationTest {

    @Test
    void nearlyCollinearPointsGetTheExactSign() {
        SplittableRandom random = new SplittableRandom(7);
        int zeros = 0;
        for (int i = 0; i < 200_000; i++) {
            double ax = coordinate(random);
            double ay = coordinate(random);
            double bx = coordinate(random);
            double by = coordinate(random);
            double t =
                    random.nextInt(4) == 0 ? random.nextInt(9) / 8.0 : random.nextDouble() * 3 - 1;
            double cx = ax + t * (bx - ax);
            double cy = ay + t * (by - ay);
            if (random.nextBoolean()) {
                cx = random.nextBoolean() ? Math.nextUp(cx) : Math.nextDown(cx);
            }
            int exact = exact(ax, ay, bx, by, cx, cy);
            assertThat(Orientation.index(ax, ay, bx, by, cx, cy))
                    .as("(%s, %s) (%s, %s) (%s, %s)", ax, ay, bx, by, cx, cy)
                    .isEqualTo(exact);
            zeros += exact == 0 ? 1 : 0;
        }
        assertThat(zeros).isGreaterThan(5_000);
    }

    @Test
    void tinyAndSubnormalDifferencesAreExactToo() {
        double tiny = Double.MIN_VALUE;
        assertThat(Orientation.index(0, 0, tiny, tiny, 2 * tiny, 2 * tiny)).isZero();
        assertThat(Orientation.index(0, 0, tiny, tiny, 2 * tiny, 3 * tiny)).isEqualTo(1);
        assertThat(Orientation.index(0, 0, tiny, tiny, 3 * tiny, 2 * tiny)).isEqualTo(-1);
        assertThat(Orientation.index(1e-300, 0, 0, 1e-300, 5e-301, 5e-301)).isZero();
        assertThat(Orientation.index(0, 0, 180, 90, 180, Math.nextUp(90.0))).isEqualTo(1);
        assertThat(Orientation.index(-180, -90, 180, 90, 0, Math.nextDown(0.0))).isEqualTo(-1);
    }

    private static double coordinate(SplittableRandom random) {
        return switch (random.nextInt(3)) {
            case 0 -> random.nextInt(-720, 721) / 4.0;
            case 1 -> 180 * (2 * random.nextDouble() - 1);
            default -> 1e-7 * (2 * random.nextDouble() - 1) + 37.5;
        };
    }

    private static int exact(double ax, double ay, double bx, double by, double cx, double cy) {
        BigDecimal left = bd(bx).subtract(bd(ax)).multiply(bd(cy).subtract(bd(ay)));
        BigDecimal right = bd(by).subtract(bd(ay)).multiply(bd(cx).subtract(bd(ax)));
        return left.compareTo(right);
    }

    private static BigDecimal bd(double v) {
        return new BigDecimal(v);
    }
}
