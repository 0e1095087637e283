package org.quadfence.tiles;

import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.CellGrid;
import org.quadfence.geo.Circle;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.Earth;
import org.quadfence.geo.Path;
import org.quadfence.geo.Polygon;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.RectanglePiece;
import org.quadfence.geo.Shape;
import org.quadfence.geo.ShapePiece;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongConsumer;
import java.util.function.ObjLongConsumer;

/**
 * The tiles of level L of the global quadtree over lon [-180, 180] x lat [-90, 90]: 2^L columns by
 * 2^L rows, each cell 360/2^L degrees wide and 180/2^L degrees high. The tiles are the keys that
 * spread fences and positions over the cluster (docs/dataflow.md).
 *
 * <p><b>Which tile a point belongs to.</b> Cells are half-open, [west, east) x [south, north), so a
 * point on a tile line belongs to the tile east of it or north of it. Latitude 90 belongs to the
 * top row. Longitude 180 is the same meridian as -180 and belongs to the westmost column: {@link
 * #foldLon} maps it there, and {@link #cut} registers a fence that touches lon 180 in the westmost
 * column as well. Every cell edge, -180 + i * 360/2^L and -90 + j * 180/2^L, is exact in binary
 * floating point, and point lookup compares with these exact edges, so a point's tile never depends
 * on rounding.
 *
 * <p><b>Tile key.</b> A {@code long}: a marker bit 1 at bit 2L followed by the Morton interleaving
 * of the column x (counted from the west, in the even bits) and the row y (counted from the
 * <em>north</em>, in the odd bits). The level is implied by the marker, so keys of different levels
 * never collide, and the key is plain arithmetic, the same on every JVM. Reading the 2L bits below
 * the marker two at a time from the top gives the quadkey digits.
 *
 * <p><b>Quadkey.</b> Bing Maps style: one digit per level from the top, digit = xbit + 2 * ybit
 * with y counted from the north, so 0 = north-west, 1 = north-east, 2 = south-west, 3 = south-east.
 * Level 0 has the single tile with quadkey "".
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class TileGrid implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The deepest level: 2 * 30 Morton bits plus the marker fit in a positive long. */
    public static final int MAX_LEVEL = 30;

    private final int level;
    private final int n;
    private final double width;
    private final double height;
    private final double columnsPerDegree;
    private final double rowsPerDegree;

    /**
     * The grid of the given level.
     *
     * @throws IllegalArgumentException unless {@code 0 <= level <= MAX_LEVEL}
     */
    public TileGrid(int level) {
        if (level < 0 || level > MAX_LEVEL) {
            throw new IllegalArgumentException(
                    "tile level out of range [0, " + MAX_LEVEL + "]: " + level);
        }
        this.level = level;
        this.n = 1 << level;
        this.width = 360.0 / n;
        this.height = 180.0 / n;
        this.columnsPerDegree = n / 360.0;
        this.rowsPerDegree = n / 180.0;
    }

    /** The level L: the grid has 2^L x 2^L tiles. */
    public int level() {
        return level;
    }

    /**
     * Maps lon 180 to -180 and returns any other longitude unchanged. Tiles hold fences in these
     * folded coordinates: test a point against a tile's {@link ShapePiece} with its folded
     * longitude.
     */
    public static double foldLon(double lon) {
        return lon == 180 ? -180 : lon;
    }

    /**
     * The one tile the point belongs to (half-open cells; lon 180 folds into the westmost column,
     * lat 90 into the top row). Allocates nothing.
     *
     * <p>Precondition: {@code -180 <= lon <= 180} and {@code -90 <= lat <= 90} (not checked: this
     * is the per-position path, and positions are validated when parsed).
     */
    public long tileOf(double lon, double lat) {
        int column = lon == 180 ? 0 : column(lon);
        return key(column, row(lat));
    }

    /**
     * The closed cell of a tile of this level.
     *
     * @throws IllegalArgumentException when the key is not a tile of this level
     */
    public Box cell(long tile) {
        check(tile);
        return cell(columnOf(tile), rowOf(tile));
    }

    /**
     * The quadkey of a tile of this level: {@code level} digits '0'..'3' (see the class comment);
     * "" at level 0.
     *
     * @throws IllegalArgumentException when the key is not a tile of this level
     */
    public String quadkey(long tile) {
        check(tile);
        char[] digits = new char[level];
        for (int i = 0; i < level; i++) {
            digits[i] = (char) ('0' + ((tile >>> (2 * (level - 1 - i))) & 3));
        }
        return new String(digits);
    }

    /**
     * The tile of a quadkey; the inverse of {@link #quadkey}.
     *
     * @throws IllegalArgumentException when the quadkey is null, does not have exactly {@code
     *     level} digits, or has a character other than '0'..'3'
     */
    public long tile(String quadkey) {
        if (quadkey == null || quadkey.length() != level) {
            throw new IllegalArgumentException(
                    "not a level-" + level + " quadkey: " + (quadkey == null ? "null" : quadkey));
        }
        long tile = 1;
        for (int i = 0; i < level; i++) {
            int digit = quadkey.charAt(i) - '0';
            if (digit < 0 || digit > 3) {
                throw new IllegalArgumentException("not a level-" + level + " quadkey: " + quadkey);
            }
            tile = (tile << 2) | digit;
        }
        return tile;
    }

    /**
     * Cuts a fence to the tiles of this grid for the job: {@link #cut(Rectangle, double)}, {@link
     * #cut(Polygon, double)} or {@link #cut(Circle, double)}, by the fence's shape.
     *
     * @param marginMeters 0 for containment only, or the exit margin the pieces must answer
     *     distances for
     * @throws IllegalArgumentException when the margin is negative or not finite
     */
    public List<TileCut> cut(Shape fence, double marginMeters) {
        return cut(fence, marginMeters, 0);
    }

    /**
     * {@link #cut(Shape, double)}, whose pieces also answer {@link ShapePiece#boundaryMeters} like
     * the fence up to {@code insideMeters} (position accuracy, contract section 11): a tile counts
     * as covered only when all of it lies deeper in the fence than that.
     *
     * @param insideMeters at most {@code marginMeters}; 0 when no boundary distance is asked
     */
    public List<TileCut> cut(Shape fence, double marginMeters, double insideMeters) {
        if (fence instanceof Rectangle r) {
            return cut(r, marginMeters, insideMeters);
        }
        if (fence instanceof Circle c) {
            return cut(c, marginMeters);
        }
        return cut((Polygon) fence, marginMeters, insideMeters > 0);
    }

    /**
     * Cuts a rectangle fence to the tiles as exact boxes ({@link Boxes}): one {@link TileCut} for
     * every tile whose closed cell touches the fence (boundaries included, so a fence on a tile
     * line is in the tiles on both sides), each tile exactly once, rows from north to south and
     * west to east within a row. A tile wholly inside holds its whole cell; any other the fence's
     * one or two parts in its closed cell. An antimeridian-crossing fence is in the tiles on both
     * sides; a fence that touches lon 180 is also in the westmost column, as its line at lon -180,
     * because points at lon 180 are looked up there.
     *
     * <p>Cost: one cut per tile touched, covered ones included, so a fence covering a fraction f of
     * the world costs about f * 4^L cuts (a hemisphere at level 10 is half a million). See {@link
     * #tileCount} to ask first.
     *
     * @throws IllegalArgumentException when the fence touches more tiles than a list can hold
     */
    public List<TileCut> cut(Rectangle fence) {
        Box[] parts = parts(fence);
        int[][] columns = columnRanges(parts);
        int south = firstRow(fence.minLat());
        int north = lastRow(fence.maxLat());
        long count = count(columns, south, north);
        if (count > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "fence touches " + count + " level-" + level + " tiles, too many to list");
        }
        List<TileCut> cuts = new ArrayList<>((int) count);
        for (int row = north; row >= south; row--) {
            for (int[] range : columns) {
                for (int column = range[0]; column <= range[1]; column++) {
                    cuts.add(cut(column, row, parts));
                }
            }
        }
        return cuts;
    }

    /**
     * Cuts a rectangle fence to the tiles for an exit margin: without one, {@link #cut(Rectangle)};
     * with one, every tile that has a point within {@code marginMeters} of the fence (the tiles
     * that {@link Shape#boundsWithin} touch, and the westmost column where those reach lon 180),
     * each once, in the order of {@link #cut(Polygon, double)}: a tile wholly inside holds its
     * whole cell, any other a {@link RectanglePiece}, whose distance is the fence's.
     *
     * @throws IllegalArgumentException when the margin is negative or not finite
     */
    public List<TileCut> cut(Rectangle fence, double marginMeters) {
        return cut(fence, marginMeters, 0);
    }

    /**
     * {@link #cut(Rectangle, double)} whose covered tiles are those whose cell, grown by {@code
     * insideMeters}, the fence still covers: every other tile near it holds the rectangle, which
     * answers its boundary distance.
     */
    public List<TileCut> cut(Rectangle fence, double marginMeters, double insideMeters) {
        if (marginMeters == 0) {
            return cut(fence);
        }
        Box[] parts = parts(fence);
        List<TileCut> cuts = new ArrayList<>();
        forEachTile(
                fence.boundsWithin(marginMeters),
                (bounds, tile) -> {
                    Box cell = cell(tile);
                    cuts.add(
                            covers(parts, cell, insideMeters)
                                    ? covered(tile, cell)
                                    : new TileCut(tile, false, new RectanglePiece(fence, bounds)));
                });
        return cuts;
    }

    /**
     * The number of tiles {@link #cut(Rectangle)} returns for this fence, computed without cutting.
     */
    public long tileCount(Rectangle fence) {
        return count(columnRanges(parts(fence)), firstRow(fence.minLat()), lastRow(fence.maxLat()));
    }

    /**
     * The number of tiles whose closed cells the boxes touch, counting a tile once per box: a quick
     * measure of how wide a fence is at this level. The boxes' parts outside lon [-180, 180] x lat
     * [-90, 90] are ignored.
     */
    public long tilesSpanned(List<Box> boxes) {
        long total = 0;
        for (Box box : boxes) {
            Box b = box.intersection(Box.WORLD);
            if (b != null) {
                long columns = lastColumn(b.maxX()) - firstColumn(b.minX()) + 1;
                total += columns * (lastRow(b.maxY()) - firstRow(b.minY()) + 1);
            }
        }
        return total;
    }

    /**
     * Passes every tile whose closed cell intersects the closed box (boundaries included) to {@code
     * out}, rows from north to south and west to east within a row. The box is planar: nothing is
     * folded, and the part of it outside lon [-180, 180] x lat [-90, 90] is ignored.
     */
    public void tilesTouching(Box box, LongConsumer out) {
        Box b = box.intersection(Box.WORLD);
        if (b == null) {
            return;
        }
        int west = firstColumn(b.minX());
        int east = lastColumn(b.maxX());
        int south = firstRow(b.minY());
        for (int row = lastRow(b.maxY()); row >= south; row--) {
            for (int column = west; column <= east; column++) {
                out.accept(key(column, row));
            }
        }
    }

    /**
     * Every tile whose closed cell the closed path meets, lon 180 and -180 being one meridian (a
     * path through lon 180 also meets the westmost column there), each once, in path order: by
     * column in the direction the path runs, and within a column by row in the direction it runs
     * (tiles the path meets at one point, such as four around a corner, in either order). Exactly
     * these tiles ({@link Path#meetsUnwrapped} on each candidate cell, in the unwrapped plane).
     * Work: about the number of tiles returned, and at most about {@code maxTiles + 2 * columns}
     * exact tests.
     *
     * @param maxTiles the most tiles the caller accepts
     * @return the tile keys, or null when more than {@code maxTiles} tiles meet the path
     */
    public long[] tilesOnPath(Path path, int maxTiles) {
        double x0 = path.fromLon();
        double x1 = path.unwrappedToLon();
        double y0 = path.fromLat();
        double y1 = path.toLat();
        // Unwrapped columns, -180 + c * width to -180 + (c + 1) * width for any integer c, and
        // rows, one more on each side than the rounded ends need; the exact test drops extra ones.
        int first = (int) Math.floor((Math.min(x0, x1) + 180) * columnsPerDegree) - 1;
        int last = (int) Math.floor((Math.max(x0, x1) + 180) * columnsPerDegree) + 1;
        PathTiles out = new PathTiles(path, maxTiles, last - first + 1 > n);
        if (x0 == x1) {
            // Along a meridian the path may run on a column line: rows first, for path order.
            int south = Math.max(0, row(Math.min(y0, y1)) - 1);
            int north = Math.min(n - 1, row(Math.max(y0, y1)) + 1);
            for (int j = 0; j <= north - south; j++) {
                int row = y1 >= y0 ? south + j : north - j;
                for (int c = first; c <= last; c++) {
                    if (!out.add(c, row)) {
                        return null;
                    }
                }
            }
            return out.tiles();
        }
        for (int i = 0; i <= last - first; i++) {
            int c = x1 > x0 ? first + i : last - i;
            double[] ys = latitudesIn(x0, y0, x1, y1, -180 + c * width, -180 + (c + 1) * width);
            if (ys == null) {
                continue;
            }
            int south = Math.max(0, row(Math.min(ys[0], ys[1])) - 1);
            int north = Math.min(n - 1, row(Math.max(ys[0], ys[1])) + 1);
            for (int j = 0; j <= north - south; j++) {
                if (!out.add(c, y1 >= y0 ? south + j : north - j)) {
                    return null;
                }
            }
        }
        return out.tiles();
    }

    // The tiles found on a path: each candidate, in an unwrapped column, tested exactly in the
    // unwrapped plane (so only where this copy of the cell meets the path), kept once, up to a
    // limit.
    private final class PathTiles {
        private final Path path;
        private final int most;
        private final Set<Long> seen;
        private long[] tiles;
        private int count;

        PathTiles(Path path, int maxTiles, boolean repeats) {
            this.path = path;
            this.most = Math.max(0, maxTiles);
            this.seen = repeats ? new HashSet<>() : null;
            this.tiles = new long[Math.min(most, 64)];
        }

        // False when the tile meets the path and would be one too many.
        boolean add(int unwrappedColumn, int row) {
            long tile = key(Math.floorMod(unwrappedColumn, n), row);
            Box copy =
                    new Box(
                            -180 + unwrappedColumn * width,
                            south(row),
                            -180 + (unwrappedColumn + 1) * width,
                            south(row + 1));
            if ((seen != null && seen.contains(tile)) || !path.meetsUnwrapped(copy)) {
                return true;
            }
            if (count == most) {
                return false;
            }
            if (seen != null) {
                seen.add(tile);
            }
            if (count == tiles.length) {
                tiles = Arrays.copyOf(tiles, (int) Math.min(most, 2L * count));
            }
            tiles[count++] = tile;
            return true;
        }

        long[] tiles() {
            return Arrays.copyOf(tiles, count);
        }
    }

    // The rounded latitudes of the segment (x0, y0)-(x1, y1) where it enters and leaves the
    // column [west, east], or null when its longitudes stay clear of the column.
    private static double[] latitudesIn(
            double x0, double y0, double x1, double y1, double west, double east) {
        double lo = Math.max(west, Math.min(x0, x1));
        double hi = Math.min(east, Math.max(x0, x1));
        if (lo > hi) {
            return null;
        }
        if (x0 == x1) {
            return new double[] {y0, y1};
        }
        double slope = (y1 - y0) / (x1 - x0);
        return new double[] {y0 + (lo - x0) * slope, y0 + (hi - x0) * slope};
    }

    /**
     * An upper bound of the tiles {@link #tilesOnPath} returns at {@code level} for a path that
     * spans at most {@code lonDegrees} of longitude (the shorter way, at most 180) and {@code
     * latDegrees} of latitude: 2 * (floor(lonDegrees / w) + floor(latDegrees / h)) + 4, with the
     * tile width w = 360 / 2^level and height h = 180 / 2^level degrees, saturated at {@link
     * Integer#MAX_VALUE}. Why: the path meets at most floor(lonDegrees / w) + 2 columns, and in
     * each at most floor(dy / h) + 2 rows, dy its latitude span in that column; those spans add up
     * to the whole span (only a path along a column line is in two columns at once, and then the
     * bound holds with the two columns' rows).
     *
     * @throws IllegalArgumentException when a span is negative or not finite, or the level out of
     *     range
     */
    public static int maxTilesOnSpan(double lonDegrees, double latDegrees, int level) {
        if (!(lonDegrees >= 0 && latDegrees >= 0)
                || Double.isInfinite(lonDegrees + latDegrees)
                || level < 0
                || level > MAX_LEVEL) {
            throw new IllegalArgumentException(
                    "spans must be finite and >= 0, level in [0, 30]: "
                            + lonDegrees
                            + ", "
                            + latDegrees
                            + ", "
                            + level);
        }
        double tiles = 1 << level;
        // The slack keeps a span that is a whole number of tiles from flooring one short.
        double columns = Math.floor(Math.min(lonDegrees, 180) / 360 * tiles * (1 + 1e-12));
        double rows = Math.floor(Math.min(latDegrees, 180) / 180 * tiles * (1 + 1e-12));
        return (int) Math.min(Integer.MAX_VALUE, 2 * (columns + rows) + 4);
    }

    /**
     * An upper bound of the tiles {@link #tilesOnPath} returns at {@code level} for a path between
     * two positions at most {@code maxMeters} apart (haversine) whose latitudes are at most {@code
     * maxAbsLat} from the equator: {@link #maxTilesOnSpan} of the spans such a path can have, dLat
     * = maxMeters / R and dLon = 2 asin(sin(maxMeters / 2R) / cos(maxAbsLat)) (in radians; 180
     * degrees when the sine would pass 1), from hav(d) = hav(dLat) + cos(lat1) cos(lat2) hav(dLon).
     * Near the poles a short path can cross every longitude, so the bound grows without limit as
     * maxAbsLat nears 90: at 90 it is the bound for a path that spans 180 degrees of longitude. For
     * the default 50 km at level 12: 34 tiles at the equator, 44 up to latitude 60, 62 up to 75,
     * 140 up to 85, 4,120 anywhere.
     *
     * @throws IllegalArgumentException when maxMeters is negative or not finite, maxAbsLat is not
     *     in [0, 90], or the level out of range
     */
    public static int maxTilesOnPath(double maxMeters, double maxAbsLat, int level) {
        if (!(maxMeters >= 0 && maxMeters < Double.POSITIVE_INFINITY)
                || !(maxAbsLat >= 0 && maxAbsLat <= 90)) {
            throw new IllegalArgumentException(
                    "maxMeters must be finite and >= 0, maxAbsLat in [0, 90]: "
                            + maxMeters
                            + ", "
                            + maxAbsLat);
        }
        double delta = maxMeters / Earth.RADIUS_METERS;
        double dLat = Math.toDegrees(delta);
        double sin =
                Math.sin(Math.min(Math.PI / 2, delta / 2)) / Math.cos(Math.toRadians(maxAbsLat));
        double dLon = sin >= 1 ? 180 : Math.toDegrees(2 * Math.asin(sin));
        return maxTilesOnSpan(dLon * (1 + 1e-9), dLat * (1 + 1e-9), level);
    }

    /** {@link #maxTilesOnPath(double, double, int)} for paths anywhere, poles included. */
    public static int maxTilesOnPath(double maxMeters, int level) {
        return maxTilesOnPath(maxMeters, 90, level);
    }

    /**
     * Cuts a polygon fence to the tiles (see {@link Polygon#cut}): one {@link TileCut} for every
     * tile that the fence meets (boundaries included) or, with a margin, that has a point within
     * {@code marginMeters} of it, each tile once, rows from north to south and west to east within
     * a row. A tile wholly inside holds its whole cell; any other a {@link
     * org.quadfence.geo.PolygonPiece} with only the fence's edges near that tile, which answers
     * {@link ShapePiece#contains} exactly like the fence, and {@link ShapePiece#distanceMeters}
     * like the fence whenever that is within the margin, for every point of the tile given with its
     * folded longitude. Tiles in the westmost column also answer for points at lon 180. Tiles that
     * the fence's bounding box touches but the fence does not get nothing.
     *
     * <p>Cost: about the number of tiles the fence's edges pass through (and, with a margin, the
     * tiles within the margin of them), times a log, plus one step per covered tile; a tile's piece
     * holds only the edges that meet it, so a country-sized fence is not copied into each tile.
     *
     * @param marginMeters 0 for containment only, or the hysteresis margin the pieces must answer
     *     distances for
     * @throws IllegalArgumentException when the margin is negative or not finite
     */
    public List<TileCut> cut(Polygon fence, double marginMeters) {
        return cut(fence, marginMeters, false);
    }

    /**
     * {@link #cut(Polygon, double)}, whose pieces also answer {@link ShapePiece#boundaryMeters}
     * within the margin when {@code boundaries} ({@link Polygon#cut(CellGrid, double, boolean,
     * boolean, Polygon.CellSink)}).
     */
    public List<TileCut> cut(Polygon fence, double marginMeters, boolean boundaries) {
        List<TileCut> cuts = new ArrayList<>();
        fence.cut(
                new CellGrid(level, level),
                marginMeters,
                true,
                boundaries,
                (column, row, piece) -> {
                    long tile = key(column, row);
                    cuts.add(
                            piece == null
                                    ? covered(tile, cell(column, row))
                                    : new TileCut(tile, false, piece));
                });
        return cuts;
    }

    /**
     * Cuts a circle fence to the tiles: one {@link TileCut} for every tile that the bounding boxes
     * of the circle grown by {@code marginMeters} touch ({@link Circle#boundsWithin}), each tile
     * once, in the order of {@link #cut(Polygon, double)}. Each holds the circle as a {@link
     * CirclePiece} whose bounds are the boxes' part in the tile, none is marked covered. For a
     * small circle away from the poles that is about 4/pi times the tiles the circle touches; a
     * circle reaching a pole gets every longitude of its latitudes.
     *
     * @throws IllegalArgumentException when the margin is negative or not finite
     */
    public List<TileCut> cut(Circle fence, double marginMeters) {
        List<TileCut> cuts = new ArrayList<>();
        forEachTile(
                fence.boundsWithin(marginMeters),
                (bounds, tile) ->
                        cuts.add(new TileCut(tile, false, CirclePiece.of(fence, bounds))));
        return cuts;
    }

    // Every tile the boxes touch, with the hull of their parts in its cell; a box that reaches lon
    // 180 also touches the westmost column, as its line at lon -180.
    private void forEachTile(List<Box> boxes, ObjLongConsumer<Box> out) {
        List<Box> parts = new ArrayList<>(boxes);
        for (Box b : boxes) {
            if (b.maxX() == 180) {
                parts.add(new Box(-180, b.minY(), -180, b.maxY()));
            }
        }
        int south = Integer.MAX_VALUE;
        int north = 0;
        for (Box b : parts) {
            south = Math.min(south, firstRow(b.minY()));
            north = Math.max(north, lastRow(b.maxY()));
        }
        for (int row = north; row >= south; row--) {
            Box band = cell(0, row);
            List<Box> inRow = new ArrayList<>();
            for (Box b : parts) {
                if (b.minY() <= band.maxY() && b.maxY() >= band.minY()) {
                    inRow.add(b);
                }
            }
            for (int[] range : columnRanges(inRow.toArray(new Box[0]))) {
                for (int column = range[0]; column <= range[1]; column++) {
                    Box cell = cell(column, row);
                    Box hull = null;
                    for (Box b : inRow) {
                        Box part = b.intersection(cell);
                        if (part != null) {
                            hull = hull == null ? part : hull.hull(part);
                        }
                    }
                    out.accept(hull, key(column, row));
                }
            }
        }
    }

    // The fence's planar parts plus, when one touches lon 180 and none touches -180, its line at
    // -180. The parts are pairwise disjoint, so a cell gets at most one clip from each.
    private static Box[] parts(Rectangle fence) {
        List<Box> bounds = fence.bounds();
        boolean touchesEast = bounds.stream().anyMatch(b -> b.maxX() == 180);
        boolean touchesWest = bounds.stream().anyMatch(b -> b.minX() == -180);
        if (touchesEast && !touchesWest) {
            Box folded = new Box(-180, fence.minLat(), -180, fence.maxLat());
            return new Box[] {bounds.get(0), folded};
        }
        return bounds.toArray(new Box[0]);
    }

    private TileCut cut(int column, int row, Box[] parts) {
        Box cell = cell(column, row);
        long tile = key(column, row);
        if (covers(parts, cell)) {
            return covered(tile, cell);
        }
        List<Box> clips = new ArrayList<>(2);
        for (Box part : parts) {
            Box clip = part.intersection(cell);
            if (clip != null) {
                clips.add(clip);
            }
        }
        return new TileCut(tile, false, new Boxes(clips));
    }

    // With a distance: every box of the cell grown by it lies in one part (conservative).
    private static boolean covers(Box[] parts, Box cell, double meters) {
        if (meters == 0) {
            return covers(parts, cell);
        }
        for (Box grown : Earth.grow(cell, meters)) {
            if (!covers(parts, grown)) {
                return false;
            }
        }
        return true;
    }

    private static boolean covers(Box[] parts, Box cell) {
        for (Box part : parts) {
            if (part.covers(cell)) {
                return true;
            }
        }
        return false;
    }

    private static TileCut covered(long tile, Box cell) {
        return new TileCut(tile, true, Boxes.of(cell));
    }

    // Column ranges [first, last] the parts touch, sorted and merged so no column repeats.
    private int[][] columnRanges(Box[] parts) {
        int[][] ranges = new int[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            ranges[i] = new int[] {firstColumn(parts[i].minX()), lastColumn(parts[i].maxX())};
        }
        Arrays.sort(ranges, Comparator.comparingInt((int[] r) -> r[0]));
        List<int[]> merged = new ArrayList<>(ranges.length);
        for (int[] r : ranges) {
            int[] last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
            if (last != null && r[0] <= last[1] + 1) {
                last[1] = Math.max(last[1], r[1]);
            } else {
                merged.add(r);
            }
        }
        return merged.toArray(new int[0][]);
    }

    private static long count(int[][] columns, int south, int north) {
        long width = 0;
        for (int[] range : columns) {
            width += range[1] - range[0] + 1;
        }
        return width * (north - south + 1);
    }

    // The column whose half-open cell holds lon, lon 180 clamped into the eastmost column. The
    // estimate can be off by rounding of (lon + 180) * n / 360; the exact edges correct it.
    private int column(double lon) {
        int c = Math.max(0, Math.min(n - 1, (int) ((lon + 180) * columnsPerDegree)));
        while (c > 0 && lon < west(c)) {
            c--;
        }
        while (c < n - 1 && lon >= west(c + 1)) {
            c++;
        }
        return c;
    }

    // The row (counted from the south) whose half-open cell holds lat, lat 90 in the top row.
    private int row(double lat) {
        int r = Math.max(0, Math.min(n - 1, (int) ((lat + 90) * rowsPerDegree)));
        while (r > 0 && lat < south(r)) {
            r--;
        }
        while (r < n - 1 && lat >= south(r + 1)) {
            r++;
        }
        return r;
    }

    // The first column whose closed cell reaches lon: a lon on a tile line also touches the west.
    private int firstColumn(double lon) {
        int c = column(lon);
        return c > 0 && lon == west(c) ? c - 1 : c;
    }

    private int lastColumn(double lon) {
        return column(lon);
    }

    private int firstRow(double lat) {
        int r = row(lat);
        return r > 0 && lat == south(r) ? r - 1 : r;
    }

    private int lastRow(double lat) {
        return row(lat);
    }

    // Exact: c * width is a small integer times a power of two, and so is the sum.
    private double west(int column) {
        return -180 + column * width;
    }

    private double south(int row) {
        return -90 + row * height;
    }

    private Box cell(int column, int row) {
        return new Box(west(column), south(row), west(column + 1), south(row + 1));
    }

    private long key(int column, int row) {
        int fromNorth = n - 1 - row;
        return (1L << (2 * level)) | spread(column) | (spread(fromNorth) << 1);
    }

    private int columnOf(long tile) {
        return compact(tile & ((1L << (2 * level)) - 1));
    }

    private int rowOf(long tile) {
        return n - 1 - compact((tile & ((1L << (2 * level)) - 1)) >>> 1);
    }

    private void check(long tile) {
        if (tile >>> (2 * level) != 1) {
            throw new IllegalArgumentException(
                    "not a level-" + level + " tile: 0x" + Long.toHexString(tile));
        }
    }

    // Moves bit i of v to bit 2i.
    private static long spread(int v) {
        long x = v & 0xFFFFFFFFL;
        x = (x | (x << 16)) & 0x0000FFFF0000FFFFL;
        x = (x | (x << 8)) & 0x00FF00FF00FF00FFL;
        x = (x | (x << 4)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x << 2)) & 0x3333333333333333L;
        x = (x | (x << 1)) & 0x5555555555555555L;
        return x;
    }

    // Moves bit 2i of x to bit i; the inverse of spread.
    private static int compact(long x) {
        x &= 0x5555555555555555L;
        x = (x | (x >>> 1)) & 0x3333333333333333L;
        x = (x | (x >>> 2)) & 0x0F0F0F0F0F0F0F0FL;
        x = (x | (x >>> 4)) & 0x00FF00FF00FF00FFL;
        x = (x | (x >>> 8)) & 0x0000FFFF0000FFFFL;
        x = (x | (x >>> 16)) & 0x00000000FFFFFFFFL;
        return (int) x;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TileGrid g && g.level == level;
    }

    @Override
    public int hashCode() {
        return level;
    }

    @Override
    public String toString() {
        return "TileGrid(level " + level + ")";
    }
}
