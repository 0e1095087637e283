package org.quadfence.geo;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RectangleTest {

    @Test
    void boundaryPointsAreInside() {
        Rectangle r = new Rectangle(10, 20, 11, 21);
        assertThat(r.contains(10, 20)).isTrue();
        assertThat(r.contains(11, 21)).isTrue();
        assertThat(r.contains(10.5, 21)).isTrue();
        assertThat(r.contains(Math.nextDown(10.0), 20.5)).isFalse();
        assertThat(r.contains(10.5, Math.nextUp(21.0))).isFalse();
    }

    @Test
    void aRectangleWithMinLonAboveMaxLonCrossesTheAntimeridian() {
        Rectangle r = new Rectangle(170, -1, -170, 1);
        assertThat(r.crossesAntimeridian()).isTrue();
        assertThat(r.contains(175, 0)).isTrue();
        assertThat(r.contains(-175, 0)).isTrue();
        assertThat(r.contains(180, 0)).isTrue();
        assertThat(r.contains(-180, 0)).isTrue();
        assertThat(r.contains(0, 0)).isFalse();
        assertThat(r.contains(-169.9, 0)).isFalse();
        assertThat(r.bounds())
                .containsExactly(new Box(-180, -1, -170, 1), new Box(170, -1, 180, 1));
    }

    @Test
    void lon180AndMinus180AreTheSameMeridian() {
        assertThat(new Rectangle(170, 0, 180, 1).contains(-180, 0.5)).isTrue();
        assertThat(new Rectangle(-180, 0, -170, 1).contains(180, 0.5)).isTrue();
        assertThat(new Rectangle(180, 0, 180, 1).contains(-180, 1)).isTrue();
        assertThat(new Rectangle(-170, 0, 170, 1).contains(180, 0.5)).isFalse();
    }

    @Test
    void linesPointsAndPolesAreValid() {
        Rectangle point = new Rectangle(-179.953125, -90, -179.953125, -90);
        assertThat(point.contains(-179.953125, -90)).isTrue();
        assertThat(point.contains(-179.953125, -89.99)).isFalse();
        Rectangle line = new Rectangle(-0.671875, -0.1875, -0.671875, 0.484375);
        assertThat(line.contains(-0.671875, 0)).isTrue();
        assertThat(new Rectangle(-180, 80, 180, 90).contains(33, 90)).isTrue();
    }

    @Test
    void invalidCornersAreNamedInTheError() {
        assertThatThrownBy(() -> new Rectangle(0, 12.5, 1, 10.0))
                .hasMessage("minLat 12.5 > maxLat 10.0");
        assertThatThrownBy(() -> new Rectangle(0, 0, 181, 1))
                .hasMessage("maxLon out of range [-180, 180]: 181.0");
        assertThatThrownBy(() -> new Rectangle(0, -90.5, 1, 1))
                .hasMessage("minLat out of range [-90, 90]: -90.5");
        assertThatThrownBy(() -> new Rectangle(Double.NaN, 0, 1, 1))
                .hasMessage("minLon out of range [-180, 180]: NaN");
    }
}
