package org.quadfence.rules;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.Shape;
import org.quadfence.geo.ShapePiece;
import org.quadfence.model.Membership;
import org.quadfence.model.Position;
import org.quadfence.tiles.TileGrid;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** A position's answer from one tile (contract sections 3 and 6), without Flink. */
class TileQueryTest {

    private static final TileGrid WORLD = new TileGrid(0);
    private static final long TILE = WORLD.tileOf(0, 0);
    private static final double MARGIN = 1000;

    private final Map<String, ShapePiece> pieces = new TreeMap<>();

    /** The fence holds {@code shape} in the tile, cut as the job cuts it for the margin. */
    private void fence(String id, Shape shape) {
        pieces.put(id, WORLD.cut(shape, MARGIN).get(0).piece());
    }

    private TileIndex index() {
        return TileIndex.of(WORLD.cell(TILE), 4, 8, pieces.entrySet());
    }

    /** The answer for a position as "[inside] near [near]". */
    private static String answer(TileIndex index, double margin, double lon, double lat) {
        Membership m = new TileQuery(margin).match(index, new Position("e", lon, lat, 7));
        return Arrays.toString(m.fenceIds()) + " near " + Arrays.toString(m.nearIds());
    }

    private String answer(double lon, double lat) {
        return answer(index(), MARGIN, lon, lat);
    }

    @Test
    void aPositionIsInTheFencesThatContainItBoundaryIncludedAscendingById() {
        fence("z", new Rectangle(5, 5, 15, 15));
        fence("a", new Rectangle(15, 15, 20, 20));
        fence("m", new Rectangle(-10, -10, 30, 30));
        fence("far", new Rectangle(40, 40, 50, 50));
        assertThat(answer(15, 15)).isEqualTo("[a, m, z] near []");
    }

    @Test
    void aPositionInAFencesBoxButOutsideItsShapeIsNotInIt() {
        fence("c", new Circle(0, 0, 100_000));
        assertThat(answer(0, 0.5)).isEqualTo("[c] near []");
        assertThat(answer(0.8, 0.8)).isEqualTo("[] near []");
    }

    @Test
    void aFenceWithinTheExitMarginOfAPositionIsNearIt() {
        fence("c", new Circle(0, 0, 1000));
        fence("r", new Rectangle(0.01, 0, 1, 1));
        assertThat(answer(0.005, 0.012)).isEqualTo("[] near [c, r]");
        assertThat(answer(-0.5, -0.5)).isEqualTo("[] near []");
    }

    @Test
    void withoutAMarginNoFenceIsNear() {
        fence("c", new Circle(0, 0, 1000));
        assertThat(answer(index(), 0, 0, 0.012)).isEqualTo("[] near []");
    }

    @Test
    void aPositionAtLon180IsInTheFencesThatReachLon180() {
        fence("am", new Rectangle(170, 0, 180, 10));
        assertThat(answer(180, 5)).isEqualTo("[am] near []");
        assertThat(answer(-179.99, 5)).isEqualTo("[] near []");
    }

    @Test
    void aTileWithoutFencesAnswersNone() {
        assertThat(answer(null, MARGIN, 10, 10)).isEqualTo("[] near []");
    }

    @Test
    void aReplacedFenceAnswersAsItsNewVersionAndARemovedOneNotAtAll() {
        fence("a", new Rectangle(0, 0, 10, 10));
        fence("b", new Rectangle(0, 0, 10, 10));
        TileIndex index = index();
        ShapePiece a = pieces.get("a");
        ShapePiece moved = WORLD.cut(new Rectangle(20, 20, 30, 30), MARGIN).get(0).piece();
        assertThat(index.replace("a", a, moved)).isZero();
        assertThat(index.replace("b", pieces.get("b"), null)).isEqualTo(-1);
        assertThat(answer(index, MARGIN, 5, 5)).isEqualTo("[] near []");
        assertThat(answer(index, MARGIN, 25, 25)).isEqualTo("[a] near []");
        assertThat(index.fences()).isEqualTo(1);
        index.replace("a", moved, null);
        assertThat(index.isEmpty()).isTrue();
    }

    @Test
    void aQueryCountsTheCandidatesItTested() {
        fence("a", new Rectangle(0, 0, 10, 10));
        fence("b", new Rectangle(20, 20, 30, 30));
        TileQuery query = new TileQuery(0);
        query.match(index(), new Position("e", 5, 5, 1));
        assertThat(query.tested()).isEqualTo(1);
    }
}
