package org.quadfence.bench;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.operation.valid.IsValidOp;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.quadfence.geo.FenceShapes;
import org.quadfence.geo.Polygon;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The validity check of {@link Polygon#of} on fences of 100,000 vertices (contract 8a: "Validity is
 * OGC's"), and JTS {@code IsValidOp} on the same fences as the peer: a regular polygon, a star of
 * 50,000 long spikes, a comb of 25,000 slots 1e-9 degree apart, a square whose south side zigzags
 * 1e-9 degree up and down, a round polygon with 20,000 square holes, and (valid only under OGC) the
 * same with the holes diamonds touching tip to tip in rows. {@code polygonOf} is the whole of
 * {@code Polygon.of}: the checks plus building the polygon's edge arrays (its lookup is built
 * later, on the first point test). Run it against another build of the main classes by putting
 * those first on the class path (docs/shapes-bench.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ValidationBench {

    static final int VERTICES = 100_000;

    @Param({"regular", "star", "comb", "zigzag", "holes", "touchingHoles"})
    public String shape;

    private double[][][] fence;
    private Geometry jts;

    @Setup
    public void setUp() {
        fence = fence(shape);
        jts = jts(fence);
    }

    @Benchmark
    public Polygon polygonOf() {
        return Polygon.of(fence, VERTICES);
    }

    @Benchmark
    public boolean jtsIsValidOp() {
        return new IsValidOp(jts).isValid();
    }

    /** The fence of that name, of at most {@value #VERTICES} vertices. */
    static double[][][] fence(String shape) {
        return switch (shape) {
            case "regular" -> new double[][][] {{regular(VERTICES, 0, 0, 10)}};
            case "star" -> new double[][][] {{star(VERTICES, 0, 0, 10, 9.99)}};
            case "comb" -> new double[][][] {{FenceShapes.comb((VERTICES - 4) / 4, 0, 0, 1, 1e-9)}};
            case "zigzag" -> new double[][][] {{zigzag(VERTICES - 3, 1e-9)}};
            case "holes" -> holes(VERTICES / 5, VERTICES / 5, false);
            case "touchingHoles" -> holes(VERTICES / 5, VERTICES / 5, true);
            default -> throw new IllegalArgumentException("no fence " + shape);
        };
    }

    static double[] regular(int n, double x, double y, double r) {
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double a = 2 * Math.PI * i / n;
            ring[2 * i] = x + r * Math.cos(a);
            ring[2 * i + 1] = y + r * Math.sin(a);
        }
        ring[2 * n] = ring[0];
        ring[2 * n + 1] = ring[1];
        return ring;
    }

    // Every other vertex 'depth' further in: spikes from near the centre to radius r.
    static double[] star(int n, double x, double y, double r, double depth) {
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double a = 2 * Math.PI * i / n;
            double radius = i % 2 == 0 ? r : r - depth;
            ring[2 * i] = x + radius * Math.cos(a);
            ring[2 * i + 1] = y + radius * Math.sin(a);
        }
        ring[2 * n] = ring[0];
        ring[2 * n + 1] = ring[1];
        return ring;
    }

    // The unit square, its south side n points zigzagging 'amplitude' up and down.
    static double[] zigzag(int n, double amplitude) {
        double[] ring = new double[2 * n + 8];
        for (int i = 0; i < n; i++) {
            ring[2 * i] = i / (double) n;
            ring[2 * i + 1] = i % 2 == 0 ? 0 : amplitude;
        }
        double[] rest = {1, 0, 1, 1, 0, 1, 0, 0};
        System.arraycopy(rest, 0, ring, 2 * n, rest.length);
        return ring;
    }

    // A round exterior ring and square holes, or diamonds touching tip to tip in rows, on a grid
    // of cells 1/16 degree wide: exact in binary, so the tips meet exactly.
    static double[][][] holes(int shellVertices, int holes, boolean touching) {
        int side = (int) Math.ceil(Math.sqrt(holes));
        double cell = 1.0 / 16;
        double[][] rings = new double[holes + 1][];
        rings[0] = regular(shellVertices, 0, 0, 10);
        for (int h = 0; h < holes; h++) {
            double cx = cell * (h % side - side / 2);
            double cy = cell * (h / side - side / 2);
            double s = cell / 4;
            rings[h + 1] =
                    touching
                            ? new double[] {
                                cx - 2 * s,
                                cy,
                                cx,
                                cy - s,
                                cx + 2 * s,
                                cy,
                                cx,
                                cy + s,
                                cx - 2 * s,
                                cy
                            }
                            : new double[] {
                                cx - s, cy - s, cx + s, cy - s, cx + s, cy + s, cx - s, cy + s,
                                cx - s, cy - s
                            };
        }
        return new double[][][] {rings};
    }

    static Geometry jts(double[][][] fence) {
        GeometryFactory f = new GeometryFactory();
        org.locationtech.jts.geom.Polygon[] members =
                new org.locationtech.jts.geom.Polygon[fence.length];
        for (int p = 0; p < members.length; p++) {
            LinearRing[] rings = new LinearRing[fence[p].length];
            for (int r = 0; r < rings.length; r++) {
                double[] ring = fence[p][r];
                Coordinate[] cs = new Coordinate[ring.length / 2];
                for (int i = 0; i < cs.length; i++) {
                    cs[i] = new Coordinate(ring[2 * i], ring[2 * i + 1]);
                }
                rings[r] = f.createLinearRing(cs);
            }
            members[p] = f.createPolygon(rings[0], Arrays.copyOfRange(rings, 1, rings.length));
        }
        return members.length == 1 ? members[0] : f.createMultiPolygon(members);
    }
}
