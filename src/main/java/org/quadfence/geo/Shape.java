package org.quadfence.geo;

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
}
