package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.operation.valid.IsSimpleOp;
import org.locationtech.jts.operation.valid.IsValidOp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How the rings of a fence may lie together (contract section 8, "rings cross or touch"): not
 * crossing or touching within a polygon or across the polygons of a MultiPolygon, except where the
 * halves of a polygon split at the antimeridian meet; the messages; agreement with JTS on random
 * small fences; and a sweep that stays fast where JTS's validation turns quadratic.
 */
class RingTopologyTest {

    private static final GeometryFactory JTS = new GeometryFactory();
    private static final double[] SQUARE = {0, 0, 10, 0, 10, 10, 0, 10, 0, 0};

    private static Polygon fence(double[]... rings) {
        return Polygon.of(new double[][][] {rings});
    }

    private static Polygon members(double[]... shells) {
        double[][][] polygons = new double[shells.length][][];
        for (int p = 0; p < shells.length; p++) {
            polygons[p] = new double[][] {shells[p]};
        }
        return Polygon.of(polygons);
    }

    @Test
    void aHoleThatTouchesItsExteriorRingOrAnotherHoleIsRejected() {
        assertThatThrownBy(() -> fence(SQUARE, new double[] {0, 5, 2, 4, 2, 6, 0, 5}))
                .hasMessage(
                        "rings cross or touch: ring 0 of polygon 0 and ring 1 of polygon 0 touch"
                                + " at [0.0, 5.0]: a hole may not touch its exterior ring or"
                                + " another hole");
        assertThatThrownBy(() -> fence(SQUARE, new double[] {0, 0, 2, 1, 1, 2, 0, 0}))
                .hasMessageStartingWith("rings cross or touch: ring 0 of polygon 0 and ring 1")
                .hasMessageContaining(" touch at [0.0, 0.0]");
        assertThatThrownBy(
                        () ->
                                fence(
                                        SQUARE,
                                        new double[] {2, 2, 4, 2, 4, 4, 2, 2},
                                        new double[] {4, 4, 6, 4, 6, 6, 4, 4}))
                .hasMessageStartingWith("rings cross or touch: ring 1 of polygon 0 and ring 2")
                .hasMessageContaining(" touch at [4.0, 4.0]");
    }

    @Test
    void holesOutsideTheirExteriorRingOrInsideAnotherHoleAreRejected() {
        assertThatThrownBy(() -> fence(SQUARE, new double[] {20, 20, 21, 20, 21, 21, 20, 20}))
                .hasMessage(
                        "a hole of polygon 0 lies outside its exterior ring (ring 0): ring 1, at"
                                + " [20.0, 20.0]");
        assertThatThrownBy(
                        () ->
                                fence(
                                        SQUARE,
                                        new double[] {1, 1, 9, 1, 9, 9, 1, 9, 1, 1},
                                        new double[] {4, 4, 6, 4, 6, 6, 4, 4}))
                .hasMessage(
                        "a hole of polygon 0 lies inside another hole (ring 1): ring 2, at [4.0,"
                                + " 4.0]");
    }

