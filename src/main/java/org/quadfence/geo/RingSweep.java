package org.quadfence.geo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The topology checks of {@link Polygon#of}, all rings of a fence in one plane sweep (Shamos and
 * Hoey's segment intersection test, 1976): a ring may not cross or touch itself (its edges meet
 * only where one ends and the next begins); no two rings may cross or touch, within a polygon or
 * across the polygons of a MultiPolygon, except that polygons may touch at single points on lon 180
 * or -180, where the halves of a polygon split at the antimeridian meet (a piece that touched the
 * antimeridian at a vertex splits into halves that touch there), as long as they do not cross
 * there; each hole lies inside its own exterior ring and no other hole of its polygon; and a
 * polygon lies inside another only in one of its holes.
 *
 * <p>The sweep visits the vertices from west to east (by x, then y) and keeps the edges the sweep
 * line cuts in order from south to north; two edges that meet are neighbours in that order at some
 * point before the sweep passes where they meet, so testing neighbours finds the first forbidden
 * meeting. The innermost ring around each ring is read off the same order: just after a ring's
 * first vertex, the edge below its lower edge is the nearest boundary south of it. Exact: every
 * decision is a comparison of coordinates or an exact {@link Orientation} test. Cost: O(n log n)
 * for n edges, however the edges lie (JTS's validation indexes edge boxes, which a star of long
 * spikes makes quadratic).
 */
final class RingSweep {

    /**
     * One edge of a ring, its endpoints in sweep order: a before b (smaller x, or y at equal x).
     */
    private static final class Edge {
        final int id;
        final int ring;
        final int index;
        // True when the ring runs from a to b.
        final boolean forward;
        final double ax;
        final double ay;
        final double bx;
        final double by;

        Edge(int id, int ring, int index, double px, double py, double qx, double qy) {
            this.id = id;
            this.ring = ring;
            this.index = index;
            this.forward = before(px, py, qx, qy);
            // + 0.0 turns -0.0 into 0.0, the same point for the sweep's sort.
            this.ax = (forward ? px : qx) + 0.0;
            this.ay = (forward ? py : qy) + 0.0;
            this.bx = (forward ? qx : px) + 0.0;
            this.by = (forward ? qy : py) + 0.0;
        }
    }

    /** Where two edges meet: "cross" (at a point inside both), "touch" or "overlap". */
    private record Contact(String how, double x, double y) {}

    private final List<Edge> edges = new ArrayList<>();
    private final int[] polygonOf;
    private final int[] ringOf;
    private final int[] firstEdge;
    // Per ring, the index of its first vertex in sweep order (and of the edge leaving it).
    private final int[] westmost;
    private final boolean[] ccw;
    private final int[] parent;
    private final TreeSet<Edge> status = new TreeSet<>(RingSweep::compare);
    private final NavigableMap<Double, List<double[]>> westTouches = new TreeMap<>();
    private final NavigableMap<Double, List<double[]>> eastTouches = new TreeMap<>();

    private RingSweep(double[][][] polygons) {
        int rings = 0;
        for (double[][] p : polygons) {
            rings += p.length;
        }
        polygonOf = new int[rings];
        ringOf = new int[rings];
        firstEdge = new int[rings + 1];
        westmost = new int[rings];
        ccw = new boolean[rings];
        parent = new int[rings];
        int k = 0;
        for (int p = 0; p < polygons.length; p++) {
            for (int r = 0; r < polygons[p].length; r++, k++) {
                polygonOf[k] = p;
                ringOf[k] = r;
                firstEdge[k] = edges.size();
                addRing(k, polygons[p][r]);
            }
        }
        firstEdge[rings] = edges.size();
    }

