package org.quadfence.geo;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * Seeded fences for the OGC validity tests, valid and not, in grid units (small integers, so that
 * rings touch exactly), and their JTS geometry: random rings on a small grid (many shared vertices,
 * vertices on other rings' edges, collinear edges, repeated and collapsed positions), and
 * adversarial templates (holes touching their exterior ring or one another at a vertex or inside an
 * edge, chains and loops of touching holes, members touching at a vertex or along an edge,
 * overlapping and nested members, spikes, rings crossing or touching themselves), each placed by a
 * random symmetry of the grid, with rings reversed, started elsewhere and given repeated positions
 * at random.
 */
final class TouchingShapes {

    static final GeometryFactory JTS = new GeometryFactory();

    /** A fence in grid units, and whether it is a MultiPolygon (else a Polygon). */
    record Fence(String kind, double[][][] polygons, boolean multi) {

        /** The fence mapped to lon = x0 + x * qx, lat = y0 + y * qy. */
        Fence placed(double x0, double y0, double qx, double qy) {
            double[][][] out = new double[polygons.length][][];
            for (int p = 0; p < out.length; p++) {
                out[p] = new double[polygons[p].length][];
                for (int r = 0; r < out[p].length; r++) {
                    double[] ring = polygons[p][r].clone();
                    for (int i = 0; i < ring.length; i += 2) {
                        ring[i] = x0 + ring[i] * qx;
                        ring[i + 1] = y0 + ring[i + 1] * qy;
                    }
                    out[p][r] = ring;
                }
            }
            return new Fence(kind, out, multi);
        }

        /** The JTS Polygon or MultiPolygon of the same positions, repeats included. */
        Geometry jts() {
            org.locationtech.jts.geom.Polygon[] members =
                    new org.locationtech.jts.geom.Polygon[polygons.length];
            for (int p = 0; p < members.length; p++) {
                LinearRing[] rings = new LinearRing[polygons[p].length];
                for (int r = 0; r < rings.length; r++) {
                    rings[r] = JTS.createLinearRing(coordinates(polygons[p][r]));
                }
                members[p] =
                        JTS.createPolygon(rings[0], Arrays.copyOfRange(rings, 1, rings.length));
            }
            return multi ? JTS.createMultiPolygon(members) : members[0];
        }

        @Override
        public String toString() {
            return kind + " " + Arrays.deepToString(polygons);
        }
    }

    static Coordinate[] coordinates(double[] ring) {
        Coordinate[] out = new Coordinate[ring.length / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = new Coordinate(ring[2 * i], ring[2 * i + 1]);
        }
        return out;
    }

    private final SplittableRandom random;

    TouchingShapes(SplittableRandom random) {
        this.random = random;
    }

    /** A random fence: a random grid fence or an adversarial template, placed at random. */
    Fence next() {
        return random.nextInt(3) == 0 ? randomGrid() : template(random.nextInt(TEMPLATES));
    }

    /** One to three polygons of one to four rings of 3 to 7 positions on a grid of 9 x 9. */
    Fence randomGrid() {
        int members = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1;
        double[][][] polygons = new double[members][][];
        for (int p = 0; p < members; p++) {
            int cx = members == 1 ? 4 : random.nextInt(2, 7);
            int cy = members == 1 ? 4 : random.nextInt(2, 7);
            polygons[p] = new double[1 + random.nextInt(members == 1 ? 4 : 2)][];
            polygons[p][0] = star(cx, cy, members == 1 ? 4 : 2.5);
            for (int r = 1; r < polygons[p].length; r++) {
                polygons[p][r] =
                        star(
                                cx + random.nextInt(-2, 3),
                                cy + random.nextInt(-2, 3),
                                1 + random.nextInt(2));
            }
        }
        return vary(new Fence("random", polygons, members > 1 || random.nextInt(4) == 0));
    }

    // A ring around (cx, cy) through rounded points at sorted random angles: often convex, often
    // not, sometimes crossing itself or collapsed by the rounding.
    private double[] star(int cx, int cy, double radius) {
        int n = 3 + random.nextInt(5);
        double[] angles = random.doubles(n, 0, 2 * Math.PI).sorted().toArray();
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double r = radius * (0.4 + 0.8 * random.nextDouble());
            ring[2 * i] = Math.rint(cx + r * Math.cos(angles[i]));
            ring[2 * i + 1] = Math.rint(cy + r * Math.sin(angles[i]));
        }
        ring[2 * n] = ring[0];
        ring[2 * n + 1] = ring[1];
        return ring;
    }

    static final int TEMPLATES = 34;

    private static final double[] SQUARE = {0, 0, 6, 0, 6, 6, 0, 6, 0, 0};

    /** Template k (of {@link #TEMPLATES}), varied at random. */
    Fence template(int k) {
        double[][][] p =
                switch (k) {
                    // Holes touching their exterior ring: at a vertex, inside an edge (valid);
                    // twice, cutting a corner off (invalid); from outside (invalid).
                    case 0 -> one(SQUARE, ring(0, 0, 2, 1, 1, 2));
                    case 1 -> one(SQUARE, ring(0, 3, 2, 2, 2, 4));
                    case 2 -> one(SQUARE, ring(0, 2, 3, 3, 2, 6));
                    case 3 -> one(SQUARE, ring(6, 3, 8, 2, 8, 4));
                    // Holes touching one another: at a vertex, a vertex inside an edge (valid).
                    case 4 -> one(SQUARE, ring(1, 1, 3, 1, 3, 3), ring(3, 3, 5, 3, 5, 5));
                    case 5 -> one(SQUARE, ring(1, 1, 3, 1, 3, 4, 1, 4), ring(3, 2, 5, 1, 5, 3));
                    // A chain of holes from the exterior ring back to it (invalid); the same
                    // chain one step short of it (valid).
                    case 6 -> one(SQUARE, ring(0, 3, 3, 1, 3, 5), ring(3, 3, 6, 3, 5, 2));
                    case 7 -> one(SQUARE, ring(0, 3, 3, 1, 3, 5), ring(3, 3, 5, 3, 4, 2));
                    // Four holes touching in a loop round an island (invalid); three (valid).
                    case 8 ->
                            one(
                                    SQUARE,
                                    ring(1, 1, 3, 1, 2, 2),
                                    ring(3, 1, 5, 1, 4, 2),
                                    ring(4, 2, 5, 4, 3, 3),
                                    ring(3, 3, 1, 4, 2, 2));
                    case 9 ->
                            one(
                                    SQUARE,
                                    ring(1, 1, 3, 1, 2, 2),
                                    ring(3, 1, 5, 1, 4, 2),
                                    ring(4, 2, 5, 4, 3, 3));
                    // Two holes touching twice (invalid).
                    case 10 ->
                            one(SQUARE, ring(1, 1, 3, 1, 3, 4, 1, 4), ring(3, 1, 5, 2, 3, 4, 4, 2));
                    // Holes meeting at one point, the exterior ring too (valid).
                    case 11 ->
                            one(
                                    SQUARE,
                                    ring(3, 3, 1, 2, 2, 1),
                                    ring(3, 3, 4, 1, 5, 2),
                                    ring(3, 3, 5, 4, 4, 5),
                                    ring(3, 3, 2, 5, 1, 4));
                    case 12 -> one(SQUARE, ring(0, 0, 2, 1, 1, 2), ring(0, 0, 1, 4, 1, 5));
                    // A hole in a hole (invalid), touching it (invalid); a hole crossing the
                    // exterior ring (invalid); a hole equal to it (invalid).
                    case 13 -> one(SQUARE, ring(1, 1, 5, 1, 5, 5, 1, 5), ring(2, 2, 4, 2, 3, 4));
                    case 14 -> one(SQUARE, ring(1, 1, 5, 1, 5, 5, 1, 5), ring(1, 1, 4, 2, 2, 4));
                    case 15 -> one(SQUARE, ring(4, 2, 8, 3, 4, 4));
                    case 16 -> one(SQUARE, SQUARE.clone());
                    // Members touching at a vertex, a vertex inside an edge (valid); along an
                    // edge, overlapping, one inside another, repeated (invalid).
                    case 17 -> multi(ring(0, 0, 2, 0, 2, 2, 0, 2), ring(2, 2, 4, 2, 4, 4, 2, 4));
                    case 18 -> multi(ring(0, 0, 2, 0, 2, 2, 0, 2), ring(2, 1, 4, 0, 4, 2));
                    case 19 -> multi(ring(0, 0, 2, 0, 2, 2, 0, 2), ring(2, 0, 4, 0, 4, 2, 2, 2));
                    case 20 -> multi(ring(0, 0, 3, 0, 3, 3, 0, 3), ring(2, 2, 4, 2, 4, 4, 2, 4));
                    case 21 -> multi(SQUARE, ring(2, 2, 4, 2, 4, 4, 2, 4));
                    case 22 -> multi(ring(0, 0, 2, 0, 0, 2), ring(0, 0, 2, 0, 0, 2));
                    // Members touching twice, one in another's hole touching it twice (valid);
                    // one in a hole but overlapping the polygon (invalid); inside the polygon,
                    // touching its exterior ring (invalid).
                    case 23 ->
                            multi(
                                    ring(0, 0, 6, 0, 6, 4, 4, 4, 4, 2, 2, 2, 2, 4, 0, 4),
                                    ring(2, 4, 3, 2, 4, 4, 3, 5));
                    case 24 ->
                            new double[][][] {
                                {SQUARE, ring(1, 1, 5, 1, 5, 5, 1, 5)},
                                {ring(1, 3, 3, 2, 5, 3, 3, 4)}
                            };
                    case 25 ->
                            new double[][][] {
                                {SQUARE, ring(2, 2, 4, 2, 4, 4, 2, 4)},
                                {ring(1, 1, 5, 1, 5, 5, 1, 5)}
                            };
                    case 26 -> multi(SQUARE, ring(0, 0, 2, 1, 1, 2));
                    // Rings against themselves: a bow tie, a figure 8 touching at a vertex, a
                    // vertex on its own edge, a spike, a collapsed ring (invalid); repeated
                    // positions and collinear vertices (valid).
                    case 27 -> one(ring(0, 0, 4, 4, 4, 0, 0, 4));
                    case 28 -> one(ring(0, 0, 2, 2, 4, 0, 4, 4, 2, 2, 0, 4));
                    case 29 -> one(ring(0, 0, 4, 0, 4, 4, 2, 0, 0, 4));
                    case 30 -> one(ring(0, 0, 4, 0, 4, 4, 6, 6, 4, 4, 0, 4));
                    case 31 -> one(ring(0, 0, 2, 2, 4, 4, 2, 2));
                    case 32 -> one(ring(0, 0, 0, 0, 2, 0, 4, 0, 4, 4, 4, 4, 0, 4));
                    // An exterior ring touching itself to enclose a hole (invalid under OGC).
                    default -> one(ring(0, 0, 6, 0, 6, 6, 3, 6, 4, 3, 2, 3, 3, 6, 0, 6));
                };
        return vary(new Fence("template " + k, p, p.length > 1 || random.nextInt(4) == 0));
    }

    private static double[][][] one(double[]... rings) {
        return new double[][][] {rings};
    }

    private static double[][][] multi(double[]... shells) {
        double[][][] out = new double[shells.length][][];
        for (int p = 0; p < shells.length; p++) {
            out[p] = new double[][] {shells[p]};
        }
        return out;
    }

    // A closed ring through the given positions.
    private static double[] ring(double... xy) {
        double[] out = Arrays.copyOf(xy, xy.length + 2);
        out[xy.length] = xy[0];
        out[xy.length + 1] = xy[1];
        return out;
    }

    /**
     * The fence under a random symmetry of the square grid, each ring reversed, started at another
     * vertex and given a repeated position at random.
     */
    Fence vary(Fence f) {
        int symmetry = random.nextInt(8);
        double[][][] out = new double[f.polygons().length][][];
        for (int p = 0; p < out.length; p++) {
            out[p] = new double[f.polygons()[p].length][];
            for (int r = 0; r < out[p].length; r++) {
                double[] ring = f.polygons()[p][r];
                List<double[]> vs = new ArrayList<>();
                for (int i = 0; i + 2 < ring.length; i += 2) {
                    vs.add(transform(symmetry, ring[i], ring[i + 1]));
                }
                if (random.nextBoolean()) {
                    Collections.reverse(vs);
                }
                Collections.rotate(vs, random.nextInt(vs.size()));
                if (random.nextInt(5) == 0) {
                    int at = random.nextInt(vs.size());
                    vs.add(at, vs.get(at).clone());
                }
                double[] flat = new double[2 * vs.size() + 2];
                for (int i = 0; i < vs.size(); i++) {
                    flat[2 * i] = vs.get(i)[0];
                    flat[2 * i + 1] = vs.get(i)[1];
                }
                flat[flat.length - 2] = flat[0];
                flat[flat.length - 1] = flat[1];
                out[p][r] = flat;
            }
        }
        if (out.length > 1) {
            Collections.shuffle(Arrays.asList(out), new Random(random.nextLong()));
        }
        return new Fence(f.kind(), out, f.multi() || out.length > 1);
    }

    // The 8 symmetries of the square [0, 8] x [0, 8].
    private static double[] transform(int s, double x, double y) {
        double u = (s & 1) == 0 ? x : 8 - x;
        double v = (s & 2) == 0 ? y : 8 - y;
        return (s & 4) == 0 ? new double[] {u, v} : new double[] {v, u};
    }

    /** Whether two rings of {@code f} share a point. */
    static boolean ringsTouch(Fence f) {
        List<Geometry> rings = new ArrayList<>();
        for (double[][] polygon : f.polygons()) {
            for (double[] ring : polygon) {
                rings.add(JTS.createLinearRing(coordinates(ring)));
            }
        }
        for (int i = 0; i < rings.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (rings.get(i).intersects(rings.get(j))) {
                    return true;
                }
            }
        }
        return false;
    }
}
