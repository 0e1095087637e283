package org.quadfence.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** The sample cases under src/test/resources/samples, read as raw lines of bytes. */
final class Samples {

    private Samples() {}

    /** The file {@code name} of sample case {@code sample}. */
    static Path file(String sample, String name) {
        try {
            return Path.of(Samples.class.getResource("/samples/" + sample + "/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The lines of a JSON-lines file as bytes, without their "\n", so invalid UTF-8 stays. */
    static List<byte[]> lines(String sample, String name) {
        byte[] all;
        try {
            all = Files.readAllBytes(file(sample, name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<byte[]> lines = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < all.length; i++) {
            if (all[i] == '\n') {
                lines.add(Arrays.copyOfRange(all, start, i));
                start = i + 1;
            }
        }
        if (start < all.length) {
            lines.add(Arrays.copyOfRange(all, start, all.length));
        }
        return lines;
    }
}
