package org.quadfence.bench;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * The file format of {@link BroadcastStrTreeJob}'s sources: JSON lines, each parsed in place from
 * the read buffer (no String, no copy of the line). Lines the parser refuses are skipped.
 */
final class PeerLines<T> extends SimpleStreamFormat<T> {

    private static final long serialVersionUID = 1L;

    /** Parses one line, or returns null when it is not a valid record. */
    interface Parser<T> extends Serializable {
        T parse(byte[] buffer, int offset, int length) throws IOException;
    }

    private final Parser<T> parser;
    private final Class<T> type;

    PeerLines(Parser<T> parser, Class<T> type) {
        this.parser = parser;
        this.type = type;
    }

    @Override
    public StreamFormat.Reader<T> createReader(Configuration config, FSDataInputStream in) {
        return new StreamFormat.Reader<>() {
            private byte[] buffer = new byte[1 << 16];
            private int start;
            private int limit;
            private boolean eof;

            @Override
            public T read() throws IOException {
                while (true) {
                    int end = lineEnd();
                    if (end < 0) {
                        return null;
                    }
                    int from = start;
                    start = Math.min(end + 1, limit);
                    if (end > from) {
                        T record = parser.parse(buffer, from, end - from);
                        if (record != null) {
                            return record;
                        }
                    }
                }
            }

            /** The index of the next line's end (a newline, or the end of the file), or -1. */
            private int lineEnd() throws IOException {
                int scanned = start;
                while (true) {
                    for (int i = scanned; i < limit; i++) {
                        if (buffer[i] == '\n') {
                            return i;
                        }
                    }
                    if (eof) {
                        return start < limit ? limit : -1;
                    }
                    scanned = limit - start;
                    System.arraycopy(buffer, start, buffer, 0, scanned);
                    limit = scanned;
                    start = 0;
                    if (limit == buffer.length) {
                        buffer = Arrays.copyOf(buffer, buffer.length * 2);
                    }
                    int n = in.read(buffer, limit, buffer.length - limit);
                    if (n < 0) {
                        eof = true;
                    } else {
                        limit += n;
                    }
                }
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return TypeInformation.of(type);
    }
}
