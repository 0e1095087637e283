package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.locationtech.jts.operation.valid.TopologyValidationError;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A fence is valid exactly when JTS says so (contract 8a, "Validity is OGC's"): {@link Polygon#of}
 * against {@code new IsValidOp(geometry).isValid()} of jts-core 1.20, the reference, on seeded
 * random and adversarial fences ({@link TouchingShapes}): touching holes, holes touching their
 * exterior ring at a vertex or inside an edge, chains and loops of holes that cut the interior,
 * members touching at vertices or along edges, overlapping and nested members, spikes, rings that
 * cross or touch themselves, repeated positions and collapsed rings, on a small integer grid (so
 * that rings touch exactly), on that grid scaled by powers of two and moved to places where the
 * sums round, and at random double coordinates.
 *
 * <p>{@link Polygon#of} does not call JTS: it runs the project's own checks (structure, range,
 * closure, distinct positions) and then its own sweep ({@link RingSweep}), so what is tested is
 * that sweep, the conversion of the coordinates (repeated positions dropped as JTS drops them) and
 * the pre-checks, which must reject only what JTS rejects too (too few distinct points).
 */
class OgcValidityTest {

    private static final String OGC = "invalid polygon (OGC): ";

    @Test
    void randomAndAdversarialFencesOnASmallGridAreValidExactlyWhenJtsSaysSo() {
        SplittableRandom random = new SplittableRandom(18);
        TouchingShapes shapes = new TouchingShapes(random);
        int[] counts = new int[2];
        int touching = 0;
        for (int k = 0; k < 20_000; k++) {
            TouchingShapes.Fence f = shapes.next();
            boolean valid = agree(f);
            counts[valid ? 1 : 0]++;
            touching += valid && TouchingShapes.ringsTouch(f) ? 1 : 0;
        }
        assertThat(counts[0]).as("invalid").isGreaterThan(5_000);
        assertThat(counts[1]).as("valid").isGreaterThan(5_000);
        assertThat(touching).as("valid with rings that touch").isGreaterThan(2_000);
    }

    @Test
    void everyAdversarialTemplateIsJudgedAsJtsJudgesItWithJtsReason() {
        SplittableRandom random = new SplittableRandom(8);
        TouchingShapes shapes = new TouchingShapes(random);
        int valid = 0;
        for (int t = 0; t < TouchingShapes.TEMPLATES; t++) {
            for (int k = 0; k < 16; k++) {
                TouchingShapes.Fence f = shapes.template(t);
                TopologyValidationError error = new IsValidOp(f.jts()).getValidationError();
                String ours = error(f.polygons());
                if (error == null) {
                    assertThat(ours).as("%s", f).isNull();
                    valid++;
                } else if (crossing(error.getErrorType())) {
                    // Which of a ring's meetings JTS finds first depends on its index's order.
                    assertThat(ours)
                            .as("%s: JTS says %s", f, error)
                            .matches(
                                    "invalid polygon \\(OGC\\): (Ring )?Self-intersection at"
                                            + " \\[.*");
                } else {
                    assertThat(ours)
                            .as("%s: JTS says %s", f, error)
                            .startsWith(OGC + error.getMessage() + " at [");
                }
            }
        }
        assertThat(valid).isBetween(16 * 12, 16 * 20);
    }

    @Test
    void theGridScaledByPowersOfTwoAndMovedWhereSumsRoundIsJudgedAsJtsJudgesIt() {
        SplittableRandom random = new SplittableRandom(1_000);
        TouchingShapes shapes = new TouchingShapes(random);
        int[] counts = new int[2];
        for (int k = 0; k < 10_000; k++) {
            double q = Math.scalb(1.0, -random.nextInt(0, 40));
            double x0 = random.nextBoolean() ? -170 + 340 * random.nextDouble() : 0;
            double y0 = random.nextBoolean() ? -70 + 140 * random.nextDouble() : 0;
            counts[agree(shapes.next().placed(x0, y0, q, q * (1 + random.nextInt(2)))) ? 1 : 0]++;
        }
        assertThat(counts[0]).as("invalid").isGreaterThan(2_500);
        assertThat(counts[1]).as("valid").isGreaterThan(2_500);
    }

    @Test
    void randomFencesAtDoubleCoordinatesAreValidExactlyWhenJtsSaysSo() {
        SplittableRandom random = new SplittableRandom(5);
        int[] counts = new int[2];
        for (int k = 0; k < 10_000; k++) {
            int members = 1 + random.nextInt(3);
            double[][][] polygons = new double[members][][];
            for (int p = 0; p < members; p++) {
                double cx = 8 * p + 4 * random.nextDouble();
                double cy = 4 * random.nextDouble();
                polygons[p] = new double[1 + random.nextInt(4)][];
                for (int r = 0; r < polygons[p].length; r++) {
                    double radius = r == 0 ? 4 : 0.3 + random.nextDouble();
                    double x = r == 0 ? cx : cx + 4 * (random.nextDouble() - 0.5);
                    double y = r == 0 ? cy : cy + 4 * (random.nextDouble() - 0.5);
                    polygons[p][r] = randomRing(random, x, y, radius, 3 + random.nextInt(12));
                }
            }
            counts[agree(new TouchingShapes.Fence("doubles", polygons, members > 1)) ? 1 : 0]++;
        }
        assertThat(counts[0]).as("invalid").isGreaterThan(2_000);
        assertThat(counts[1]).as("valid").isGreaterThan(1_000);
    }

    // A ring through points at sorted random angles and random radii: simple, or crossing
    // itself when the angles come close.
    private static double[] randomRing(
            SplittableRandom random, double x, double y, double radius, int n) {
        double[] angles = random.doubles(n, 0, 2 * Math.PI).sorted().toArray();
        if (random.nextInt(8) == 0) {
            // Swap two: the ring crosses itself.
            double t = angles[0];
            angles[0] = angles[n - 1];
            angles[n - 1] = t;
        }
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double r = radius * (0.3 + 0.7 * random.nextDouble());
            ring[2 * i] = x + r * Math.cos(angles[i]);
            ring[2 * i + 1] = y + r * Math.sin(angles[i]);
        }
        ring[2 * n] = ring[0];
        ring[2 * n + 1] = ring[1];
        return ring;
    }

    /**
     * Checks that the fence is accepted exactly when JTS finds it valid, that an OGC rejection
     * names JTS's kind of rule (an intersection, or the same nesting or connection rule) and that a
     * rejection by the project's own checks is one JTS makes too. Returns whether it is valid.
     */
    private static boolean agree(TouchingShapes.Fence f) {
        Geometry g = f.jts();
        TopologyValidationError error = new IsValidOp(g).getValidationError();
        String ours = error(f.polygons());
        assertThat(ours == null).as("%s: ours %s, JTS %s", f, ours, error).isEqualTo(error == null);
        if (ours != null && !ours.startsWith(OGC)) {
            assertThat(error.getErrorType())
                    .as("%s: ours %s, JTS %s", f, ours, error)
                    .isEqualTo(TopologyValidationError.TOO_FEW_POINTS);
        } else if (ours != null) {
            // JTS stops looking for crossings once two rings touch twice, and then names a later
            // rule; a crossing it finds, the sweep finds too; with no crossing, the rules that
            // follow are the same.
            String reason = ours.substring(OGC.length(), ours.indexOf(" at ["));
            if (crossing(error.getErrorType())) {
                assertThat(reason).as("%s: JTS %s", f, error).endsWith("Self-intersection");
            } else if (!reason.endsWith("Self-intersection")) {
                assertThat(reason).as("%s: JTS %s", f, error).isEqualTo(error.getMessage());
            }
        }
        return error == null;
    }

    private static boolean crossing(int type) {
        return type == TopologyValidationError.SELF_INTERSECTION
                || type == TopologyValidationError.RING_SELF_INTERSECTION;
    }

    private static String error(double[][][] polygons) {
        try {
            Polygon.of(polygons);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    @Test
    void theErrorsNameOgcsReasonThePlaceAndTheRings() {
        double[] square = {0, 0, 10, 0, 10, 10, 0, 10, 0, 0};
        assertThatThrownBy(
                        () -> Polygon.of(new double[][][] {{square, {5, 5, 15, 5, 15, 6, 5, 5}}}))
                .hasMessage(
                        "invalid polygon (OGC): Self-intersection at [10.0, 5.0]: ring 0 of polygon"
                                + " 0 and ring 1 of polygon 0 cross there: rings may touch at"
                                + " single points, not cross");
        assertThatThrownBy(() -> Polygon.of(new double[][][] {{{0, 0, 2, 2, 2, 0, 0, 2, 0, 0}}}))
                .hasMessage(
                        "invalid polygon (OGC): Self-intersection at [1.0, 1.0]: ring 0 of polygon"
                                + " 0 crosses itself there");
        assertThatThrownBy(
                        () ->
                                Polygon.of(
                                        new double[][][] {
                                            {{0, 0, 2, 0, 1, 1, 2, 2, 0, 2, 1, 1, 0, 0}}
                                        }))
                .hasMessage(
                        "invalid polygon (OGC): Ring Self-intersection at [1.0, 1.0]: ring 0 of"
                                + " polygon 0 touches itself there: a ring may pass a point once"
                                + " (make the loop a hole or a polygon of its own)");
        assertThatThrownBy(
                        () ->
                                Polygon.of(
                                        new double[][][] {
                                            {square}, {{10, 0, 20, 0, 20, 10, 10, 10, 10, 0}}
                                        }))
                .hasMessage(
                        "invalid polygon (OGC): Self-intersection at [10.0, 0.0]: ring 0 of polygon"
                                + " 0 and ring 0 of polygon 1 overlap along an edge from there:"
                                + " rings may touch at single points, not share edges (polygons"
                                + " that share an edge: merge them into one)");
        assertThatThrownBy(
                        () ->
                                Polygon.of(
                                        new double[][][] {
                                            {square, {20, 20, 21, 20, 21, 21, 20, 20}}
                                        }))
                .hasMessage(
                        "invalid polygon (OGC): Hole lies outside shell at [20.0, 20.0]: ring 1 of"
                                + " polygon 0, a hole, is not inside its exterior ring (ring 0)");
        assertThatThrownBy(
                        () ->
                                Polygon.of(
                                        new double[][][] {
                                            {
                                                square,
                                                {1, 1, 9, 1, 9, 9, 1, 9, 1, 1},
                                                {1, 1, 6, 4, 4, 6, 1, 1}
                                            }
                                        }))
                .hasMessage(
                        "invalid polygon (OGC): Holes are nested at [1.0, 1.0]: ring 2 of polygon"
                                + " 0, a hole, lies inside ring 1, another hole of its polygon");
        assertThatThrownBy(
                        () -> Polygon.of(new double[][][] {{square}, {{0, 0, 4, 2, 2, 4, 0, 0}}}))
                .hasMessage(
                        "invalid polygon (OGC): Nested shells at [0.0, 0.0]: polygon 1 lies inside"
                                + " polygon 0, not in one of its holes: the polygons of a"
                                + " MultiPolygon may not overlap");
        assertThatThrownBy(
                        () ->
                                Polygon.of(
                                        new double[][][] {
                                            {square, {0, 4, 6, 2, 10, 4, 6, 6, 0, 4}}
                                        }))
                .hasMessage(
                        "invalid polygon (OGC): Interior is disconnected at [10.0, 4.0]: the rings"
                                + " of polygon 0 that touch there close a loop of touching rings"
                                + " (or two rings touch twice), which cuts its interior in parts:"
                                + " make each part a polygon of its own");
    }
}
