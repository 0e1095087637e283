package org.quadfence.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The synthetic world of the job benchmark, deterministic for a seed: rectangle fences clustered in
 * about twenty city areas (most a city block to a few km wide, a few 1 to 30 degrees, two of
 * continent size) and entities that walk randomly in the same city areas.
 *
 * <p>The one-city world ({@code oneCity}) has the same fence sizes, regions, continents and walk,
 * but puts every entity and 99% ({@link #ONE_CITY_SHARE}) of the small fences in {@link #ONE_CITY}
 * (the other small fences spread over the twenty cities as usual), so that every position falls in
 * one tile of level 7: the load a single hot tile puts on the keyed stages.
 *
 * <p>Fences hold from the beginning of time (no timestamp field; the harness stamps their records
 * with time 0). Each entity reports once per round; inside a round the entities report in the order
 * of a fixed phase in [0, interval), plus a jitter of at most {@link #JITTER_MS}, so event time
 * grows and is out of order by less than the jitter.
 */
public final class BenchWorld {

    /** The largest out-of-orderness of positions in event time, well within the job's 1 s. */
    static final int JITTER_MS = 300;

    private static final double METERS_PER_DEGREE = 111_320;

    /** Name, longitude and latitude of the centre, and a weight (share of fences and entities). */
    private static final Object[][] CITIES = {
        {"New York", -73.98, 40.75, 2.0},
        {"Los Angeles", -118.25, 34.05, 1.5},
        {"Chicago", -87.63, 41.88, 1.0},
        {"Mexico City", -99.13, 19.43, 1.5},
        {"Sao Paulo", -46.63, -23.55, 1.5},
        {"Buenos Aires", -58.38, -34.60, 1.0},
        {"London", -0.13, 51.51, 1.5},
        {"Paris", 2.35, 48.86, 1.2},
        {"Berlin", 13.40, 52.52, 0.8},
        {"Istanbul", 28.98, 41.01, 1.0},
        {"Moscow", 37.62, 55.75, 1.0},
        {"Cairo", 31.24, 30.04, 1.0},
        {"Lagos", 3.38, 6.52, 0.8},
        {"Johannesburg", 28.05, -26.20, 0.7},
        {"Mumbai", 72.88, 19.08, 1.5},
        {"Singapore", 103.82, 1.35, 0.8},
        {"Jakarta", 106.85, -6.21, 1.0},
        {"Beijing", 116.40, 39.90, 1.5},
        {"Tokyo", 139.69, 35.69, 2.0},
        {"Sydney", 151.21, -33.87, 0.8},
    };

    /**
     * The city of the one-city world. Not New York: its latitude, 40.75, is 0.03 degrees south of a
     * row edge of level 7 (40.78125), so its entities would straddle two tiles. Philadelphia's
     * walking area (3 sigma: 0.45 degrees of latitude, 0.59 of longitude) lies inside the level-7
     * tile lon [-75.94, -73.13) x lat [39.38, 40.78).
     */
    static final Object[] ONE_CITY = {"Philadelphia", -75.16, 39.95};

    /** The share of the small fences in {@link #ONE_CITY} in the one-city world. */
    static final double ONE_CITY_SHARE = 0.99;

    /** Standard deviation of fence centres and entity starts around a city centre, degrees. */
    private static final double CITY_SIGMA = 0.15;

    private final long seed;
    private final boolean oneCity;
    private final double[] cumulativeWeight;
    private final double[] centreLon; // the cities, then ONE_CITY
    private final double[] centreLat;

    // Entity state, by entity index.
    private final int entities;
    private final int[] city;
    private final double[] lon;
    private final double[] lat;
    private final double[] heading;
    private final double[] speed;
    private final int[] phaseMs;
    private final int[] order; // entity indices in ascending phase
    private final SplittableRandom walk;
    private final String[] ids;
    private final byte[][] keys;

    public BenchWorld(long seed, int entities, int intervalMs, boolean oneCity) {
        this.seed = seed;
        this.oneCity = oneCity;
        this.entities = entities;
        cumulativeWeight = new double[CITIES.length];
        centreLon = new double[CITIES.length + 1];
        centreLat = new double[CITIES.length + 1];
        double sum = 0;
        for (int i = 0; i < CITIES.length; i++) {
            sum += (double) CITIES[i][3];
            cumulativeWeight[i] = sum;
            centreLon[i] = (double) CITIES[i][1];
            centreLat[i] = (double) CITIES[i][2];
        }
        centreLon[CITIES.length] = (double) ONE_CITY[1];
        centreLat[CITIES.length] = (double) ONE_CITY[2];
        for (int i = 0; i < CITIES.length; i++) {
            cumulativeWeight[i] /= sum;
        }
        SplittableRandom r = new SplittableRandom(seed * 31 + 1);
        city = new int[entities];
        lon = new double[entities];
        lat = new double[entities];
        heading = new double[entities];
        speed = new double[entities];
        phaseMs = new int[entities];
        for (int e = 0; e < entities; e++) {
            int c = oneCity ? CITIES.length : pickCity(r);
            city[e] = c;
            double[] p = nearCity(r, c, 2.5);
            lon[e] = p[0];
            lat[e] = p[1];
            heading[e] = r.nextDouble(2 * Math.PI);
            double kind = r.nextDouble();
            // On foot, in city traffic, on a fast road (m/s).
            double base = kind < 0.2 ? 1.4 : kind < 0.8 ? 8 : 15;
            speed[e] = base * (0.5 + r.nextDouble());
            phaseMs[e] = r.nextInt(intervalMs);
        }
        Integer[] byPhase = new Integer[entities];
        for (int e = 0; e < entities; e++) {
            byPhase[e] = e;
        }
        Arrays.sort(byPhase, (a, b) -> Integer.compare(phaseMs[a], phaseMs[b]));
        order = new int[entities];
        for (int i = 0; i < entities; i++) {
            order[i] = byPhase[i];
        }
        walk = new SplittableRandom(seed * 31 + 2);
        ids = new String[entities];
        keys = new byte[entities][];
        for (int e = 0; e < entities; e++) {
            ids[e] = entityId(e);
            keys[e] = bytes(ids[e]);
        }
    }

    static int cityCount() {
        return CITIES.length;
    }

    /** Longitude, latitude and weight (share of fences and entities) of city {@code c}. */
    static double[] city(int c) {
        return new double[] {(double) CITIES[c][1], (double) CITIES[c][2], (double) CITIES[c][3]};
    }

    /** Receives one generated record. */
    public interface RecordSink {
        void accept(byte[] key, byte[] value, long timestamp);
    }

    /**
     * Writes {@code count} fences: two continent-size, {@code big} of 1 to 30 degrees around city
     * areas, and the rest city blocks to a few km, clustered around the city centres.
     */
    public void fences(int count, int big, RecordSink out) {
        SplittableRandom r = new SplittableRandom(seed * 31 + 3);
        int n = 0;
        // Two continents: North America and Europe.
        double[][] continents = {{-128, 14, -52, 60}, {-11, 35, 40, 71}};
        for (double[] c : continents) {
            if (n < count) {
                emitFence(out, n++, c[0], c[1], c[2], c[3], "continent");
            }
        }
        for (int i = 0; i < big && n < count; i++) {
            int c = pickCity(r);
            double side = Math.exp(r.nextDouble(Math.log(1), Math.log(30)));
            double aspect = Math.exp(r.nextDouble(Math.log(0.5), Math.log(2)));
            double w = side * Math.sqrt(aspect);
            double h = side / Math.sqrt(aspect);
            double cx = cityLon(c) + r.nextDouble(-0.4, 0.4) * w;
            double cy = cityLat(c) + r.nextDouble(-0.4, 0.4) * h;
            emitFence(
                    out,
                    n++,
                    Math.max(-180, cx - w / 2),
                    Math.max(-90, cy - h / 2),
                    Math.min(180, cx + w / 2),
                    Math.min(90, cy + h / 2),
                    "region");
        }
        while (n < count) {
            int c = oneCity && r.nextDouble() < ONE_CITY_SHARE ? CITIES.length : pickCity(r);
            double[] p = nearCity(r, c, 3);
            // 50 m to 3 km, log-uniform; aspect 1:2 to 2:1.
            double side = Math.exp(r.nextDouble(Math.log(0.0005), Math.log(0.03)));
            double aspect = Math.exp(r.nextDouble(Math.log(0.5), Math.log(2)));
            double h = side / Math.sqrt(aspect);
            double w = side * Math.sqrt(aspect) / Math.cos(Math.toRadians(p[1]));
            emitFence(
                    out,
                    n++,
                    p[0] - w / 2,
                    p[1] - h / 2,
                    p[0] + w / 2,
                    p[1] + h / 2,
                    side < 0.003 ? "block" : "district");
        }
    }

    private static void emitFence(
            RecordSink out,
            int n,
            double minLon,
            double minLat,
            double maxLon,
            double maxLat,
            String kind) {
        String id = fenceId(n);
        StringBuilder b = new StringBuilder(160);
        b.append("{\"fenceId\":\"").append(id).append("\",\"rect\":[");
        fixed6(b, minLon).append(',');
        fixed6(b, minLat).append(',');
        fixed6(b, maxLon).append(',');
        fixed6(b, maxLat).append("],\"properties\":{\"name\":\"zone ");
        b.append(n).append("\",\"kind\":\"").append(kind).append("\"}}");
        out.accept(bytes(id), bytes(b.toString()), 0L);
    }

    static String fenceId(int n) {
        return String.format("f-%06d", n);
    }

    static String entityId(int e) {
        return String.format("e-%06d", e);
    }

    /**
     * Writes the positions of round {@code round}: every entity once, in phase order, with event
     * times {@code start + round * interval + phase + jitter}.
     */
    public void round(long start, long round, int intervalMs, RecordSink out) {
        long base = start + round * intervalMs;
        for (int i = 0; i < entities; i++) {
            int e = order[i];
            long t = base + phaseMs[e] + walk.nextInt(JITTER_MS);
            step(e, intervalMs / 1000.0);
            out.accept(keyOf(e), position(e, t), t);
        }
    }

    /** The next position of the {@code i}-th entity in phase order, at time {@code t}. */
    void next(int i, long t, double seconds, RecordSink out) {
        int e = order[i % entities];
        step(e, seconds);
        out.accept(keyOf(e), position(e, t), t);
    }

    private byte[] keyOf(int e) {
        return keys[e];
    }

    private byte[] position(int e, long t) {
        StringBuilder b = new StringBuilder(96);
        b.append("{\"entityId\":\"").append(ids[e]).append("\",\"lon\":");
        fixed6(b, lon[e]).append(",\"lat\":");
        fixed6(b, lat[e]).append(",\"timestamp\":").append(t).append('}');
        return bytes(b.toString());
    }

    /** A random-walk step of {@code seconds}: turn a little, move, stay near the city. */
    private void step(int e, double seconds) {
        SplittableRandom r = walk;
        int c = city[e];
        double dLon = (cityLon(c) - lon[e]) * Math.cos(Math.toRadians(lat[e]));
        double dLat = cityLat(c) - lat[e];
        if (Math.hypot(dLon, dLat) > 3 * CITY_SIGMA) {
            heading[e] = Math.atan2(dLon, dLat); // back towards the centre
        } else {
            heading[e] += r.nextGaussian() * 0.5;
        }
        double meters = speed[e] * seconds * (0.5 + r.nextDouble());
        double north = meters * Math.cos(heading[e]) / METERS_PER_DEGREE;
        double east =
                meters
                        * Math.sin(heading[e])
                        / (METERS_PER_DEGREE * Math.cos(Math.toRadians(lat[e])));
        lat[e] = Math.max(-89.9, Math.min(89.9, lat[e] + north));
        double x = lon[e] + east;
        lon[e] = x > 180 ? x - 360 : x < -180 ? x + 360 : x;
    }

    private int pickCity(SplittableRandom r) {
        return pick(r, cumulativeWeight);
    }

    /** A point near city {@code c}: Gaussian around its centre, at most {@code cut} sigmas out. */
    private double[] nearCity(SplittableRandom r, int c, double cut) {
        return near(r, cityLon(c), cityLat(c), CITY_SIGMA, cut);
    }

    /** The index of the first of {@code cumulative} (ascending to 1) above a uniform draw. */
    static int pick(SplittableRandom r, double[] cumulative) {
        double u = r.nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }

    /**
     * A point, {lon, lat}, Gaussian around lon/lat with {@code sigma} degrees of latitude (and as
     * many kilometres of longitude), at most {@code cut} sigmas out.
     */
    static double[] near(SplittableRandom r, double lon, double lat, double sigma, double cut) {
        double x;
        double y;
        do {
            x = r.nextGaussian();
            y = r.nextGaussian();
        } while (Math.hypot(x, y) > cut);
        double la = lat + y * sigma;
        return new double[] {lon + x * sigma / Math.cos(Math.toRadians(la)), la};
    }

    private double cityLon(int c) {
        return centreLon[c];
    }

    private double cityLat(int c) {
        return centreLat[c];
    }

    /** {@code x} with six decimals (about 0.1 m), without the cost of String.format. */
    static StringBuilder fixed6(StringBuilder b, double x) {
        long micro = Math.round(x * 1e6);
        if (micro < 0) {
            b.append('-');
            micro = -micro;
        }
        b.append(micro / 1_000_000).append('.');
        String frac = Long.toString(micro % 1_000_000);
        for (int i = frac.length(); i < 6; i++) {
            b.append('0');
        }
        return b.append(frac);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