    /**
     * Checks the rings of a fence whose rings are each closed, in range and of at least 3 distinct
     * positions.
     *
     * @throws IllegalArgumentException naming the ring or rings and a position: "ring r of polygon
     *     p intersects itself at", "rings cross or touch: " two rings that meet or two polygons one
     *     inside the other, or "a hole of polygon p lies" outside its exterior ring or inside
     *     another hole
     */
    static void check(double[][][] polygons) {
        RingSweep sweep = new RingSweep(polygons);
        sweep.sweep();
        sweep.checkMeridianTouches();
        sweep.checkShells();
        sweep.checkHoles();
    }

    // The ring's edges without repeated positions, its first vertex in sweep order and the turn
    // there, which is the ring's orientation.
    private void addRing(int k, double[] ring) {
        double[] v = new double[ring.length];
        int m = 0;
        for (int i = 0; i + 2 < ring.length; i += 2) {
            if (m == 0 || ring[i] != v[m - 2] || ring[i + 1] != v[m - 1]) {
                v[m++] = ring[i];
                v[m++] = ring[i + 1];
            }
        }
        if (v[m - 2] == v[0] && v[m - 1] == v[1]) {
            m -= 2;
        }
        int n = m / 2;
        int low = 0;
        for (int i = 0; i < n; i++) {
            Edge e =
                    new Edge(
                            edges.size(),
                            k,
                            i,
                            v[2 * i],
                            v[2 * i + 1],
                            v[(2 * i + 2) % m],
                            v[(2 * i + 3) % m]);
            edges.add(e);
            low = before(v[2 * i], v[2 * i + 1], v[2 * low], v[2 * low + 1]) ? i : low;
        }
        int prev = (low + n - 1) % n;
        int next = (low + 1) % n;
        westmost[k] = low;
        ccw[k] =
                Orientation.index(
                                v[2 * prev],
                                v[2 * prev + 1],
                                v[2 * low],
                                v[2 * low + 1],
                                v[2 * next],
                                v[2 * next + 1])
                        > 0;
    }

    private static boolean before(double px, double py, double qx, double qy) {
        return px < qx || (px == qx && py < qy);
    }

    // Events in sweep order, point by point.
    private void sweep() {
        Integer[] events = new Integer[2 * edges.size()];
        for (int i = 0; i < events.length; i++) {
            events[i] = i;
        }
        Arrays.sort(
                events,
                Comparator.comparingDouble(this::eventX)
                        .thenComparingDouble(this::eventY)
                        .thenComparingInt(e -> e & 1));
        boolean[] seen = new boolean[ringOf.length];
        for (int i = 0, j; i < events.length; i = j) {
            j = i + 1;
            while (j < events.length
                    && eventX(events[j]) == eventX(events[i])
                    && eventY(events[j]) == eventY(events[i])) {
                j++;
            }
            visit(Arrays.copyOfRange(events, i, j), seen);
        }
    }

    // One point: the edges that end here leave the sweep, then those that start here enter it,
    // and the rings that start here are placed.
    private void visit(Integer[] here, boolean[] seen) {
        List<Integer> first = new ArrayList<>();
        for (int event : here) {
            Edge e = edges.get(event >> 1);
            if ((event & 1) == 0) {
                leave(e);
            } else {
                enter(e);
                if (!seen[e.ring]) {
                    seen[e.ring] = true;
                    first.add(e.ring);
                }
            }
        }
        checkVertices(here);
        place(first);
    }

    // Two vertices at one point meet, and the sweep need not make their edges neighbours (when
    // one vertex's edges all end here and the other's all start here): each vertex has two events.
    private void checkVertices(Integer[] here) {
        if (here.length == 2) {
            return;
        }
        Integer[] vertices =
                Arrays.stream(here)
                        .map(this::vertexOf)
                        .distinct()
                        .sorted(Comparator.comparingInt(v -> polygonOf[edges.get(v).ring]))
                        .toArray(Integer[]::new);
        double x = eventX(here[0]);
        double y = eventY(here[0]);
        for (int i = 1; i < vertices.length; i++) {
            int a = edges.get(vertices[i - 1]).ring;
            int b = edges.get(vertices[i]).ring;
            if (polygonOf[a] == polygonOf[b] || Math.abs(x) != 180) {
                throw new IllegalArgumentException(meeting(a, b, new Contact("touch", x, y)));
            }
        }
        touches(x).putIfAbsent(y, new ArrayList<>());
    }

