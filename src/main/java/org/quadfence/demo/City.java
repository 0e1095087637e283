package org.quadfence.demo;

import org.quadfence.geo.Rectangle;
import org.quadfence.model.FenceRules;
import org.quadfence.model.WeeklySchedule;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The demo's city: Chicago's street grid, simplified to one street every eighth of a mile (one
 * block, about 200 m; Chicago numbers its addresses 800 to the mile), with State & Madison, the
 * origin of its addresses, at grid point (0, 0). Column i is the street at 100 * |i| W (or E), row
 * j the street at 100 * |j| N (or S); the grid runs from Western Ave (2400 W) to Lake Shore Dr and
 * from Roosevelt Rd (1200 S) to North Ave (1600 N), about 5.6 by 5.2 km.
 *
 * <p>On it lies the demo's fence set, the same for the same seed and start: one large fence (the
 * central business district), about twenty neighborhood zones, a zone around a corner shared by
 * four tiles of the demo's tile level, depots, school zones around intersections, loading zones
 * along streets, and toll gates across avenues, too thin for a vehicle's positions to land in (the
 * job sees them with option {@code crossing}, contract section 10). Zone edges lie mid-block, so
 * vehicles cross them rather than drive along them.
 *
 * <p>A few fences carry rules (contract section 11): three depots count a vehicle as entered only
 * after it has stayed a while and have DWELL times of their own (one also waits before an EXIT),
 * one school zone holds on Chicago's weekday mornings, and one on a schedule that follows the
 * demo's clock (on for two minutes of every four from its start), so that a run of a few minutes
 * sees it switch on and off.
 */
final class City {

    /** State & Madison. */
    static final double LON0 = -87.6277;

    static final double LAT0 = 41.8820;

    /** One block (100 address numbers) in degrees of longitude and latitude. */
    static final double BLOCK_LON = 0.00245;

    static final double BLOCK_LAT = 0.00181;

    static final int WEST = -24;
    static final int EAST = 3;
    static final int SOUTH = -12;
    static final int NORTH = 16;

    static final double METERS_PER_DEGREE_LAT = 111_132;
    static final double METERS_PER_DEGREE_LON =
            111_320 * Math.cos(Math.toRadians(LAT0)); // about 82,900

    // Streets whose name is shown; the others are named by their address line.
    private static final Map<Integer, String> NORTH_SOUTH =
            Map.ofEntries(
                    Map.entry(3, "Lake Shore Dr"),
                    Map.entry(1, "Michigan Ave"),
                    Map.entry(0, "State St"),
                    Map.entry(-1, "Clark St"),
                    Map.entry(-2, "Wells St"),
                    Map.entry(-5, "Canal St"),
                    Map.entry(-6, "Jefferson St"),
                    Map.entry(-8, "Halsted St"),
                    Map.entry(-10, "Morgan St"),
                    Map.entry(-12, "Racine Ave"),
                    Map.entry(-16, "Ashland Ave"),
                    Map.entry(-20, "Damen Ave"),
                    Map.entry(-24, "Western Ave"));
    private static final Map<Integer, String> EAST_WEST =
            Map.ofEntries(
                    Map.entry(16, "North Ave"),
                    Map.entry(12, "Division St"),
                    Map.entry(8, "Chicago Ave"),
                    Map.entry(4, "Kinzie St"),
                    Map.entry(2, "Lake St"),
                    Map.entry(0, "Madison St"),
                    Map.entry(-3, "Jackson Blvd"),
                    Map.entry(-6, "Harrison St"),
                    Map.entry(-8, "Polk St"),
                    Map.entry(-10, "Taylor St"),
                    Map.entry(-12, "Roosevelt Rd"));

    /**
     * How deep a toll gate is along its street, in meters: less than a vehicle goes between two
     * reports (5 to 20 m), so most of the positions of a vehicle that drives through lie before and
     * after it, and only the path between them (option {@code crossing}) sees it.
     */
    static final double GATE_DEPTH = 2;

    /** How wide a toll gate is across its street, in meters: the road and the GPS noise. */
    static final double GATE_WIDTH = 40;

    // The toll gates, on avenues all over the grid: {column, row, 0} across a north-south
    // street, {column, row, 1} across an east-west one (see tollGate).
    private static final double[][] TOLL_GATES = {
        {-20, 8.4, 0}, // Damen Ave north of Chicago Ave
        {-16, 0.4, 0}, // Ashland Ave north of Madison St
        {-12, -9.6, 0}, // Racine Ave north of Taylor St
        {-8, 12.4, 0}, // Halsted St north of Division St
        {-1, 4.4, 0}, // Clark St north of Kinzie St
        {1, -2.6, 0}, // Michigan Ave north of Jackson Blvd
        {-7.6, 8, 1}, // Chicago Ave east of Halsted St
        {-19.6, 0, 1}, // Madison St east of Damen Ave
        {-4.6, -6, 1}, // Harrison St east of Canal St
        {-15.6, 12, 1}, // Division St east of Ashland Ave
    };

