package org.quadfence.testing;

import org.locationtech.jts.algorithm.locate.IndexedPointInAreaLocator;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Location;
import org.quadfence.geo.Polygon;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded random polygon fences with every coordinate on a dyadic grid, so that points on their
 * edges can be written exactly (vertices, and a + t (b - a) for dyadic t), and a JTS reference for
 * their closed containment. Kinds: star-shaped polygons, rectilinear "skylines" (axis-aligned
 * edges, often on tile lines), octagons with 45-degree edges, holes, MultiPolygons of disjoint
 * members (overlapping ones are drawn again: they are invalid), and MultiPolygons split at the
 * antimeridian with edges on lon 180 and -180.
 */
public final class RandomShapes {

    private static final GeometryFactory FACTORY = new GeometryFactory();

    private final SplittableRandom random;

    public RandomShapes(SplittableRandom random) {
        this.random = random;
    }

    /**
     * A valid fence near (x, y), about {@code size} degrees across, coordinates multiples of {@code
     * quantum} (a power of two), clamped to the world.
     */
    public Polygon fence(double x, double y, double size, double quantum) {
        for (int attempt = 0; ; attempt++) {
            double[][][] coords = coordinates(x, y, size, quantum);
            try {
                return Polygon.of(coords);
            } catch (IllegalArgumentException invalid) {
                if (attempt > 1000) {
                    throw new IllegalStateException("no valid polygon near " + x + ", " + y);
                }
            }
        }
    }

    private double[][][] coordinates(double x, double y, double size, double quantum) {
        return switch (random.nextInt(7)) {
            case 0, 1 -> new double[][][] {{star(x, y, size, quantum)}};
            case 2 -> new double[][][] {{skyline(x, y, size, quantum)}};
            case 3 -> new double[][][] {{octagon(x, y, size, quantum)}};
            case 4 -> withHoles(x, y, size, quantum);
            case 5 -> multi(x, y, size, quantum);
            default -> seam(y, size, quantum);
        };
    }

    private double[] star(double x, double y, double size, double quantum) {
        int n = 3 + random.nextInt(random.nextInt(4) == 0 ? 60 : 10);
        double[] angles = new double[n];
        for (int i = 0; i < n; i++) {
            angles[i] = random.nextDouble() * 2 * Math.PI;
        }
        Arrays.sort(angles);
        double[] ring = new double[2 * n + 2];
        for (int i = 0; i < n; i++) {
            double r = size / 2 * (0.2 + 0.8 * random.nextDouble());
            ring[2 * i] = lon(snap(x + r * Math.cos(angles[i]), quantum));
            ring[2 * i + 1] = lat(snap(y + r * Math.sin(angles[i]), quantum));
        }
        return close(ring);
    }

    // A histogram: a base line and columns of random heights, every edge axis-aligned.
    private double[] skyline(double x, double y, double size, double quantum) {
        int columns = 1 + random.nextInt(6);
        double width = Math.max(quantum, snap(size / columns, quantum));
        double x0 = snap(x - size / 2, quantum);
        double y0 = snap(y - size / 2, quantum);
        List<Double> ring = new ArrayList<>();
        ring.add(lon(x0));
        ring.add(lat(y0));
        for (int c = 0; c < columns; c++) {
            double h = y0 + Math.max(quantum, snap(size * random.nextDouble(), quantum));
            ring.add(lon(x0 + c * width));
            ring.add(lat(h));
            ring.add(lon(x0 + (c + 1) * width));
            ring.add(lat(h));
        }
        ring.add(lon(x0 + columns * width));
        ring.add(lat(y0));
        double[] out = new double[ring.size() + 2];
        for (int i = 0; i < ring.size(); i++) {
            out[i] = ring.get(i);
        }
        return close(out);
    }

    private double[] octagon(double x, double y, double size, double quantum) {
        double a = Math.max(2 * quantum, snap(size / 2, quantum));
        double b = Math.max(quantum, snap(a * random.nextDouble(), quantum));
        if (b >= a) {
            b = a - quantum;
        }
        double cx = snap(x, quantum);
        double cy = snap(y, quantum);
        double[] ring = {
            cx + a, cy + b, cx + b, cy + a, cx - b, cy + a, cx - a, cy + b, cx - a, cy - b, cx - b,
            cy - a, cx + b, cy - a, cx + a, cy - b, 0, 0
        };
        for (int i = 0; i < 16; i += 2) {
            ring[i] = lon(ring[i]);
            ring[i + 1] = lat(ring[i + 1]);
        }
        return close(ring);
    }