    // The vertex at the event's point, as the id of the edge that leaves it along the ring.
    private int vertexOf(int event) {
        Edge e = edges.get(event >> 1);
        boolean ringStart = ((event & 1) == 1) == e.forward;
        int n = firstEdge[e.ring + 1] - firstEdge[e.ring];
        return ringStart ? e.id : firstEdge[e.ring] + (e.index + 1) % n;
    }

    // Event 2 e ends edge e, event 2 e + 1 starts it.
    private double eventX(int event) {
        Edge e = edges.get(event >> 1);
        return (event & 1) == 0 ? e.bx : e.ax;
    }

    private double eventY(int event) {
        Edge e = edges.get(event >> 1);
        return (event & 1) == 0 ? e.by : e.ay;
    }

    private void enter(Edge e) {
        status.add(e);
        test(status.lower(e), e);
        test(e, status.higher(e));
    }

    private void leave(Edge e) {
        Edge below = status.lower(e);
        Edge above = status.higher(e);
        status.remove(e);
        test(below, above);
    }

    /**
     * The order of two edges the sweep line cuts, south to north, decided where the later of them
     * starts: both are cut there, and they keep their order until they meet.
     */
    private static int compare(Edge s, Edge t) {
        if (s == t) {
            return 0;
        }
        return before(s.ax, s.ay, t.ax, t.ay) ? -side(s, t) : side(t, s);
    }

    // 1 when u, which starts within o's span, lies north of o there; ties by u's direction, then
    // (for overlapping edges, which the sweep reports) by id.
    private static int side(Edge o, Edge u) {
        int at = Orientation.index(o.ax, o.ay, o.bx, o.by, u.ax, u.ay);
        if (at != 0) {
            return at;
        }
        int toward = Orientation.index(o.ax, o.ay, o.bx, o.by, u.bx, u.by);
        return toward != 0 ? toward : Integer.compare(u.id, o.id);
    }

    private void test(Edge s, Edge t) {
        if (s == null || t == null) {
            return;
        }
        Contact c = contact(s, t);
        if (c == null || adjacent(s, t) && c.how().equals("touch")) {
            return;
        }
        if (polygonOf[s.ring] != polygonOf[t.ring]
                && c.how().equals("touch")
                && Math.abs(c.x()) == 180) {
            touches(c.x()).putIfAbsent(c.y(), new ArrayList<>());
            return;
        }
        throw new IllegalArgumentException(meeting(s.ring, t.ring, c));
    }

    private boolean adjacent(Edge s, Edge t) {
        if (s.ring != t.ring) {
            return false;
        }
        int d = Math.abs(s.index - t.index);
        return d == 1 || d == firstEdge[s.ring + 1] - firstEdge[s.ring] - 1;
    }

    /** Where the closed edges meet, exactly; null when they do not. */
    private static Contact contact(Edge s, Edge t) {
        int o1 = Orientation.index(s.ax, s.ay, s.bx, s.by, t.ax, t.ay);
        int o2 = Orientation.index(s.ax, s.ay, s.bx, s.by, t.bx, t.by);
        int o3 = Orientation.index(t.ax, t.ay, t.bx, t.by, s.ax, s.ay);
        int o4 = Orientation.index(t.ax, t.ay, t.bx, t.by, s.bx, s.by);
        if (o1 == 0 && o2 == 0) {
            return collinear(s, t);
        }
        if (o1 * o2 > 0 || o3 * o4 > 0) {
            return null;
        }
        if (o1 != 0 && o2 != 0 && o3 != 0 && o4 != 0) {
            return crossing(s, t);
        }
        if (o1 == 0) {
            return new Contact("touch", t.ax, t.ay);
        }
        if (o2 == 0) {
            return new Contact("touch", t.bx, t.by);
        }
        return o3 == 0 ? new Contact("touch", s.ax, s.ay) : new Contact("touch", s.bx, s.by);
    }

