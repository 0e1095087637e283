package org.quadfence.geo;

/**
 * A grid over lon [-180, 180] x lat [-90, 90] of 2^columnLevel columns by 2^rowLevel rows, the
 * cells polygons are cut to: the tiles of a tile level (both levels equal) or a polygon's own
 * lookup grid. Column c spans [-180 + c * w, -180 + (c + 1) * w] with w = 360 / 2^columnLevel, row
 * r (counted from the south) spans [-90 + r * h, -90 + (r + 1) * h] with h = 180 / 2^rowLevel.
 * These edges are exact in binary floating point, and every lookup compares with them, so a point's
 * cell never depends on rounding.
 *
 * @param columnLevel 0 to 30
 * @param rowLevel 0 to 30
 */
public record CellGrid(int columnLevel, int rowLevel) {

    /**
     * Checks the levels.
     *
     * @throws IllegalArgumentException unless both levels are in [0, 30]
     */
    public CellGrid {
        if (columnLevel < 0 || columnLevel > 30 || rowLevel < 0 || rowLevel > 30) {
            throw new IllegalArgumentException(
                    "grid levels out of range [0, 30]: " + columnLevel + ", " + rowLevel);
        }
    }

    /** The number of columns, 2^columnLevel. */
    public int columns() {
        return 1 << columnLevel;
    }

    /** The number of rows, 2^rowLevel. */
    public int rows() {
        return 1 << rowLevel;
    }

    /** The west edge of a column; {@code west(columns())} is 180. Exact. */
    public double west(int column) {
        return -180 + column * (360.0 / columns());
    }

    /** The south edge of a row; {@code south(rows())} is 90. Exact. */
    public double south(int row) {
        return -90 + row * (180.0 / rows());
    }

    /**
     * The column whose half-open span [west, east) holds lon; lon 180 (and beyond) in the last
     * column, lon below -180 in the first.
     */
    public int column(double lon) {
        int n = columns();
        int c = (int) Math.max(0, Math.min(n - 1, Math.floor((lon + 180) * (n / 360.0))));
        while (c > 0 && lon < west(c)) {
            c--;
        }
        while (c < n - 1 && lon >= west(c + 1)) {
            c++;
        }
        return c;
    }

    /** The row whose half-open span [south, north) holds lat; lat 90 in the top row. */
    public int row(double lat) {
        int n = rows();
        int r = (int) Math.max(0, Math.min(n - 1, Math.floor((lat + 90) * (n / 180.0))));
        while (r > 0 && lat < south(r)) {
            r--;
        }
        while (r < n - 1 && lat >= south(r + 1)) {
            r++;
        }
        return r;
    }

    /** The first column whose closed span reaches lon: a lon on a column line is in both. */
    public int firstColumn(double lon) {
        int c = column(lon);
        return c > 0 && lon == west(c) ? c - 1 : c;
    }

    /** The first row whose closed span reaches lat. */
    public int firstRow(double lat) {
        int r = row(lat);
        return r > 0 && lat == south(r) ? r - 1 : r;
    }
}
