package org.quadfence.geo;

/**
 * A closed axis-aligned box in the lon/lat plane (x is longitude, y is latitude). A box never
 * crosses the antimeridian: {@code minX <= maxX} and {@code minY <= maxY}. Zero width or height (a
 * line, a point) is allowed. Every comparison is exact on the doubles given.
 */
public record Box(double minX, double minY, double maxX, double maxY) {

    /** The whole lon/lat plane: lon [-180, 180] x lat [-90, 90]. */
    public static final Box WORLD = new Box(-180, -90, 180, 90);

    public Box {
        if (!(minX <= maxX) || !(minY <= maxY)) {
            throw new IllegalArgumentException(
                    "not a box: [" + minX + ", " + minY + ", " + maxX + ", " + maxY + "]");
        }
    }

    /** True when (x, y) lies in the closed box: boundary points are inside. */
    public boolean contains(double x, double y) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY;
    }

    /** True when the two closed boxes share at least one point (touching counts). */
    public boolean intersects(Box o) {
        return o.minX <= maxX && o.maxX >= minX && o.minY <= maxY && o.maxY >= minY;
    }

    /** True when every point of {@code o} lies in this box. */
    public boolean covers(Box o) {
        return o.minX >= minX && o.maxX <= maxX && o.minY >= minY && o.maxY <= maxY;
    }

    /** The smallest box that holds both boxes. */
    public Box hull(Box o) {
        return new Box(
                Math.min(minX, o.minX),
                Math.min(minY, o.minY),
                Math.max(maxX, o.maxX),
                Math.max(maxY, o.maxY));
    }

    /** The common part of two boxes, or null when they do not intersect. */
    public Box intersection(Box o) {
        if (!intersects(o)) {
            return null;
        }
        return new Box(
                Math.max(minX, o.minX),
                Math.max(minY, o.minY),
                Math.min(maxX, o.maxX),
                Math.min(maxY, o.maxY));
    }
}