    private double[][][] withHoles(double x, double y, double size, double quantum) {
        double[] shell =
                random.nextBoolean() ? octagon(x, y, size, quantum) : star(x, y, size, quantum);
        int holes = 1 + random.nextInt(3);
        double[][] rings = new double[holes + 1][];
        rings[0] = shell;
        for (int h = 1; h <= holes; h++) {
            double hx = x + (random.nextDouble() - 0.5) * size / 2;
            double hy = y + (random.nextDouble() - 0.5) * size / 2;
            double hs = size * (0.05 + 0.2 * random.nextDouble());
            rings[h] =
                    random.nextBoolean() ? octagon(hx, hy, hs, quantum) : star(hx, hy, hs, quantum);
        }
        return new double[][][] {rings};
    }

    private double[][][] multi(double x, double y, double size, double quantum) {
        int parts = 2 + random.nextInt(2);
        double[][][] out = new double[parts][][];
        for (int p = 0; p < parts; p++) {
            double px = x + (random.nextDouble() - 0.5) * size;
            double py = y + (random.nextDouble() - 0.5) * size;
            out[p] = coordinates(px, py, size / 2, quantum)[0];
        }
        return out;
    }

    // Two polygons, one ending on lon 180 and one starting on lon -180, each with an edge on it.
    private double[][][] seam(double y, double size, double quantum) {
        double w = Math.max(quantum, snap(size / 2, quantum));
        double[][][] out = new double[2][][];
        for (int side = 0; side < 2; side++) {
            double y0 = lat(snap(y - size / 2 * random.nextDouble(), quantum));
            double y1 =
                    lat(Math.max(y0 + quantum, snap(y + size / 2 * random.nextDouble(), quantum)));
            double edge = side == 0 ? 180 : -180;
            double inner = side == 0 ? 180 - w : -180 + w;
            double mid = snap((y0 + y1) / 2, quantum);
            double bulge = side == 0 ? inner - w / 2 : inner + w / 2;
            out[side] =
                    new double[][] {
                        close(
                                new double[] {
                                    edge, y0, edge, y1, inner, y1, bulge, mid, inner, y0, 0, 0
                                })
                    };
        }
        return out;
    }

    private static double[] close(double[] ring) {
        ring[ring.length - 2] = ring[0];
        ring[ring.length - 1] = ring[1];
        return ring;
    }

    private static double snap(double v, double quantum) {
        return Math.rint(v / quantum) * quantum;
    }

    private static double lon(double v) {
        return Math.max(-180, Math.min(180, v));
    }

    private static double lat(double v) {
        return Math.max(-90, Math.min(90, v));
    }

    /**
     * JTS's answer for the closed fence: some polygon's locator says interior or boundary, at the
     * point or, for lon +-180, at the same point on the other side.
     */
    public static final class Reference {
        private final List<IndexedPointInAreaLocator> locators = new ArrayList<>();
        private final List<org.locationtech.jts.geom.Polygon> polygons = new ArrayList<>();

        public Reference(Polygon fence) {
            for (double[][] rings : fence.coordinates()) {
                LinearRing[] jts = new LinearRing[rings.length];
                for (int r = 0; r < rings.length; r++) {
                    Coordinate[] cs = new Coordinate[rings[r].length / 2];
                    for (int i = 0; i < cs.length; i++) {
                        cs[i] = new Coordinate(rings[r][2 * i], rings[r][2 * i + 1]);
                    }
                    jts[r] = FACTORY.createLinearRing(cs);
                }
                LinearRing[] holes = Arrays.copyOfRange(jts, 1, jts.length);
                org.locationtech.jts.geom.Polygon p = FACTORY.createPolygon(jts[0], holes);
                polygons.add(p);
                locators.add(new IndexedPointInAreaLocator(p));
            }
        }

        public boolean contains(double lon, double lat) {
            return planar(lon, lat)
                    || (lon == 180 && planar(-180, lat))
                    || (lon == -180 && planar(180, lat));
        }