    // Where the edges cross, rounded: for the message only.
    private static Contact crossing(Edge s, Edge t) {
        double rx = s.bx - s.ax;
        double ry = s.by - s.ay;
        double dx = t.bx - t.ax;
        double dy = t.by - t.ay;
        double f = ((t.ax - s.ax) * dy - (t.ay - s.ay) * dx) / (rx * dy - ry * dx);
        return new Contact("cross", s.ax + f * rx, s.ay + f * ry);
    }

    // Edges on one line meet where the later start comes no later than the earlier end.
    private static Contact collinear(Edge s, Edge t) {
        boolean sLater = before(t.ax, t.ay, s.ax, s.ay);
        double fromX = sLater ? s.ax : t.ax;
        double fromY = sLater ? s.ay : t.ay;
        boolean sEarlier = before(s.bx, s.by, t.bx, t.by);
        double toX = sEarlier ? s.bx : t.bx;
        double toY = sEarlier ? s.by : t.by;
        if (before(toX, toY, fromX, fromY)) {
            return null;
        }
        return new Contact(fromX == toX && fromY == toY ? "touch" : "overlap", fromX, fromY);
    }

    // Rings are numbered polygon by polygon, so the lower number comes first in the message.
    private String meeting(int a, int b, Contact c) {
        String at = " at " + point(c.x(), c.y());
        if (a == b) {
            return PolygonValidation.name(polygonOf[a], ringOf[a])
                    + " intersects itself"
                    + at
                    + ": edges may meet only where one ends and the next begins";
        }
        int first = Math.min(a, b);
        int second = Math.max(a, b);
        return "rings cross or touch: "
                + PolygonValidation.name(polygonOf[first], ringOf[first])
                + " and "
                + PolygonValidation.name(polygonOf[second], ringOf[second])
                + " "
                + c.how()
                + at
                + (polygonOf[a] == polygonOf[b]
                        ? ": a hole may not touch its exterior ring or another hole"
                        : ": the polygons of a MultiPolygon may not overlap or touch; merge them"
                                + " into one");
    }

    // The innermost ring around each ring that starts here, from the edge just south of its
    // lower first edge: inside that edge's ring when its interior lies north of the edge, else
    // beside it. Bottom up, so that a ring starting here too is placed first.
    private void place(List<Integer> rings) {
        List<Edge> lower = new ArrayList<>();
        for (int k : rings) {
            int n = firstEdge[k + 1] - firstEdge[k];
            Edge e = edges.get(firstEdge[k] + westmost[k]);
            Edge f = edges.get(firstEdge[k] + (westmost[k] + n - 1) % n);
            lower.add(compare(e, f) < 0 ? e : f);
        }
        lower.sort(RingSweep::compare);
        for (Edge e : lower) {
            Edge south = status.lower(e);
            parent[e.ring] =
                    south == null
                            ? -1
                            : ccw[south.ring] == south.forward ? south.ring : parent[south.ring];
        }
    }

    // Polygons touching at a point of lon +-180 must not cross there: around the point, from one
    // end of the meridian to the other, each ring's two edges must enclose whole pairs only.
    private void checkMeridianTouches() {
        for (Edge e : edges) {
            addAround(e.ax, e.ay, e.bx, e.by, e.ring);
            addAround(e.bx, e.by, e.ax, e.ay, e.ring);
            if (e.ax == e.bx && Math.abs(e.ax) == 180) {
                for (List<double[]> at : touches(e.ax).subMap(e.ay, false, e.by, false).values()) {
                    at.add(new double[] {e.ax, e.ay, e.ring});
                    at.add(new double[] {e.bx, e.by, e.ring});
                }
            }
        }
        for (double x : new double[] {-180, 180}) {
            for (var at : touches(x).entrySet()) {
                checkAround(x, at.getKey(), at.getValue());
            }
        }
    }

