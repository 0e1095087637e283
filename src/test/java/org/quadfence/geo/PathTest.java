package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.PathReference;

import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link Path}: the shorter way round (east at exactly 180), its points and bounds, and its exact
 * meets test against JTS; and the shifted orientation under it, against exact arithmetic where the
 * shifted longitude is not a double.
 */
class PathTest {

    private final SplittableRandom random = new SplittableRandom(2201);

    @Test
    void aPathTakesTheShorterWayRoundAndGoesEastAtExactly180Degrees() {
        assertThat(new Path(170, 0, -170, 0).unwrappedToLon()).isEqualTo(190);
        assertThat(new Path(-170, 0, 170, 0).unwrappedToLon()).isEqualTo(-190);
        assertThat(new Path(10, 0, -169, 0).unwrappedToLon()).isEqualTo(-169);
        assertThat(new Path(0, 0, 180, 0).unwrappedToLon()).isEqualTo(180);
        assertThat(new Path(180, 0, 0, 0).unwrappedToLon()).isEqualTo(360);
        assertThat(new Path(90, 0, -90, 0).unwrappedToLon()).isEqualTo(270);
        assertThat(new Path(-90, 0, 90, 0).unwrappedToLon()).isEqualTo(90);
        assertThat(new Path(-180, 5, 180, 5).unwrappedToLon()).isEqualTo(-180);
        assertThat(new Path(180, 5, -180, 5).unwrappedToLon()).isEqualTo(180);
        // 179.9 - (-0.1) rounds to 180 but is 180.0000000000000112: the shorter way is west.
        assertThat(179.9 - (-0.1)).isEqualTo(180);
        assertThat(new Path(-0.1, 0, 179.9, 0).crossesAntimeridian()).isTrue();
        assertThat(new Path(-0.1, 0, Math.nextDown(179.9), 0).crossesAntimeridian()).isFalse();
    }

    @Test
    void aPathCrossesTheAntimeridianWhenItLeavesLonMinus180To180() {
        assertThat(new Path(170, 0, -170, 0).crossesAntimeridian()).isTrue();
        assertThat(new Path(-180, 0, 170, 0).crossesAntimeridian()).isTrue();
        assertThat(new Path(180, 0, -170, 0).crossesAntimeridian()).isTrue();
        assertThat(new Path(180, 0, 170, 0).crossesAntimeridian()).isFalse();
        assertThat(new Path(-180, 0, 180, 0).crossesAntimeridian()).isTrue();
        assertThat(new Path(-90, 0, 90, 0).crossesAntimeridian()).isFalse();
    }

    @Test
    void itsPointsAreTheEndsExactlyAndFoldedInBetween() {
        Path p = new Path(170.25, -3, -170.5, 7);
        assertThat(p.lonAt(0)).isEqualTo(170.25);
        assertThat(p.latAt(0)).isEqualTo(-3);
        assertThat(p.lonAt(1)).isEqualTo(-170.5);
        assertThat(p.latAt(1)).isEqualTo(7);
        assertThat(p.lonAt(0.5)).isEqualTo(179.875);
        assertThat(p.lonAt(0.75)).isEqualTo(-175.3125);
        assertThat(p.latAt(0.5)).isEqualTo(2);
    }

    @Test
    void itsBoundsHoldEveryPointOfThePath() {
        for (int k = 0; k < 2000; k++) {
            Path p = randomPath();
            List<Box> bounds = p.bounds();
            assertThat(bounds).hasSize(p.crossesAntimeridian() ? 2 : 1);
            for (int i = 0; i <= 100; i++) {
                double x = p.lonAt(i / 100.0);
                double y = p.latAt(i / 100.0);
                assertThat(
                                bounds.stream()
                                        .anyMatch(
                                                b ->
                                                        b.contains(x, y)
                                                                || b.contains(-x, y)
                                                                        && Math.abs(x) == 180))
                        .as("%s at %s: (%s, %s) in %s", p, i / 100.0, x, y, bounds)
                        .isTrue();
            }
        }
    }

    @Test
    void itMeetsABoxExactlyWhenJtsSaysSoOnTheBoxsCopies() {
        int met = 0;
        for (int k = 0; k < 20_000; k++) {
            double q = Math.scalb(1.0, -random.nextInt(0, 30));
            Path p = dyadicPath(q);
            double x0 = snap(-180 + 360 * random.nextDouble(), q);
            double y0 = snap(-90 + 180 * random.nextDouble(), q);
            double w = random.nextInt(4) == 0 ? 0 : snap(40 * random.nextDouble(), q);
            double h = random.nextInt(4) == 0 ? 0 : snap(40 * random.nextDouble(), q);
            if (random.nextInt(3) == 0) {
                // A box at a corner or edge of the path's own bounds: many exact touches.
                Box b = p.bounds().get(0);
                x0 = random.nextBoolean() ? b.minX() : b.maxX();
                y0 = random.nextBoolean() ? b.minY() - h : b.maxY();
            }
            Box box = new Box(x0, y0, Math.min(180, x0 + w), Math.min(90, y0 + h));
            if (!PathReference.exact(p, box.minX(), box.maxX())) {
                continue;
            }
            boolean meets = p.meets(box);
            assertThat(meets).as("%s and %s", p, box).isEqualTo(PathReference.meets(p, box));
            met += meets ? 1 : 0;
        }
        assertThat(met).isGreaterThan(2000);
    }

