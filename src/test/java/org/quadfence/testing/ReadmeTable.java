package org.quadfence.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A table of the README or of a page of docs/, for tests that hold it to the code. */
public final class ReadmeTable {

    private ReadmeTable() {}

    /**
     * The rows of the first table of {@code page} (a path from the project's root, such as {@code
     * docs/options.md}) whose header line is {@code header}: each row's cells, trimmed, with their
     * backticks taken off. Empty when the page has no such table.
     */
    public static List<List<String>> rows(String page, String header) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of(page))) {
            if (line.equals(header)) {
                inTable = true;
            } else if (inTable && !line.startsWith("|")) {
                break;
            } else if (inTable && !line.startsWith("|---")) {
                rows.add(
                        Arrays.stream(line.substring(1).split("\\|"))
                                .map(c -> c.trim().replace("`", ""))
                                .toList());
            }
        }
        return rows;
    }
}
