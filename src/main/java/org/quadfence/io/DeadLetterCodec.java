package org.quadfence.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.model.DeadLetter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes and reads dead letters (contract section 5):
 *
 * <pre>{"input":"positions","error":"lat out of range [-90, 90]: 91.2","raw":"..."}</pre>
 *
 * <p>and the report of a fence used after a repair (contract section 8a), with {@code
 * "repaired":true} after the error:
 *
 * <pre>{"input":"fences","error":"repaired (make-valid): ...","repaired":true,"raw":"..."}</pre>
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class DeadLetterCodec {

    private final JsonFactory factory = Limits.jsonFactory();

    /**
     * The {@code raw} text of a dead letter for a record's bytes: decoded as UTF-8, malformed bytes
     * replaced by U+FFFD, cut to {@link Limits#MAX_RAW_CHARS} characters (never inside a surrogate
     * pair); "" for null.
     */
    public static String raw(byte[] utf8) {
        if (utf8 == null) {
            return "";
        }
        // No UTF-8 sequence decodes to more than one char per byte or fewer than one per 3 bytes
        // (4-byte sequences give 2 chars), so this prefix yields enough text and no more.
        int prefix = Math.min(utf8.length, 3 * Limits.MAX_RAW_CHARS + 3);
        return cut(new String(utf8, 0, prefix, StandardCharsets.UTF_8), Limits.MAX_RAW_CHARS);
    }

    /** The first {@code max} chars of {@code s}, one fewer when that would split a pair. */
    static String cut(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        return s.substring(0, Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max);
    }

    /** The dead letter as one compact JSON object in UTF-8. */
    public byte[] encode(DeadLetter d) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + d.raw().length());
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("input", d.input());
            g.writeStringField("error", d.error());
            if (d.repaired()) {
                g.writeBooleanField("repaired", true);
            }
            g.writeStringField("raw", d.raw());
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /**
     * Reads a dead letter written by {@link #encode}: string fields input, error and raw, and the
     * optional boolean repaired; others are ignored.
     *
     * @throws IllegalArgumentException naming what is wrong, for anything else
     */
    public DeadLetter decode(byte[] utf8) {
        try {
            return Json.read(factory, utf8, DeadLetterCodec::read);
        } catch (BadRecord e) {
            throw new IllegalArgumentException(e.getMessage());
        }
    }

    private static DeadLetter read(JsonParser p) throws IOException {
        String input = null;
        String error = null;
        String raw = null;
        boolean repaired = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "input" -> input = Json.string(p, name);
                case "error" -> error = Json.string(p, name);
                case "raw" -> raw = Json.string(p, name);
                case "repaired" -> {
                    if (!p.currentToken().isBoolean()) {
                        throw new BadRecord("repaired must be true or false");
                    }
                    repaired = p.getBooleanValue();
                }
                default -> p.skipChildren();
            }
        }
        if (input == null || error == null || raw == null) {
            throw new BadRecord("a dead letter needs the string fields input, error and raw");
        }
        return new DeadLetter(input, error, raw, repaired);
    }
}
