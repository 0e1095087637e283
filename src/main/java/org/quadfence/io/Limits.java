package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

/**
 * Bounds on input records. A record over a bound is a dead letter, so one bad producer cannot
 * exhaust a task's memory or stack.
 */
public final class Limits {

    /** Largest record, in bytes (1 MiB); a larger record is a dead letter without being parsed. */
    public static final int MAX_RECORD_BYTES = 1 << 20;

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

    /**
     * Longest {@code raw} text of a dead letter, in UTF-16 chars ({@link String#length()}); longer
     * records are cut.
     */
    public static final int MAX_RAW_CHARS = 4096;

    private Limits() {}

    /**
     * A JSON factory that enforces the bounds above and rejects duplicate field names (RFC 8259
     * leaves their meaning open; two consumers could read different values).
     */
    static JsonFactory jsonFactory() {
        return JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(
                        StreamReadConstraints.builder()
                                .maxDocumentLength(MAX_RECORD_BYTES)
                                .maxNestingDepth(MAX_NESTING_DEPTH)
                                .maxStringLength(MAX_STRING_CHARS)
                                .maxNumberLength(MAX_NUMBER_CHARS)
                                .maxNameLength(MAX_NAME_CHARS)
                                .build())
                .build();
    }
}
