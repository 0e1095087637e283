package org.quadfence.geo;

/**
 * A rectangle fence as a tile keeps it when fences have an exit margin: the whole rectangle (four
 * numbers) for its exact test and distance, and the box of the tile's part of the rectangle grown
 * by the margin for the tile's quadtree.
 */
public record RectanglePiece(Rectangle rect, Box bounds) implements ShapePiece {

    @Override
    public boolean contains(double foldedLon, double lat) {
        return rect.contains(foldedLon, lat);
    }

    @Override
    public double distanceMeters(double foldedLon, double lat) {
        return rect.distanceMeters(foldedLon, lat);
    }
}
