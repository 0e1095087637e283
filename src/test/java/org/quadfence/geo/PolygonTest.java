package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-made polygon fences: validation messages, closed containment, lon 180, bounds. */
class PolygonTest {

    // A 10 x 10 square at the origin with a 2 x 2 hole at (4..6, 4..6).
    private static final double[] SQUARE = {0, 0, 10, 0, 10, 10, 0, 10, 0, 0};
    private static final double[] HOLE = {4, 4, 4, 6, 6, 6, 6, 4, 4, 4};

    private static Polygon polygon(double[]... rings) {
        return Polygon.of(new double[][][] {rings});
    }

    @Test
    void pointsInsideOnEdgesOnVerticesAndOnHoleEdgesAreInside() {
        Polygon p = polygon(SQUARE, HOLE);
        assertThat(p.contains(1, 1)).isTrue();
        assertThat(p.contains(0, 0)).isTrue();
        assertThat(p.contains(10, 5)).isTrue();
        assertThat(p.contains(5, 10)).isTrue();
        assertThat(p.contains(4, 5)).isTrue();
        assertThat(p.contains(6, 6)).isTrue();
        assertThat(p.contains(5, 5)).isFalse();
        assertThat(p.contains(Math.nextUp(4.0), 5)).isFalse();
        assertThat(p.contains(Math.nextUp(10.0), 5)).isFalse();
        assertThat(p.contains(5, Math.nextDown(0.0))).isFalse();
        assertThat(p.contains(-1, 5)).isFalse();
    }

    @Test
    void slantedEdgesAreExact() {
        Polygon triangle = polygon(new double[] {0, 0, 3, 1, 0, 2, 0, 0});
        assertThat(triangle.contains(1.5, 0.5)).isTrue();
        assertThat(triangle.contains(1.5, Math.nextDown(0.5))).isFalse();
        assertThat(triangle.contains(1.5, 1.5)).isTrue();
        assertThat(triangle.contains(1.5, Math.nextUp(1.5))).isFalse();
        // 0.1 is not exactly a tenth, and the test decides on the doubles as given.
        double x = 0.3;
        double y = x / 3;
        assertThat(triangle.contains(x, y)).isEqualTo(Orientation.index(0, 0, 3, 1, x, y) >= 0);
    }

    @Test
    void aMultiPolygonIsTheUnionOfItsPolygonsOneOfThemInAnothersHole() {
        Polygon p =
                Polygon.of(
                        new double[][][] {
                            {SQUARE, HOLE},
                            {{4.5, 4.5, 5.5, 4.5, 5.5, 5.5, 4.5, 5.5, 4.5, 4.5}},
                            {{20, 0, 21, 0, 21, 1, 20, 0}}
                        });
        assertThat(p.contains(2, 2)).isTrue();
        assertThat(p.contains(4.25, 5)).isFalse();
        assertThat(p.contains(5, 5)).isTrue();
        assertThat(p.contains(20.5, 0.25)).isTrue();
        assertThat(p.contains(12, 2)).isFalse();
        assertThat(p.polygonCount()).isEqualTo(3);
        assertThat(p.vertexCount()).isEqualTo(15);
    }

    @Test
    void lon180AndMinus180AreTheSameMeridian() {
        Polygon east = polygon(new double[] {170, 0, 180, 0, 180, 10, 170, 10, 170, 0});
        assertThat(east.contains(-180, 5)).isTrue();
        assertThat(east.contains(180, 5)).isTrue();
        assertThat(east.contains(-180, 11)).isFalse();
        Polygon west = polygon(new double[] {-180, 0, -170, 0, -180, 10, -180, 0});
        assertThat(west.contains(180, 0)).isTrue();
        assertThat(west.contains(180, 10)).isTrue();
        assertThat(west.contains(180, 10.5)).isFalse();
    }

    @Test
    void aFenceSplitAtTheAntimeridianHasTwoBoxesWestFirst() {
        Polygon split =
                Polygon.of(
                        new double[][][] {
                            {{170, 0, 180, 0, 180, 10, 170, 0}},
                            {{-180, 0, -175, 5, -180, 10, -180, 0}}
                        });
        assertThat(split.bounds())
                .containsExactly(new Box(-180, 0, -175, 10), new Box(170, 0, 180, 10));
        assertThat(split.contains(-177, 5)).isTrue();
        assertThat(split.contains(179, 1)).isTrue();
        assertThat(split.contains(0, 5)).isFalse();
        Polygon one = polygon(SQUARE);
        assertThat(one.bounds()).isEqualTo(List.of(new Box(0, 0, 10, 10)));
    }

    @Test
    void coordinatesAreCopiedInAndOut() {
        double[] ring = SQUARE.clone();
        Polygon p = polygon(ring);
        ring[0] = 99;
        assertThat(p.coordinates()[0][0][0]).isEqualTo(0);
        p.coordinates()[0][0][0] = 99;
        assertThat(p).isEqualTo(polygon(SQUARE)).hasSameHashCodeAs(polygon(SQUARE));
    }

