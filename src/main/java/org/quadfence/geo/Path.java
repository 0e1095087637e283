package org.quadfence.geo;

import java.util.ArrayList;
import java.util.List;

/**
 * The straight path between two consecutive positions of an entity in the lon/lat plane (contract
 * section 10): from a = (fromLon, fromLat) to b = (toLon, toLat), the shorter way round. When
 * |toLon - fromLon| > 180 it crosses the antimeridian and goes on at the other side (lon 180 and
 * -180 are one meridian); at exactly 180 it goes east from a. In the unwrapped plane the path is
 * the segment from a to (toLon + shift, toLat), the shift -360, 0 or 360; every decision about it
 * is made exactly on the given doubles and that whole shift, which is never rounded into a
 * coordinate.
 *
 * @param fromLon a's longitude, -180 to 180
 * @param fromLat a's latitude, -90 to 90
 * @param toLon b's longitude, -180 to 180
 * @param toLat b's latitude, -90 to 90
 */
public record Path(double fromLon, double fromLat, double toLon, double toLat) {

    /**
     * Checks the coordinates.
     *
     * @throws IllegalArgumentException when one is out of range or not finite
     */
    public Path {
        Rectangle.checkLon("fromLon", fromLon);
        Rectangle.checkLat("fromLat", fromLat);
        Rectangle.checkLon("toLon", toLon);
        Rectangle.checkLat("toLat", toLat);
    }

    /**
     * The unwrapped end: toLon, or toLon - 360 or + 360 when the path crosses the antimeridian
     * westward or eastward, rounded to the nearest double. For fractions and drawing only; the
     * exact predicates never use it.
     */
    public double unwrappedToLon() {
        return toLon + shift();
    }

    /**
     * True when the unwrapped path leaves lon [-180, 180]: it crosses the antimeridian, or starts
     * on it and leaves it on the side that the shorter way gives (from -180 westward, from 180
     * eastward).
     */
    public boolean crossesAntimeridian() {
        return shift() != 0;
    }

    /**
     * The point at fraction s in [0, 1] of the path: lon folded back into [-180, 180]. s = 0 gives
     * a and s = 1 gives b, exactly; other points are rounded.
     */
    public double lonAt(double s) {
        if (s == 0) {
            return fromLon;
        }
        if (s == 1) {
            return toLon;
        }
        double x = fromLon + s * (unwrappedToLon() - fromLon);
        return x > 180 ? x - 360 : x < -180 ? x + 360 : x;
    }

    /** The latitude at fraction s in [0, 1] of the path; exact at s = 0 and s = 1. */
    public double latAt(double s) {
        if (s == 0) {
            return fromLat;
        }
        if (s == 1) {
            return toLat;
        }
        return fromLat + s * (toLat - fromLat);
    }

    /**
     * The one or two boxes, in lon [-180, 180], that bound the path's parts either side of the
     * antimeridian: one box for a path that stays in [-180, 180]; otherwise the part from a first,
     * then the part that ends at b. Each spans the path's whole latitude range, so it may be taller
     * than its part.
     */
    public List<Box> bounds() {
        double south = Math.min(fromLat, toLat);
        double north = Math.max(fromLat, toLat);
        double shift = shift();
        if (shift == 0) {
            return List.of(
                    new Box(Math.min(fromLon, toLon), south, Math.max(fromLon, toLon), north));
        }
        return shift < 0
                ? List.of(new Box(-180, south, fromLon, north), new Box(toLon, south, 180, north))
                : List.of(new Box(fromLon, south, 180, north), new Box(-180, south, toLon, north));
    }

    /**
     * True when the closed path meets the closed box (touching counts), lon 180 and -180 being one
     * meridian: a path through lon 180 meets a box at lon -180 there. Exact.
     */
    public boolean meets(Box box) {
        for (PathLeg leg : legs()) {
            if (leg.meetsBox(box.minX(), box.minY(), box.maxX(), box.maxY())) {
                return true;
            }
        }
        return false;
    }

    /**
     * True when the path as one segment of the unwrapped plane, from a to (toLon + shift, toLat)
     * (the shift kept exact), meets the closed box, whose longitudes may lie outside [-180, 180]: a
     * box 360 degrees east or west of lon [-180, 180] stands for the same place there. Exact.
     */
    public boolean meetsUnwrapped(Box box) {
        return new PathLeg(fromLon, fromLat, 0, toLon, toLat, shift())
                .meetsBox(box.minX(), box.minY(), box.maxX(), box.maxY());
    }

    /**
     * The whole shift of toLon: -360 when b is more than 180 degrees east of a (the path goes west
     * across the antimeridian), 360 when it is more than 180 west or exactly 180 west (it goes
     * east), else 0. Decided exactly.
     */
    double shift() {
        if (Shifted.compare(toLon, -fromLon, 180) > 0) {
            return -360;
        }
        return Shifted.compare(toLon, -fromLon, -180) <= 0 ? 360 : 0;
    }

    /**
     * The path in each frame in which it can meet something of lon [-180, 180]: the path itself,
     * and the path moved 360 degrees west (or east) when it reaches lon 180 (or -180), the same
     * meridian. A point of lon [-180, 180] is on the path exactly when it is on one of these legs.
     */
    List<PathLeg> legs() {
        double shift = shift();
        List<PathLeg> legs = new ArrayList<>(2);
        legs.add(new PathLeg(fromLon, fromLat, 0, toLon, toLat, shift));
        if (fromLon == 180 || Shifted.compare(toLon, shift, 180) >= 0) {
            legs.add(new PathLeg(fromLon, fromLat, -360, toLon, toLat, shift - 360));
        }
        if (fromLon == -180 || Shifted.compare(toLon, shift, -180) <= 0) {
            legs.add(new PathLeg(fromLon, fromLat, 360, toLon, toLat, shift + 360));
        }
        return legs;
    }
}
