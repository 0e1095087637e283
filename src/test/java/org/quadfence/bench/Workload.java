package org.quadfence.bench;

import java.util.Random;

/**
 * Seeded fence sets and query points on the lon/lat plane.
 *
 * <p>Distributions: UNIFORM over the world; CLUSTERED puts 90% of fences and points in 10
 * city-sized areas (Gaussian, sigma 0.05 deg, so about 0.2 deg across) and the rest uniform. Sizes:
 * SMALL boxes have sides log-uniform in [0.001, 0.05] deg (a city block to about 5 km); MIXED are
 * 95% small, 4.9% with sides log-uniform in [1, 30] deg and 0.1% continent-sized (40-80 by 20-50
 * deg). Points follow the fences' distribution.
 */
public final class Workload {
    public enum Dist {
        UNIFORM,
        CLUSTERED
    }

    public enum Size {
        SMALL,
        MIXED
    }

    public static final int POINTS = 1 << 16;
    private static final int CLUSTERS = 10;

    private Workload() {}

    public static Fence[] fences(int n, Dist dist, Size size, long seed) {
        Random rnd = new Random(seed);
        double[] centers = centers(seed);
        Fence[] out = new Fence[n];
        for (int i = 0; i < n; i++) {
            double[] p = point(rnd, dist, centers);
            double w;
            double h;
            double r = rnd.nextDouble();
            if (size == Size.SMALL || r < 0.95) {
                w = logUniform(rnd, 0.001, 0.05);
                h = logUniform(rnd, 0.001, 0.05);
            } else if (r < 0.999) {
                w = logUniform(rnd, 1, 30);
                h = logUniform(rnd, 1, 30);
            } else {
                w = 40 + 40 * rnd.nextDouble();
                h = 20 + 30 * rnd.nextDouble();
            }
            double minX = clamp(p[0] - w / 2, -180, 180);
            double maxX = clamp(p[0] + w / 2, -180, 180);
            double minY = clamp(p[1] - h / 2, -90, 90);
            double maxY = clamp(p[1] + h / 2, -90, 90);
            out[i] = new Fence(i, minX, minY, maxX, maxY);
        }
        return out;
    }

    /** {@link #POINTS} query points as x, y pairs. */
    public static double[] points(Dist dist, long seed) {
        Random rnd = new Random(seed ^ 0x5DEECE66DL);
        double[] centers = centers(seed);
        double[] out = new double[2 * POINTS];
        for (int i = 0; i < POINTS; i++) {
            double[] p = point(rnd, dist, centers);
            out[2 * i] = p[0];
            out[2 * i + 1] = p[1];
        }
        return out;
    }

    private static double[] centers(long seed) {
        Random rnd = new Random(seed * 31 + 7);
        double[] c = new double[2 * CLUSTERS];
        for (int i = 0; i < CLUSTERS; i++) {
            c[2 * i] = -170 + 340 * rnd.nextDouble();
            c[2 * i + 1] = -60 + 130 * rnd.nextDouble();
        }
        return c;
    }

    private static double[] point(Random rnd, Dist dist, double[] centers) {
        if (dist == Dist.CLUSTERED && rnd.nextDouble() < 0.9) {
            int k = rnd.nextInt(CLUSTERS);
            return new double[] {
                clamp(centers[2 * k] + 0.05 * rnd.nextGaussian(), -180, 180),
                clamp(centers[2 * k + 1] + 0.05 * rnd.nextGaussian(), -90, 90)
            };
        }
        return new double[] {-180 + 360 * rnd.nextDouble(), -90 + 180 * rnd.nextDouble()};
    }

    private static double logUniform(Random rnd, double lo, double hi) {
        return lo * Math.exp(Math.log(hi / lo) * rnd.nextDouble());
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
