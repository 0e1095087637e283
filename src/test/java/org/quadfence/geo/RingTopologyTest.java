package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * How the rings of a fence may lie together (contract 8a, "Validity is OGC's"): touching at single
 * points, a hole its exterior ring or another hole, the polygons of a MultiPolygon one another, and
 * the halves of a polygon split at the antimeridian; never crossing, overlapping, nested but in
 * holes, or cutting a polygon's interior; the messages; and a sweep that stays fast where JTS's
 * validation turns quadratic. {@link OgcValidityTest} holds the rules to JTS on random fences.
 */
class RingTopologyTest {

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
    void aHoleMayTouchItsExteriorRingOrAnotherHoleAtSinglePoints() {
        Polygon atAVertex = fence(SQUARE, new double[] {0, 0, 2, 1, 1, 2, 0, 0});
        assertThat(atAVertex.contains(0, 0)).isTrue();
        assertThat(atAVertex.contains(0.5, 0.2)).isTrue();
        assertThat(atAVertex.contains(1.2, 1.2)).isFalse();
        Polygon insideAnEdge = fence(SQUARE, new double[] {0, 5, 2, 4, 2, 6, 0, 5});
        assertThat(insideAnEdge.contains(0, 5)).isTrue();
        assertThat(insideAnEdge.contains(1, 5)).isFalse();
        assertThat(insideAnEdge.contains(0, 5.5)).isTrue();
        Polygon holesTouching =
                fence(
                        SQUARE,
                        new double[] {2, 2, 4, 2, 4, 4, 2, 2},
                        new double[] {4, 4, 6, 4, 6, 6, 4, 4});
        assertThat(holesTouching.contains(4, 4)).isTrue();
        assertThat(holesTouching.contains(3.5, 3)).isFalse();
        assertThat(holesTouching.contains(5.5, 5)).isFalse();
        assertThat(holesTouching.contains(3, 5)).isTrue();
    }

    @Test
    void holesThatCutTheInteriorAreRejected() {
        // Touching the exterior ring twice, cutting a corner off.
        assertThatThrownBy(() -> fence(SQUARE, new double[] {0, 4, 5, 5, 4, 10, 0, 4}))
                .hasMessageStartingWith("invalid polygon (OGC): Interior is disconnected at [");
        // A chain of holes from the exterior ring back to it.
        assertThatThrownBy(
                        () ->
                                fence(
                                        SQUARE,
                                        new double[] {0, 5, 5, 3, 5, 7, 0, 5},
                                        new double[] {5, 5, 10, 5, 8, 4, 5, 5}))
                .hasMessageStartingWith("invalid polygon (OGC): Interior is disconnected at [")
                .hasMessageContaining("the rings of polygon 0 that touch there");
    }

    @Test
    void holesOutsideTheirExteriorRingOrInsideAnotherHoleAreRejected() {
        assertThatThrownBy(() -> fence(SQUARE, new double[] {20, 20, 21, 20, 21, 21, 20, 20}))
                .hasMessage(
                        "invalid polygon (OGC): Hole lies outside shell at [20.0, 20.0]: ring 1 of"
                                + " polygon 0, a hole, is not inside its exterior ring (ring 0)");
        assertThatThrownBy(() -> fence(SQUARE, new double[] {10, 5, 12, 4, 12, 6, 10, 5}))
                .hasMessageStartingWith("invalid polygon (OGC): Hole lies outside shell at [");
        assertThatThrownBy(
                        () ->
                                fence(
                                        SQUARE,
                                        new double[] {1, 1, 9, 1, 9, 9, 1, 9, 1, 1},
                                        new double[] {4, 4, 6, 4, 6, 6, 4, 4}))
                .hasMessage(
                        "invalid polygon (OGC): Holes are nested at [4.0, 4.0]: ring 2 of polygon"
                                + " 0, a hole, lies inside ring 1, another hole of its polygon");
    }

