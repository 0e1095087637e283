package org.quadfence.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * The exact geometry of a fence on the lon/lat plane. Shapes are closed: a point on the boundary is
 * inside. Longitude 180 and -180 are the same meridian.
 */
public interface Shape {

    /** The exact (narrow phase) test: true when the point lies in the closed shape. */
    boolean contains(double lon, double lat);

    /**
     * Planar boxes whose union covers the shape: one box, or two for a shape that crosses the
     * antimeridian (west part first). An index that holds these boxes finds every point the shape
     * contains, except that a point at lon -180 must also be looked up at lon 180 and vice versa
     * (the tiling does this).
     */
    List<Box> bounds();

    /**
     * The distance in metres from the point to the shape, 0 when the shape contains it (the
     * hysteresis distance of contract section 6). Each shape documents its rule; all measure on the
     * sphere of {@link Earth#RADIUS_METERS}, lon 180 and -180 being the same meridian.
     */
    double distanceMeters(double lon, double lat);

    /**
     * For a point the shape contains, the distance in metres from it to the shape's boundary by the
     * rule of {@link #distanceMeters} (0 on the boundary): how far a position may be off and still
     * be inside (contract section 11, accuracy); 0 for a point outside. Where a fence goes on at
     * the other side of the antimeridian, lon 180 is no boundary: a polygon's edges along lon 180
     * or -180 (those of a fence split there) do not count.
     */
    double boundaryMeters(double lon, double lat);

    /**
     * Planar boxes that cover every point within {@code meters} of the shape ({@link
     * #distanceMeters} at most {@code meters}): each of {@link #bounds()} grown by {@link
     * Earth#grow}. As with {@link #bounds()}, a point at lon -180 must also be looked up at 180.
     *
     * @throws IllegalArgumentException when meters is negative or not finite
     */
    default List<Box> boundsWithin(double meters) {
        List<Box> out = new ArrayList<>();
        for (Box b : bounds()) {
            out.addAll(Earth.grow(b, meters));
        }
        return out;
    }
}