    @Test
    void validationNamesTheRingAndWhatIsWrong() {
        assertThatThrownBy(
                        () -> Polygon.of(new double[][][] {{SQUARE}, {{0, 0, 1, 0, 1, 1, 0, 1}}}))
                .hasMessage(
                        "ring 0 of polygon 1 is not closed: first [0.0, 0.0] != last [0.0, 1.0]");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 1, 1, 0, 0}))
                .hasMessageContaining(
                        "ring 0 of polygon 0 has 3 positions; a ring needs at least 4");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 2, 2, 2, 0, 0, 2, 0, 0}))
                .hasMessageStartingWith(
                        "invalid polygon (OGC): Self-intersection at [1.0, 1.0]: ring 0 of polygon"
                                + " 0 crosses itself");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 2, 0, 1, 1, 2, 2, 0, 2, 1, 1, 0, 0}))
                .hasMessageStartingWith(
                        "invalid polygon (OGC): Ring Self-intersection at [1.0, 1.0]: ring 0 of"
                                + " polygon 0 touches itself");
        assertThatThrownBy(() -> polygon(new double[] {170, 0, -170, 0, -170, 1, 170, 0}))
                .hasMessage(
                        "ring 0 of polygon 0 crosses the antimeridian between positions 0 [170.0,"
                                + " 0.0] and 1 [-170.0, 0.0] (a longitude step over 180): split it"
                                + " at 180 into a MultiPolygon (RFC 7946 3.1.9)");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 181, 0, 1, 1, 0, 0}))
                .hasMessage("ring 0 of polygon 0, position 1: lon out of range [-180, 180]: 181.0");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 1, Double.NaN, 1, 1, 0, 0}))
                .hasMessage("ring 0 of polygon 0, position 1: lat out of range [-90, 90]: NaN");
        assertThatThrownBy(() -> polygon(new double[] {0, 0, 1, 0, 0, 0, 0, 0}))
                .hasMessageContaining("fewer than 3 distinct positions");
        assertThatThrownBy(() -> polygon(SQUARE, new double[] {20, 20, 21, 20, 21, 21, 20, 20}))
                .hasMessageStartingWith("invalid polygon (OGC): Hole lies outside shell at [20.0,");
        assertThatThrownBy(() -> polygon(SQUARE, new double[] {5, 5, 15, 5, 15, 6, 5, 5}))
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [10.0, ")
                .hasMessageContaining("ring 0 of polygon 0 and ring 1 of polygon 0 cross there");
        assertThatThrownBy(() -> Polygon.of(new double[][][] {{SQUARE, HOLE}}, 7))
                .hasMessage("the fence has 8 vertices, more than the limit of 7");
        assertThatThrownBy(() -> Polygon.of(new double[][][] {{}}))
                .hasMessage("polygon 0 has no rings");
    }

    @Test
    void aFenceOfNoPolygonsIsValidAndContainsNoPoint() {
        Polygon empty = Polygon.of(new double[][][] {});
        assertThat(empty.polygonCount()).isZero();
        assertThat(empty.vertexCount()).isZero();
        assertThat(empty.bounds()).isEmpty();
        assertThat(empty.boundsWithin(1000)).isEmpty();
        assertThat(empty.contains(0, 0)).isFalse();
        assertThat(empty.contains(180, 90)).isFalse();
        assertThat(empty.distanceMeters(0, 0)).isEqualTo(Double.POSITIVE_INFINITY);
        List<Integer> cells = new ArrayList<>();
        empty.cut(new CellGrid(7, 7), 0, true, (c, r, piece) -> cells.add(c));
        empty.cut(new CellGrid(3, 3), 500, false, (c, r, piece) -> cells.add(c));
        assertThat(cells).isEmpty();
        assertThatThrownBy(() -> empty.cut(new CellGrid(3, 3), -1, false, (c, r, piece) -> {}))
                .hasMessage("distance must be finite and >= 0: -1.0");
        assertThat(Polygon.fromCoordinates(empty.coordinates())).isEqualTo(empty);
    }

    @Test
    void fromCoordinatesRebuildsTheSamePolygonWithoutAVertexLimit() {
        double[] star = FenceShapes.star(120_000, 10, 10, 1, 1e-3);
        Polygon checked = Polygon.of(new double[][][] {{star}}, 120_000);
        Polygon rebuilt = Polygon.fromCoordinates(checked.coordinates());
        assertThat(rebuilt).isEqualTo(checked);
        assertThat(rebuilt.vertexCount()).isEqualTo(120_000);
        assertThat(rebuilt.contains(10, 10)).isTrue();
        assertThat(rebuilt.contains(11.5, 10)).isFalse();
        assertThatThrownBy(() -> Polygon.of(checked.coordinates()))
                .hasMessage("the fence has 120000 vertices, more than the limit of 100000");
    }

    @Test
    void repeatedPositionsAndAStepOfExactly180AreValid() {
        Polygon p = polygon(new double[] {-90, 0, -90, 0, 90, 0, 90, 10, -90, 10, -90, 0});
        assertThat(p.contains(0, 0)).isTrue();
        assertThat(p.contains(0, 5)).isTrue();
        assertThat(p.vertexCount()).isEqualTo(5);
    }
}
