package org.quadfence.job;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.Groups;
import org.quadfence.model.Position;

import java.time.Instant;

/** The dead letter of a position that arrived after the watermark had passed its time. */
final class Late {

    private Late() {}

    static DeadLetter deadLetter(Position p, long watermark) {
        String error =
                "late: event time "
                        + Instant.ofEpochMilli(p.timestamp())
                        + " arrived after the watermark had passed "
                        + Instant.ofEpochMilli(watermark)
                        + "; raise max-out-of-orderness to accept records this late";
        return new DeadLetter("positions", error, json(p));
    }

    /** A string as a JSON string literal. */
    static String quote(String text) {
        StringBuilder s = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else if (c < 0x20) {
                s.append(String.format("\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        return s.append('"').toString();
    }

    /** The position as contract JSON (the original text is not kept past the source). */
    static String json(Position p) {
        StringBuilder s = new StringBuilder("{\"entityId\":").append(quote(p.entityId()));
        return s.append(",\"lon\":")
                .append(p.lon())
                .append(",\"lat\":")
                .append(p.lat())
                .append(",\"timestamp\":")
                .append(p.timestamp())
                .append(Groups.DEFAULT.equals(p.group()) ? "" : ",\"group\":" + quote(p.group()))
                .append('}')
                .toString();
    }
}
