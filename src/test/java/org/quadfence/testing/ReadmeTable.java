package org.quadfence.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A table of the README, for tests that hold it to the code. */
public final class ReadmeTable {

    private ReadmeTable() {}

    /**
     * The rows of the README's table whose header line is {@code header}: each row's cells,
     * trimmed, with their backticks taken off.
     */
    public static List<List<String>> rows(String header) throws IOException {
        List<List<String>> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(Path.of("README.md"))) {
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
