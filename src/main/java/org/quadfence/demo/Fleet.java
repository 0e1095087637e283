package org.quadfence.demo;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.quadfence.geo.Rectangle;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A simulated fleet on the {@link City}'s streets: taxis, vans and trucks that drive along the grid
 * at 5 to 20 m/s, turn at intersections, stop at some of them for a while, and report their
 * position about once a second with GPS noise (about 5 m). Some are parked by the road for good;
 * some wait in depots and leave during the first minutes. Event time is the wall clock.
 *
 * <p>Call {@link #advance} from one thread; {@link #view} may be called from another.
 */
final class Fleet {

    static final String[] KINDS = {"taxi", "van", "truck"};

    private static final double BLOCK_X = City.BLOCK_LON * City.METERS_PER_DEGREE_LON;
    private static final double BLOCK_Y = City.BLOCK_LAT * City.METERS_PER_DEGREE_LAT;
    private static final double NOISE_METERS = 4; // per axis: about 5 m off on average
    private static final long REPORT_MS = 1000;
    private static final int TRACKED_EVERY = 8;
    private static final int TRACK_LENGTH = 60;

    private final List<Vehicle> vehicles = new ArrayList<>();
    private final List<Rectangle> fences = new ArrayList<>();
    private final Producer<byte[], byte[]> producer;
    private final String topic;
    private final AtomicLong published = new AtomicLong();
    private long lastAdvance;

    /**
     * A fleet of {@code size} vehicles, the same for the same seed, placed at {@code now}.
     *
     * @param producer where positions go, keyed by entity id
     */
    Fleet(
            City city,
            int size,
            long seed,
            long now,
            Producer<byte[], byte[]> producer,
            String topic) {
        this.producer = producer;
        this.topic = topic;
        this.lastAdvance = now;
        city.fences().forEach(f -> fences.add(f.rect()));
        SplittableRandom random = new SplittableRandom(seed);
        List<City.Fence> depots =
                city.fences().stream().filter(f -> f.kind().equals("depot")).toList();
        int[] numbers = new int[KINDS.length];
        // Of every 20 vehicles 11 are taxis, 7 vans and 2 trucks; one in 8 starts in a depot, one
        // in 20 is parked for good, every 8th has its track drawn on the map.
        for (int n = 0; n < size; n++) {
            int kind = n % 20 < 11 ? 0 : n % 20 < 18 ? 1 : 2;
            String id = String.format(Locale.ROOT, "%s-%03d", KINDS[kind], ++numbers[kind]);
            Vehicle v = new Vehicle(id, kind, random.split(), n % TRACKED_EVERY == 0);
            v.nextReport = now + v.random.nextLong(REPORT_MS);
            if (n % 8 == 1 && !depots.isEmpty()) {
                waitInDepot(v, depots.get(n / 8 % depots.size()), now);
            } else if (n % 20 == 3) {
                parkByTheRoad(v);
            } else {
                driveFromAnywhere(v);
            }
            vehicles.add(v);
        }
    }

    /** Positions sent so far. */
    long published() {
        return published.get();
    }

    int size() {
        return vehicles.size();
    }

    /** Moves every vehicle on to {@code now} and sends the reports that are due. */
    synchronized void advance(long now) {
        double dt = Math.max(0, now - lastAdvance) / 1000.0;
        lastAdvance = now;
        for (Vehicle v : vehicles) {
            v.move(now, dt);
            if (now >= v.nextReport) {
                report(v, now);
                v.nextReport = Math.max(v.nextReport + REPORT_MS, now + REPORT_MS / 2);
            }
        }
    }

    /** Where the vehicles are, as last reported, and the recent tracks of every eighth one. */
    synchronized FleetView view() {
        List<double[]> at = new ArrayList<>();
        List<Track> tracks = new ArrayList<>();
        int parked = 0;
        for (Vehicle v : vehicles) {
            boolean isParked = v.departAt > lastAdvance;
            parked += isParked ? 1 : 0;
            if (v.track.isEmpty()) {
                continue;
            }
            double[] last = v.track.peekLast();
            at.add(new double[] {last[0], last[1], v.kind, isParked ? 1 : 0});
            if (v.tracked) {
                double[] flat = new double[2 * v.track.size()];
                int k = 0;
                for (double[] p : v.track) {
                    flat[k++] = p[0];
                    flat[k++] = p[1];
                }
                tracks.add(new Track(v.kind, flat));
            }
        }
        return new FleetView(at, tracks, vehicles.size(), parked);
    }

    /** A picture of the fleet: vehicles as {lon, lat, kind index, parked 0 or 1}. */
    record FleetView(List<double[]> vehicles, List<Track> tracks, int size, int parked) {}

    /** The last reports of a vehicle of {@link #KINDS}[kind], as lon, lat pairs, oldest first. */
    record Track(int kind, double[] lonLat) {}

    private void report(Vehicle v, long now) {
        double lon =
                City.LON0
                        + (v.x + NOISE_METERS * v.random.nextGaussian())
                                / City.METERS_PER_DEGREE_LON;
        double lat =
                City.LAT0
                        + (v.y + NOISE_METERS * v.random.nextGaussian())
                                / City.METERS_PER_DEGREE_LAT;
        v.remember(lon, lat);
        String json =
                "{\"entityId\":\""
                        + v.id
                        + "\",\"lon\":"
                        + lon
                        + ",\"lat\":"
                        + lat
                        + ",\"timestamp\":"
                        + now
                        + "}";
        producer.send(
                new ProducerRecord<>(
                        topic,
                        null,
                        now,
                        v.id.getBytes(StandardCharsets.UTF_8),
                        json.getBytes(StandardCharsets.UTF_8)));
        published.incrementAndGet();
    }

    // Parked inside the depot, well away from its edges, until a time in the first three minutes;
    // then it drives to the depot's intersection and on.
    private static void waitInDepot(Vehicle v, City.Fence depot, long now) {
        Rectangle r = depot.rect();
        int i = (int) Math.round(((r.minLon() + r.maxLon()) / 2 - City.LON0) / City.BLOCK_LON);
        int j = (int) Math.round(((r.minLat() + r.maxLat()) / 2 - City.LAT0) / City.BLOCK_LAT);
        v.x = (i + v.random.nextDouble(-0.25, 0.25)) * BLOCK_X;
        v.y = (j + v.random.nextDouble(-0.25, 0.25)) * BLOCK_Y;
        v.headFor(i, j, i, j);
        v.departAt = now + v.random.nextLong(10_000, 180_000);
    }

    // Parked for good by the road, at least 20 m from every fence edge, so that GPS noise does
    // not make it flap in and out of a fence.
    private void parkByTheRoad(Vehicle v) {
        do {
            driveFromAnywhere(v);
        } while (nearAnEdge(v.x, v.y, 20));
        v.departAt = Long.MAX_VALUE;
    }

    private void driveFromAnywhere(Vehicle v) {
        int i = v.random.nextInt(City.WEST, City.EAST + 1);
        int j = v.random.nextInt(City.SOUTH, City.NORTH + 1);
        v.x = i * BLOCK_X;
        v.y = j * BLOCK_Y;
        v.headFor(i, j, i, j);
        v.turn(0, false);
        double along = v.random.nextDouble();
        v.x += along * (v.toX - v.x);
        v.y += along * (v.toY - v.y);
    }

    // Whether (x, y) lies within that many meters of the boundary of a fence, inside or out.
    private boolean nearAnEdge(double x, double y, double meters) {
        for (Rectangle r : fences) {
            double w = (r.minLon() - City.LON0) * City.METERS_PER_DEGREE_LON;
            double e = (r.maxLon() - City.LON0) * City.METERS_PER_DEGREE_LON;
            double s = (r.minLat() - City.LAT0) * City.METERS_PER_DEGREE_LAT;
            double n = (r.maxLat() - City.LAT0) * City.METERS_PER_DEGREE_LAT;
            boolean inside = x >= w && x <= e && y >= s && y <= n;
            double d =
                    inside
                            ? Math.min(Math.min(x - w, e - x), Math.min(y - s, n - y))
                            : Math.hypot(
                                    Math.max(0, Math.max(w - x, x - e)),
                                    Math.max(0, Math.max(s - y, y - n)));
            if (d < meters) {
                return true;
            }
        }
        return false;
    }

    /** One vehicle: where it is, the leg it drives (to a grid node), and its recent reports. */
    private static final class Vehicle {
        final String id;
        final int kind;
        final SplittableRandom random;
        final boolean tracked;
        final double cruise;
        final ArrayDeque<double[]> track = new ArrayDeque<>();
        double x;
        double y;
        int fromI;
        int fromJ;
        int toI;
        int toJ;
        double toX;
        double toY;
        double speed;
        long departAt = Long.MIN_VALUE;
        long waitUntil;
        long nextReport;

        Vehicle(String id, int kind, SplittableRandom random, boolean tracked) {
            this.id = id;
            this.kind = kind;
            this.random = random;
            this.tracked = tracked;
            // Taxis are quicker than vans, vans than trucks.
            double[][] cruising = {{9, 16}, {7, 13}, {5, 11}};
            this.cruise = random.nextDouble(cruising[kind][0], cruising[kind][1]);
            this.speed = cruise;
        }

        void headFor(int fromI, int fromJ, int toI, int toJ) {
            this.fromI = fromI;
            this.fromJ = fromJ;
            this.toI = toI;
            this.toJ = toJ;
            this.toX = toI * BLOCK_X;
            this.toY = toJ * BLOCK_Y;
        }

        void move(long now, double dt) {
            if (now < departAt || now < waitUntil) {
                return;
            }
            double left = speed * dt;
            while (left > 0) {
                double dx = toX - x;
                double dy = toY - y;
                double d = Math.hypot(dx, dy);
                if (d > left) {
                    x += dx * left / d;
                    y += dy * left / d;
                    return;
                }
                x = toX;
                y = toY;
                left -= d;
                turn(now, true);
                if (now < waitUntil) {
                    return;
                }
            }
        }

        // At the node (toI, toJ): mostly straight on, never back unless at a dead end; at some
        // intersections, when it may stop, a red light or a pick-up first.
        void turn(long now, boolean mayStop) {
            int di = toI - fromI;
            int dj = toJ - fromJ;
            int[][] options = {{di, dj}, {-dj, di}, {dj, -di}, {-di, -dj}};
            double[] weights = {0.55, 0.225, 0.225, 0};
            if (di == 0 && dj == 0) {
                options = new int[][] {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                weights = new double[] {1, 1, 1, 1};
            }
            double total = 0;
            for (int k = 0; k < 4; k++) {
                if (!onGrid(toI + options[k][0], toJ + options[k][1])) {
                    weights[k] = 0;
                }
                total += weights[k];
            }
            int pick = 3;
            double r = random.nextDouble() * total;
            for (int k = 0; k < 4 && total > 0; k++) {
                r -= weights[k];
                if (r < 0 && weights[k] > 0) {
                    pick = k;
                    break;
                }
            }
            headFor(toI, toJ, toI + options[pick][0], toJ + options[pick][1]);
            speed = Math.max(5, Math.min(20, cruise * random.nextDouble(0.8, 1.2)));
            if (mayStop && random.nextDouble() < 0.25) {
                waitUntil = now + random.nextLong(2_000, 15_000);
            }
        }

        void remember(double lon, double lat) {
            track.addLast(new double[] {lon, lat});
            if (track.size() > (tracked ? TRACK_LENGTH : 1)) {
                track.removeFirst();
            }
        }

        private static boolean onGrid(int i, int j) {
            return i >= City.WEST && i <= City.EAST && j >= City.SOUTH && j <= City.NORTH;
        }
    }
}
