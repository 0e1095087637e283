package org.quadfence.io;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.SimpleStreamFormat;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.FSDataInputStream;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.util.function.Function;

/**
 * Reads a JSON-lines file, one record a line, parsing each line at the source (so that watermarks
 * see event time). A line that does not parse becomes a dead letter, not an error; so does a line
 * longer than the record limit ("record too large"), which is skipped without being kept whole.
 * Empty lines are skipped.
 */
public final class JsonLinesFormat<T> extends SimpleStreamFormat<Parsed<T>> {

    private static final long serialVersionUID = 2L;

    /** Makes a line parser; called once per reader, so parsers may hold expensive members. */
    public interface ParserFactory<T> extends Serializable {
        Function<byte[], Parsed<T>> create();
    }

    private final ParserFactory<T> parsers;
    private final TypeInformation<Parsed<T>> type;
    private final String input;
    private final int maxRecordBytes;

    /**
     * @param input the dead letters' {@link DeadLetter#input()}
     * @param maxRecordBytes the longest line, in bytes without its line end, that is parsed
     */
    public JsonLinesFormat(
            ParserFactory<T> parsers,
            TypeInformation<Parsed<T>> type,
            String input,
            int maxRecordBytes) {
        this.parsers = parsers;
        this.type = type;
        this.input = input;
        this.maxRecordBytes = maxRecordBytes;
    }

    @Override
    public Reader<Parsed<T>> createReader(Configuration config, FSDataInputStream stream) {
        Function<byte[], Parsed<T>> parser = parsers.create();
        InputStream in = new BufferedInputStream(stream, 1 << 16);
        // One byte more than a record may have, so that a line end "\r\n" after one of the
        // longest records is still seen whole; and at least what a dead letter's raw text takes.
        long kept = Math.max((long) maxRecordBytes + 1, 3L * Limits.MAX_RAW_CHARS + 3);
        return new StreamFormat.Reader<>() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);

            @Override
            public Parsed<T> read() throws IOException {
                while (true) {
                    line.reset();
                    long length = 0;
                    int last = -1;
                    int b;
                    while ((b = in.read()) != -1 && b != '\n') {
                        if (length < kept) {
                            line.write(b);
                        }
                        length++;
                        last = b;
                    }
                    if (b == -1 && length == 0) {
                        return null;
                    }
                    if (last == '\r') {
                        length--;
                    }
                    if (length > maxRecordBytes) {
                        return Parsed.failed(
                                new DeadLetter(
                                        input,
                                        Json.tooLarge(length, maxRecordBytes).getMessage(),
                                        DeadLetterCodec.raw(line.toByteArray())));
                    }
                    if (length > 0) {
                        byte[] bytes = line.toByteArray();
                        return parser.apply(
                                bytes.length == length
                                        ? bytes
                                        : java.util.Arrays.copyOf(bytes, (int) length));
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
