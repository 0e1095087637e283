package org.quadfence.model;

import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Circle;
import org.quadfence.geo.CirclePiece;
import org.quadfence.geo.PolygonPiece;
import org.quadfence.geo.Rectangle;
import org.quadfence.geo.RectanglePiece;
import org.quadfence.geo.ShapePiece;
import org.quadfence.rules.DueTimes;
import org.quadfence.rules.Visit;
import org.quadfence.stages.EntityState;
import org.quadfence.stages.FenceProperties;
import org.quadfence.stages.SequencedEvent;
import org.quadfence.testing.Country;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.time.ZoneId;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Instances of the records that have serializers of their own, with the edge cases those must keep:
 * null where a field may be null, empty arrays, non-ASCII text, extreme numbers, a fence's largest
 * properties (65,536 characters, many of them three bytes in UTF-8), and every kind of piece a tile
 * holds of a fence.
 */
final class RecordSamples {

    /** JSON properties of 65,536 characters, beyond what {@code writeUTF} could write. */
    static final String LARGE_PROPERTIES = largeProperties();

    private RecordSamples() {}

    static FenceChange[] fenceChanges() {
        double[][][] polygons = {
            {{0, 0, 10, 0, 10, 10, 0, 10}, {2, 2, 3, 2, 3, 3}},
            {{-180, -90, 180, -90, 180, 90}},
            {}
        };
        return new FenceChange[] {
            FenceChange.upsert("depot-1", new Rectangle(170, -1, -170, 1), 5L, "{\"a\":1}"),
            FenceChange.upsert("zone-é", new Circle(-0.0, 90, 20_000_000), Long.MIN_VALUE, null)
                    .inGroup("nord-äö"),
            new FenceChange("p", null, Long.MAX_VALUE, LARGE_PROPERTIES, null, null, polygons),
            FenceChange.delete("", 0),
            new FenceChange(
                    "all",
                    new Rectangle(-180, -90, 180, 90),
                    1,
                    "{}",
                    "g",
                    new Circle(1, 2, 3),
                    new double[0][][]),
            FenceChange.upsert("ruled", new Rectangle(0, 0, 1, 1), 7L, null).withRules(RULES[0]),
            FenceChange.upsert("timed", new Circle(0, 0, 10), 8L, "{}").withRules(RULES[1])
        };
    }

    /** Rules of every kind (contract section 11), and rules at their edges. */
    static final FenceRules[] RULES = {
        new FenceRules(
                0,
                112.5,
                30_270,
                253402300799999L,
                1732233812080L,
                new WeeklySchedule(
                        ZoneId.of("Australia/Lord_Howe"),
                        List.of(
                                new WeeklySchedule.Window(0b1000001, 0, 1440),
                                new WeeklySchedule.Window(1, 1439, 1))),
                new AttributeMatch(Map.of("fleet", Set.of("north", "south-2"), "東京", Set.of("")))),
        new FenceRules(FenceRules.JOB_DWELL, Double.NaN, 1, 0, FenceRules.NO_END, null, null),
        FenceRules.NONE
    };

    static FenceRules[] fenceRules() {
        return RULES.clone();
    }

    static FenceProperties[] fenceProperties() {
        return new FenceProperties[] {
            new FenceProperties("default", "depot-1", 5L, "{\"a\":1}", false),
            new FenceProperties(null, "", Long.MIN_VALUE, null, true),
            new FenceProperties("東京", "x".repeat(300), Long.MAX_VALUE, LARGE_PROPERTIES, false)
        };
    }

    static Position[] positions() {
        return new Position[] {
            new Position("truck-17", -73.9857, 40.7484, 1732233600000L),
            new Position("", -0.0, 90, Long.MIN_VALUE, "g"),
            new Position("Zürich-🚚-東京", 180, -90, Long.MAX_VALUE, "nord-äö"),
            new Position("x".repeat(256), Double.MIN_VALUE, -Double.MIN_VALUE, 0, null),
            new Position("acc", 1, 2, 3, "g", 60.5, null),
            new Position(
                    "att",
                    1,
                    2,
                    -3,
                    null,
                    0,
                    Collections.unmodifiableSortedMap(
                            new TreeMap<>(Map.of("fleet", "north", "kind", "東京")))),
            new Position("empty", 1, 2, 3, "g", 1e6, Collections.emptySortedMap()),
            new Position("offline", 1, 2, 3, "g").inBacklog(4000),
            new Position("offline", 1, 2, 3, null, 5, Collections.emptySortedMap())
                    .inBacklog(Long.MIN_VALUE + 1)
        };
    }

