package org.quadfence.rules;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules and their tests import nothing of Flink, nor the Flink serializers of the model. */
class RulesWithoutFlinkTest {

    private static List<String> imports(String root) throws IOException {
        Path dir = Path.of(root, "org/quadfence/rules");
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .flatMap(
                            f -> {
                                try {
                                    return Files.readAllLines(f).stream()
                                            .filter(l -> l.startsWith("import "))
                                            .map(l -> f.getFileName() + ": " + l);
                                } catch (IOException e) {
                                    throw new IllegalStateException(e);
                                }
                            })
                    .toList();
        }
    }

    @Test
    void theRulesPackageAndItsTestsImportNoFlink() throws IOException {
        List<String> main = imports("src/main/java");
        List<String> test = imports("src/test/java");
        assertThat(main).isNotEmpty().anyMatch(l -> l.contains("org.quadfence.model."));
        assertThat(test).isNotEmpty();
        assertThat(Stream.concat(main.stream(), test.stream()))
                .noneMatch(l -> l.contains("org.apache.flink"))
                .noneMatch(
                        l -> l.matches(".*org\\.quadfence\\.model\\.\\w*(Serializer|TypeInfo).*"))
                .noneMatch(
                        l ->
                                l.contains("org.quadfence.stages")
                                        || l.contains("org.quadfence.time"));
    }
}
