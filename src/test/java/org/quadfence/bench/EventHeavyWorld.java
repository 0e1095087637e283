package org.quadfence.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The synthetic world of the event-heavy replay (issue 21), deterministic for a seed: fences packed
 * densely around the twenty cities of {@link BenchWorld}, and entities that move a few hundred
 * metres between reports through them, so that most reports leave some fences and enter others.
 *
 * <ul>
 *   <li>Fences: one region per city (a rectangle or circle some 100 km across, that every entity of
 *       the city is in); 2% districts of 1 to 6 km (polygons among them have a hole); the rest 60
 *       to 600 m across, log-uniform. Shapes: 40% rectangles, 35% star-shaped polygons of 8 to 32
 *       vertices, 25% circles. Odd-numbered fences carry properties, even-numbered ones none.
 *   <li>Groups: the fences and entities of every fourth city are in group {@link #GROUP}.
 *   <li>The cities' spread grows with the square root of the fence count, so that fences per km²,
 *       and with them the events per position, are about the same at every size.
 *   <li>Fence changes during the positions ({@link #changes}): half move an existing fence (an
 *       upsert of its id with a new shape), a quarter delete one, a quarter create a new one.
 * </ul>
 */
final class EventHeavyWorld {

    static final String GROUP = "fleet-b";

    /** Standard deviation of fence centres around a city centre at 100,000 fences, degrees. */
    private static final double SIGMA_AT_100K = 0.045;

    private static final double METERS_PER_DEGREE = 111_320;

    /** How far entities roam from their city's centre, in sigmas. */
    private static final double ROAM = 2.5;

    private final long seed;
    private final double sigma;
    private final double[][] cities; // lon, lat, weight
    private final double[] cumulative; // of the weights, ascending to 1
    private int[] fenceCity = new int[0];

    private final Mover[] movers; // by entity index
    private final int[] order; // entity indices in ascending phase
    private final SplittableRandom walk;

    /** Where an entity is and how it moves. */
    private static final class Mover {
        int city;
        double lon;
        double lat;
        double heading;
        double speed; // m/s
        int phaseMs;
    }

    EventHeavyWorld(long seed, int fences, int entities, int intervalMs) {
        this.seed = seed;
        this.sigma = SIGMA_AT_100K * Math.sqrt(fences / 100_000.0);
        cities = new double[BenchWorld.cityCount()][];
        cumulative = new double[cities.length];
        double sum = 0;
        for (int c = 0; c < cities.length; c++) {
            cities[c] = BenchWorld.city(c);
            sum += cities[c][2];
            cumulative[c] = sum;
        }
        for (int c = 0; c < cities.length; c++) {
            cumulative[c] /= sum;
        }
        SplittableRandom r = new SplittableRandom(seed * 37 + 1);
        movers = new Mover[entities];
        Integer[] byPhase = new Integer[entities];
        for (int e = 0; e < entities; e++) {
            Mover m = new Mover();
            m.city = pickCity(r);
            // Uniform in the disc the walk keeps to, as the walk leaves them, so that the events
            // per position do not drift with the size (the time the walk needs to spread them).
            double x;
            double y;
            do {
                x = r.nextDouble(-1, 1);
                y = r.nextDouble(-1, 1);
            } while (x * x + y * y > 1);
            m.lat = cities[m.city][1] + ROAM * sigma * y;
            m.lon = cities[m.city][0] + ROAM * sigma * x / Math.cos(Math.toRadians(m.lat));
            m.heading = r.nextDouble(2 * Math.PI);
            m.speed = r.nextDouble(5, 25); // city traffic to a fast road
            m.phaseMs = r.nextInt(intervalMs);
            movers[e] = m;
            byPhase[e] = e;
        }
        Arrays.sort(byPhase, (a, b) -> Integer.compare(movers[a].phaseMs, movers[b].phaseMs));
        order = Arrays.stream(byPhase).mapToInt(Integer::intValue).toArray();
        walk = new SplittableRandom(seed * 37 + 2);
    }

    /** Writes {@code count} fences that hold from the beginning of time, one JSON line each. */
    void fences(int count, Consumer<CharSequence> out) {
        SplittableRandom r = new SplittableRandom(seed * 37 + 3);
        fenceCity = new int[count];
        StringBuilder b = new StringBuilder(1024);
        for (int n = 0; n < count; n++) {
            int c = n < cities.length ? n : pickCity(r);
            fenceCity[n] = c;
            b.setLength(0);
            if (n < cities.length) {
                double[] centre = cities[c];
                fence(b, r, n, c, centre[0], centre[1], r.nextDouble(80_000, 120_000), -1);
            } else {
                double[] p = nearCity(r, c, 3);
                fence(b, r, n, c, p[0], p[1], meters(r), -1);
            }
            out.accept(b);
        }
    }

    /**
     * Writes {@code count} changes of the fences {@link #fences} wrote ({@code existing} of them),
     * at times spread uniformly over [start, end), in ascending time.
     */
    void changes(int count, long start, long end, Consumer<CharSequence> out) {
        SplittableRandom r = new SplittableRandom(seed * 37 + 4);
        long[] times = new long[count];
        for (int i = 0; i < count; i++) {
            times[i] = start + (long) (r.nextDouble() * (end - start));
        }
        Arrays.sort(times);
        int existing = fenceCity.length;
        int created = 0;
        StringBuilder b = new StringBuilder(1024);
        for (long t : times) {
            b.setLength(0);
            double kind = r.nextDouble();
            if (kind < 0.75 && existing > cities.length) {
                int n = cities.length + r.nextInt(existing - cities.length);
                int c = fenceCity[n];
                if (kind < 0.5) {
                    double[] p = nearCity(r, c, 3);
                    fence(b, r, n, c, p[0], p[1], meters(r), t);
                } else {
                    b.append("{\"fenceId\":\"").append(BenchWorld.fenceId(n));
                    b.append("\",\"deleted\":true");
                    tail(b, c, t);
                }
            } else {
                int c = pickCity(r);
                double[] p = nearCity(r, c, 3);
                fence(b, r, existing + created++, c, p[0], p[1], meters(r), t);
            }
            out.accept(b);
        }
    }

    /**
     * Writes the positions of round {@code round}: every entity once, in phase order, with event
     * times {@code start + round * interval + phase + jitter} (jitter below {@link
     * BenchWorld#JITTER_MS}).
     */
    void round(long start, long round, int intervalMs, Consumer<CharSequence> out) {
        long base = start + round * intervalMs;
        StringBuilder b = new StringBuilder(128);
        for (int e : order) {
            Mover m = movers[e];
            long t = base + m.phaseMs + walk.nextInt(BenchWorld.JITTER_MS);
            step(m, intervalMs / 1000.0);
            b.setLength(0);
            b.append("{\"entityId\":\"").append(BenchWorld.entityId(e)).append("\",\"lon\":");
            BenchWorld.fixed6(b, m.lon).append(",\"lat\":");
            BenchWorld.fixed6(b, m.lat).append(",\"timestamp\":").append(t);
            if (grouped(m.city)) {
                b.append(",\"group\":\"").append(GROUP).append('"');
            }
            out.accept(b.append('}'));
        }
    }

    /** 60 to 600 m across, log-uniform; 2% of fences 1 to 6 km. */
    private static double meters(SplittableRandom r) {
        return r.nextDouble() < 0.02
                ? r.nextDouble(1_000, 6_000)
                : Math.exp(r.nextDouble(Math.log(60), Math.log(600)));
    }

    /** One fence change of fence {@code n}, about {@code meters} across at lon/lat. */
    private void fence(
            StringBuilder b,
            SplittableRandom r,
            int n,
            int c,
            double x,
            double y,
            double meters,
            long timestamp) {
        String id = BenchWorld.fenceId(n);
        double kind = r.nextDouble();
        double mLon = METERS_PER_DEGREE * Math.cos(Math.toRadians(y));
        if (kind < 0.4) {
            double aspect = Math.exp(r.nextDouble(Math.log(0.5), Math.log(2)));
            double w = meters * Math.sqrt(aspect) / mLon / 2;
            double h = meters / Math.sqrt(aspect) / METERS_PER_DEGREE / 2;
            b.append("{\"fenceId\":\"").append(id).append("\",\"rect\":[");
            BenchWorld.fixed6(b, x - w).append(',');
            BenchWorld.fixed6(b, y - h).append(',');
            BenchWorld.fixed6(b, x + w).append(',');
            BenchWorld.fixed6(b, y + h).append(']');
        } else if (kind < 0.75 && meters < 50_000) {
            b.append("{\"type\":\"Feature\",\"id\":\"").append(id);
            b.append("\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[");
            ring(b, r, x, y, meters / 2, mLon, true);
            if (meters >= 1_000) {
                b.append(',');
                ring(b, r, x, y, meters * 0.15, mLon, false);
            }
            b.append("]}");
        } else {
            b.append("{\"fenceId\":\"").append(id).append("\",\"circle\":{\"lon\":");
            BenchWorld.fixed6(b, x).append(",\"lat\":");
            BenchWorld.fixed6(b, y).append(",\"radiusMeters\":");
            b.append(Math.round(meters * 5) / 10.0).append('}');
        }
        if (n % 2 == 1) {
            b.append(",\"properties\":{\"name\":\"zone ").append(n).append("\",\"kind\":\"");
            b.append(meters < 1_000 ? "block" : meters < 50_000 ? "district" : "region");
            b.append("\"}");
        }
        tail(b, c, timestamp);
    }

    /**
     * A closed star-shaped ring around lon/lat: vertices at ascending angles (descending for a
     * hole), radii 55% to 100% of {@code radius} metres, so that it is simple, and a hole of 15% of
     * the diameter lies well inside its shell's 27.5%.
     */
    private static void ring(
            StringBuilder b,
            SplittableRandom r,
            double x,
            double y,
            double radius,
            double mLon,
            boolean shell) {
        int n = 8 + r.nextInt(25);
        double[] angle = new double[n];
        for (int j = 0; j < n; j++) {
            angle[j] = 2 * Math.PI * (j + 0.8 * r.nextDouble()) / n;
        }
        StringBuilder first = new StringBuilder(32);
        b.append('[');
        for (int j = 0; j < n; j++) {
            double a = angle[shell ? j : n - 1 - j];
            double d = radius * (0.55 + 0.45 * r.nextDouble());
            StringBuilder v = new StringBuilder(32).append('[');
            BenchWorld.fixed6(v, x + d * Math.cos(a) / mLon).append(',');
            BenchWorld.fixed6(v, y + d * Math.sin(a) / METERS_PER_DEGREE).append(']');
            if (j == 0) {
                first.append(v);
            }
            b.append(v).append(',');
        }
        b.append(first).append(']');
    }

    private void tail(StringBuilder b, int c, long timestamp) {
        if (grouped(c)) {
            b.append(",\"group\":\"").append(GROUP).append('"');
        }
        if (timestamp >= 0) {
            b.append(",\"timestamp\":").append(timestamp);
        }
        b.append('}');
    }

    private static boolean grouped(int c) {
        return c % 4 == 3;
    }

    /** A random-walk step of {@code seconds}: turn, move, stay within {@link #ROAM} sigmas. */
    private void step(Mover m, double seconds) {
        SplittableRandom r = walk;
        double[] c = cities[m.city];
        double cos = Math.cos(Math.toRadians(m.lat));
        double dLon = (c[0] - m.lon) * cos;
        double dLat = c[1] - m.lat;
        if (Math.hypot(dLon, dLat) > ROAM * sigma) {
            m.heading = Math.atan2(dLon, dLat); // back towards the centre
        } else {
            m.heading += r.nextGaussian() * 0.6;
        }
        double meters = m.speed * seconds * (0.5 + r.nextDouble());
        m.lat += meters * Math.cos(m.heading) / METERS_PER_DEGREE;
        m.lon += meters * Math.sin(m.heading) / (METERS_PER_DEGREE * cos);
    }

    private int pickCity(SplittableRandom r) {
        return BenchWorld.pick(r, cumulative);
    }

    private double[] nearCity(SplittableRandom r, int c, double cut) {
        return BenchWorld.near(r, cities[c][0], cities[c][1], sigma, cut);
    }
}