    static GeofenceEvent[] events() {
        return new GeofenceEvent[] {
            new GeofenceEvent("e", "f", EventType.EXIT, 7, 1e-300, 0.1, null),
            new GeofenceEvent("e", "f", EventType.ENTER, Long.MIN_VALUE, -180, 90, "{}", "g"),
            new GeofenceEvent(
                    "Zürich-🚚", "zone-東京", EventType.DWELL, 5, 1, 2, LARGE_PROPERTIES, "ü"),
            new GeofenceEvent("", "", EventType.ENTER, 0, 0, 0, "{\"a\":\"\\u0000\"}", ""),
            new GeofenceEvent(
                    "e",
                    "gate",
                    EventType.CROSS,
                    2000,
                    10,
                    0,
                    "{}",
                    "g",
                    new Waypoint(1000, 0, 0),
                    new Waypoint(1400, 4, -0.0)),
            new GeofenceEvent("e", "f", EventType.EXIT, 70, 1, 2, "g", 10),
            new GeofenceEvent("e", "f", EventType.DWELL, 0, 1, 2, null, Long.MAX_VALUE),
            new GeofenceEvent("e", "f", EventType.ENTER, 5, 1, 2, "", -1).withProperties("{}")
        };
    }

    static Membership[] memberships() {
        return new Membership[] {
            new Membership(Groups.DEFAULT, "truck-17", 1, 2, 3, new String[0]),
            new Membership("g", "e", Long.MAX_VALUE, -0.0, 90, new String[] {"a", "b"}),
            new Membership(
                    "ü", "🚚", 0, 1, 2, new String[] {"東京", ""}, new String[] {"near-1", "x"}),
            new Membership("g", "e", 0, 0, 0, null, null),
            new Membership("g", "e", 0, 0, 0, new String[] {null}, new String[0]),
            new Membership(
                    "g",
                    "e",
                    2000,
                    10,
                    0,
                    new String[] {"a"},
                    new String[] {"n"},
                    new Waypoint(1000, 0, 0),
                    new String[] {"gate", "yard"},
                    new double[] {0.4, 0}),
            new Membership(
                    "g",
                    "e",
                    2000,
                    10,
                    0,
                    new String[0],
                    new String[0],
                    new Waypoint(1000, 0, 0),
                    new String[0],
                    new double[0]),
            new Membership(
                            "g",
                            "e",
                            3,
                            0,
                            0,
                            new String[] {"a", "b"},
                            new String[] {"n"},
                            null,
                            new String[0],
                            new double[0],
                            null)
                    .withTimings(new long[] {1, 2, 3, 0, 0, -1, 0, 9, Long.MIN_VALUE}),
            new Membership(
                    "g",
                    "e",
                    2000,
                    10,
                    0,
                    new String[0],
                    new String[] {"n"},
                    new Waypoint(1000, 0, 0),
                    new String[] {"gate"},
                    new double[] {0.5},
                    new long[] {0, 50, -1}),
            new Membership("g", "offline", 3, 1, 2, new String[] {"a"}).inBacklog(4000),
            new Membership(
                            "g",
                            "e",
                            2000,
                            10,
                            0,
                            new String[0],
                            new String[] {"n"},
                            new Waypoint(1000, 0, 0),
                            new String[] {"gate"},
                            new double[] {0.5},
                            new long[] {0, 50, -1})
                    .inBacklog(Long.MAX_VALUE)
        };
    }

