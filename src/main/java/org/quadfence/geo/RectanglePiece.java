package org.quadfence.geo;

/**
 * A rectangle fence in one cell when fences have an exit margin ({@link ShapePiece}): the whole
 * rectangle (four numbers) for its exact test and distance, and, as its bounds, the part in the
 * cell of the rectangle's bounding boxes grown by the margin.
 *
 * @param rect the fence
 * @param bounds where in the cell a point can be in the fence or within the margin of it
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

    @Override
    public double boundaryMeters(double foldedLon, double lat) {
        return rect.boundaryMeters(foldedLon, lat);
    }
}
