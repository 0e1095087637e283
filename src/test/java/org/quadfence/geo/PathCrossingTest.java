package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.PathReference;
import org.quadfence.testing.RandomShapes;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@link PathCrossing#first(Path, Shape)} against a reference that shares nothing with it (JTS in
 * the unwrapped plane for rectangles and polygons, dense haversine sampling for circles), on seeded
 * random fences and paths that start and end on the hard places (corners, exact points on edges,
 * one ulp off them, lon +-180, the poles), and on touches built by construction.
 */
class PathCrossingTest {

    private static final double NAN = Double.NaN;

    private final SplittableRandom random = new SplittableRandom(22);
    private final RandomShapes shapes = new RandomShapes(random);

    @Test
    void aPathMeetsARectangleExactlyWhenJtsSaysSoAndFirstAtThePointJtsFinds() {
        int tested = 0;
        int met = 0;
        while (tested < 4000) {
            Rectangle r = rectangle();
            Path p = pathNear(corners(r));
            if (!PathReference.exact(p, r.minLon(), r.maxLon())) {
                continue;
            }
            tested++;
            met += agreesWithTheReference(p, r) ? 1 : 0;
        }
        assertThat(met).isBetween(1000, 3000);
    }

    @Test
    void aPathMeetsAPolygonWithHolesOrManyPolygonsExactlyWhenJtsSaysSo() {
        int tested = 0;
        int met = 0;
        while (tested < 3000) {
            double size = Math.scalb(1.0, random.nextInt(-6, 7));
            double x = random.nextInt(5) == 0 ? 180 - size / 4 : -180 + 360 * random.nextDouble();
            double y = random.nextInt(8) == 0 ? 90 - size / 4 : -90 + 180 * random.nextDouble();
            Polygon fence = shapes.fence(x, y, size, Math.scalb(size, -random.nextInt(3, 12)));
            List<double[]> points = shapes.points(fence, size / 8, size / 8, 20);
            for (int i = 0; i + 1 < points.size(); i += 2) {
                double[] a = points.get(i);
                double[] b = random.nextInt(10) == 0 ? a : points.get(i + 1);
                Path p = new Path(a[0], a[1], b[0], b[1]);
                if (PathReference.exact(p, xs(fence))) {
                    tested++;
                    met += agreesWithTheReference(p, fence) ? 1 : 0;
                }
            }
        }
        assertThat(met).isBetween(600, 2900);
    }

    @Test
    void onArbitraryDoublesAPathMeetsAPolygonExactlyWhenJtsSaysSo() {
        int tested = 0;
        int met = 0;
        while (tested < 3000) {
            // A random convex-ish polygon: random doubles, no grid; paths between its vertices,
            // one ulp off them, and random points near it.
            double x = -180 + 360 * random.nextDouble();
            double y = -80 + 160 * random.nextDouble();
            double r = Math.scalb(random.nextDouble() + 0.5, -random.nextInt(0, 20));
            int n = random.nextInt(3, 9);
            double[] ring = new double[2 * n + 2];
            for (int i = 0; i < n; i++) {
                double a = 2 * Math.PI * (i + random.nextDouble() * 0.5) / n;
                ring[2 * i] = Math.max(-180, Math.min(180, x + r * Math.cos(a)));
                ring[2 * i + 1] = y + r * Math.sin(a);
            }
            ring[2 * n] = ring[0];
            ring[2 * n + 1] = ring[1];
            Polygon fence;
            try {
                fence = Polygon.of(new double[][][] {{ring}});
            } catch (IllegalArgumentException degenerate) {
                continue;
            }
            for (int k = 0; k < 5; k++) {
                double[] a = near(ring, x, y, r);
                double[] b = random.nextInt(10) == 0 ? a : near(ring, x, y, r);
                Path p = new Path(a[0], a[1], b[0], b[1]);
                if (PathReference.exact(p, xs(fence))) {
                    tested++;
                    met += agreesWithTheReference(p, fence) ? 1 : 0;
                }
            }
        }
        assertThat(met).isBetween(600, 2900);
    }

    private double[] near(double[] ring, double x, double y, double r) {
        int i = random.nextInt(ring.length / 2 - 1);
        double[] p = {ring[2 * i], ring[2 * i + 1]};
        switch (random.nextInt(4)) {
            case 0 -> {
                int j = random.nextInt(2);
                p[j] = random.nextBoolean() ? Math.nextUp(p[j]) : Math.nextDown(p[j]);
            }
            case 1 -> {
                p[0] = x + 2 * r * (random.nextDouble() - 0.5);
                p[1] = y + 2 * r * (random.nextDouble() - 0.5);
            }
            default -> {}
        }
        return new double[] {lon(p[0]), clampLat(p[1])};
    }