    static Step[] steps() {
        Position p = new Position("truck-17", 10, 0, 2000, "g");
        return new Step[] {
            new Step(p, null, 0),
            new Step(p, new Waypoint(1000, 0, 0), Long.MAX_VALUE),
            new Step(new Position("", -180, 90, Long.MIN_VALUE), new Waypoint(-1, 180, -90), -1)
        };
    }

    static Waypoint[] waypoints() {
        return new Waypoint[] {
            new Waypoint(0, 0, 0), new Waypoint(Long.MAX_VALUE, -180, 90), new Waypoint(-1, -0.0, 1)
        };
    }

    static TileKey[] tileKeys() {
        return new TileKey[] {
            new TileKey(Groups.DEFAULT, 0, 0, 0),
            new TileKey("g", Long.MAX_VALUE, 3, -1),
            new TileKey("東京", -1, Integer.MAX_VALUE, Integer.MIN_VALUE),
            new TileKey(null, 1, 1, 1)
        };
    }

    static SequencedEvent[] sequencedEvents() {
        GeofenceEvent[] events = events();
        return new SequencedEvent[] {
            new SequencedEvent(events[0], 0),
            new SequencedEvent(events[1], Integer.MAX_VALUE),
            new SequencedEvent(events[2], -1),
            new SequencedEvent(events[3], 1)
        };
    }

    static EntityState[] entityStates() {
        return new EntityState[] {
            new EntityState(new String[0], new Visit[0], 1, 2, 3),
            new EntityState(
                    new String[] {"a", "東京", "z"},
                    new Visit[] {
                        new Visit(Visit.IN, 5, DueTimes.NONE, DueTimes.NONE, 0),
                        new Visit(Visit.ENTERING, Visit.UNKNOWN, Long.MAX_VALUE, 17, 3),
                        new Visit(Visit.LEAVING, 0, 9, Long.MAX_VALUE, Long.MAX_VALUE)
                    },
                    -180,
                    -90,
                    Long.MIN_VALUE)
        };
    }

    /** One of each kind, a polygon's piece as a tile of a country-sized border holds it. */
    static ShapePiece[] shapePieces() {
        return new ShapePiece[] {
            Boxes.of(Box.WORLD),
            Boxes.of(new Box(-180, -1, -170, 1), new Box(170, -1, 180, 1)),
            countryPiece(),
            new PolygonPiece(
                    -0.0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    0,
                    new int[2],
                    new int[0],
                    new boolean[0],
                    new double[0],
                    new double[0],
                    new double[0]),
            CirclePiece.of(new Circle(180, -45, 1500), new Box(-180, -45.1, -179.9, -44.9)),
            new RectanglePiece(new Rectangle(170, -1, -170, 1), new Box(-180, -1.5, -169.5, 1.5))
        };
    }

    static TileUpdate[] tileUpdates() {
        ShapePiece[] pieces = shapePieces();
        return new TileUpdate[] {
            new TileUpdate(1L << 14 | 5, Groups.DEFAULT, "depot-1", 1732233600000L, pieces[1]),
            new TileUpdate(Long.MAX_VALUE, "東京", "zone-🚚", Long.MIN_VALUE, pieces[2], 3),
            new TileUpdate(1, "g", "f", 0, null, Integer.MAX_VALUE),
            new TileUpdate(-1, null, null, -1, pieces[4], -1),
            new TileUpdate(4, "", "", 1, pieces[5], 0),
            new TileUpdate(5, "g", "ruled", 2, pieces[1], 1, RULES[0]),
            new TileUpdate(-5, null, "timed", -2, null, -1, RULES[1])
        };
    }

    /** The piece of the first tile, north to south, that the border passes through. */
    static PolygonPiece countryPiece() {
        for (TileCut cut : new TileGrid(8).cut(Country.polygon(2_000, -60, -10, 5, 3), 500)) {
            if (cut.piece() instanceof PolygonPiece piece) {
                return piece;
            }
        }
        throw new AssertionError("the border passes through no tile");
    }

    private static String largeProperties() {
        StringBuilder b = new StringBuilder("{\"n\":\"");
        while (b.length() < 65_536 - 2) {
            b.append(b.length() % 3 == 0 ? '東' : 'a');
        }
        return b.append("\"}").toString();
    }
}
