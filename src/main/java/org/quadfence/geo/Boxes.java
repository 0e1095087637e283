package org.quadfence.geo;

import java.util.List;

/**
 * Exact boxes of a fence in one cell ({@link ShapePiece}): a point of the cell is in the fence
 * exactly when a box holds it. The whole cell for a tile the fence covers; otherwise the parts of a
 * rectangle in the cell, two when an antimeridian-crossing rectangle's gap lies inside the cell
 * (one part on each side) or when a rectangle at level 0 touches lon 180 (its folded copy at lon
 * -180 as well), and neither part lies inside the other.
 *
 * @param boxes one or two boxes within the cell
 */
public record Boxes(List<Box> boxes) implements ShapePiece {

    /** Checks that there are one or two boxes. */
    public Boxes {
        boxes = List.copyOf(boxes);
        if (boxes.isEmpty() || boxes.size() > 2) {
            throw new IllegalArgumentException("one or two boxes, not " + boxes);
        }
    }

    /** The exact boxes {@code boxes}. */
    public static Boxes of(Box... boxes) {
        return new Boxes(List.of(boxes));
    }

    /** The smallest box that holds every box. */
    @Override
    public Box bounds() {
        return boxes.size() == 1 ? boxes.get(0) : boxes.get(0).hull(boxes.get(1));
    }

    /** True when a box holds the point. */
    @Override
    public boolean contains(double foldedLon, double lat) {
        for (Box b : boxes) {
            if (b.contains(foldedLon, lat)) {
                return true;
            }
        }
        return false;
    }

    /**
     * 0 inside; outside, infinity, which is above any margin: boxes stand for a fence only where no
     * distance is asked of them (a rectangle without a margin, or a cell wholly inside).
     */
    @Override
    public double distanceMeters(double foldedLon, double lat) {
        return contains(foldedLon, lat) ? 0 : Double.POSITIVE_INFINITY;
    }

    /**
     * Infinity inside, 0 outside: a cell the fence covers is one whose every point lies deeper in
     * the fence than any distance asked of it (the cut sees to that).
     */
    @Override
    public double boundaryMeters(double foldedLon, double lat) {
        return contains(foldedLon, lat) ? Double.POSITIVE_INFINITY : 0;
    }
}
