package org.quadfence.bench;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Fence churn for the job harness (issue 21, goal 3): a pool of dispatch zones that drift across
 * the cities of {@link BenchWorld}, written as fence changes.
 *
 * <p>Each change is, one in ten ({@link #DELETE_SHARE}), a delete of a zone that exists, else an
 * upsert of a zone id drawn from the whole pool: a zone that exists moves by its drift since its
 * last upsert, one that does not (never created, or deleted) comes back at a fresh place. A zone is
 * a star-shaped polygon of 20 to 200 vertices (ascending angles, radii 60% to 100% of its radius,
 * so simple and valid), 300 m to 3 km across (log-uniform), drifting at 2 to 10 m/s; its outline
 * stays the same from upsert to upsert, only its place moves. Zone ids ({@code z-00000}) do not
 * collide with the world's fence ids. Deterministic for a seed and a sequence of times.
 */
final class DispatchZones {

    static final double DELETE_SHARE = 0.1;

    private static final double METERS_PER_DEGREE = 111_320;

    /** Standard deviation of zone centres around a city centre, degrees (as the entities'). */
    private static final double CITY_SIGMA = 0.15;

    private final SplittableRandom r;
    private final double[] cumulative; // of the cities' weights, ascending to 1
    private final boolean[] exists;
    private final int[] existing; // ids of the zones that exist, in slots 0..count-1
    private final int[] slot; // zone id -> its slot in existing, or -1
    private int count;
    private final int[] city;
    private final double[] lon;
    private final double[] lat;
    private final double[] heading;
    private final double[] speed; // m/s
    private final double[] radius; // m
    private final int[] vertices;
    private final long[] shapeSeed;
    private final long[] movedAt;
    private final byte[][] keys;
    private long upserts;
    private long deletes;

    DispatchZones(long seed, int pool) {
        r = new SplittableRandom(seed * 41 + 5);
        cumulative = new double[BenchWorld.cityCount()];
        double sum = 0;
        for (int c = 0; c < cumulative.length; c++) {
            sum += BenchWorld.city(c)[2];
            cumulative[c] = sum;
        }
        for (int c = 0; c < cumulative.length; c++) {
            cumulative[c] /= sum;
        }
        exists = new boolean[pool];
        existing = new int[pool];
        slot = new int[pool];
        Arrays.fill(slot, -1);
        city = new int[pool];
        lon = new double[pool];
        lat = new double[pool];
        heading = new double[pool];
        speed = new double[pool];
        radius = new double[pool];
        vertices = new int[pool];
        shapeSeed = new long[pool];
        movedAt = new long[pool];
        keys = new byte[pool][];
        for (int z = 0; z < pool; z++) {
            keys[z] = id(z).getBytes(StandardCharsets.UTF_8);
        }
    }

    static String id(int zone) {
        return String.format("z-%05d", zone);
    }

    long upserts() {
        return upserts;
    }

    long deletes() {
        return deletes;
    }

    /** Zones that exist now. */
    int live() {
        return count;
    }

    /** Writes the next change, at event time {@code t} (non-decreasing from call to call). */
    void next(long t, BenchWorld.RecordSink out) {
        if (count > 0 && r.nextDouble() < DELETE_SHARE) {
            int z = existing[r.nextInt(count)];
            remove(z);
            deletes++;
            out.accept(keys[z], delete(z, t), t);
            return;
        }
        int z = r.nextInt(exists.length);
        if (exists[z]) {
            drift(z, t);
        } else {
            create(z, t);
        }
        upserts++;
        out.accept(keys[z], polygon(z, t), t);
    }

    /** Writes {@code n} changes at times spread uniformly over [start, end), ascending. */
    void spread(long n, long start, long end, BenchWorld.RecordSink out) {
        long[] times = new long[Math.toIntExact(n)];
        SplittableRandom tr = new SplittableRandom(r.nextLong());
        for (int i = 0; i < times.length; i++) {
            times[i] = start + (long) (tr.nextDouble() * (end - start));
        }
        Arrays.sort(times);
        for (long t : times) {
            next(t, out);
        }
    }

    private void create(int z, long t) {
        int c = BenchWorld.pick(r, cumulative);
        double[] cityAt = BenchWorld.city(c);
        double[] p = BenchWorld.near(r, cityAt[0], cityAt[1], CITY_SIGMA, 2.5);
        city[z] = c;
        lon[z] = p[0];
        lat[z] = p[1];
        heading[z] = r.nextDouble(2 * Math.PI);
        speed[z] = r.nextDouble(2, 10);
        radius[z] = Math.exp(r.nextDouble(Math.log(150), Math.log(1_500)));
        vertices[z] = 20 + r.nextInt(181);
        shapeSeed[z] = r.nextLong();
        movedAt[z] = t;
        exists[z] = true;
        slot[z] = count;
        existing[count++] = z;
    }

    private void remove(int z) {
        exists[z] = false;
        int s = slot[z];
        int last = existing[--count];
        existing[s] = last;
        slot[last] = s;
        slot[z] = -1;
    }

    /** Moves zone {@code z} by its drift since its last upsert, turning a little. */
    private void drift(int z, long t) {
        double seconds = Math.min(60, Math.max(0, t - movedAt[z]) / 1000.0);
        movedAt[z] = t;
        double[] c = BenchWorld.city(city[z]);
        double cos = Math.cos(Math.toRadians(lat[z]));
        double dLon = (c[0] - lon[z]) * cos;
        double dLat = c[1] - lat[z];
        if (Math.hypot(dLon, dLat) > 2.5 * CITY_SIGMA) {
            heading[z] = Math.atan2(dLon, dLat); // back towards the centre
        } else {
            heading[z] += r.nextGaussian() * 0.3;
        }
        double meters = speed[z] * seconds;
        lat[z] += meters * Math.cos(heading[z]) / METERS_PER_DEGREE;
        lon[z] += meters * Math.sin(heading[z]) / (METERS_PER_DEGREE * cos);
    }

    /** The zone as a GeoJSON Feature fence change: its outline around its current centre. */
    private byte[] polygon(int z, long t) {
        int n = vertices[z];
        SplittableRandom shape = new SplittableRandom(shapeSeed[z]);
        double mLon = METERS_PER_DEGREE * Math.cos(Math.toRadians(lat[z]));
        StringBuilder b = new StringBuilder(64 + 26 * n);
        b.append("{\"type\":\"Feature\",\"id\":\"").append(id(z));
        b.append("\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[");
        int firstAt = b.length();
        int firstEnd = 0;
        for (int j = 0; j < n; j++) {
            // Jitter of half a step keeps the angles ascending: the ring is star-shaped.
            double a = 2 * Math.PI * (j + 0.5 * shape.nextDouble()) / n;
            double d = radius[z] * (0.6 + 0.4 * shape.nextDouble());
            b.append('[');
            BenchWorld.fixed6(b, lon[z] + d * Math.cos(a) / mLon).append(',');
            BenchWorld.fixed6(b, lat[z] + d * Math.sin(a) / METERS_PER_DEGREE).append("],");
            if (j == 0) {
                firstEnd = b.length() - 1;
            }
        }
        String first = b.substring(firstAt, firstEnd);
        b.append(first).append("]]},\"properties\":{\"name\":\"dispatch zone ");
        b.append(z).append("\",\"kind\":\"dispatch\"},\"timestamp\":").append(t).append('}');
        return b.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] delete(int z, long t) {
        return ("{\"fenceId\":\"" + id(z) + "\",\"deleted\":true,\"timestamp\":" + t + "}")
                .getBytes(StandardCharsets.UTF_8);
    }
}
