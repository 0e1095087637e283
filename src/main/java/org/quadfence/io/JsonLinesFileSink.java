package org.quadfence.io;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;

/**
 * Writes records to one local JSON-lines file, a record a line, in the order they arrive. Meant for
 * replay and tests: run it at parallelism 1 (the job's per-key order then holds in the file). It
 * truncates the file when it starts and gives no exactly-once guarantee across failures.
 */
public final class JsonLinesFileSink<T> implements Sink<T> {

    private static final long serialVersionUID = 1L;

    /** Makes an encoder; called once per writer, so encoders may hold expensive members. */
    public interface EncoderFactory<T> extends Serializable {
        Function<T, byte[]> create();
    }

    private final String path;
    private final EncoderFactory<T> encoders;

    public JsonLinesFileSink(Path path, EncoderFactory<T> encoders) {
        this.path = path.toAbsolutePath().toString();
        this.encoders = encoders;
    }

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        Path file = Path.of(path);
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        Function<T, byte[]> encoder = encoders.create();
        return new SinkWriter<>() {
            @Override
            public void write(T element, Context ctx) throws IOException {
                out.write(encoder.apply(element));
                out.write('\n');
            }

            @Override
            public void flush(boolean endOfInput) throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }
}