    @Test
    void repeatedOverlappingTouchingAndNestedPolygonsAreRejected() {
        double[] triangle = {2, 0, 3, 0, 2, 1, 2, 0};
        assertThatThrownBy(() -> members(triangle, triangle, triangle))
                .hasMessageStartingWith("rings cross or touch: ring 0 of polygon ")
                .hasMessageContaining(
                        " overlap at [2.0, 0.0]: the polygons of a MultiPolygon may"
                                + " not overlap or touch; merge them into one");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {4, 0, 5, 0, 5, 1, 4, 1, 4, 0},
                                        new double[] {
                                            4.5, 0.5, 5.5, 0.5, 5.5, 1.5, 4.5, 1.5, 4.5, 0.5
                                        }))
                .hasMessageStartingWith("rings cross or touch: ring 0 of polygon ")
                .hasMessageContaining(" cross at [");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {0, 0, 1, 0, 1, 1, 0, 0},
                                        new double[] {1, 1, 2, 1, 2, 2, 1, 1}))
                .hasMessageContaining(" touch at [1.0, 1.0]");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {0, 0, 1, 0, 1, 1, 0, 1, 0, 0},
                                        new double[] {1, 0, 2, 0, 2, 1, 1, 1, 1, 0}))
                .hasMessageStartingWith(
                        "rings cross or touch: ring 0 of polygon 0 and ring 0 of polygon 1 ")
                .hasMessageContaining(" at [1.0, 0.0]");
        assertThatThrownBy(() -> members(SQUARE, new double[] {4, 4, 6, 4, 6, 6, 4, 4}))
                .hasMessage(
                        "rings cross or touch: polygon 1 lies inside polygon 0, at [4.0, 4.0]: a"
                                + " polygon of a MultiPolygon may lie inside another only in one"
                                + " of its holes");
    }

    @Test
    void polygonsNestedInOneAnothersHolesAreValid() {
        List<double[][]> polygons = new ArrayList<>();
        for (int k = 0; k < 50; k++) {
            double out = 80 - 1.5 * k;
            polygons.add(new double[][] {square(out), square(out - 0.5)});
        }
        Polygon rings = Polygon.of(polygons.toArray(new double[0][][]));
        assertThat(rings.contains(-79.75, 0)).isTrue();
        assertThat(rings.contains(-79, 0)).isFalse();
        assertThat(rings.contains(-78.25, 0)).isTrue();
        assertThat(rings.contains(0, 0)).isFalse();
    }

    private static double[] square(double half) {
        return new double[] {-half, -half, half, -half, half, half, -half, half, -half, -half};
    }

    @Test
    void theHalvesOfAPolygonSplitAtTheAntimeridianMeetThere() {
        Polygon split =
                members(
                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                        new double[] {-180, 0, -170, 0, -170, 10, -180, 10, -180, 0});
        assertThat(split.contains(180, 5)).isTrue();
        // A polygon with a vertex on the antimeridian splits into halves of which two touch there.
        Polygon vertexOnTheSeam =
                members(
                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                        new double[] {-180, 0, -170, 0, -180, 5, -180, 0},
                        new double[] {-180, 5, -170, 10, -180, 10, -180, 5});
        assertThat(vertexOnTheSeam.contains(-180, 5)).isTrue();
        assertThat(vertexOnTheSeam.contains(-175, 5)).isFalse();
        assertThat(vertexOnTheSeam.contains(-178, 1)).isTrue();
        // A notch of one polygon at 180 may hold another that touches it only there.
        Polygon inTheNotch =
                members(
                        new double[] {170, 0, 180, 5, 175, 6.5, 180, 8, 170, 13, 170, 0},
                        new double[] {180, 5, 178, 6.5, 180, 8, 180, 5});
        assertThat(inTheNotch.contains(179, 6.5)).isTrue();
    }

    @Test
    void polygonsThatCrossOrOverlapOnTheAntimeridianAreRejected() {
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {
                                            170, 0, 180, 5, 175, 6.5, 180, 8, 170, 13, 170, 0
                                        },
                                        new double[] {180, 5, 172, 6.5, 180, 8, 180, 5}))
                .hasMessageStartingWith("rings cross or touch: ring 0 of polygon ")
                .hasMessageContaining(" cross at [180.0, 5.0]");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                                        new double[] {175, 2, 180, 2, 180, 8, 175, 8, 175, 2}))
                .hasMessageContaining(" overlap at [180.0, 2.0]");
        assertThatThrownBy(
                        () ->
                                fence(
                                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                                        new double[] {175, 4, 180, 5, 175, 6, 175, 4}))
                .hasMessageContaining(" touch at [180.0, 5.0]: a hole may not touch");
    }

    @Test
    void randomSmallFencesAreValidExactlyWhenJtsFindsNoRingsMeetingAndNoOverlap() {
        SplittableRandom random = new SplittableRandom(7);
        int valid = 0;
        int invalid = 0;
        for (int k = 0; k < 20_000; k++) {
            double[][][] polygons = randomFence(random);
            boolean expected = jtsValid(polygons);
            boolean accepted;
            try {
                Polygon.of(polygons);
                accepted = true;
            } catch (IllegalArgumentException e) {
                accepted = false;
            }
            assertThat(accepted).as(Arrays.deepToString(polygons)).isEqualTo(expected);
            valid += expected ? 1 : 0;
            invalid += expected ? 0 : 1;
        }
        assertThat(valid).isGreaterThan(2_000);
        assertThat(invalid).isGreaterThan(2_000);
    }

    // One to three polygons of one or two rings, 3 to 6 vertices on a grid of 7 x 7 points
    // around random centres: many shared vertices, collinear edges and touches.
    private static double[][][] randomFence(SplittableRandom random) {
        double[][][] polygons = new double[1 + random.nextInt(3)][][];
        for (int p = 0; p < polygons.length; p++) {
            polygons[p] = new double[1 + random.nextInt(2)][];
            for (int r = 0; r < polygons[p].length; r++) {
                polygons[p][r] = randomRing(random, r == 0 ? 3 : 1);
            }
        }
        return polygons;
    }

    private static double[] randomRing(SplittableRandom random, int radius) {
        int n = 3 + random.nextInt(4);
        int cx = random.nextInt(3, 5);
        int cy = random.nextInt(3, 5);
        double[] angles = random.doubles(n, 0, 2 * Math.PI).sorted().toArray();
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double r = radius * (0.5 + random.nextDouble());
            ring[2 * i] = Math.rint(cx + r * Math.cos(angles[i]) + random.nextInt(-1, 2) / 2.0);
            ring[2 * i + 1] = Math.rint(cy + r * Math.sin(angles[i]));
        }
        ring[2 * n] = ring[0];
        ring[2 * n + 1] = ring[1];
        return ring;
    }

    // Valid as the contract has it, checked with JTS: each ring simple, no two rings sharing a
    // point, and the MultiPolygon valid (holes inside, polygons not inside one another).
    private static boolean jtsValid(double[][][] polygons) {
        List<LinearRing> all = new ArrayList<>();
        org.locationtech.jts.geom.Polygon[] members =
                new org.locationtech.jts.geom.Polygon[polygons.length];
        for (int p = 0; p < polygons.length; p++) {
            LinearRing[] rings = new LinearRing[polygons[p].length];
            for (int r = 0; r < rings.length; r++) {
                Coordinate[] distinct = distinct(polygons[p][r]);
                if (distinct.length < 4) {
                    return false;
                }
                rings[r] = JTS.createLinearRing(distinct);
                if (!new IsSimpleOp(rings[r]).isSimple()) {
                    return false;
                }
                for (LinearRing other : all) {
                    if (other.intersects(rings[r])) {
                        return false;
                    }
                }
                all.add(rings[r]);
            }
            members[p] = JTS.createPolygon(rings[0], Arrays.copyOfRange(rings, 1, rings.length));
        }
        return new IsValidOp(JTS.createMultiPolygon(members)).isValid();
    }

    private static Coordinate[] distinct(double[] ring) {
        List<Coordinate> out = new ArrayList<>();
        for (int i = 0; i < ring.length; i += 2) {
            Coordinate c = new Coordinate(ring[i], ring[i + 1]);
            if (out.isEmpty() || !out.get(out.size() - 1).equals2D(c)) {
                out.add(c);
            }
        }
        return out.toArray(new Coordinate[0]);
    }

    @Test
    void aStarOfLongSpikesIsCheckedInSeconds() {
        for (int vertices : new int[] {40_000, 100_000}) {
            double[] star = FenceShapes.star(vertices, 10, 10, 1, 0.999);
            Polygon p =
                    assertTimeoutPreemptively(
                            Duration.ofSeconds(10),
                            () -> Polygon.of(new double[][][] {{star}}, vertices));
            assertThat(p.vertexCount()).isEqualTo(vertices);
        }
    }
}
