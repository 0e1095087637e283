package org.quadfence.testing;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.operation.overlayng.OverlayNG;
import org.locationtech.jts.operation.overlayng.OverlayNGRobust;
import org.locationtech.jts.operation.relateng.RelateNG;
import org.locationtech.jts.operation.relateng.RelatePredicate;
import org.quadfence.geo.Box;
import org.quadfence.geo.Circle;
import org.quadfence.geo.Earth;
import org.quadfence.geo.Path;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.Shape;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A reference for where a path meets a fence, without anything of {@link
 * org.quadfence.geo.PathCrossing}: JTS in the unwrapped plane, the fence copied 360 degrees east
 * and west (lon 180 and -180 being one meridian), for rectangles and polygons; dense sampling of
 * haversine distances for circles. JTS decides exactly only on exact coordinates, so the unwrapped
 * end and the copies must be exact doubles: {@link #exact} says whether they are (dyadic
 * coordinates are).
 */
public final class PathReference {

    private static final GeometryFactory FACTORY = new GeometryFactory();

    private PathReference() {}

    /** The unwrapped end: toLon + 360, - 360 or unchanged, the shorter way, east at exactly 180. */
    public static double unwrappedEnd(Path p) {
        BigDecimal d = new BigDecimal(p.toLon()).subtract(new BigDecimal(p.fromLon()));
        if (d.compareTo(BigDecimal.valueOf(180)) > 0) {
            return p.toLon() - 360;
        }
        return d.compareTo(BigDecimal.valueOf(-180)) <= 0 ? p.toLon() + 360 : p.toLon();
    }

    /**
     * True when the path's unwrapped end is an exact double, and so are the fence's copies at +-360
     * if the path reaches lon 180 or -180 (else no copy can meet it, rounded or not).
     */
    public static boolean exact(Path p, double... fenceXs) {
        if (!shiftsExactly(p.toLon()) || !shiftsExactly(p.fromLon())) {
            return false;
        }
        double end = unwrappedEnd(p);
        if (Math.max(Math.abs(p.fromLon()), Math.abs(end)) < 180) {
            return true;
        }
        for (double x : fenceXs) {
            if (!shiftsExactly(x)) {
                return false;
            }
        }
        return true;
    }

    private static boolean shiftsExactly(double x) {
        BigDecimal b = new BigDecimal(x);
        return new BigDecimal(x + 360).compareTo(b.add(BigDecimal.valueOf(360))) == 0
                && new BigDecimal(x - 360).compareTo(b.subtract(BigDecimal.valueOf(360))) == 0;
    }

    /** The path in the unwrapped plane: a line, or a point when it has no length. */
    public static Geometry line(Path p) {
        Coordinate a = new Coordinate(p.fromLon(), p.fromLat());
        Coordinate b = new Coordinate(unwrappedEnd(p), p.toLat());
        return a.equals2D(b)
                ? FACTORY.createPoint(a)
                : FACTORY.createLineString(new Coordinate[] {a, b});
    }

    /** True when the closed path meets the closed box, JTS intersects on the box's copies. */
    public static boolean meets(Path p, Box box) {
        Geometry line = line(p);
        for (int k = -360; k <= 360; k += 360) {
            Envelope e = new Envelope(box.minX() + k, box.maxX() + k, box.minY(), box.maxY());
            if (line.getEnvelopeInternal().intersects(e)
                    && intersects(line, FACTORY.toGeometry(e))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The fraction of the first point of the path in the rectangle or polygon: the smallest
     * projection on the path of a coordinate of the JTS intersection with any copy; NaN when they
     * do not meet. Exact in the decision, rounded in the fraction.
     */
    public static double first(Path p, Shape shape) {
        if (shape instanceof Circle c) {
            return firstInCircle(p, c, 200_000);
        }
        Geometry line = line(p);
        double x0 = p.fromLon();
        double dx = unwrappedEnd(p) - x0;
        double dy = p.toLat() - p.fromLat();
        double len2 = dx * dx + dy * dy;
        double best = Double.NaN;
        for (Geometry g : copies(shape)) {
            if (!intersects(line, g)) {
                continue;
            }
            double s = 1;
            for (Coordinate c :
                    OverlayNGRobust.overlay(line, g, OverlayNG.INTERSECTION).getCoordinates()) {
                double t = len2 == 0 ? 0 : ((c.x - x0) * dx + (c.y - p.fromLat()) * dy) / len2;
                s = Math.min(s, Math.max(0, t));
            }
            best = Double.isNaN(best) ? s : Math.min(best, s);
        }
        return best;
    }

    // RelateNG: the older relate can fail on nearly collinear input.
    private static boolean intersects(Geometry a, Geometry b) {
        return RelateNG.relate(a, b, RelatePredicate.intersects());
    }

    /** The fence's copies at -360, 0 and 360 degrees of longitude, as JTS geometries. */
    public static List<Geometry> copies(Shape shape) {
        List<Geometry> out = new ArrayList<>();
        for (int k = -360; k <= 360; k += 360) {
            if (shape instanceof Rectangle r) {
                for (Box b : r.bounds()) {
                    out.add(
                            FACTORY.toGeometry(
                                    new Envelope(b.minX() + k, b.maxX() + k, b.minY(), b.maxY())));
                }
            } else {
                for (double[][] rings : ((Polygon) shape).coordinates()) {
                    LinearRing[] jts = new LinearRing[rings.length];
                    for (int r = 0; r < rings.length; r++) {
                        Coordinate[] cs = new Coordinate[rings[r].length / 2];
                        for (int i = 0; i < cs.length; i++) {
                            cs[i] = new Coordinate(rings[r][2 * i] + k, rings[r][2 * i + 1]);
                        }
                        jts[r] = FACTORY.createLinearRing(cs);
                    }
                    out.add(FACTORY.createPolygon(jts[0], Arrays.copyOfRange(jts, 1, jts.length)));
                }
            }
        }
        return out;
    }

    /**
     * The first of {@code samples} + 1 evenly spaced points of the path within the circle's radius
     * (haversine), bisected back to where it enters between that sample and the one before; NaN
     * when no sample is inside. Misses a visit shorter than the spacing.
     */
    public static double firstInCircle(Path p, Circle c, int samples) {
        double dx = unwrappedEnd(p) - p.fromLon();
        double dy = p.toLat() - p.fromLat();
        for (int i = 0; i <= samples; i++) {
            double s = i / (double) samples;
            if (inside(p, c, dx, dy, s)) {
                if (i == 0) {
                    return 0;
                }
                double lo = (i - 1) / (double) samples;
                double hi = s;
                for (int k = 0; k < 60; k++) {
                    double mid = (lo + hi) / 2;
                    if (inside(p, c, dx, dy, mid)) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return hi;
            }
        }
        return Double.NaN;
    }

    /** The haversine distance from the circle's centre to the point of the path at s. */
    public static double distance(Path p, Circle c, double s) {
        double dx = unwrappedEnd(p) - p.fromLon();
        double dy = p.toLat() - p.fromLat();
        return Earth.haversineMeters(c.lon(), c.lat(), p.fromLon() + s * dx, p.fromLat() + s * dy);
    }

    private static boolean inside(Path p, Circle c, double dx, double dy, double s) {
        double d =
                Earth.haversineMeters(c.lon(), c.lat(), p.fromLon() + s * dx, p.fromLat() + s * dy);
        return d <= c.radiusMeters();
    }
}
