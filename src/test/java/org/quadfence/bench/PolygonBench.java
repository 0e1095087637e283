package org.quadfence.bench;

import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Location;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.quadfence.geo.Box;
import org.quadfence.geo.Polygon;
import org.quadfence.testing.Country;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Point-in-polygon on a country-sized border of 20,000 vertices (a deterministic wiggly star, see
 * {@link Country}), points uniform in its bounding box: the whole polygon's exact test, the tile
 * path at levels 7 and 10 (tile key, a hash lookup of the tile's cut, the piece's exact test), and
 * JTS's IndexedPointInAreaLocator as a peer. One point per operation. Run with {@code java -cp
 * target/test-classes:target/classes:<test classpath> org.openjdk.jmh.Main PolygonBench}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PolygonBench {

    private static final int POINTS = 1 << 16;

    private Polygon country;
    private IndexedPointInAreaLocator jts;
    private final double[] xs = new double[POINTS];
    private final double[] ys = new double[POINTS];
    private final Coordinate[] coordinates = new Coordinate[POINTS];
    private final TileGrid grid7 = new TileGrid(7);
    private final TileGrid grid10 = new TileGrid(10);
    private final Map<Long, TileCut> tiles7 = new HashMap<>();
    private final Map<Long, TileCut> tiles10 = new HashMap<>();
    private int next;

    @Setup
    public void setUp() {
        double[] ring = Country.ring(20_000, 20, 50, 8, 1);
        country = Polygon.of(new double[][][] {{ring}});
        Coordinate[] shell = new Coordinate[ring.length / 2];
        for (int i = 0; i < shell.length; i++) {
            shell[i] = new Coordinate(ring[2 * i], ring[2 * i + 1]);
        }
        jts = new IndexedPointInAreaLocator(new GeometryFactory().createPolygon(shell));
        Box box = country.bounds().get(0);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < POINTS; i++) {
            xs[i] = box.minX() + (box.maxX() - box.minX()) * random.nextDouble();
            ys[i] = box.minY() + (box.maxY() - box.minY()) * random.nextDouble();
            coordinates[i] = new Coordinate(xs[i], ys[i]);
        }
        for (TileCut cut : grid7.cut(country, 0)) {
            tiles7.put(cut.tile(), cut);
        }
        for (TileCut cut : grid10.cut(country, 0)) {
            tiles10.put(cut.tile(), cut);
        }
    }

    private int index() {
        return next = (next + 1) & (POINTS - 1);
    }

    @Benchmark
    public boolean wholePolygon() {
        int i = index();
        return country.contains(xs[i], ys[i]);
    }

    @Benchmark
    public boolean tilePieceLevel7() {
        int i = index();
        TileCut cut = tiles7.get(grid7.tileOf(xs[i], ys[i]));
        return cut != null && cut.piece().contains(xs[i], ys[i]);
    }

    @Benchmark
    public boolean tilePieceLevel10() {
        int i = index();
        TileCut cut = tiles10.get(grid10.tileOf(xs[i], ys[i]));
        return cut != null && cut.piece().contains(xs[i], ys[i]);
    }

    @Benchmark
    public boolean jtsIndexedPointInAreaLocator() {
        return jts.locate(coordinates[index()]) != Location.EXTERIOR;
    }
}
