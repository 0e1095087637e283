package org.quadfence.bench;

import org.apache.flink.api.common.serialization.Encoder;

import org.quadfence.bench.PeerRecords.Event;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The encoder of {@link BroadcastStrTreeJob}'s file sink: events as contract section 4 JSON lines,
 * fields in the contract's order, {@code properties} as the parser kept them (compact JSON). One
 * instance per writer.
 */
final class PeerEvents implements Encoder<Event> {
    private static final long serialVersionUID = 1L;
    private transient StringBuilder line;
    private transient byte[] bytes;

    @Override
    public void encode(Event e, OutputStream out) throws IOException {
        if (line == null) {
            line = new StringBuilder(256);
            bytes = new byte[256];
        }
        StringBuilder s = line;
        s.setLength(0);
        quoted(s.append("{\"entityId\":"), e.entityId);
        quoted(s.append(",\"fenceId\":"), e.fenceId);
        s.append(",\"event\":\"").append(e.type).append("\",\"timestamp\":").append(e.timestamp);
        s.append(",\"lon\":").append(e.lon).append(",\"lat\":").append(e.lat);
        if (e.group != null) {
            quoted(s.append(",\"group\":"), e.group);
        }
        if (e.properties != null) {
            s.append(",\"properties\":").append(e.properties);
        }
        s.append("}\n");
        int n = s.length();
        if (n > bytes.length) {
            bytes = new byte[2 * n];
        }
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                out.write(s.toString().getBytes(StandardCharsets.UTF_8));
                return;
            }
            bytes[i] = (byte) c;
        }
        out.write(bytes, 0, n);
    }

    private static void quoted(StringBuilder s, String text) {
        s.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else if (c < 0x20) {
                s.append(String.format("\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        s.append('"');
    }
}
