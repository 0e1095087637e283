package org.quadfence.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.quadfence.geo.Rectangle;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The demo's toll gates lie across streets the fleet drives, and are thinner than a vehicle goes
 * between two reports: the fleet's paths cross each of them every so often, while its positions
 * land in them far less often than that, so the demo needs option {@code crossing} to see them.
 */
class TollGatesTest {

    private static final long SECONDS = 300;

    private final City city = new City(42, 14, 1732233600000L);
    private final List<City.Fence> gates =
            city.fences().stream().filter(f -> f.kind().equals("toll")).toList();

    @Test
    void aFewGatesEachThinnerThanAStepAndWideEnoughForTheRoadAndItsNoise() {
        assertThat(gates).hasSizeBetween(6, 10);
        assertThat(city.fences()).hasSize(300);
        for (City.Fence g : gates) {
            assertThat(g.id()).startsWith("toll-");
            assertThat(g.name()).startsWith("Toll gate ");
            double w = meters(g.rect().maxLon() - g.rect().minLon(), 0);
            double h = meters(0, g.rect().maxLat() - g.rect().minLat());
            // 5 m/s at one report a second is the slowest a moving vehicle goes.
            assertThat(Math.min(w, h)).as(g.name() + ": depth along the street").isLessThan(5);
            assertThat(Math.max(w, h)).as(g.name() + ": width across it").isGreaterThan(30);
            // Across a street: its middle lies on a grid line.
            double i = (center(g.rect().minLon(), g.rect().maxLon()) - City.LON0) / City.BLOCK_LON;
            double j = (center(g.rect().minLat(), g.rect().maxLat()) - City.LAT0) / City.BLOCK_LAT;
            double onStreet = w > h ? i : j;
            assertThat(Math.abs(onStreet - Math.rint(onStreet))).as(g.name()).isLessThan(1e-6);
        }
    }

    @Test
    void theFleetsPathsCrossEveryGateAndItsPositionsRarelyLandInOne() throws Exception {
        MockProducer<byte[], byte[]> producer =
                new MockProducer<>(
                        true, null, new ByteArraySerializer(), new ByteArraySerializer());
        long t0 = 1_700_000_000_000L;
        Fleet fleet = new Fleet(city, 1000, 42, t0, producer, "positions");
        for (long t = t0; t <= t0 + SECONDS * 1000; t += 100) {
            fleet.advance(t);
        }

        ObjectMapper json = new ObjectMapper();
        Map<String, double[]> last = new HashMap<>();
        Map<String, Integer> crossed = new TreeMap<>();
        Map<String, Integer> landed = new TreeMap<>();
        int crossings = 0;
        int landings = 0;
        for (ProducerRecord<byte[], byte[]> r : producer.history()) {
            JsonNode p = json.readTree(r.value());
            double[] b = {p.get("lon").asDouble(), p.get("lat").asDouble()};
            double[] a = last.put(p.get("entityId").asText(), b);
            for (City.Fence g : gates) {
                Rectangle rect = g.rect();
                boolean inB = inside(rect, b);
                if (inB) {
                    landings++;
                    landed.merge(g.id(), 1, Integer::sum);
                }
                // As contract section 10 defines a crossing: the path meets the fence, and
                // neither end lies in it.
                if (a != null && !inB && !inside(rect, a) && meets(rect, a, b)) {
                    crossings++;
                    crossed.merge(g.id(), 1, Integer::sum);
                }
            }
        }

        assertThat(crossed.keySet())
                .as("gates crossed in %d s: %s", SECONDS, crossed)
                .containsExactlyInAnyOrderElementsOf(gates.stream().map(City.Fence::id).toList());
        assertThat(crossings / (double) SECONDS)
                .as("crossings a second (%s), for a line every few seconds", crossed)
                .isGreaterThan(0.18);
        assertThat(landings)
                .as("positions in a gate (%s) against crossings (%s)", landed, crossed)
                .isLessThan(crossings / 2);
    }

    private static boolean inside(Rectangle r, double[] p) {
        return p[0] >= r.minLon() && p[0] <= r.maxLon() && p[1] >= r.minLat() && p[1] <= r.maxLat();
    }

    // Whether the segment a-b meets the rectangle (Liang-Barsky clipping).
    private static boolean meets(Rectangle r, double[] a, double[] b) {
        double t0 = 0;
        double t1 = 1;
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {a[0] - r.minLon(), r.maxLon() - a[0], a[1] - r.minLat(), r.maxLat() - a[1]};
        for (int k = 0; k < 4; k++) {
            if (p[k] == 0) {
                if (q[k] < 0) {
                    return false;
                }
            } else {
                double t = q[k] / p[k];
                if (p[k] < 0) {
                    t0 = Math.max(t0, t);
                } else {
                    t1 = Math.min(t1, t);
                }
            }
        }
        return t0 <= t1;
    }

    private static double center(double a, double b) {
        return (a + b) / 2;
    }

    private static double meters(double dLon, double dLat) {
        return Math.hypot(dLon * City.METERS_PER_DEGREE_LON, dLat * City.METERS_PER_DEGREE_LAT);
    }
}