    // The points of lon x where polygons touch, each with the rings' edges there, as the other
    // end of the edge (the ray's direction) and the ring.
    private NavigableMap<Double, List<double[]>> touches(double x) {
        return x < 0 ? westTouches : eastTouches;
    }

    private void addAround(double x, double y, double towardX, double towardY, int ring) {
        if (Math.abs(x) == 180) {
            List<double[]> at = touches(x).get(y);
            if (at != null) {
                at.add(new double[] {towardX, towardY, ring});
            }
        }
    }

    private void checkAround(double x, double y, List<double[]> rays) {
        rays.sort((u, v) -> turn(x, y, u, v));
        int[] open = new int[rays.size()];
        int depth = 0;
        for (double[] u : rays) {
            int ring = (int) u[2];
            if (depth > 0 && open[depth - 1] == ring) {
                depth--;
            } else {
                open[depth++] = ring;
            }
        }
        if (depth > 0) {
            throw new IllegalArgumentException(
                    meeting(open[0], open[1], new Contact("cross", x, y)));
        }
    }

    // Rays from (x, y) on lon +-180 in counter-clockwise order, from the meridian's one end (north
    // at 180, south at -180) over the side where the fence lies to its other end.
    private static int turn(double x, double y, double[] u, double[] v) {
        int c = Integer.compare(half(x, y, u), half(x, y, v));
        return c != 0 ? c : -Orientation.index(x, y, u[0], u[1], v[0], v[1]);
    }

    private static int half(double x, double y, double[] u) {
        if (u[0] != x) {
            return 1;
        }
        return (u[1] > y) == (x > 0) ? 0 : 2;
    }

    // With no rings meeting and no polygon inside another's interior, a hole is valid exactly when
    // the innermost ring around it is its own exterior ring; the first that is not gets a message
    // from the first ring of its own polygon around it.
    private void checkHoles() {
        for (int k = 0; k < ringOf.length; k++) {
            if (ringOf[k] == 0 || isShellOf(parent[k], polygonOf[k])) {
                continue;
            }
            int up = parent[k];
            while (up >= 0 && polygonOf[up] != polygonOf[k]) {
                up = parent[up];
            }
            String where =
                    up < 0
                            ? "outside its exterior ring (ring 0)"
                            : ringOf[up] != 0
                                    ? "inside another hole (ring " + ringOf[up] + ")"
                                    : "inside "
                                            + PolygonValidation.name(
                                                    polygonOf[parent[k]], ringOf[parent[k]]);
            throw new IllegalArgumentException(
                    "a hole of polygon "
                            + polygonOf[k]
                            + " lies "
                            + where
                            + ": ring "
                            + ringOf[k]
                            + ", at "
                            + firstPoint(k));
        }
    }

    private boolean isShellOf(int ring, int polygon) {
        return ring >= 0 && polygonOf[ring] == polygon && ringOf[ring] == 0;
    }

    // A polygon may lie in another polygon's hole, not in its interior.
    private void checkShells() {
        for (int k = 0; k < ringOf.length; k++) {
            int up = parent[k];
            if (ringOf[k] == 0 && up >= 0 && ringOf[up] == 0) {
                throw new IllegalArgumentException(
                        "rings cross or touch: polygon "
                                + polygonOf[k]
                                + " lies inside polygon "
                                + polygonOf[up]
                                + ", at "
                                + firstPoint(k)
                                + ": a polygon of a MultiPolygon may lie inside another only in"
                                + " one of its holes");
            }
        }
    }

    // The ring's first vertex in sweep order.
    private String firstPoint(int k) {
        Edge e = edges.get(firstEdge[k] + westmost[k]);
        return point(e.ax, e.ay);
    }

    private static String point(double x, double y) {
        return "[" + x + ", " + y + "]";
    }
}
