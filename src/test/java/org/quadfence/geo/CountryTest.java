package org.quadfence.geo;

import org.junit.jupiter.api.Test;
import org.quadfence.testing.Country;
import org.quadfence.testing.RandomShapes;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A country border of 20,000 vertices: exact against JTS, cut to tiles without copying the border
 * into each tile, and fast (the JMH numbers are in docs/shapes-bench.md; this only guards against a
 * gross regression, taking the best of several rounds on a busy machine).
 */
class CountryTest {

    private static final int VERTICES = 20_000;
    private static final Polygon COUNTRY = Country.polygon(VERTICES, 20, 50, 8, 1);

    @Test
    void containsAgreesWithJtsInsideOutsideAndOnTheBorder() {
        RandomShapes.Reference jts = new RandomShapes.Reference(COUNTRY);
        RandomShapes shapes = new RandomShapes(new SplittableRandom(1));
        int inside = 0;
        for (double[] p : shapes.points(COUNTRY, 1.0 / 64, 1.0 / 64, 200_000)) {
            boolean expected = jts.contains(p[0], p[1]);
            assertThat(COUNTRY.contains(p[0], p[1])).as("(%s, %s)", p[0], p[1]).isEqualTo(expected);
            inside += expected ? 1 : 0;
        }
        assertThat(inside).isBetween(50_000, 150_000);
    }

    @Test
    void tilePiecesHoldOnlyTheEdgesNearTheirTileAndAnswerLikeTheWhole() {
        for (int level : new int[] {7, 10}) {
            TileGrid grid = new TileGrid(level);
            List<TileCut> cuts = grid.cut(COUNTRY, 0);
            Map<Long, TileCut> byTile = new HashMap<>();
            int covered = 0;
            int edges = 0;
            int most = 0;
            for (TileCut cut : cuts) {
                byTile.put(cut.tile(), cut);
                if (cut.covered()) {
                    covered++;
                } else {
                    int n = ((PolygonPiece) cut.piece()).edges().length / 4;
                    edges += n;
                    most = Math.max(most, n);
                }
            }
            assertThat(covered).isPositive();
            // Each edge is kept about once, in the tile or two it passes through.
            assertThat(edges).isLessThan(2 * VERTICES);
            assertThat(most).isLessThan(VERTICES / 10);
            Box box = COUNTRY.bounds().get(0);
            SplittableRandom random = new SplittableRandom(level);
            for (int i = 0; i < 100_000; i++) {
                double x = box.minX() + (box.maxX() - box.minX()) * random.nextDouble();
                double y = box.minY() + (box.maxY() - box.minY()) * random.nextDouble();
                TileCut cut = byTile.get(grid.tileOf(x, y));
                assertThat(cut != null && cut.piece().contains(x, y))
                        .isEqualTo(COUNTRY.contains(x, y));
            }
        }
    }

    @Test
    void aPointTestTakesWellUnderAMicrosecond() {
        Box box = COUNTRY.bounds().get(0);
        SplittableRandom random = new SplittableRandom(2);
        int n = 1 << 20;
        double[] xs = new double[n];
        double[] ys = new double[n];
        for (int i = 0; i < n; i++) {
            xs[i] = box.minX() + (box.maxX() - box.minX()) * random.nextDouble();
            ys[i] = box.minY() + (box.maxY() - box.minY()) * random.nextDouble();
        }
        TileGrid grid = new TileGrid(10);
        Map<Long, TileCut> byTile = new HashMap<>();
        for (TileCut cut : grid.cut(COUNTRY, 0)) {
            byTile.put(cut.tile(), cut);
        }
        long best = Long.MAX_VALUE;
        long bestTiles = Long.MAX_VALUE;
        int hits = 0;
        for (int round = 0; round < 7; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                hits += COUNTRY.contains(xs[i], ys[i]) ? 1 : 0;
            }
            best = Math.min(best, System.nanoTime() - start);
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                TileCut cut = byTile.get(grid.tileOf(xs[i], ys[i]));
                hits += cut != null && cut.piece().contains(xs[i], ys[i]) ? 1 : 0;
            }
            bestTiles = Math.min(bestTiles, System.nanoTime() - start);
        }
        assertThat(hits).isPositive();
        assertThat(best / (double) n).as("ns per whole-polygon test").isLessThan(1000);
        assertThat(bestTiles / (double) n).as("ns per tile test").isLessThan(1000);
    }
}
