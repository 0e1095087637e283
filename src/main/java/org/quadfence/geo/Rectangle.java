package org.quadfence.geo;

import java.util.List;

/**
 * A closed lon/lat rectangle following the GeoJSON bbox rule (RFC 7946, 5.2): {@code minLat <=
 * maxLat}; when {@code minLon > maxLon} it crosses the antimeridian and covers [minLon, 180] and
 * [-180, maxLon]. Lines and points are valid rectangles. Longitude 180 and -180 are the same
 * meridian. Every comparison is exact on the doubles given, with no epsilon.
 */
public record Rectangle(double minLon, double minLat, double maxLon, double maxLat)
        implements Shape {

    /**
     * Checks the corners.
     *
     * @throws IllegalArgumentException with a sentence naming what is wrong, such as "minLat 12.5 >
     *     maxLat 10.0"
     */
    public Rectangle {
        checkLon("minLon", minLon);
        checkLat("minLat", minLat);
        checkLon("maxLon", maxLon);
        checkLat("maxLat", maxLat);
        if (minLat > maxLat) {
            throw new IllegalArgumentException("minLat " + minLat + " > maxLat " + maxLat);
        }
    }

    /** True when the rectangle crosses the antimeridian (minLon > maxLon). */
    public boolean crossesAntimeridian() {
        return minLon > maxLon;
    }

    @Override
    public boolean contains(double lon, double lat) {
        if (!(lat >= minLat && lat <= maxLat)) {
            return false;
        }
        if (crossesAntimeridian()) {
            return lon >= minLon || lon <= maxLon;
        }
        // lon 180 and -180 name the same meridian.
        return (lon >= minLon && lon <= maxLon)
                || (lon == -180 && maxLon == 180)
                || (lon == 180 && minLon == -180);
    }

    /**
     * 0 when the rectangle contains the point, else the smallest distance to the edges of its boxes
     * ({@link #bounds()}) by the rule of {@link Earth}: the haversine distance to the edge point
     * nearest in the point's local equirectangular plane, the shortest way round. For the
     * rectangle's parallels that is the true great-circle distance; the same rectangle given as a
     * {@link Polygon} has the same distance.
     */
    @Override
    public double distanceMeters(double lon, double lat) {
        if (contains(lon, lat)) {
            return 0;
        }
        double x = Earth.eastLon(lon);
        double best = Double.POSITIVE_INFINITY;
        for (Box b : bounds()) {
            double[] edges = {
                b.minX(), b.minY(), b.maxX(), b.minY(),
                b.maxX(), b.minY(), b.maxX(), b.maxY(),
                b.maxX(), b.maxY(), b.minX(), b.maxY(),
                b.minX(), b.maxY(), b.minX(), b.minY()
            };
            best = Math.min(best, Polygon.distanceToEdges(edges, 0, edges.length, x, lat));
        }
        return best;
    }

    /**
     * For a point inside, the smallest distance to the rectangle's sides by the rule of {@link
     * Earth}: its two parallels (in two parts when it crosses the antimeridian; a pole is no
     * parallel) and its two meridians, which a rectangle of every longitude does not have; 0
     * outside.
     */
    @Override
    public double boundaryMeters(double lon, double lat) {
        if (!contains(lon, lat)) {
            return 0;
        }
        double x = Earth.eastLon(lon);
        boolean crosses = crossesAntimeridian();
        // Across the antimeridian each parallel is two edges, one each side of lon 180.
        double[] parallels = {
            minLon,
            minLat,
            crosses ? 180 : maxLon,
            minLat,
            minLon,
            maxLat,
            crosses ? 180 : maxLon,
            maxLat,
            -180,
            minLat,
            maxLon,
            minLat,
            -180,
            maxLat,
            maxLon,
            maxLat
        };
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < (crosses ? 16 : 8); i += 4) {
            if (Math.abs(parallels[i + 1]) != 90) {
                best = Math.min(best, Polygon.distanceToEdges(parallels, i, i + 4, x, lat));
            }
        }
        if (minLon == -180 && maxLon == 180) {
            return best;
        }
        double[] meridians = {minLon, minLat, minLon, maxLat, maxLon, minLat, maxLon, maxLat};
        return Math.min(best, Polygon.distanceToEdges(meridians, 0, 8, x, lat));
    }

    @Override
    public List<Box> bounds() {
        if (crossesAntimeridian()) {
            return List.of(
                    new Box(-180, minLat, maxLon, maxLat), new Box(minLon, minLat, 180, maxLat));
        }
        return List.of(new Box(minLon, minLat, maxLon, maxLat));
    }

    static void checkLon(String name, double lon) {
        if (!(lon >= -180 && lon <= 180)) {
            throw new IllegalArgumentException(name + " out of range [-180, 180]: " + lon);
        }
    }

    static void checkLat(String name, double lat) {
        if (!(lat >= -90 && lat <= 90)) {
            throw new IllegalArgumentException(name + " out of range [-90, 90]: " + lat);
        }
    }
}