        /** True when the point lies on some polygon's boundary (JTS), as given, unfolded. */
        public boolean onBoundary(double lon, double lat) {
            Coordinate c = new Coordinate(lon, lat);
            for (IndexedPointInAreaLocator l : locators) {
                if (l.locate(c) == Location.BOUNDARY) {
                    return true;
                }
            }
            return false;
        }

        private boolean planar(double x, double y) {
            Coordinate c = new Coordinate(x, y);
            for (IndexedPointInAreaLocator l : locators) {
                if (l.locate(c) != Location.EXTERIOR) {
                    return true;
                }
            }
            return false;
        }

        /** True when the closed fence meets the closed box (JTS intersects). */
        public boolean meets(double minX, double minY, double maxX, double maxY) {
            Geometry box = FACTORY.toGeometry(new Envelope(minX, maxX, minY, maxY));
            for (org.locationtech.jts.geom.Polygon p : polygons) {
                if (p.intersects(box)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Points that test the fence hard: vertices, exact points on edges (a + t (b - a) for dyadic
     * t), one ulp off them, points on lines of the given grid quantum, lon +-180, and random points
     * in and around the bounding box.
     */
    public List<double[]> points(Polygon fence, double gridQuantumX, double gridQuantumY, int n) {
        List<double[]> edges = new ArrayList<>();
        for (double[][] rings : fence.coordinates()) {
            for (double[] ring : rings) {
                for (int i = 0; i + 3 < ring.length; i += 2) {
                    edges.add(new double[] {ring[i], ring[i + 1], ring[i + 2], ring[i + 3]});
                }
            }
        }
        double minX = 180;
        double minY = 90;
        double maxX = -180;
        double maxY = -90;
        for (double[] e : edges) {
            minX = Math.min(minX, Math.min(e[0], e[2]));
            maxX = Math.max(maxX, Math.max(e[0], e[2]));
            minY = Math.min(minY, Math.min(e[1], e[3]));
            maxY = Math.max(maxY, Math.max(e[1], e[3]));
        }
        List<double[]> out = new ArrayList<>(n);
        while (out.size() < n) {
            double[] e = edges.get(random.nextInt(edges.size()));
            double[] p =
                    switch (random.nextInt(9)) {
                        case 0 -> new double[] {e[0], e[1]};
                        case 1, 2 -> onEdge(e);
                        case 3 ->
                                nudge(random.nextBoolean() ? onEdge(e) : new double[] {e[0], e[1]});
                        case 4 ->
                                new double[] {
                                    snapInto(uniform(minX, maxX), gridQuantumX, -180, 180),
                                    uniform(minY, maxY)
                                };
                        case 5 ->
                                new double[] {
                                    uniform(minX, maxX),
                                    snapInto(uniform(minY, maxY), gridQuantumY, -90, 90)
                                };
                        case 6 ->
                                new double[] {
                                    random.nextBoolean() ? 180 : -180,
                                    random.nextBoolean() ? e[1] : uniform(minY, maxY)
                                };
                        default ->
                                new double[] {
                                    clamp(
                                            uniform(minX, maxX)
                                                    + (random.nextDouble() - 0.5)
                                                            * 0.1
                                                            * (maxX - minX),
                                            -180,
                                            180),
                                    clamp(
                                            uniform(minY, maxY)
                                                    + (random.nextDouble() - 0.5)
                                                            * 0.1
                                                            * (maxY - minY),
                                            -90,
                                            90)
                                };
                    };
            p[0] = clamp(p[0], -180, 180);
            p[1] = clamp(p[1], -90, 90);
            out.add(p);
        }
        return out;
    }

    private double[] onEdge(double[] e) {
        int m = 1 << random.nextInt(6);
        double t = random.nextInt(m + 1) / (double) m;
        return new double[] {e[0] + t * (e[2] - e[0]), e[1] + t * (e[3] - e[1])};
    }

    private double[] nudge(double[] p) {
        int axis = random.nextInt(2);
        p[axis] = random.nextBoolean() ? Math.nextUp(p[axis]) : Math.nextDown(p[axis]);
        return p;
    }

    private double uniform(double min, double max) {
        return min + (max - min) * random.nextDouble();
    }

    private double snapInto(double v, double quantum, double min, double max) {
        return clamp(snap(v, quantum), min, max);
    }

    private static double clamp(double v, double min, double max) {
        return Math.max(min, Math.min(max, v));
    }
}
