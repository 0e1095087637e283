package org.quadfence.geo;

/**
 * The first point of a stretch of a {@link Path} within a circle's radius (haversine, {@link
 * Earth#RADIUS_METERS}). The distance to the centre along a straight lon/lat path is not convex, so
 * the search is a branch and bound over the stretch: a piece of the path is dropped when a lower
 * bound of its distance to the centre exceeds the radius, and split in two otherwise, the earlier
 * half first. Two lower bounds: the distance at either end less what the path can travel from it
 * (its speed on the sphere is at most R * sqrt(dLat^2 + (dLon cos lat)^2), lat being the smallest
 * absolute latitude on the path), and the distance from the centre to the piece's lon/lat bounding
 * box. Pieces shorter than 1 mm of travel are not split further: one whose end is within the radius
 * is bisected to the first point, any other dropped.
 */
final class CircleSearch {

    // How deep into a circle a path must come to be found: 1 mm.
    private static final double TOLERANCE_METERS = 1e-3;

    // The fraction of the path to which a first point is bisected.
    private static final double PRECISION = 1e-12;

    private final double fromLon;
    private final double fromLat;
    private final double dLon;
    private final double dLat;
    private final double lon;
    private final double lat;
    private final double radius;
    private final double speed;

    private CircleSearch(Path path, double lon, double lat, double radius) {
        this.fromLon = path.fromLon();
        this.fromLat = path.fromLat();
        this.dLon = path.unwrappedToLon() - fromLon;
        this.dLat = path.toLat() - fromLat;
        this.lon = lon;
        this.lat = lat;
        this.radius = radius;
        double minAbsLat =
                fromLat * path.toLat() <= 0
                        ? 0
                        : Math.min(Math.abs(fromLat), Math.abs(path.toLat()));
        double k = Math.cos(Math.toRadians(minAbsLat));
        this.speed = Earth.RADIUS_METERS * Math.toRadians(Math.hypot(dLat, dLon * k)) * (1 + 1e-9);
    }

    /**
     * The fraction in [from, to] of the first point of the path within the radius of the centre, or
     * NaN when the search finds none (see the class comment).
     */
    static double first(
            Path path, double lon, double lat, double radiusMeters, double from, double to) {
        return new CircleSearch(path, lon, lat, radiusMeters).search(from, to);
    }

    private double search(double from, double to) {
        double f0 = excess(from);
        if (f0 <= 0) {
            return from;
        }
        if (speed == 0) {
            return Double.NaN;
        }
        return search(from, f0, to, excess(to));
    }

    // The first point in (lo, hi], lo outside the circle (f(lo) > 0).
    private double search(double lo, double flo, double hi, double fhi) {
        double width = (hi - lo) * speed;
        if ((flo + fhi - width) / 2 > 0 || boxExcess(lo, hi) > 0) {
            return Double.NaN;
        }
        if (width <= TOLERANCE_METERS) {
            return fhi <= 0 ? bisect(lo, hi) : Double.NaN;
        }
        double mid = lo + (hi - lo) / 2;
        double fmid = excess(mid);
        if (fmid <= 0) {
            double s = search(lo, flo, mid, fmid);
            return Double.isNaN(s) ? mid : s;
        }
        double s = search(lo, flo, mid, fmid);
        return Double.isNaN(s) ? search(mid, fmid, hi, fhi) : s;
    }

    // f(lo) > 0 >= f(hi): a point where f crosses 0, to PRECISION.
    private double bisect(double lo, double hi) {
        while (hi - lo > PRECISION) {
            double mid = lo + (hi - lo) / 2;
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (excess(mid) <= 0) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    // The haversine distance from the centre to the point at s, less the radius.
    private double excess(double s) {
        return Earth.haversineMeters(lon, lat, fromLon + s * dLon, fromLat + s * dLat) - radius;
    }

    // A lower bound of the distance from the centre to the path between lo and hi, less the
    // radius: the distance to the stretch's lon/lat bounding box.
    private double boxExcess(double lo, double hi) {
        double x0 = fromLon + lo * dLon;
        double x1 = fromLon + hi * dLon;
        double y0 = fromLat + lo * dLat;
        double y1 = fromLat + hi * dLat;
        return boxDistance(Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1))
                - radius;
    }

    /**
     * The haversine distance from the centre to the nearest point of the box (lon may run past 180
     * either way), less a micrometre against rounding. When the centre's meridian passes the box it
     * is the distance in latitude; otherwise the nearest point lies on the box's nearer meridian
     * (the distance grows with the difference in longitude at any latitude), where the distance
     * along the meridian has one minimum, at tan(lat) = tan(centre lat) / cos(dLon).
     */
    private double boxDistance(double west, double south, double east, double north) {
        double width = east - west;
        // How far east of the west edge the centre's meridian lies, in [0, 360).
        double t = ((lon - west) % 360 + 360) % 360;
        if (width >= 360 || t <= width) {
            double dy = Math.max(0, Math.max(south - lat, lat - north));
            return Earth.RADIUS_METERS * Math.toRadians(dy) - 1e-6;
        }
        double d = Math.min(t - width, 360 - t);
        double phi = Math.toRadians(lat);
        double nearest =
                Math.toDegrees(
                        Math.atan2(Math.sin(phi), Math.cos(phi) * Math.cos(Math.toRadians(d))));
        nearest = Math.max(south, Math.min(north, Math.max(-90, Math.min(90, nearest))));
        return Earth.haversineMeters(lon, lat, lon + d, nearest) - 1e-6;
    }
}