    @Test
    void aShiftedLongitudeIsNeverRoundedInAnOrientation() {
        int differ = 0;
        for (int k = 0; k < 20_000; k++) {
            double ax = -180 + 360 * random.nextDouble();
            double bx = -180 + 360 * random.nextDouble();
            double ay = -90 + 180 * random.nextDouble();
            double by = -90 + 180 * random.nextDouble();
            double sa = 360 * random.nextInt(-1, 2);
            double sb = 360 * random.nextInt(-1, 2);
            // A point on the exact line, rounded, then a few ulps aside.
            double t = random.nextDouble();
            double cx = (ax + sa) + t * ((bx + sb) - (ax + sa));
            double cy = ay + t * (by - ay);
            for (int i = random.nextInt(-2, 3); i != 0; i -= Integer.signum(i)) {
                cy = i > 0 ? Math.nextUp(cy) : Math.nextDown(cy);
            }
            int exact = exactOrient(ax, ay, sa, bx, by, sb, cx, cy);
            assertThat(Shifted.orient(ax, ay, sa, bx, by, sb, cx, cy)).isEqualTo(exact);
            differ += Orientation.index(ax + sa, ay, bx + sb, by, cx, cy) != exact ? 1 : 0;
        }
        // Rounding the shifted longitudes first would have got some of these wrong.
        assertThat(differ).isPositive();
        for (double x : new double[] {0.1, Math.nextUp(0.1), -0.3, 1e-20}) {
            double rounded = x + 360;
            int exact =
                    new BigDecimal(x)
                            .add(BigDecimal.valueOf(360))
                            .compareTo(new BigDecimal(rounded));
            assertThat(Shifted.compare(x, 360, rounded)).as("%s", x).isEqualTo(exact);
        }
    }

    @Test
    void coordinatesOutOfRangeAreRejected() {
        assertThatThrownBy(() -> new Path(180.5, 0, 0, 0)).hasMessageContaining("fromLon");
        assertThatThrownBy(() -> new Path(0, 0, 0, -91)).hasMessageContaining("toLat");
        assertThatThrownBy(() -> new Path(0, Double.NaN, 0, 0)).hasMessageContaining("fromLat");
    }

    private static int exactOrient(
            double ax,
            double ay,
            double sa,
            double bx,
            double by,
            double sb,
            double cx,
            double cy) {
        BigDecimal x = new BigDecimal(cx);
        BigDecimal y = new BigDecimal(cy);
        BigDecimal a = new BigDecimal(ax).add(new BigDecimal(sa)).subtract(x);
        BigDecimal b = new BigDecimal(bx).add(new BigDecimal(sb)).subtract(x);
        return a.multiply(new BigDecimal(by).subtract(y))
                .compareTo(new BigDecimal(ay).subtract(y).multiply(b));
    }

    private Path randomPath() {
        double x = -180 + 360 * random.nextDouble();
        double y = -90 + 180 * random.nextDouble();
        double reach = Math.scalb(1.0, random.nextInt(-10, 9));
        double x2 = x + reach * (2 * random.nextDouble() - 1);
        double y2 = Math.max(-90, Math.min(90, y + reach * (2 * random.nextDouble() - 1)));
        return new Path(x, y, ((x2 + 180) % 360 + 360) % 360 - 180, y2);
    }

    private Path dyadicPath(double q) {
        double[] a = {
            snap(-180 + 360 * random.nextDouble(), q), snap(-90 + 180 * random.nextDouble(), q)
        };
        if (random.nextInt(6) == 0) {
            a[0] = random.nextBoolean() ? 180 : -180;
        }
        double reach = Math.scalb(1.0, random.nextInt(-6, 8));
        double bx = snap(a[0] + reach * (2 * random.nextDouble() - 1), q);
        double by = snap(a[1] + reach * (2 * random.nextDouble() - 1), q);
        bx = bx > 180 ? bx - 360 : bx < -180 ? bx + 360 : bx;
        by = Math.max(-90, Math.min(90, by));
        if (random.nextInt(8) == 0) {
            return new Path(a[0], a[1], a[0], a[1]);
        }
        return new Path(a[0], a[1], bx, by);
    }

    private static double snap(double v, double q) {
        return Math.rint(v / q) * q;
    }
}
