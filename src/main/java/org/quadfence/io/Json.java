package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Reading and writing helpers shared by the codecs. Every rule violation is thrown as a {@link
 * BadRecord} whose message is the dead letter's error sentence.
 */
final class Json {

    /** Writes one JSON value. */
    @FunctionalInterface
    interface ValueWriter {
        void write(JsonGenerator g) throws IOException;
    }

    /** Reads the fields of one JSON object. */
    @FunctionalInterface
    interface ObjectReader<T> {
        /**
         * Reads from the object's START_OBJECT (the current token) through its END_OBJECT.
         *
         * @throws BadRecord when a rule is broken
         */
        T read(JsonParser p) throws IOException;
    }

    /** Strings quoted in error messages are cut to this many characters. */
    private static final int QUOTE_CHARS = 64;

    private Json() {}

    /** What {@code writer} writes, in UTF-8. */
    static byte[] write(JsonFactory factory, ValueWriter writer) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = factory.createGenerator(out)) {
            writer.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads one record: a single JSON object, nothing but whitespace around it, within {@link
     * Limits} and the factory's document length (the record's byte limit).
     *
     * @throws BadRecord for any input that is not such a record, including malformed JSON and
     *     unexpected runtime failures, so that no byte sequence escapes as another exception
     */
    static <T> T read(JsonFactory factory, byte[] utf8, ObjectReader<T> reader) {
        if (utf8 == null) {
            throw new BadRecord("empty record: no value");
        }
        long limit = factory.streamReadConstraints().getMaxDocumentLength();
        if (utf8.length > limit) {
            throw tooLarge(utf8.length, limit);
        }
        JsonParser p = null;
        try {
            p = factory.createParser(utf8);
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new BadRecord(
                        first == null
                                ? "empty record"
                                : "expected a JSON object, got " + describe(p));
            }
            T value = reader.read(p);
            if (p.nextToken() != null) {
                throw new BadRecord("trailing content after the JSON object");
            }
            return value;
        } catch (IOException e) {
            throw new BadRecord(error(e, p));
        } catch (BadRecord e) {
            throw e;
        } catch (RuntimeException e) {
            // A safety net: bad input must never stop the job. The fuzz test checks it is unused.
            throw new BadRecord("unreadable record: " + e);
        } finally {
            close(p);
        }
    }

    /** The dead letter of a record of {@code bytes} bytes, over the limit of {@code limit}. */
    static BadRecord tooLarge(long bytes, long limit) {
        return new BadRecord(
                "record too large: "
                        + bytes
                        + " bytes, over the "
                        + limit
                        + "-byte limit (max-record-bytes)");
    }

    /** The value of a string field that names something: 1 to {@link Limits#MAX_ID_CHARS}. */
    static String id(JsonParser p, String name) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new BadRecord(idRule(name) + ", got " + describe(p));
        }
        String s = p.getText();
        if (s.isEmpty()) {
            throw new BadRecord(idRule(name) + ", got an empty string");
        }
        // Characters are code points; a UTF-16 length within the bound needs no count.
        if (s.length() > Limits.MAX_ID_CHARS) {
            int chars = s.codePointCount(0, s.length());
            if (chars > Limits.MAX_ID_CHARS) {
                throw new BadRecord(idRule(name) + ", got " + chars + " characters");
            }
        }
        return s;
    }

    private static String idRule(String name) {
        return name + " must be a string of 1 to " + Limits.MAX_ID_CHARS + " characters";
    }

    /** The value of any string field. */
    static String string(JsonParser p, String name) throws IOException {
        if (p.currentToken() != JsonToken.VALUE_STRING) {
            throw new BadRecord(name + " must be a string, got " + describe(p));
        }
        return p.getText();
    }

    /** A finite number in [-bound, bound]. */
    static double coordinate(JsonParser p, String name, int bound) throws IOException {
        double v = finite(p, name);
        if (v < -bound || v > bound) {
            throw new BadRecord(
                    name + " out of range [-" + bound + ", " + bound + "]: " + p.getText());
        }
        return v;
    }

    /** A JSON number whose value is a finite double (1e999 is a number, but not finite). */
    static double finite(JsonParser p, String name) throws IOException {
        JsonToken t = p.currentToken();
        if (t != JsonToken.VALUE_NUMBER_FLOAT && t != JsonToken.VALUE_NUMBER_INT) {
            throw new BadRecord(name + " must be a number, got " + describe(p));
        }
        double v = p.getDoubleValue();
        if (!Double.isFinite(v)) {
            throw new BadRecord(name + " must be a finite number, got " + p.getText());
        }
        return v;
    }

    /** A group (contract section 6): a string. */
    static String group(JsonParser p) throws IOException {
        return string(p, "group");
    }

    /** A "properties" value: an object as compact text, or null for JSON null (as in GeoJSON). */
    static String properties(JsonFactory factory, JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> bounded(compact(factory, p));
            case VALUE_NULL -> null;
            default -> throw new BadRecord("properties must be a JSON object, got " + describe(p));
        };
    }

    private static String bounded(String properties) {
        if (properties.length() > Limits.MAX_PROPERTIES_CHARS) {
            throw new BadRecord(
                    "properties too large: "
                            + properties.length()
                            + " characters of compact JSON, the limit is "
                            + Limits.MAX_PROPERTIES_CHARS
                            + "; keep large data elsewhere and put a reference in properties");
        }
        return properties;
    }

    /**
     * The current object or array as compact JSON text. Numbers keep their original text, so
     * nothing is rounded; the UTF-8 generator escapes unpaired surrogates, so the text is always
     * valid Unicode and can be embedded in any output.
     */
    private static String compact(JsonFactory factory, JsonParser p) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(128);
        try (JsonGenerator g = factory.createGenerator(out)) {
            int depth = 0;
            do {
                JsonToken t = p.currentToken();
                if (t == JsonToken.VALUE_NUMBER_INT || t == JsonToken.VALUE_NUMBER_FLOAT) {
                    g.writeNumber(p.getText());
                } else {
                    g.copyCurrentEvent(p);
                }
                if (t.isStructStart()) {
                    depth++;
                } else if (t.isStructEnd()) {
                    depth--;
                }
            } while (depth > 0 && p.nextToken() != null);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The current value as a person would write it: "text", 12.5, true, null, an object. */
    static String describe(JsonParser p) throws IOException {
        return switch (p.currentToken()) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> quote(p.getText());
            default -> p.getText();
        };
    }

    /** The string in quotes, cut to a length that reads well in a sentence. */
    static String quote(String s) {
        return s.length() <= QUOTE_CHARS
                ? '"' + s + '"'
                : '"' + DeadLetterCodec.cut(s, QUOTE_CHARS) + "\"...";
    }

    /** The error sentence for a parser exception. */
    private static String error(IOException e, JsonParser p) {
        if (e instanceof StreamConstraintsException) {
            if (p != null && p.getParsingContext().getNestingDepth() >= Limits.MAX_NESTING_DEPTH) {
                return "nesting deeper than " + Limits.MAX_NESTING_DEPTH;
            }
            return "over a limit: " + reason(e);
        }
        String reason = reason(e);
        String duplicate = "Duplicate field ";
        if (reason.startsWith(duplicate)) {
            return "duplicate field " + reason.substring(duplicate.length());
        }
        return "not JSON: " + reason;
    }

    /** Jackson's message without the location and the advice to change parser settings. */
    private static String reason(IOException e) {
        String m = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        for (String tail : new String[] {"\n", " (start marker at", ": enable `", ", from `"}) {
            int at = m.indexOf(tail);
            if (at >= 0) {
                m = m.substring(0, at) + (tail.equals(", from `") ? ")" : "");
            }
        }
        return m;
    }

    private static void close(JsonParser p) {
        if (p != null) {
            try {
                p.close();
            } catch (IOException e) {
                // An in-memory parser has nothing to release that could fail.
            }
        }
    }
}
