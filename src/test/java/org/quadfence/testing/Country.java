package org.quadfence.testing;

import org.quadfence.geo.Polygon;

import java.util.SplittableRandom;

/**
 * A deterministic country-sized polygon for tests and benchmarks: a wiggly star-shaped ring, one
 * vertex per equal step of angle around a centre, its radius a sum of sine waves from continental
 * to coastline scale, so it is simple and its border is ragged at every scale. Longitudes are
 * stretched by 1 / cos(lat) so the shape is round on the ground.
 */
public final class Country {

    private Country() {}

    /**
     * The ring, closed, as flat lon/lat pairs.
     *
     * @param vertices the number of vertices
     * @param lon the centre's longitude
     * @param lat the centre's latitude
     * @param radius the mean radius in degrees of latitude
     */
    public static double[] ring(int vertices, double lon, double lat, double radius, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int waves = 40;
        double[] amplitude = new double[waves];
        double[] frequency = new double[waves];
        double[] phase = new double[waves];
        for (int w = 0; w < waves; w++) {
            // Frequencies from 2 to about vertices / 4, amplitudes falling with frequency.
            frequency[w] = Math.round(2 * Math.pow(vertices / 8.0, w / (double) (waves - 1)));
            amplitude[w] = 0.35 / Math.pow(frequency[w], 0.7) * random.nextDouble();
            phase[w] = 2 * Math.PI * random.nextDouble();
        }
        double stretch = 1 / Math.cos(Math.toRadians(lat));
        double[] ring = new double[2 * vertices + 2];
        for (int i = 0; i < vertices; i++) {
            double theta = 2 * Math.PI * i / vertices;
            double r = 1;
            for (int w = 0; w < waves; w++) {
                r += amplitude[w] * Math.sin(frequency[w] * theta + phase[w]);
            }
            r = radius * Math.max(0.2, r);
            ring[2 * i] = lon + r * stretch * Math.cos(theta);
            ring[2 * i + 1] = lat + r * Math.sin(theta);
        }
        ring[2 * vertices] = ring[0];
        ring[2 * vertices + 1] = ring[1];
        return ring;
    }

    /** The polygon of {@link #ring}, with a validation limit that admits it. */
    public static Polygon polygon(int vertices, double lon, double lat, double radius, long seed) {
        return Polygon.of(new double[][][] {{ring(vertices, lon, lat, radius, seed)}}, vertices);
    }
}