    @Test
    void aPathMeetsACircleWhenSomePointIsWithinTheRadiusAndFirstWhereItEnters() {
        int met = 0;
        for (int k = 0; k < 400; k++) {
            Circle c = circle();
            Path p = pathGrazing(c);
            double s = PathCrossing.first(p, c);
            double ref = PathReference.firstInCircle(p, c, 20_000);
            double length = lengthMeters(p);
            String what = c + " " + p + " s " + s + " reference " + ref;
            if (Double.isNaN(s)) {
                // Nothing found: no sample comes more than the search's tolerance inside.
                assertThat(deepest(p, c, 20_000)).as(what).isGreaterThan(-1e-3);
                continue;
            }
            met++;
            // What is found is in the circle, and no sample before it is (beyond the tolerance).
            assertThat(PathReference.distance(p, c, s))
                    .as(what)
                    .isLessThan(c.radiusMeters() + 1e-3);
            if (!Double.isNaN(ref) && ref < s) {
                assertThat((s - ref) * length).as(what).isLessThan(1e-2);
            }
        }
        assertThat(met).isBetween(100, 399);
    }

    @Test
    void aPathThroughARectanglesCornerMeetsItThereAndOneUlpAsideMissesIt() {
        Rectangle r = new Rectangle(0, 0, 1, 1);
        assertThat(PathCrossing.first(new Path(0, 2, 2, 0), r)).isEqualTo(0.5);
        assertThat(PathCrossing.first(new Path(0, Math.nextUp(2.0), 2, 0), r)).isNaN();
        assertThat(PathCrossing.first(new Path(1, 1, 2, 3), r)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(2, 3, 1, 1), r)).isEqualTo(1);
        assertThat(PathCrossing.first(new Path(Math.nextUp(1.0), 1, 2, 3), r)).isNaN();
    }

    @Test
    void aPathAlongAnEdgeMeetsWhereItReachesTheEdge() {
        Rectangle r = new Rectangle(0, 0, 2, 1);
        assertThat(PathCrossing.first(new Path(-1, 1, 3, 1), r)).isEqualTo(0.25);
        assertThat(PathCrossing.first(new Path(3, 1, -1, 1), r)).isEqualTo(0.25);
        Polygon square = Polygon.of(new double[][][] {{{0, 0, 2, 0, 2, 1, 0, 1, 0, 0}}});
        assertThat(PathCrossing.first(new Path(-1, 1, 3, 1), square)).isEqualTo(0.25);
        assertThat(PathCrossing.first(new Path(-1, Math.nextUp(1.0), 3, 1), square)).isNaN();
        Rectangle line = new Rectangle(0, 5, 4, 5);
        assertThat(PathCrossing.first(new Path(2, 5, 8, 5), line)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(8, 5, 2, 5), line))
                .isCloseTo(2 / 3.0, within(1e-15));
    }

    @Test
    void aPathThatIsAPointMeetsAShapeExactlyWhenTheShapeHoldsThePoint() {
        Polygon triangle = Polygon.of(new double[][][] {{{0, 0, 3, 0, 0, 3, 0, 0}}});
        assertThat(PathCrossing.first(new Path(1.5, 1.5, 1.5, 1.5), triangle)).isEqualTo(0);
        assertThat(
                        PathCrossing.first(
                                new Path(1.5, Math.nextUp(1.5), 1.5, Math.nextUp(1.5)), triangle))
                .isNaN();
        assertThat(PathCrossing.first(new Path(3, 0, 3, 0), triangle)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(4, 0, 4, 0), triangle)).isNaN();
        Rectangle point = new Rectangle(-180, 10, -180, 10);
        assertThat(PathCrossing.first(new Path(180, 10, 180, 10), point)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(-180, 10, 180, 10), point)).isEqualTo(0);
    }

    @Test
    void aPathThroughAHoleOnlyMissesThePolygonAndOneTouchingTheHolesVertexMeetsIt() {
        double[] shell = {0, 0, 10, 0, 10, 10, 0, 10, 0, 0};
        double[] hole = {2, 2, 2, 8, 8, 8, 8, 2, 2, 2};
        Polygon ring = Polygon.of(new double[][][] {{shell, hole}});
        assertThat(PathCrossing.first(new Path(3, 3, 7, 7), ring)).isNaN();
        assertThat(PathCrossing.first(new Path(3, 7, 7, 3), ring)).isNaN();
        assertThat(PathCrossing.first(new Path(4, 4, 9, 9), ring)).isCloseTo(0.8, within(1e-15));
        assertThat(PathCrossing.first(new Path(4, 4, 8, 8), ring)).isEqualTo(1);
        assertThat(PathCrossing.first(new Path(3, 5, 2, 5), ring)).isEqualTo(1);
    }

    @Test
    void aUShapedPolygonIsMetAtTheStartWhenBothEndsAreInItsArmsAndNotAcrossItsGap() {
        double[] u = {0, 0, 6, 0, 6, 6, 4, 6, 4, 2, 2, 2, 2, 6, 0, 6, 0, 0};
        Polygon fence = Polygon.of(new double[][][] {{u}});
        assertThat(PathCrossing.first(new Path(1, 5, 5, 5), fence)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(3, 3, 3, 7), fence)).isNaN();
        assertThat(PathCrossing.first(new Path(3, 7, 5, 5), fence)).isCloseTo(0.5, within(1e-15));
        assertThat(PathCrossing.first(new Path(-1, 7, 3, 3), fence)).isCloseTo(0.25, within(1e-15));
        assertThat(PathCrossing.first(new Path(3, 7, 3, 3), fence)).isNaN();
        assertThat(PathCrossing.first(new Path(3, 6, 5, 4), fence)).isCloseTo(0.5, within(1e-15));
    }

    @Test
    void aPathAcrossTheAntimeridianMeetsFencesOnBothSidesAndOnTheMeridianItself() {
        Path east = new Path(179, 0, -179, 0);
        assertThat(PathCrossing.first(east, new Rectangle(-180, -1, -180, 1))).isEqualTo(0.5);
        assertThat(PathCrossing.first(east, new Rectangle(180, -1, 180, 1))).isEqualTo(0.5);
        assertThat(PathCrossing.first(east, new Rectangle(170, -1, -178.5, 1))).isEqualTo(0);
        assertThat(PathCrossing.first(east, new Rectangle(-178.5, -1, 170, 1))).isNaN();
        Polygon west =
                Polygon.of(
                        new double[][][] {{{-180, -1, -179.5, -1, -179.5, 1, -180, 1, -180, -1}}});
        assertThat(PathCrossing.first(east, west)).isEqualTo(0.5);
        Polygon eastSide =
                Polygon.of(new double[][][] {{{179.5, -1, 180, -1, 180, 1, 179.5, 1, 179.5, -1}}});
        assertThat(PathCrossing.first(new Path(-179, 0.5, -178, 0.5), eastSide)).isNaN();
        assertThat(PathCrossing.first(new Path(-178, 0.5, -180, 0.5), eastSide)).isEqualTo(1);
        assertThat(PathCrossing.first(new Path(-178, 2, -180, 0), eastSide)).isEqualTo(1);
    }

    @Test
    void aPathOfExactly180DegreesGoesEastFromItsStart() {
        Rectangle zero = new Rectangle(-1, -1, 1, 1);
        Rectangle antimeridian = new Rectangle(179, -1, -179, 1);
        assertThat(PathCrossing.first(new Path(-90, 0, 90, 0), zero))
                .isCloseTo(89 / 180.0, within(1e-15));
        assertThat(PathCrossing.first(new Path(-90, 0, 90, 0), antimeridian)).isNaN();
        assertThat(PathCrossing.first(new Path(90, 0, -90, 0), antimeridian))
                .isCloseTo(89 / 180.0, within(1e-15));
        assertThat(PathCrossing.first(new Path(90, 0, -90, 0), zero)).isNaN();
    }

    @Test
    void aPathTangentToACircleWithin1e7DegreeMeetsItOnlyFromInside() {
        double r = Math.toRadians(0.5) * Earth.RADIUS_METERS;
        for (double lat : new double[] {0, 40, -75}) {
            Circle c = new Circle(0, lat, r);
            // A meridian dLon from the centre comes within asin(sin(dLon) cos(lat)) of it.
            double reach =
                    Math.toDegrees(
                            Math.asin(
                                    Math.sin(r / Earth.RADIUS_METERS)
                                            / Math.cos(Math.toRadians(lat))));
            Path inside = new Path(reach - 1e-7, lat - 1, reach - 1e-7, lat + 1);
            Path outside = new Path(reach + 1e-7, lat - 1, reach + 1e-7, lat + 1);
            double s = PathCrossing.first(inside, c);
            assertThat(s).as("lat %s", lat).isBetween(0.4, 0.6);
            assertThat(PathReference.distance(inside, c, s)).isCloseTo(r, within(1e-3));
            assertThat(s).isCloseTo(PathReference.firstInCircle(inside, c, 100_000), within(1e-9));
            assertThat(PathCrossing.first(outside, c)).as("lat %s", lat).isNaN();
        }
        // Along the equator from the west: the circle's westmost point, exactly.
        Circle c = new Circle(0, 0, r);
        double s = PathCrossing.first(new Path(-1.5, 0, 1.5, 0), c);
        assertThat(new Path(-1.5, 0, 1.5, 0).lonAt(s)).isCloseTo(-0.5, within(1e-9));
    }

    @Test
    void aPathStartingInACircleMeetsItAtTheStartAndAPointPathOnlyWhenInside() {
        Circle c = new Circle(179.9, 89.9, 50_000);
        assertThat(PathCrossing.first(new Path(179.9, 89.9, -170, 89), c)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(-180, 89.9, -180, 89.9), c)).isEqualTo(0);
        assertThat(PathCrossing.first(new Path(0, 0, 0, 0), c)).isNaN();
        // 180 degrees of longitude along latitude 89.8, from 0.3 degree away to 0.1 degree.
        Circle small = new Circle(179.9, 89.9, 20_000);
        Path polar = new Path(0, 89.8, 180, 89.8);
        double s = PathCrossing.first(polar, small);
        assertThat(PathReference.distance(polar, small, s)).isCloseTo(20_000, within(1e-3));
        assertThat(s).isCloseTo(PathReference.firstInCircle(polar, small, 100_000), within(1e-9));
    }

    // Compares with the reference; true when the path meets the shape.
    private static boolean agreesWithTheReference(Path p, Shape shape) {
        double s = PathCrossing.first(p, shape);
        double ref = PathReference.first(p, shape);
        String what = shape + " " + p;
        assertThat(Double.isNaN(s)).as("misses " + what).isEqualTo(Double.isNaN(ref));
        if (Double.isNaN(s)) {
            return false;
        }
        // 1e-8 degree on the path, whatever its length.
        double degrees =
                Math.hypot(PathReference.unwrappedEnd(p) - p.fromLon(), p.toLat() - p.fromLat());
        assertThat(Math.abs(s - ref) * degrees)
                .as(what + " s " + s + " ref " + ref)
                .isLessThan(1e-8);
        assertThat(s).isBetween(0.0, 1.0);
        if (s == 0) {
            assertThat(shape.contains(p.fromLon(), p.fromLat())).as(what).isTrue();
        }
        return true;
    }

    private Rectangle rectangle() {
        double q = Math.scalb(1.0, -random.nextInt(0, 20));
        double w =
                random.nextInt(6) == 0
                        ? 0
                        : Math.scalb(1.0, random.nextInt(-10, 8)) * random.nextDouble();
        double h =
                random.nextInt(6) == 0
                        ? 0
                        : Math.scalb(1.0, random.nextInt(-10, 7)) * random.nextDouble();
        double x =
                random.nextInt(6) == 0
                        ? (random.nextBoolean() ? 180 : -180)
                        : -180 + 360 * random.nextDouble();
        double y = -90 + 180 * random.nextDouble();
        double x0 = snap(x, q);
        double x1 = snap(x + w, q);
        if (x1 > 180) {
            x1 -= 360;
        }
        double y0 = Math.max(-90, snap(y, q));
        double y1 = Math.min(90, snap(y + h, q));
        return new Rectangle(x0, Math.min(y0, y1), x1, Math.max(y0, y1));
    }

    private static List<double[]> corners(Rectangle r) {
        List<double[]> out = new ArrayList<>();
        for (double x : new double[] {r.minLon(), r.maxLon(), (r.minLon() + r.maxLon()) / 2}) {
            for (double y : new double[] {r.minLat(), r.maxLat(), (r.minLat() + r.maxLat()) / 2}) {
                out.add(new double[] {x, y});
            }
        }
        return out;
    }

    // A path whose ends are hard points of the fence, moved off them in whole steps some of the
    // time, sometimes a point, sometimes long, sometimes across the antimeridian.
    private Path pathNear(List<double[]> hard) {
        double[] a = end(hard);
        double[] b = random.nextInt(10) == 0 ? a : end(hard);
        if (random.nextInt(5) == 0) {
            b =
                    new double[] {
                        lon(a[0] + 360 * random.nextDouble()), -90 + 180 * random.nextDouble()
                    };
        }
        return new Path(a[0], a[1], b[0], b[1]);
    }

    private double[] end(List<double[]> hard) {
        double[] p = hard.get(random.nextInt(hard.size())).clone();
        int move = random.nextInt(4);
        double step = Math.scalb(1.0, -random.nextInt(0, 30));
        if (move == 1) {
            p[0] = lon(p[0] + step * random.nextInt(-4, 5));
        } else if (move == 2) {
            p[1] = Math.max(-90, Math.min(90, p[1] + step * random.nextInt(-4, 5)));
        } else if (move == 3) {
            p[0] = lon(snap(-180 + 360 * random.nextDouble(), step));
            p[1] = snap(-90 + 180 * random.nextDouble(), step);
        }
        return p;
    }

    private Circle circle() {
        double radius = Math.max(1, 2e6 * Math.pow(random.nextDouble(), 3));
        double lon = random.nextInt(5) == 0 ? 180 : -180 + 360 * random.nextDouble();
        double lat =
                random.nextInt(6) == 0
                        ? 89.5 + random.nextDouble() / 2
                        : -90 + 180 * random.nextDouble();
        return new Circle(lon, lat, radius);
    }

    // A path through a point at (1 +- a little) the radius from the centre, in a random direction.
    private Path pathGrazing(Circle c) {
        double off =
                random.nextBoolean()
                        ? Math.scalb(random.nextDouble() - 0.5, -random.nextInt(0, 30))
                        : 0;
        double[] m =
                destination(c, c.radiusMeters() * (1 + off), 2 * Math.PI * random.nextDouble());
        double reach =
                Math.toDegrees(c.radiusMeters() / Earth.RADIUS_METERS) * 4 * random.nextDouble();
        double angle = 2 * Math.PI * random.nextDouble();
        double t = random.nextDouble();
        double dx = reach * Math.cos(angle);
        double dy = reach * Math.sin(angle);
        double[] a = {lon(m[0] - t * dx), clampLat(m[1] - t * dy)};
        double[] b = {lon(m[0] + (1 - t) * dx), clampLat(m[1] + (1 - t) * dy)};
        return new Path(a[0], a[1], b[0], b[1]);
    }

    private static double[] destination(Circle c, double meters, double bearing) {
        double delta = meters / Earth.RADIUS_METERS;
        double phi = Math.toRadians(c.lat());
        double phi2 =
                Math.asin(
                        Math.max(
                                -1,
                                Math.min(
                                        1,
                                        Math.sin(phi) * Math.cos(delta)
                                                + Math.cos(phi)
                                                        * Math.sin(delta)
                                                        * Math.cos(bearing))));
        double lambda =
                Math.toRadians(c.lon())
                        + Math.atan2(
                                Math.sin(bearing) * Math.sin(delta) * Math.cos(phi),
                                Math.cos(delta) - Math.sin(phi) * Math.sin(phi2));
        return new double[] {lon(Math.toDegrees(lambda)), Math.toDegrees(phi2)};
    }

    private static double deepest(Path p, Circle c, int samples) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= samples; i++) {
            best =
                    Math.min(
                            best,
                            PathReference.distance(p, c, i / (double) samples) - c.radiusMeters());
        }
        return best;
    }

    private static double lengthMeters(Path p) {
        double dx = PathReference.unwrappedEnd(p) - p.fromLon();
        double k =
                Math.max(
                        Math.cos(Math.toRadians(p.fromLat())), Math.cos(Math.toRadians(p.toLat())));
        return Earth.RADIUS_METERS * Math.toRadians(Math.hypot(p.toLat() - p.fromLat(), dx * k));
    }

    private static double[] xs(Polygon fence) {
        List<Double> out = new ArrayList<>();
        for (double[][] rings : fence.coordinates()) {
            for (double[] ring : rings) {
                for (int i = 0; i < ring.length; i += 2) {
                    out.add(ring[i]);
                }
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static double snap(double v, double q) {
        return Math.rint(v / q) * q;
    }

    private static double lon(double v) {
        double x = ((v + 180) % 360 + 360) % 360 - 180;
        return x;
    }

    private static double clampLat(double v) {
        return Math.max(-90, Math.min(90, v));
    }
}
