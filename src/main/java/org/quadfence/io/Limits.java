package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import org.quadfence.model.WeeklySchedule;

/**
 * Bounds on input records. A record over a bound is a dead letter, so one bad producer cannot
 * exhaust a task's memory or stack.
 */
public final class Limits {

    /**
     * Largest record by default, in bytes (16 MiB; option {@code max-record-bytes}); a larger
     * record is a dead letter "record too large" without being parsed.
     */
    public static final int DEFAULT_MAX_RECORD_BYTES = 16 << 20;

    /** The most that {@code max-record-bytes} may be (1 GiB): a record is one byte array. */
    public static final int MOST_RECORD_BYTES = 1 << 30;

    /**
     * Bytes a vertex of a polygon fence takes at most in GeoJSON written with 17 significant digits
     * per coordinate: two coordinates of up to 24 characters ("-0.000012345678901234567" as
     * JavaScript writes it), "[", ", ", "]", ", " around them (54 bytes a position), a closing
     * position for every ring of at least 3 vertices (4/3 positions a vertex: 72 bytes) and the
     * brackets of rings and polygons.
     */
    public static final int BYTES_PER_VERTEX = 80;

    /**
     * Bytes of a fence record besides its coordinates, at most: properties at their limit (65,536
     * characters, 6 bytes each when escaped), ids, times and field names.
     */
    public static final int BYTES_BESIDES_VERTICES = 1 << 20;

    /** Deepest nesting of JSON objects and arrays, counting the record's own object as 1. */
    public static final int MAX_NESTING_DEPTH = 64;

    /** Longest JSON string value the parser materializes, in characters. */
    public static final int MAX_STRING_CHARS = 1 << 18;

    /** Longest JSON number, in characters. */
    public static final int MAX_NUMBER_CHARS = 1000;

    /** Longest JSON field name, in characters. */
    public static final int MAX_NAME_CHARS = 1024;

    /** Longest entityId or fenceId, in Unicode code points (an emoji counts as one). */
    public static final int MAX_ID_CHARS = 256;

    /** Longest "properties" of a fence, in characters of compact JSON text (UTF-16 chars). */
    public static final int MAX_PROPERTIES_CHARS = 65_536;

    /** Most names in the {@code attributes} of a position (contract section 11). */
    public static final int MAX_ATTRIBUTES = 64;

    /**
     * Longest {@code attributes} of a position, in characters of compact JSON text (UTF-16 chars),
     * as for {@link #MAX_PROPERTIES_CHARS}.
     */
    public static final int MAX_ATTRIBUTES_CHARS = 65_536;

    /** Largest {@code accuracy} of a position, in metres. */
    public static final int MAX_ACCURACY_METERS = 1_000_000;

    /**
     * Largest time of a fence's rules {@code dwellMs}, {@code enterAfterMs} and {@code
     * exitAfterMs}, in ms: the span of event times (253,402,300,799,999 ms).
     */
    public static final long MAX_RULE_MS = 253_402_300_799_999L;

    /** Largest {@code exitMarginMeters} of a fence's rules, in metres. */
    public static final int MAX_EXIT_MARGIN_METERS = 1_000_000;

    /** Most windows in the {@code schedule} of a fence's rules. */
    public static final int MAX_SCHEDULE_WINDOWS = WeeklySchedule.MAX_WINDOWS;

    /** Most attribute names in the {@code match} of a fence's rules. */
    public static final int MAX_MATCH_NAMES = 64;

    /** Most values of one attribute name in the {@code match} of a fence's rules. */
    public static final int MAX_MATCH_VALUES = 64;

    /**
     * Longest {@code raw} text of a dead letter, in UTF-16 chars ({@link String#length()}); longer
     * records are cut.
     */
    public static final int MAX_RAW_CHARS = 4096;

    private Limits() {}

    /**
     * The least {@code max-record-bytes} that admits every fence of {@code maxVertices} vertices:
     * {@link #BYTES_PER_VERTEX} a vertex plus {@link #BYTES_BESIDES_VERTICES} (9,048,576 bytes for
     * 100,000 vertices, within the default 16 MiB).
     */
    public static long leastRecordBytes(int maxVertices) {
        return (long) BYTES_PER_VERTEX * maxVertices + BYTES_BESIDES_VERTICES;
    }

    /** The most vertices whose fences records of {@code maxRecordBytes} always admit. */
    public static long mostVertices(long maxRecordBytes) {
        return Math.max(0, (maxRecordBytes - BYTES_BESIDES_VERTICES) / BYTES_PER_VERTEX);
    }

    /** {@link #jsonFactory(long)} with {@link #DEFAULT_MAX_RECORD_BYTES}. */
    static JsonFactory jsonFactory() {
        return jsonFactory(DEFAULT_MAX_RECORD_BYTES);
    }

    /**
     * A JSON factory that enforces the bounds above, records of at most {@code maxRecordBytes}
     * (which {@link Json#read} reads back from it), and rejects duplicate field names (RFC 8259
     * leaves their meaning open; two consumers could read different values). It reads doubles with
     * Jackson's FastDoubleParser: correctly rounded, the same double as {@link Double#parseDouble},
     * and a polygon fence of 256 vertices parses in 0.6 of the time ({@code CodecBench}).
     */
    static JsonFactory jsonFactory(long maxRecordBytes) {
        return JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
                .streamReadConstraints(
                        StreamReadConstraints.builder()
                                .maxDocumentLength(maxRecordBytes)
                                .maxNestingDepth(MAX_NESTING_DEPTH)
                                .maxStringLength(MAX_STRING_CHARS)
                                .maxNumberLength(MAX_NUMBER_CHARS)
                                .maxNameLength(MAX_NAME_CHARS)
                                .build())
                .build();
    }
}