    @Test
    void membersMayTouchAtPointsButNotShareEdgesOverlapRepeatOrNest() {
        Polygon atAVertex =
                members(
                        new double[] {0, 0, 1, 0, 1, 1, 0, 0},
                        new double[] {1, 1, 2, 1, 2, 2, 1, 1});
        assertThat(atAVertex.contains(1, 1)).isTrue();
        assertThat(atAVertex.contains(1.5, 1.25)).isTrue();
        Polygon insideAnEdge =
                members(
                        new double[] {0, 0, 2, 0, 2, 2, 0, 2, 0, 0},
                        new double[] {2, 1, 4, 0, 4, 2, 2, 1});
        assertThat(insideAnEdge.contains(2, 1)).isTrue();
        assertThat(insideAnEdge.contains(2.5, 1)).isTrue();
        assertThat(insideAnEdge.contains(2.5, 0.5)).isFalse();
        double[] triangle = {2, 0, 3, 0, 2, 1, 2, 0};
        assertThatThrownBy(() -> members(triangle, triangle, triangle))
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [2.0, 0.0]: ")
                .hasMessageContaining(" overlap along an edge from there");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {4, 0, 5, 0, 5, 1, 4, 1, 4, 0},
                                        new double[] {
                                            4.5, 0.5, 5.5, 0.5, 5.5, 1.5, 4.5, 1.5, 4.5, 0.5
                                        }))
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [")
                .hasMessageContaining("ring 0 of polygon 0 and ring 0 of polygon 1 cross there");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {0, 0, 1, 0, 1, 1, 0, 1, 0, 0},
                                        new double[] {1, 0, 2, 0, 2, 1, 1, 1, 1, 0}))
                .hasMessageStartingWith(
                        "invalid polygon (OGC): Self-intersection at [1.0, 0.0]: ring 0 of polygon"
                                + " 0 and ring 0 of polygon 1 overlap along an edge");
        assertThatThrownBy(() -> members(SQUARE, new double[] {4, 4, 6, 4, 6, 6, 4, 4}))
                .hasMessage(
                        "invalid polygon (OGC): Nested shells at [4.0, 4.0]: polygon 1 lies inside"
                                + " polygon 0, not in one of its holes: the polygons of a"
                                + " MultiPolygon may not overlap");
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
        // A polygon in another's hole may touch the hole.
        Polygon inAHole =
                Polygon.of(
                        new double[][][] {
                            {SQUARE, {2, 2, 8, 2, 8, 8, 2, 8, 2, 2}},
                            {{2, 5, 5, 3, 8, 5, 5, 7, 2, 5}}
                        });
        assertThat(inAHole.contains(2, 5)).isTrue();
        assertThat(inAHole.contains(5, 5)).isTrue();
        assertThat(inAHole.contains(3, 3)).isFalse();
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
        // A hole may touch the exterior ring on the antimeridian, as anywhere.
        Polygon holeOnTheSeam =
                fence(
                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                        new double[] {175, 4, 180, 5, 175, 6, 175, 4});
        assertThat(holeOnTheSeam.contains(-180, 5)).isTrue();
        assertThat(holeOnTheSeam.contains(176, 5)).isFalse();
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
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [")
                .hasMessageContaining("ring 0 of polygon 0 and ring 0 of polygon 1 cross there");
        assertThatThrownBy(
                        () ->
                                members(
                                        new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0},
                                        new double[] {175, 2, 180, 2, 180, 8, 175, 8, 175, 2}))
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [180.0, 2.0]")
                .hasMessageContaining(" overlap along an edge from there");
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
            assertThat(p.contains(10, 10)).isTrue();
            assertThat(p.contains(10.9995, 10)).isTrue();
            assertThat(p.contains(11.0001, 10)).isFalse();
        }
    }

    @Test
    void aFenceOf100000VerticesIsAcceptedAndUsed() {
        double[] round = FenceShapes.star(100_000, -40, 30, 5, 0);
        Polygon p =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(10), () -> Polygon.of(new double[][][] {{round}}));
        assertThat(p.vertexCount()).isEqualTo(100_000);
        assertThat(p.contains(-40, 30)).isTrue();
        assertThat(p.contains(round[0], round[1])).isTrue();
        assertThat(p.contains(-35.0001, 30)).isTrue();
        assertThat(p.contains(-34.9999, 30)).isFalse();
        assertThat(p.contains(-40, 34.999)).isTrue();
    }

    @Test
    void aFenceOf100000VerticesWithThousandsOfHolesTouchingInChainsIsAcceptedAndUsed() {
        // 20,000 vertices of exterior ring and 20,000 diamonds 1/16 degree wide whose tips
        // touch in rows of 142 (the rings of each row a chain: the interior stays connected).
        double[][] rings = new double[20_001][];
        rings[0] = FenceShapes.star(20_000, 0, 0, 10, 0);
        double cell = 1.0 / 16;
        for (int h = 0; h < 20_000; h++) {
            double x = cell * (h % 142 - 71);
            double y = cell * (h / 142 - 71);
            rings[h + 1] =
                    new double[] {
                        x - cell / 2,
                        y,
                        x,
                        y - cell / 4,
                        x + cell / 2,
                        y,
                        x,
                        y + cell / 4,
                        x - cell / 2,
                        y
                    };
        }
        Polygon p =
                assertTimeoutPreemptively(
                        Duration.ofSeconds(10), () -> Polygon.of(new double[][][] {rings}));
        assertThat(p.vertexCount()).isEqualTo(100_000);
        assertThat(p.contains(0, 0)).isFalse();
        assertThat(p.contains(cell / 2, 0)).isTrue();
        assertThat(p.contains(cell / 4, cell / 8)).isTrue();
        assertThat(p.contains(cell / 4, cell / 16)).isFalse();
        assertThat(p.contains(0, cell / 2)).isTrue();
        assertThat(p.contains(9, 0)).isTrue();
        assertThat(p.contains(10.5, 0)).isFalse();
        // Two triangles more, each touching a diamond of one row and one of the next, close a
        // loop of touching holes round an island: rejected.
        double[][] loop = Arrays.copyOf(rings, rings.length + 2);
        for (int k = 0; k < 2; k++) {
            double x = k * cell;
            loop[rings.length + k] =
                    new double[] {
                        x, cell / 4, x + cell / 4, cell / 2, x, 3 * cell / 4, x, cell / 4
                    };
        }
        assertThatThrownBy(() -> Polygon.of(new double[][][] {loop}, 100_006))
                .hasMessageStartingWith("invalid polygon (OGC): Interior is disconnected at [");
    }
}
