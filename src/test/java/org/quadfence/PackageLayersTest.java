package org.quadfence;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Holds the code to the layers that {@code docs/layout.md} draws ("Imports run one way"): a package
 * imports only the packages to its left there, and the packages it names as having no Flink in them
 * import none.
 */
class PackageLayersTest {

    private static final Path LAYOUT = Path.of("docs/layout.md");
    private static final Path MAIN = Path.of("src/main/java/org/quadfence");
    private static final Pattern IMPORT =
            Pattern.compile("^import (?:static )?(org\\.quadfence\\.[a-z]+|org\\.apache\\.flink)");

    @Test
    void everyPackageImportsOnlyThePackagesLeftOfItInTheLayout() throws IOException {
        Map<String, Integer> layer = layers();
        List<String> wrongWay = new ArrayList<>();
        for (Path file : sources()) {
            String pkg = MAIN.relativize(file).getName(0).toString();
            for (String imported : imports(file)) {
                if (imported.startsWith("org.quadfence.")) {
                    String other = imported.substring("org.quadfence.".length());
                    if (!other.equals(pkg) && layer.get(other) >= layer.get(pkg)) {
                        wrongWay.add(MAIN.relativize(file) + " imports " + other);
                    }
                }
            }
        }
        assertThat(wrongWay).as("imports against the layout's direction").isEmpty();
    }

    @Test
    void everyPackageOfTheCodeStandsInTheLayout() throws IOException {
        try (Stream<Path> dirs = Files.list(MAIN)) {
            Set<String> packages =
                    dirs.filter(Files::isDirectory)
                            .map(d -> d.getFileName().toString())
                            .collect(Collectors.toSet());
            assertThat(layers().keySet()).containsExactlyInAnyOrderElementsOf(packages);
        }
    }

    @Test
    void thePackagesTheLayoutCallsFreeOfFlinkImportNone() throws IOException {
        Matcher m =
                Pattern.compile("((?:`[a-z]+`(?:, | and )?)+) have no Flink in them")
                        .matcher(Files.readString(LAYOUT));
        assertThat(m.find()).as("the layout's sentence on Flink-free packages").isTrue();
        Set<String> free =
                Pattern.compile("`([a-z]+)`")
                        .matcher(m.group(1))
                        .results()
                        .map(r -> r.group(1))
                        .collect(Collectors.toSet());
        assertThat(free).contains("geo", "index");
        List<String> withFlink = new ArrayList<>();
        for (Path file : sources()) {
            String pkg = MAIN.relativize(file).getName(0).toString();
            if (free.contains(pkg) && imports(file).contains("org.apache.flink")) {
                withFlink.add(MAIN.relativize(file).toString());
            }
        }
        assertThat(withFlink).isEmpty();
    }

    /** Each package's place in the layout's chain {@code a <- b, c <- d}: 0 for the first. */
    private static Map<String, Integer> layers() throws IOException {
        String text = Files.readString(LAYOUT);
        int section = text.indexOf("## Imports run one way");
        assertThat(section).as("the layout's section on imports").isNotNegative();
        StringBuilder chain = new StringBuilder();
        for (String line : text.substring(section).split("\n")) {
            if (line.startsWith("    ")) {
                chain.append(line.trim()).append(' ');
            } else if (chain.length() > 0) {
                break;
            }
        }
        Map<String, Integer> layer = new HashMap<>();
        String[] steps = chain.toString().split("<-");
        for (int i = 0; i < steps.length; i++) {
            for (String name : steps[i].split(",")) {
                layer.put(name.trim(), i);
            }
        }
        return layer;
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> files = Files.walk(MAIN)) {
            return files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList());
        }
    }

    private static Set<String> imports(Path file) throws IOException {
        return Files.readAllLines(file).stream()
                .map(IMPORT::matcher)
                .filter(Matcher::find)
                .map(m -> m.group(1))
                .collect(Collectors.toSet());
    }
}
