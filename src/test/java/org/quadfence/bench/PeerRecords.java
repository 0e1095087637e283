package org.quadfence.bench;

/**
 * The small mutable records of {@link BroadcastStrTreeJob}, Flink POJOs (public fields, a public
 * no-argument constructor) as such a job declares them. A null {@code group} is the default group.
 */
public final class PeerRecords {

    private PeerRecords() {}

    /** An id made unique across groups: itself in the default group, else after its group. */
    static String key(String group, String id) {
        return group == null ? id : group + '\u0000' + id;
    }

    /** A position (contract section 1). */
    public static final class Position {
        public String entityId;
        public String group;
        public double lon;
        public double lat;
        public long timestamp;

        public Position() {}
    }

    /**
     * A fence change (contract sections 2 and 6). A rectangle has {@code coords} minLon, minLat,
     * maxLon, maxLat; a circle lon, lat, radius in metres; a polygon or multipolygon its points as
     * lon, lat pairs, ring after ring, with {@code ringPoints} the points of each ring and {@code
     * polygonRings} the rings (shell first) of each polygon.
     */
    public static final class Fence {
        public static final byte RECT = 0;
        public static final byte CIRCLE = 1;
        public static final byte POLYGON = 2;

        public String fenceId;
        public String group;
        public boolean deleted;
        public byte shape;
        public double[] coords;
        public int[] ringPoints;
        public int[] polygonRings;
        public String properties;

        public Fence() {}

        /** The fence's identity across groups. */
        public String key() {
            return PeerRecords.key(group, fenceId);
        }
    }

    /** A geofence event (contract section 4). */
    public static final class Event {
        public String entityId;
        public String fenceId;
        public String type;
        public long timestamp;
        public double lon;
        public double lat;
        public String group;
        public String properties;

        public Event() {}
    }
}
