package org.quadfence.bench;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.geom.prep.PreparedGeometry;
import org.locationtech.jts.geom.prep.PreparedGeometryFactory;
import org.locationtech.jts.index.ItemVisitor;
import org.locationtech.jts.index.strtree.STRtree;
import org.quadfence.bench.PeerRecords.Fence;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every fence, on one subtask of {@link BroadcastStrTreeJob}, for point queries: a JTS {@link
 * STRtree} over the fences as they were at its last build, and the fences changed since, tested one
 * by one. An STRtree cannot change once built, so it is rebuilt lazily, by the first query after
 * the one-by-one envelope tests since the last build have cost about as much as a build (so that
 * neither the tests nor the builds cost much more than the other), or after deletes and
 * replacements have left more dead entries in it than half the live fences.
 *
 * <p>Exact tests: rectangles by their bounds (closed); circles by the haversine distance to the
 * centre (R = 6,371,008.8 m, contract section 6), not by a buffer; polygons by {@link
 * PreparedGeometry#covers}. A rectangle or circle across the antimeridian gets the whole range of
 * longitudes as its envelope. Not thread-safe.
 */
final class PeerFenceIndex implements ItemVisitor {

    private static final double EARTH_RADIUS_METERS = 6_371_008.8;

    /**
     * Envelope tests that cost about as much as putting one fence in a new tree: measured here,
     * warm, 780 ns a fence for a build of 100,000 and 4.5 ns a test.
     */
    private static final int TESTS_PER_BUILT_FENCE = 170;

    static final Comparator<Entry> BY_ID = Comparator.comparing(e -> e.fence.fenceId);

    private final GeometryFactory geometry = new GeometryFactory();
    private final Map<String, Entry> fences = new HashMap<>();
    private final List<Entry> recent = new ArrayList<>();
    private STRtree tree = new STRtree();
    private long recentTests;
    private int dead;
    private long builds;
    private final Envelope probe = new Envelope();

    // The query being answered, for visitItem.
    private String group;
    private double lon;
    private double lat;
    private Point point;
    private List<Entry> hits;

    /** A fence with what its tests need. */
    static final class Entry {
        final Fence fence;
        final Envelope envelope;
        final PreparedGeometry polygon;
        final double cosLat;
        boolean live = true;

        Entry(Fence fence, Envelope envelope, PreparedGeometry polygon) {
            this.fence = fence;
            this.envelope = envelope;
            this.polygon = polygon;
            this.cosLat =
                    fence.shape == Fence.CIRCLE ? Math.cos(Math.toRadians(fence.coords[1])) : 0;
        }
    }

    /**
     * Adds or replaces the fence {@code f} (not a delete); false, changing nothing, when JTS cannot
     * make a polygon of its rings (unclosed, or fewer than 4 points).
     */
    boolean upsert(Fence f) {
        Entry e;
        try {
            e = entry(f);
        } catch (IllegalArgumentException notAPolygon) {
            return false;
        }
        Entry old = fences.put(f.key(), e);
        if (old != null) {
            old.live = false;
            dead++;
        }
        recent.add(e);
        return true;
    }

    /** Removes the fence of {@code key} ({@link Fence#key()}), if there is one. */
    void delete(String key) {
        Entry old = fences.remove(key);
        if (old != null) {
            old.live = false;
            dead++;
        }
    }

    /** The live fence of {@code key}, or null. */
    Entry get(String key) {
        return fences.get(key);
    }

    /** How many times the tree was built. */
    long builds() {
        return builds;
    }

    /** Sets {@code out} to the fences of {@code group} that cover lon/lat, by ascending id. */
    void covering(String group, double lon, double lat, List<Entry> out) {
        if (recentTests > (long) TESTS_PER_BUILT_FENCE * fences.size()
                || 2 * dead > fences.size()) {
            rebuild();
        }
        this.group = group;
        this.lon = lon;
        this.lat = lat;
        this.point = null;
        this.hits = out;
        out.clear();
        probe.init(lon, lon, lat, lat);
        tree.query(probe, this);
        for (Entry e : recent) {
            if (e.envelope.covers(lon, lat)) {
                visitItem(e);
            }
        }
        recentTests += recent.size();
        out.sort(BY_ID);
    }

    @Override
    public void visitItem(Object item) {
        Entry e = (Entry) item;
        Fence f = e.fence;
        if (e.live && (group == null ? f.group == null : group.equals(f.group)) && covers(e)) {
            hits.add(e);
        }
    }

    private boolean covers(Entry e) {
        double[] c = e.fence.coords;
        switch (e.fence.shape) {
            case Fence.RECT:
                return lat >= c[1]
                        && lat <= c[3]
                        && (c[0] <= c[2] ? lon >= c[0] && lon <= c[2] : lon >= c[0] || lon <= c[2]);
            case Fence.CIRCLE:
                double sinLat = Math.sin(Math.toRadians(lat - c[1]) / 2);
                double sinLon = Math.sin(Math.toRadians(lon - c[0]) / 2);
                double a =
                        sinLat * sinLat
                                + e.cosLat * Math.cos(Math.toRadians(lat)) * sinLon * sinLon;
                return 2 * EARTH_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(a))) <= c[2];
            default:
                if (point == null) {
                    point = geometry.createPoint(new Coordinate(lon, lat));
                }
                return e.polygon.covers(point);
        }
    }

    private void rebuild() {
        tree = new STRtree();
        for (Entry e : fences.values()) {
            tree.insert(e.envelope, e);
        }
        tree.build();
        recent.clear();
        recentTests = 0;
        dead = 0;
        builds++;
    }

    private Entry entry(Fence f) {
        double[] c = f.coords;
        switch (f.shape) {
            case Fence.RECT:
                return new Entry(f, lonRange(c[0], c[2], c[1], c[3]), null);
            case Fence.CIRCLE:
                double dLat = Math.toDegrees(c[2] / EARTH_RADIUS_METERS);
                double cos = Math.cos(Math.toRadians(Math.min(90, Math.abs(c[1]) + dLat)));
                double dLon = cos * 180 > dLat ? dLat / cos : 360;
                return new Entry(
                        f, lonRange(c[0] - dLon, c[0] + dLon, c[1] - dLat, c[1] + dLat), null);
            default:
                Geometry g = polygons(f);
                return new Entry(f, g.getEnvelopeInternal(), PreparedGeometryFactory.prepare(g));
        }
    }

    /** An envelope; one across the antimeridian (min > max, or beyond ±180) spans every lon. */
    private static Envelope lonRange(double min, double max, double minLat, double maxLat) {
        boolean across = min > max || min < -180 || max > 180;
        return new Envelope(across ? -180 : min, across ? 180 : max, minLat, maxLat);
    }

    private Geometry polygons(Fence f) {
        Polygon[] polygons = new Polygon[f.polygonRings.length];
        int ring = 0;
        int point = 0;
        for (int p = 0; p < polygons.length; p++) {
            LinearRing[] rings = new LinearRing[f.polygonRings[p]];
            for (int r = 0; r < rings.length; r++, ring++) {
                Coordinate[] cs = new Coordinate[f.ringPoints[ring]];
                for (int i = 0; i < cs.length; i++, point++) {
                    cs[i] = new Coordinate(f.coords[2 * point], f.coords[2 * point + 1]);
                }
                rings[r] = geometry.createLinearRing(cs);
            }
            LinearRing[] holes = new LinearRing[rings.length - 1];
            System.arraycopy(rings, 1, holes, 0, holes.length);
            polygons[p] = geometry.createPolygon(rings[0], holes);
        }
        return polygons.length == 1 ? polygons[0] : geometry.createMultiPolygon(polygons);
    }
}
