package org.quadfence.geo;

import java.util.List;

/**
 * Distances on the sphere of radius {@link #RADIUS_METERS} (the mean Earth radius, as the contract
 * prescribes), and boxes grown by a distance.
 *
 * <p><b>Distance from a point to a straight lon/lat edge.</b> Fence edges are straight lines in the
 * lon/lat plane, which are not great circles. The distance from p to an edge is the haversine
 * distance from p to one point q of the edge: the point nearest to p in the equirectangular plane
 * around p (x = (lon - p.lon) * cos(p.lat), y = lat - p.lat). The edge is tried as given and
 * shifted by 360 degrees either way, as long as the copy comes within 180 degrees of longitude of
 * p, and the smallest distance wins, so the shortest way across the antimeridian counts. On a
 * parallel (an edge of constant latitude) q is the true nearest point; on any other edge the true
 * nearest point can lie a little off q (on a meridian, slightly poleward of p's latitude), a
 * second-order effect that at the scale of hysteresis margins is far below a metre. Because q is a
 * point of the edge, the result is never less than the true great-circle distance to the edge (up
 * to rounding).
 */
public final class Earth {

    /** The Earth radius of the contract: 6,371,008.8 m. */
    public static final double RADIUS_METERS = 6371008.8;

    // Rounding slack for grown boxes: a relative and an absolute part (1e-9 degrees is 0.1 mm).
    private static final double SLACK = 1e-9;

    private Earth() {}

    /**
     * The haversine (great-circle) distance in metres between two points given in degrees.
     * Longitudes may be any two in [-540, 540] at most 720 apart: only their difference modulo 360
     * matters.
     */
    public static double haversineMeters(double lon1, double lat1, double lon2, double lat2) {
        double phi1 = Math.toRadians(lat1);
        double phi2 = Math.toRadians(lat2);
        double sinLat = Math.sin(Math.toRadians(lat2 - lat1) / 2);
        double dLon = lon2 - lon1;
        // Reduced to [-180, 180], so 360 degrees apart is exactly no distance.
        dLon = dLon > 180 ? dLon - 360 : dLon < -180 ? dLon + 360 : dLon;
        double sinLon = Math.sin(Math.toRadians(dLon) / 2);
        double a = sinLat * sinLat + Math.cos(phi1) * Math.cos(phi2) * sinLon * sinLon;
        return 2 * RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(Math.max(0, a))));
    }

    /**
     * Planar boxes that together cover every point within {@code meters} of a point of {@code box}
     * (the box itself included): latitudes grown by meters / R, clamped to the poles; longitudes
     * grown by the widest longitude reach of a spherical cap of that radius around a point of the
     * box, asin(sin(d / R) / cos(lat)) at the box's latitude farthest from the equator, or all
     * longitudes when such a cap reaches a pole. A box that then passes lon 180 or -180 is split
     * there into two (the one at -180 first). Grown with a little slack against rounding, so the
     * cover is never short.
     *
     * @throws IllegalArgumentException when meters is negative or not finite
     */
    public static List<Box> grow(Box box, double meters) {
        if (!(meters >= 0) || meters == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("distance must be finite and >= 0: " + meters);
        }
        if (meters == 0) {
            return List.of(box);
        }
        double dLat = latReachDegrees(meters);
        double south = Math.max(-90, box.minY() - dLat);
        double north = Math.min(90, box.maxY() + dLat);
        double dLon = lonReachDegrees(meters, Math.max(Math.abs(box.minY()), Math.abs(box.maxY())));
        double west = box.minX() - dLon;
        double east = box.maxX() + dLon;
        if (east - west >= 360 || (west < -180 && east > 180)) {
            return List.of(new Box(-180, south, 180, north));
        }
        if (west < -180) {
            return List.of(
                    new Box(-180, south, east, north), new Box(west + 360, south, 180, north));
        }
        if (east > 180) {
            return List.of(
                    new Box(-180, south, east - 360, north), new Box(west, south, 180, north));
        }
        return List.of(new Box(west, south, east, north));
    }

    /** The latitude reach of a distance, in degrees, with slack: no point is farther north. */
    static double latReachDegrees(double meters) {
        return Math.toDegrees(meters / RADIUS_METERS) * (1 + SLACK) + SLACK;
    }

    /**
     * The longitude reach, in degrees and with slack, of every point within {@code meters} of a
     * point at latitude {@code maxAbsLat} or nearer the equator; 360 or more means every longitude.
     */
    static double lonReachDegrees(double meters, double maxAbsLat) {
        double delta = meters / RADIUS_METERS * (1 + SLACK) + SLACK * 1e-3;
        double phi = Math.toRadians(Math.min(90, maxAbsLat));
        if (delta >= Math.PI / 2 - phi) {
            return 360;
        }
        double s = Math.sin(delta) / Math.cos(phi);
        if (s >= 1) {
            return 360;
        }
        return Math.toDegrees(Math.asin(s)) * (1 + SLACK) + SLACK;
    }

    /**
     * The distance in metres from (lon, lat) to the edge a-b (see the class comment). The caller
     * passes lon in (-180, 180]: lon -180 given as 180.
     */
    static double toEdgeMeters(double lon, double lat, double ax, double ay, double bx, double by) {
        double k = Math.cos(Math.toRadians(lat));
        double best = Double.POSITIVE_INFINITY;
        for (int shift = -360; shift <= 360; shift += 360) {
            double a = ax + shift - lon;
            double b = bx + shift - lon;
            if (Math.max(a, b) < -180 || Math.min(a, b) > 180) {
                continue;
            }
            double ux = a * k;
            double uy = ay - lat;
            double dx = (b - a) * k;
            double dy = by - ay;
            double len2 = dx * dx + dy * dy;
            double t = len2 == 0 ? 0 : Math.max(0, Math.min(1, -(ux * dx + uy * dy) / len2));
            double d = haversineMeters(lon, lat, lon + a + t * (b - a), ay + t * dy);
            best = Math.min(best, d);
        }
        return best;
    }

    /** Longitude -180 as 180, any other unchanged: the same meridian, one spelling. */
    static double eastLon(double lon) {
        return lon == -180 ? 180 : lon;
    }
}