    /** The city's time zone: that of its schedules. */
    static final ZoneId ZONE = ZoneId.of("America/Chicago");

    /** The school zone that holds on Chicago's weekday mornings. */
    static final String MORNING_SCHOOL = "school-002";

    /** The school zone whose schedule follows the demo's clock. */
    static final String DEMO_CLOCK_SCHOOL = "school-001";

    /** How long the demo-clock school zone is on, then off, in minutes. */
    static final int DEMO_CLOCK_MINUTES = 2;

    // Depots 1 to 3: {enterAfterMs, exitAfterMs, dwellMs}. Driving through takes 10 to 40 s, so
    // some passages count and some do not; the vehicles that start in a depot wait up to 3 min.
    private static final long[][] DEPOT_RULES = {
        {20_000, 0, 120_000}, {20_000, 15_000, 120_000}, {10_000, 0, 60_000},
    };

    /**
     * A fence of the demo: id, kind (the map's color), a name people read, its rectangle, and its
     * rules with what they say for people ("enter after 20 s, dwell 2 min"; empty when it has
     * none).
     */
    record Fence(
            String id, String kind, String name, Rectangle rect, FenceRules rules, String about) {

        /** A fence without rules. */
        Fence(String id, String kind, String name, Rectangle rect) {
            this(id, kind, name, rect, FenceRules.NONE, "");
        }

        Fence withRules(FenceRules rules, String about) {
            return new Fence(id, kind, name, rect, rules, about);
        }
    }

    private final List<Fence> fences;
    private final Map<String, Fence> byId = new HashMap<>();

    /**
     * The city and its fence set for {@code seed}; {@code tileLevel} places the corner zone, and
     * {@code start} (epoch ms, the demo's start) the windows of the demo-clock school zone.
     */
    City(long seed, int tileLevel, long start) {
        this.fences = fences(new Random(seed), tileLevel, start);
        fences.forEach(f -> byId.put(f.id(), f));
    }

    List<Fence> fences() {
        return fences;
    }

    /** The fence with this id, or null. */
    Fence fence(String id) {
        return byId.get(id);
    }

    static double lon(double i) {
        return LON0 + i * BLOCK_LON;
    }

    static double lat(double j) {
        return LAT0 + j * BLOCK_LAT;
    }

    /** The whole grid as a rectangle. */
    static Rectangle bounds() {
        return new Rectangle(lon(WEST), lat(SOUTH), lon(EAST), lat(NORTH));
    }

    /** The name of the north-south street of column i, or its address line ("1300 W"). */
    static String northSouth(int i) {
        String name = NORTH_SOUTH.get(i);
        return name != null ? name : 100 * Math.abs(i) + (i < 0 ? " W" : " E");
    }

    /** The name of the east-west street of row j, or its address line ("700 N"). */
    static String eastWest(int j) {
        String name = EAST_WEST.get(j);
        return name != null ? name : 100 * Math.abs(j) + (j < 0 ? " S" : " N");
    }

    static Map<Integer, String> namedNorthSouth() {
        return NORTH_SOUTH;
    }

    static Map<Integer, String> namedEastWest() {
        return EAST_WEST;
    }

    private static Fence zone(
            String id, String kind, String name, double w, double s, double e, double n) {
        return new Fence(id, kind, name, new Rectangle(lon(w), lat(s), lon(e), lat(n)));
    }

