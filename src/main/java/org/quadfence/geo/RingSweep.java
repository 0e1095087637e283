package org.quadfence.geo;

import org.locationtech.jts.operation.valid.TopologyValidationError;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The OGC validity check of {@link Polygon#of} (contract 8a): the rules of the OGC Simple Features
 * specification exactly as JTS {@code IsValidOp} (jts-core 1.20) applies them in the lon/lat plane,
 * found in one plane sweep over all rings of a fence instead of JTS's pairwise tests, which a star
 * of long spikes or a polygon of many holes makes quadratic.
 *
 * <p>A fence whose rings are each closed, in range and of at least 3 distinct positions (checked
 * before, by {@link PolygonValidation}) is valid when, after consecutive repeated positions are
 * dropped, as JTS drops them:
 *
 * <ol>
 *   <li>no two edges cross (meet at a point inside both) or overlap (share a stretch), within a
 *       ring or between rings, adjacent edges included (a spike runs back over its edge); no two
 *       rings cross where they meet at a vertex (OGC "Self-intersection"); and no ring meets itself
 *       anywhere but where one edge ends and the next begins ("Ring Self-intersection"). Rings may
 *       touch one another at single points: a hole its exterior ring or another hole, or the
 *       polygons of a MultiPolygon one another;
 *   <li>each hole lies inside its own exterior ring ("Hole lies outside shell");
 *   <li>no hole lies inside another hole of its polygon ("Holes are nested");
 *   <li>no polygon of a MultiPolygon lies inside another but in one of its holes ("Nested shells");
 *   <li>each polygon's interior is connected: the rings of a polygon and the points where they
 *       touch one another form no cycle, so no two of its rings touch twice and no chain of holes
 *       runs from the exterior ring back to it or round in a loop ("Interior is disconnected").
 * </ol>
 *
 * The first rule that fails, in this order (JTS's), gives the error, with the first place the sweep
 * finds. The halves of a polygon split at the antimeridian lie 360 degrees apart in the plane and
 * need no exception.
 *
 * <p><b>The sweep.</b> Vertices are visited from west to east (by x, then y); the edges the sweep
 * line cuts are kept in order from south to north. At each point, the edges that pass through it
 * are found among the neighbours of those that end or start there, and the rays from the point
 * along every ring that meets it, two per ring, are sorted by angle: two rays in one direction are
 * an overlap, a ring met twice touches itself, two rings whose rays interleave cross, and the rings
 * of a polygon that meet there are joined in a union-find of rings and touch points, where a cycle
 * disconnects the interior. Edges that become neighbours are tested for a crossing inside both
 * (Shamos and Hoey's test, 1976): two edges that cross are neighbours at some point before the
 * sweep passes where they cross, and every other meeting happens at a vertex. The innermost ring
 * around each ring is read off the same order: just after a ring's first vertex, the edge below its
 * lower edge is the nearest boundary south of it, inside that edge's ring when its interior lies
 * north of the edge, else beside it. Exact: every decision is a comparison of coordinates or an
 * exact {@link Orientation} test. Cost: O(n log n) for n edges plus O(k log k) for the k rings that
 * meet at a point, however the edges lie.
 */
final class RingSweep {

    /**
     * One edge of a ring, edge {@code id} from vertex {@code id} to the ring's next vertex, its
     * endpoints in sweep order: a before b (smaller x, or y at equal x).
     */
    private static final class Edge {
        final int id;
        final int ring;
        // True when the ring runs from a to b.
        final boolean forward;
        final double ax;
        final double ay;
        final double bx;
        final double by;

        Edge(int id, int ring, double px, double py, double qx, double qy) {
            this.id = id;
            this.ring = ring;
            this.forward = before(px, py, qx, qy);
            this.ax = forward ? px : qx;
            this.ay = forward ? py : qy;
            this.bx = forward ? qx : px;
            this.by = forward ? qy : py;
        }
    }

    private final double[][][] input;
    // Per ring: its polygon, its index there, its first edge (and vertex); vertex and edge g of
    // ring k are numbered from firstEdge[k] to firstEdge[k + 1] - 1.
    private final int[] polygonOf;
    private final int[] ringOf;
    private final int[] firstEdge;
    // Per ring: its first vertex in sweep order, its orientation, the innermost ring around it.
    private final int[] westmost;
    private final boolean[] ccw;
    private final int[] parent;
    // Per vertex g, with repeated positions dropped, coordinates with -0.0 made 0.0.
    private final double[] xs;
    private final double[] ys;
    private final int[] ringOfVertex;
    private final Edge[] edges;
    private final TreeSet<Edge> status = new TreeSet<>(RingSweep::order);
    // The point the sweep is at, and the edges that pass through it (inside them).
    private double px;
    private double py;
    private final List<Edge> through = new ArrayList<>();
    // The union-find of rings (0 to rings - 1) and touch points (from rings on).
    private int[] joined;
    private int nodes;
    private double[] disconnection;

    private RingSweep(double[][][] polygons) {
        this.input = polygons;
        int rings = 0;
        int vertices = 0;
        for (double[][] p : polygons) {
            rings += p.length;
            for (double[] ring : p) {
                vertices += ring.length / 2;
            }
        }
        polygonOf = new int[rings];
        ringOf = new int[rings];
        firstEdge = new int[rings + 1];
        westmost = new int[rings];
        ccw = new boolean[rings];
        parent = new int[rings];
        double[] x = new double[vertices];
        double[] y = new double[vertices];
        int n = 0;
        int k = 0;
        for (int p = 0; p < polygons.length; p++) {
            for (int r = 0; r < polygons[p].length; r++, k++) {
                polygonOf[k] = p;
                ringOf[k] = r;
                firstEdge[k] = n;
                double[] ring = polygons[p][r];
                for (int i = 0; i + 2 < ring.length; i += 2) {
                    // + 0.0 turns -0.0 into 0.0, the same point for the sweep's sort.
                    double vx = ring[i] + 0.0;
                    double vy = ring[i + 1] + 0.0;
                    if (n == firstEdge[k] || vx != x[n - 1] || vy != y[n - 1]) {
                        x[n] = vx;
                        y[n] = vy;
                        n++;
                    }
                }
                if (x[n - 1] == x[firstEdge[k]] && y[n - 1] == y[firstEdge[k]]) {
                    n--;
                }
            }
        }
        firstEdge[rings] = n;
        xs = Arrays.copyOf(x, n);
        ys = Arrays.copyOf(y, n);
        ringOfVertex = new int[n];
        edges = new Edge[n];
        for (k = 0; k < rings; k++) {
            int low = firstEdge[k];
            for (int g = firstEdge[k]; g < firstEdge[k + 1]; g++) {
                ringOfVertex[g] = k;
                int h = next(g);
                edges[g] = new Edge(g, k, xs[g], ys[g], xs[h], ys[h]);
                low = before(xs[g], ys[g], xs[low], ys[low]) ? g : low;
            }
            westmost[k] = low;
            int prev = previous(low);
            int next = next(low);
            ccw[k] =
                    Orientation.index(xs[prev], ys[prev], xs[low], ys[low], xs[next], ys[next]) > 0;
        }
        joined = new int[Math.max(16, 2 * rings)];
        for (int i = 0; i < rings; i++) {
            joined[i] = i;
        }
        nodes = rings;
    }

    /**
     * Checks a fence whose rings are each closed, in range and of at least 3 distinct positions.
     *
     * @throws IllegalArgumentException "invalid polygon (OGC): " followed by JTS's name of the rule
     *     that fails ({@link TopologyValidationError#getMessage()}), " at [lon, lat]" and what to
     *     do about it
     */
    static void check(double[][][] polygons) {
        RingSweep sweep = new RingSweep(polygons);
        sweep.sweep();
        sweep.checkNesting();
        if (sweep.disconnection != null) {
            int p = (int) sweep.disconnection[2];
            throw sweep.invalid(
                    TopologyValidationError.DISCONNECTED_INTERIOR,
                    sweep.disconnection[0],
                    sweep.disconnection[1],
                    "the rings of polygon "
                            + p
                            + " that touch there close a loop of touching rings (or two rings"
                            + " touch twice), which cuts its interior in parts: make each part a"
                            + " polygon of its own");
        }
    }

    private int next(int g) {
        int k = ringOfVertex[g];
        return g + 1 < firstEdge[k + 1] ? g + 1 : firstEdge[k];
    }

    private int previous(int g) {
        int k = ringOfVertex[g];
        return g > firstEdge[k] ? g - 1 : firstEdge[k + 1] - 1;
    }

    private static boolean before(double px, double py, double qx, double qy) {
        return px < qx || (px == qx && py < qy);
    }

    // The vertices in sweep order, point by point.
    private void sweep() {
        int[] order = sortedVertices();
        for (int i = 0, j; i < order.length; i = j) {
            int g = order[i];
            j = i + 1;
            while (j < order.length && xs[order[j]] == xs[g] && ys[order[j]] == ys[g]) {
                j++;
            }
            visit(xs[g], ys[g], Arrays.copyOfRange(order, i, j));
        }
    }

    // The vertices by x, then y: a bottom-up merge sort of their numbers.
    private int[] sortedVertices() {
        int n = xs.length;
        int[] a = new int[n];
        int[] b = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    b[k++] = before(xs[a[j]], ys[a[j]], xs[a[i]], ys[a[i]]) ? a[j++] : a[i++];
                }
                while (i < mid) {
                    b[k++] = a[i++];
                }
                while (j < hi) {
                    b[k++] = a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }

    // One point: the edges that end here leave the sweep, those that start here enter it, the
    // rings that meet here are checked, and the rings that start here are placed.
    private void visit(double x, double y, int[] here) {
        px = x;
        py = y;
        through.clear();
        for (int g : here) {
            Edge out = edges[g];
            Edge in = edges[previous(g)];
            if (!out.forward) {
                leave(out);
            }
            if (in.forward) {
                leave(in);
            }
        }
        for (int g : here) {
            Edge out = edges[g];
            Edge in = edges[previous(g)];
            if (out.forward) {
                enter(out);
            }
            if (!in.forward) {
                enter(in);
            }
        }
        if (here.length == 1 && through.isEmpty()) {
            checkVertex(x, y, here[0]);
        } else {
            meet(x, y, here);
        }
        for (int g : here) {
            if (westmost[ringOfVertex[g]] == g) {
                place(here);
                return;
            }
        }
    }

    /**
     * Notes a neighbour, in the sweep's order, of an edge that leaves or enters at the current
     * point when it passes through that point. The edges through a point and those that end there
     * are neighbours in that order, so each edge through the point is a neighbour of one that ends
     * there or, when none ends there, of the first that starts there; or else two edges through the
     * point were neighbours before it, and their test has found them crossing there already.
     */
    private void note(Edge e) {
        if (e != null
                && (e.ax != px || e.ay != py)
                && (e.bx != px || e.by != py)
                && Orientation.index(e.ax, e.ay, e.bx, e.by, px, py) == 0
                && !through.contains(e)) {
            through.add(e);
        }
    }

    // A vertex that meets nothing else: its two edges may not run back over one another.
    private void checkVertex(double x, double y, int g) {
        int p = previous(g);
        int n = next(g);
        if (compareAngle(x, y, xs[p], ys[p], xs[n], ys[n]) == 0) {
            throw invalid(
                    TopologyValidationError.SELF_INTERSECTION,
                    x,
                    y,
                    name(ringOfVertex[g]) + " runs back over its own edge there (a spike)");
        }
    }

    /**
     * Rings meeting at one point: at vertices {@code here} and inside the edges through it. Each
     * gives two rays from the point (its neighbours along the ring, or its edge's ends).
     */
    private void meet(double x, double y, int[] here) {
        int m = here.length + through.size();
        int[] ringAt = new int[m];
        double[] rays = new double[4 * m];
        for (int i = 0; i < m; i++) {
            if (i < here.length) {
                int g = here[i];
                int p = previous(g);
                int n = next(g);
                ringAt[i] = ringOfVertex[g];
                rays[4 * i] = xs[p];
                rays[4 * i + 1] = ys[p];
                rays[4 * i + 2] = xs[n];
                rays[4 * i + 3] = ys[n];
            } else {
                Edge e = through.get(i - here.length);
                ringAt[i] = e.ring;
                rays[4 * i] = e.ax;
                rays[4 * i + 1] = e.ay;
                rays[4 * i + 2] = e.bx;
                rays[4 * i + 3] = e.by;
            }
        }
        Integer[] around = new Integer[2 * m];
        for (int i = 0; i < around.length; i++) {
            around[i] = i;
        }
        Arrays.sort(
                around,
                (u, v) ->
                        compareAngle(
                                x, y, rays[2 * u], rays[2 * u + 1], rays[2 * v], rays[2 * v + 1]));
        for (int i = 1; i < around.length; i++) {
            int u = around[i - 1];
            int v = around[i];
            if (compareAngle(x, y, rays[2 * u], rays[2 * u + 1], rays[2 * v], rays[2 * v + 1])
                    == 0) {
                int a = ringAt[u / 2];
                int b = ringAt[v / 2];
                throw invalid(TopologyValidationError.SELF_INTERSECTION, x, y, overlapping(a, b));
            }
        }
        checkTouchesItself(x, y, here.length, ringAt);
        checkCrossing(x, y, around, ringAt);
        join(x, y, ringAt);
    }

    // A ring met twice at one point: two of its edges cross there, or it touches itself.
    private void checkTouchesItself(double x, double y, int vertices, int[] ringAt) {
        Integer[] byRing = new Integer[ringAt.length];
        for (int i = 0; i < byRing.length; i++) {
            byRing[i] = i;
        }
        Arrays.sort(byRing, Comparator.comparingInt((Integer i) -> ringAt[i]));
        for (int i = 1; i < byRing.length; i++) {
            int a = byRing[i - 1];
            int b = byRing[i];
            if (ringAt[a] != ringAt[b]) {
                continue;
            }
            if (a >= vertices && b >= vertices) {
                throw invalid(
                        TopologyValidationError.SELF_INTERSECTION,
                        x,
                        y,
                        name(ringAt[a]) + " crosses itself there");
            }
            throw invalid(
                    TopologyValidationError.RING_SELF_INTERSECTION,
                    x,
                    y,
                    name(ringAt[a])
                            + " touches itself there: a ring may pass a point once (make the"
                            + " loop a hole or a polygon of its own)");
        }
    }

    // Around the point, each ring's two rays must enclose whole pairs of the others: a ring
    // whose second ray comes while another's pair is open crosses that one.
    private void checkCrossing(double x, double y, Integer[] around, int[] ringAt) {
        boolean[] open = new boolean[ringAt.length];
        int[] stack = new int[ringAt.length];
        int depth = 0;
        for (int ray : around) {
            int i = ray / 2;
            if (!open[i]) {
                open[i] = true;
                stack[depth++] = i;
            } else if (stack[depth - 1] == i) {
                depth--;
            } else {
                throw invalid(
                        TopologyValidationError.SELF_INTERSECTION,
                        x,
                        y,
                        names(ringAt[stack[depth - 1]], ringAt[i])
                                + " cross there: rings may touch at single points, not cross");
            }
        }
    }

    // The rings of one polygon that meet here join through this point; a ring already joined
    // to the others closes a cycle, which cuts the polygon's interior.
    private void join(double x, double y, int[] ringAt) {
        Integer[] byPolygon = new Integer[ringAt.length];
        for (int i = 0; i < ringAt.length; i++) {
            byPolygon[i] = ringAt[i];
        }
        Arrays.sort(byPolygon, Comparator.comparingInt((Integer k) -> polygonOf[k]));
        for (int i = 0, j; i < byPolygon.length; i = j) {
            j = i + 1;
            while (j < byPolygon.length && polygonOf[byPolygon[j]] == polygonOf[byPolygon[i]]) {
                j++;
            }
            if (j - i < 2) {
                continue;
            }
            int point = node();
            for (int t = i; t < j; t++) {
                int a = find(byPolygon[t]);
                int b = find(point);
                if (a == b) {
                    if (disconnection == null) {
                        disconnection = new double[] {x, y, polygonOf[byPolygon[t]]};
                    }
                } else {
                    joined[a] = b;
                }
            }
        }
    }

    private int node() {
        if (nodes == joined.length) {
            joined = Arrays.copyOf(joined, 2 * nodes);
        }
        joined[nodes] = nodes;
        return nodes++;
    }

    private int find(int k) {
        while (joined[k] != k) {
            joined[k] = joined[joined[k]];
            k = joined[k];
        }
        return k;
    }

    /**
     * The order of rays from (x, y) to p and to q by angle, counter-clockwise from east, as JTS's
     * {@code PolygonNodeTopology.compareAngle}: first by quadrant (north-east with both axes'
     * positive halves, north-west with the west axis, south-west, south-east with the south axis),
     * then by orientation; 0 for the same direction.
     */
    private static int compareAngle(
            double x, double y, double px, double py, double qx, double qy) {
        int c = Integer.compare(quadrant(px - x, py - y), quadrant(qx - x, qy - y));
        return c != 0 ? c : Orientation.index(x, y, qx, qy, px, py);
    }

    // The difference of two doubles has the exact sign of the difference.
    private static int quadrant(double dx, double dy) {
        if (dx >= 0) {
            return dy >= 0 ? 0 : 3;
        }
        return dy >= 0 ? 1 : 2;
    }

    private void enter(Edge e) {
        status.add(e);
        Edge below = status.lower(e);
        Edge above = status.higher(e);
        note(below);
        note(above);
        test(below, e);
        test(e, above);
    }

    private void leave(Edge e) {
        Edge below = status.lower(e);
        Edge above = status.higher(e);
        note(below);
        note(above);
        status.remove(e);
        test(below, above);
    }

    /**
     * The order of two edges the sweep line cuts, south to north, decided where the later of them
     * starts: both are cut there, and they keep their order until they cross.
     */
    private static int order(Edge s, Edge t) {
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

    // Neighbours that cross inside both, or overlap; a meeting at a vertex is checked there.
    private void test(Edge s, Edge t) {
        if (s == null || t == null) {
            return;
        }
        int o1 = Orientation.index(s.ax, s.ay, s.bx, s.by, t.ax, t.ay);
        int o2 = Orientation.index(s.ax, s.ay, s.bx, s.by, t.bx, t.by);
        int o3 = Orientation.index(t.ax, t.ay, t.bx, t.by, s.ax, s.ay);
        int o4 = Orientation.index(t.ax, t.ay, t.bx, t.by, s.bx, s.by);
        if (o1 == 0 && o2 == 0) {
            overlap(s, t);
        } else if (o1 * o2 < 0 && o3 * o4 < 0) {
            double[] at = crossing(s, t);
            throw invalid(
                    TopologyValidationError.SELF_INTERSECTION,
                    at[0],
                    at[1],
                    s.ring == t.ring
                            ? name(s.ring) + " crosses itself there"
                            : names(s.ring, t.ring)
                                    + " cross there: rings may touch at single points, not"
                                    + " cross");
        }
    }

    // Edges on one line overlap where the later start comes before the earlier end.
    private void overlap(Edge s, Edge t) {
        boolean sLater = before(t.ax, t.ay, s.ax, s.ay);
        double fromX = sLater ? s.ax : t.ax;
        double fromY = sLater ? s.ay : t.ay;
        boolean sEarlier = before(s.bx, s.by, t.bx, t.by);
        double toX = sEarlier ? s.bx : t.bx;
        double toY = sEarlier ? s.by : t.by;
        if (before(fromX, fromY, toX, toY)) {
            throw invalid(
                    TopologyValidationError.SELF_INTERSECTION,
                    fromX,
                    fromY,
                    overlapping(s.ring, t.ring));
        }
    }

    private String overlapping(int a, int b) {
        return a == b
                ? name(a) + " runs back over its own edge there"
                : names(a, b)
                        + " overlap along an edge from there: rings may touch at single points,"
                        + " not share edges (polygons that share an edge: merge them into one)";
    }

    // Where the edges cross, rounded: for the message only.
    private static double[] crossing(Edge s, Edge t) {
        double rx = s.bx - s.ax;
        double ry = s.by - s.ay;
        double dx = t.bx - t.ax;
        double dy = t.by - t.ay;
        double f = ((t.ax - s.ax) * dy - (t.ay - s.ay) * dx) / (rx * dy - ry * dx);
        return new double[] {s.ax + f * rx, s.ay + f * ry};
    }

    // The innermost ring around each ring that starts here, from the edge just south of its
    // lower first edge: inside that edge's ring when its interior lies north of the edge, else
    // beside it (inside the ring around that one). Bottom up, so that a ring starting here too is
    // placed first. Rings that touch here change nothing: no boundary runs between the two edges
    // just east of the point.
    private void place(int[] here) {
        List<Edge> lower = new ArrayList<>(1);
        for (int g : here) {
            if (westmost[ringOfVertex[g]] == g) {
                Edge e = edges[g];
                Edge f = edges[previous(g)];
                lower.add(order(e, f) < 0 ? e : f);
            }
        }
        lower.sort(RingSweep::order);
        for (Edge e : lower) {
            Edge south = status.lower(e);
            parent[e.ring] =
                    south == null
                            ? -1
                            : ccw[south.ring] == south.forward ? south.ring : parent[south.ring];
        }
    }

    /**
     * Holes in their exterior ring, not in another hole, and polygons not inside one another but in
     * holes, from the tree of innermost rings around rings (rings that do not cross nest): a hole
     * is inside its exterior ring when that is among the rings around it, and inside another hole
     * when the nearest ring of its own polygon around it is a hole. With these kept, a polygon lies
     * inside another's interior exactly when some exterior ring's innermost ring around it is an
     * exterior ring.
     */
    private void checkNesting() {
        int rings = parent.length;
        int[] childCount = new int[rings + 1];
        for (int k = 0; k < rings; k++) {
            childCount[parent[k] + 1]++;
        }
        int[] childStart = new int[rings + 2];
        for (int k = 0; k <= rings; k++) {
            childStart[k + 1] = childStart[k] + childCount[k];
        }
        int[] children = new int[rings];
        int[] fill = Arrays.copyOf(childStart, rings + 1);
        for (int k = 0; k < rings; k++) {
            children[fill[parent[k] + 1]++] = k;
        }
        // Depth first from the outermost rings: entry and exit times, and per polygon its ring
        // nearest above the current one.
        int[] enter = new int[rings];
        int[] exit = new int[rings];
        int[] nearestOwn = new int[rings];
        int[] last = new int[input.length];
        Arrays.fill(last, -1);
        int[] saved = new int[rings];
        int[] stack = new int[rings + 1];
        int[] cursor = new int[rings + 1];
        int depth = 0;
        int clock = 0;
        stack[0] = -1;
        cursor[0] = childStart[0];
        while (depth >= 0) {
            int k = stack[depth];
            if (cursor[depth] < childStart[k + 2]) {
                int c = children[cursor[depth]++];
                int p = polygonOf[c];
                nearestOwn[c] = last[p];
                saved[c] = last[p];
                last[p] = c;
                enter[c] = clock++;
                stack[++depth] = c;
                cursor[depth] = childStart[c + 1];
            } else {
                if (k >= 0) {
                    exit[k] = clock;
                    last[polygonOf[k]] = saved[k];
                }
                depth--;
            }
        }
        int shell = -1;
        for (int k = 0; k < rings; k++) {
            shell = ringOf[k] == 0 ? k : shell;
            if (ringOf[k] != 0 && !(enter[shell] < enter[k] && exit[k] <= exit[shell])) {
                throw invalid(
                        TopologyValidationError.HOLE_OUTSIDE_SHELL,
                        k,
                        name(k) + ", a hole, is not inside its exterior ring (ring 0)");
            }
        }
        for (int k = 0; k < rings; k++) {
            if (ringOf[k] != 0 && ringOf[nearestOwn[k]] != 0) {
                throw invalid(
                        TopologyValidationError.NESTED_HOLES,
                        k,
                        name(k)
                                + ", a hole, lies inside ring "
                                + ringOf[nearestOwn[k]]
                                + ", another hole of its polygon");
            }
        }
        for (int k = 0; k < rings; k++) {
            if (ringOf[k] == 0 && parent[k] >= 0 && ringOf[parent[k]] == 0) {
                throw invalid(
                        TopologyValidationError.NESTED_SHELLS,
                        k,
                        "polygon "
                                + polygonOf[k]
                                + " lies inside polygon "
                                + polygonOf[parent[k]]
                                + ", not in one of its holes: the polygons of a MultiPolygon"
                                + " may not overlap");
            }
        }
    }

    // At the ring's first position, as given.
    private IllegalArgumentException invalid(int type, int ring, String what) {
        double[] r = input[polygonOf[ring]][ringOf[ring]];
        return invalid(type, r[0], r[1], what);
    }

    private IllegalArgumentException invalid(int type, double x, double y, String what) {
        return new IllegalArgumentException(
                "invalid polygon (OGC): "
                        + new TopologyValidationError(type).getMessage()
                        + " at ["
                        + x
                        + ", "
                        + y
                        + "]: "
                        + what);
    }

    private String name(int k) {
        return PolygonValidation.name(polygonOf[k], ringOf[k]);
    }

    // Rings are numbered polygon by polygon, so the lower number comes first.
    private String names(int a, int b) {
        return name(Math.min(a, b)) + " and " + name(Math.max(a, b));
    }
}
