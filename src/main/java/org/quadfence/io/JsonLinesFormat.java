package org.quadfence.io;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

import org.quadfence.model.Parsed;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.function.Function;

/**
 * Reads a JSON-lines file, one record a line, parsing each line at the source (so that watermarks
 * see event time). A line that does not parse becomes a dead letter, not an error. Empty lines are
 * skipped.
 */
public final class JsonLinesFormat<T> extends SimpleStreamFormat<Parsed<T>> {

    private static final long serialVersionUID = 1L;

    /** Makes a line parser; called once per reader, so parsers may hold expensive members. */
    public interface ParserFactory<T> extends Serializable {
        Function<byte[], Parsed<T>> create();
    }

    private final ParserFactory<T> parsers;
    private final TypeInformation<Parsed<T>> type;

    public JsonLinesFormat(ParserFactory<T> parsers, TypeInformation<Parsed<T>> type) {
        this.parsers = parsers;
        this.type = type;
    }

    @Override
    public Reader<Parsed<T>> createReader(Configuration config, FSDataInputStream stream) {
        Function<byte[], Parsed<T>> parser = parsers.create();
        InputStream in = new BufferedInputStream(stream, 1 << 16);
        return new StreamFormat.Reader<>() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

            @Override
            public Parsed<T> read() throws IOException {
                while (true) {
                    line.reset();
                    int b;
                    while ((b = in.read()) != -1 && b != '\n') {
                        line.write(b);
                    }
                    if (b == -1 && line.size() == 0) {
                        return null;
                    }
                    byte[] bytes = line.toByteArray();
                    int n = bytes.length;
                    if (n > 0 && bytes[n - 1] == '\r') {
                        bytes = java.util.Arrays.copyOf(bytes, n - 1);
                    }
                    if (bytes.length > 0) {
                        return parser.apply(bytes);
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
    public TypeInformation<Parsed<T>> getProducedType() {
        return type;
    }
}