    private static List<Fence> fences(Random random, int tileLevel, long start) {
        List<Fence> out = new ArrayList<>();
        // Wide enough to cover two level-14 tiles whole: they hold it as a marker.
        out.add(zone("cbd", "cbd", "Central business district", -9.5, -8.5, 2.5, 6.5));
        out.add(zone("zone-west-loop", "zone", "West Loop", -12.5, -3.5, -5.5, 2.5));
        out.add(zone("zone-fulton-market", "zone", "Fulton Market", -12.5, 2.5, -6.5, 4.5));
        out.add(zone("zone-river-north", "zone", "River North", -4.5, 3.5, -0.5, 8.5));
        out.add(zone("zone-streeterville", "zone", "Streeterville", 0.5, 3.5, 3.5, 9.5));
        out.add(zone("zone-south-loop", "zone", "South Loop", -2.5, -12.5, 2.5, -5.5));
        out.add(
                zone(
                        "zone-university-village",
                        "zone",
                        "University Village",
                        -12.5,
                        -12.5,
                        -7.5,
                        -8.5));
        out.add(
                zone(
                        "zone-medical-district",
                        "zone",
                        "Illinois Medical District",
                        -22.5,
                        -10.5,
                        -14.5,
                        -5.5));
        out.add(zone("zone-united-center", "zone", "United Center", -20.5, -1.5, -17.5, 1.5));
        out.add(
                zone(
                        "zone-ukrainian-village",
                        "zone",
                        "Ukrainian Village",
                        -24.5,
                        8.5,
                        -19.5,
                        12.5));
        out.add(zone("zone-east-village", "zone", "East Village", -19.5, 8.5, -15.5, 12.5));
        out.add(zone("zone-wicker-park", "zone", "Wicker Park", -22.5, 12.5, -17.5, 16.5));
        out.add(zone("zone-noble-square", "zone", "Noble Square", -15.5, 8.5, -12.5, 12.5));
        out.add(zone("zone-goose-island", "zone", "Goose Island", -11.5, 10.5, -7.5, 15.5));
        out.add(zone("zone-old-town", "zone", "Old Town", -4.5, 12.5, -0.5, 16.5));
        out.add(zone("zone-gold-coast", "zone", "Gold Coast", -0.5, 9.5, 2.5, 14.5));
        out.add(zone("zone-near-west-side", "zone", "Near West Side", -16.5, -4.5, -12.5, 2.5));
        out.add(zone("zone-little-italy", "zone", "Little Italy", -16.5, -10.5, -12.5, -7.5));
        out.add(zone("zone-greektown", "zone", "Greektown", -8.5, -5.5, -6.5, -0.5));
        out.add(zone("zone-printers-row", "zone", "Printer's Row", -1.5, -8.5, 0.5, -4.5));
        out.add(zone("zone-grant-park", "zone", "Grant Park", 0.5, -11.5, 3.5, 1.5));
        out.add(tileCorner(tileLevel));
        for (int k = 1; k <= 12; k++) {
            int i = pick(random, WEST + 1, EAST - 1);
            int j = pick(random, SOUTH + 1, NORTH - 1);
            Fence depot =
                    zone(
                            String.format("depot-%02d", k),
                            "depot",
                            "Depot " + northSouth(i) + " & " + eastWest(j),
                            i - 0.45,
                            j - 0.45,
                            i + 0.45,
                            j + 0.45);
            out.add(k <= DEPOT_RULES.length ? depotRules(depot, DEPOT_RULES[k - 1]) : depot);
        }
        for (int k = 1; k <= 90; k++) {
            int i = pick(random, WEST, EAST);
            int j = pick(random, SOUTH, NORTH);
            Fence school =
                    zone(
                            String.format("school-%03d", k),
                            "school",
                            "School zone " + northSouth(i) + " & " + eastWest(j),
                            i - 0.35,
                            j - 0.35,
                            i + 0.35,
                            j + 0.35);
            if (school.id().equals(MORNING_SCHOOL)) {
                school = scheduled(school, weekdayMornings(), "Mon-Fri 07:00-09:30 Chicago time");
            } else if (school.id().equals(DEMO_CLOCK_SCHOOL)) {
                school =
                        scheduled(
                                school,
                                demoClock(start),
                                "on "
                                        + DEMO_CLOCK_MINUTES
                                        + " min, off "
                                        + DEMO_CLOCK_MINUTES
                                        + " min, on the demo's clock");
            }
            out.add(school);
        }
        for (int k = 1; k <= 176 - TOLL_GATES.length; k++) {
            out.add(loadingZone(random, String.format("loading-%03d", k)));
        }
        for (int k = 0; k < TOLL_GATES.length; k++) {
            out.add(tollGate(String.format("toll-%02d", k + 1), TOLL_GATES[k]));
        }
        return List.copyOf(out);
    }

    private static Fence depotRules(Fence depot, long[] r) {
        FenceRules rules =
                new FenceRules(r[2], Double.NaN, r[0], r[1], FenceRules.NO_END, null, null);
        String about =
                "enter after "
                        + Console.duration(r[0])
                        + (r[1] > 0 ? ", exit after " + Console.duration(r[1]) : "")
                        + ", dwell "
                        + Console.duration(r[2]);
        return depot.withRules(rules, about);
    }

    private static Fence scheduled(Fence school, WeeklySchedule schedule, String about) {
        FenceRules rules =
                new FenceRules(
                        FenceRules.JOB_DWELL, Double.NaN, 0, 0, FenceRules.NO_END, schedule, null);
        return school.withRules(rules, "schedule: " + about);
    }

    // Monday to Friday, 07:00 to 09:30.
    private static WeeklySchedule weekdayMornings() {
        return new WeeklySchedule(
                ZONE, List.of(new WeeklySchedule.Window(0b0011111, 7 * 60, 9 * 60 + 30)));
    }

