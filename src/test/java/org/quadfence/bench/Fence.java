package org.quadfence.bench;

import org.locationtech.jts.geom.Envelope;
import org.quadfence.geo.Box;

/** A benchmark fence: an id and its box, the item every index under test stores. */
public final class Fence {
    final int id;
    final double minX;
    final double minY;
    final double maxX;
    final double maxY;

    Fence(int id, double minX, double minY, double maxX, double maxY) {
        this.id = id;
        this.minX = minX;
        this.minY = minY;
        this.maxX = maxX;
        this.maxY = maxY;
    }

    boolean contains(double x, double y) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY;
    }

    public Box box() {
        return new Box(minX, minY, maxX, maxY);
    }

    Envelope envelope() {
        return new Envelope(minX, maxX, minY, maxY);
    }
}
