package org.quadfence.geo;

/**
 * A circle fence in one cell ({@link ShapePiece}): the circle itself (three doubles) and, as its
 * bounds, the part in the cell of the circle's bounding boxes grown by the margin it was cut for.
 *
 * @param lon the centre's longitude
 * @param lat the centre's latitude
 * @param radiusMeters the radius
 * @param minX the west edge of {@link #bounds()}
 * @param minY the south edge of {@link #bounds()}
 * @param maxX the east edge of {@link #bounds()}
 * @param maxY the north edge of {@link #bounds()}
 */
public record CirclePiece(
        double lon,
        double lat,
        double radiusMeters,
        double minX,
        double minY,
        double maxX,
        double maxY)
        implements ShapePiece {

    /** The piece of {@code circle} whose bounds are {@code bounds}. */
    public static CirclePiece of(Circle circle, Box bounds) {
        return new CirclePiece(
                circle.lon(),
                circle.lat(),
                circle.radiusMeters(),
                bounds.minX(),
                bounds.minY(),
                bounds.maxX(),
                bounds.maxY());
    }

    @Override
    public Box bounds() {
        return new Box(minX, minY, maxX, maxY);
    }

    /** {@link Circle#contains}, which treats lon -180 as 180. */
    @Override
    public boolean contains(double foldedLon, double lat) {
        return distance(foldedLon, lat) <= radiusMeters;
    }

    /** {@link Circle#distanceMeters}. */
    @Override
    public double distanceMeters(double foldedLon, double lat) {
        return Math.max(0, distance(foldedLon, lat) - radiusMeters);
    }

    /** {@link Circle#boundaryMeters}. */
    @Override
    public double boundaryMeters(double foldedLon, double lat) {
        return Math.max(0, radiusMeters - distance(foldedLon, lat));
    }

    private double distance(double foldedLon, double lat) {
        return Earth.haversineMeters(lon, this.lat, Earth.eastLon(foldedLon), lat);
    }
}