    // Event time is the wall clock, so a real school morning is rarely in a run: this schedule is
    // on from the first whole minute after the start for DEMO_CLOCK_MINUTES, off as long, and so
    // on, for as many windows as a schedule may have (over four hours).
    private static WeeklySchedule demoClock(long start) {
        ZonedDateTime first =
                Instant.ofEpochMilli(start)
                        .atZone(ZONE)
                        .truncatedTo(ChronoUnit.MINUTES)
                        .plusMinutes(1);
        List<WeeklySchedule.Window> windows = new ArrayList<>();
        for (int k = 0; k < WeeklySchedule.MAX_WINDOWS; k++) {
            ZonedDateTime on = first.plusMinutes(2L * DEMO_CLOCK_MINUTES * k);
            ZonedDateTime off = on.plusMinutes(DEMO_CLOCK_MINUTES);
            int to = minuteOfDay(off);
            windows.add(
                    new WeeklySchedule.Window(
                            1 << (on.getDayOfWeek().getValue() - 1),
                            minuteOfDay(on),
                            // 00:00 of the next day is 24:00 of this one.
                            to == 0 ? 24 * 60 : to));
        }
        return new WeeklySchedule(ZONE, windows);
    }

    private static int minuteOfDay(ZonedDateTime t) {
        return t.getHour() * 60 + t.getMinute();
    }

    // A gate across a street, GATE_DEPTH meters deep along it and GATE_WIDTH meters across, at
    // {column i, row j, 0 or 1}: on the north-south street of column i at row j (a fraction, 0.4
    // of a block north of a corner) when the third is 0, else on the east-west street of row j
    // at column i (0.4 of a block east of a corner). Off the corners, where vehicles stop, and
    // off the zones' mid-block edges.
    private static Fence tollGate(String id, double[] at) {
        double halfDepth = GATE_DEPTH / 2;
        double halfWidth = GATE_WIDTH / 2;
        if (at[2] == 0) {
            int i = (int) at[0];
            double j = at[1];
            double dLon = halfWidth / METERS_PER_DEGREE_LON;
            double dLat = halfDepth / METERS_PER_DEGREE_LAT;
            return new Fence(
                    id,
                    "toll",
                    "Toll gate " + northSouth(i) + " north of " + eastWest((int) Math.floor(j)),
                    new Rectangle(lon(i) - dLon, lat(j) - dLat, lon(i) + dLon, lat(j) + dLat));
        }
        double i = at[0];
        int j = (int) at[1];
        double dLon = halfDepth / METERS_PER_DEGREE_LON;
        double dLat = halfWidth / METERS_PER_DEGREE_LAT;
        return new Fence(
                id,
                "toll",
                "Toll gate " + eastWest(j) + " east of " + northSouth((int) Math.floor(i)),
                new Rectangle(lon(i) - dLon, lat(j) - dLat, lon(i) + dLon, lat(j) + dLat));
    }

    // A stretch of a quarter block along one street, 30 m wide across it.
    private static Fence loadingZone(Random random, String id) {
        double from = 0.3 + 0.4 * random.nextDouble();
        double halfWidthLon = 15 / METERS_PER_DEGREE_LON / BLOCK_LON;
        double halfWidthLat = 15 / METERS_PER_DEGREE_LAT / BLOCK_LAT;
        if (random.nextBoolean()) {
            int i = pick(random, WEST, EAST);
            int j = pick(random, SOUTH, NORTH - 1);
            return zone(
                    id,
                    "loading",
                    "Loading zone " + northSouth(i) + " north of " + eastWest(j),
                    i - halfWidthLon,
                    j + from,
                    i + halfWidthLon,
                    j + from + 0.25);
        }
        int i = pick(random, WEST, EAST - 1);
        int j = pick(random, SOUTH, NORTH);
        return zone(
                id,
                "loading",
                "Loading zone " + eastWest(j) + " east of " + northSouth(i),
                i + from,
                j - halfWidthLat,
                i + from + 0.25,
                j + halfWidthLat);
    }

    // A zone around the tile corner nearest the middle of the grid, so it is cut into four tiles;
    // its edges lie mid-block like the other zones'.
    private static Fence tileCorner(int level) {
        double tileLon = 360.0 / (1 << level);
        double tileLat = 180.0 / (1 << level);
        double lon = -180 + Math.round((lon(-10) + 180) / tileLon) * tileLon;
        double lat = -90 + Math.round((lat(2) + 90) / tileLat) * tileLat;
        double i = (lon - LON0) / BLOCK_LON;
        double j = (lat - LAT0) / BLOCK_LAT;
        return zone(
                "tile-corner",
                "corner",
                "Tile corner zone (cut into 4 tiles)",
                Math.floor(i) - 0.5,
                Math.floor(j) - 0.5,
                Math.ceil(i) + 0.5,
                Math.ceil(j) + 0.5);
    }

    private static int pick(Random random, int from, int to) {
        return from + random.nextInt(to - from + 1);
    }
}
