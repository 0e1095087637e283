package org.quadfence.geo;

import java.util.List;

/**
 * A circle fence (contract section 6): the points whose haversine distance (on the sphere of {@link
 * Earth#RADIUS_METERS}) to the centre is at most the radius. Closed, and a spherical cap, so it may
 * contain a pole or cross the antimeridian. Longitude 180 and -180 are the same meridian: the test
 * computes with -180 as 180, so both give the same answer, to the last bit.
 *
 * @param lon the centre's longitude, -180 to 180
 * @param lat the centre's latitude, -90 to 90
 * @param radiusMeters more than 0 and at most {@link #MAX_RADIUS_METERS}
 */
public record Circle(double lon, double lat, double radiusMeters) implements Shape {

    /** The largest radius: 20,000 km. */
    public static final double MAX_RADIUS_METERS = 20_000_000;

    /**
     * Checks the centre and radius.
     *
     * @throws IllegalArgumentException with a sentence naming what is wrong, such as "radiusMeters
     *     must be > 0 and <= 20000000: 0.0"
     */
    public Circle {
        Rectangle.checkLon("lon", lon);
        Rectangle.checkLat("lat", lat);
        if (!(radiusMeters > 0 && radiusMeters <= MAX_RADIUS_METERS)) {
            throw new IllegalArgumentException(
                    "radiusMeters must be > 0 and <= 20000000: " + radiusMeters);
        }
    }

    /** True when the haversine distance from the centre to the point is at most the radius. */
    @Override
    public boolean contains(double lon, double lat) {
        return centreDistance(lon, lat) <= radiusMeters;
    }

    /** max(0, haversine distance from the centre to the point minus the radius). */
    @Override
    public double distanceMeters(double lon, double lat) {
        return Math.max(0, centreDistance(lon, lat) - radiusMeters);
    }

    /** max(0, the radius minus the haversine distance from the centre to the point). */
    @Override
    public double boundaryMeters(double lon, double lat) {
        return Math.max(0, radiusMeters - centreDistance(lon, lat));
    }

    // The haversine distance from the centre, lon -180 taken as 180.
    private double centreDistance(double lon, double lat) {
        return Earth.haversineMeters(this.lon, this.lat, Earth.eastLon(lon), lat);
    }

    /**
     * The bounding boxes of the cap ({@link Earth#grow} of the centre by the radius): latitudes
     * centre +- radius / R, clamped to the poles; longitudes +- asin(sin(radius / R) / cos(lat)),
     * or all of them when the cap reaches a pole; split in two at the antimeridian.
     */
    @Override
    public List<Box> bounds() {
        return boundsWithin(0);
    }

    /** The bounding boxes of the cap of radius {@code radiusMeters + meters}. */
    @Override
    public List<Box> boundsWithin(double meters) {
        if (!(meters >= 0) || meters == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("distance must be finite and >= 0: " + meters);
        }
        return Earth.grow(new Box(lon, lat, lon, lat), radiusMeters + meters);
    }
}
