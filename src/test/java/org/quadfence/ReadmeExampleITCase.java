package org.quadfence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first {@code java} block of the library guide's "Use it in your own job" ({@code
 * docs/library.md}, which the README links) compiles in a separate Maven project against the
 * library artifact (the plain jar of this build with this pom, installed into the local Maven
 * repository as {@code mvn install} would) plus {@code flink-streaming-java} alone.
 */
class ReadmeExampleITCase {

    private static final Pattern VERSION =
            Pattern.compile("<artifactId>quadfence</artifactId>\\s*<version>([^<]+)</version>");

    @TempDir Path project;

    @Test
    void theReadmeExampleCompilesAgainstTheInstalledLibrary() throws Exception {
        String version = version();
        Path jar = Path.of("target", "quadfence-" + version + ".jar").toAbsolutePath();
        assertThat(jar).as("the library jar of `mvn package`").isRegularFile();
        mvn(
                Path.of("."),
                "install:install-file",
                "-Dfile=" + jar,
                "-DpomFile=" + Path.of("pom.xml").toAbsolutePath());

        String example = example();
        Matcher name = Pattern.compile("public class (\\w+)").matcher(example);
        assertThat(name.find()).as("a public class in the example").isTrue();
        Path source = project.resolve("src/main/java/" + name.group(1) + ".java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, example);
        Files.writeString(project.resolve("pom.xml"), pom(version));
        mvn(project, "compile");
        assertThat(project.resolve("target/classes/" + name.group(1) + ".class")).isRegularFile();
    }

    private static String version() throws IOException {
        Matcher m = VERSION.matcher(Files.readString(Path.of("pom.xml")));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    /** The first java block after the heading "## Use it in your own job" of the library guide. */
    private static String example() throws IOException {
        String guide = Files.readString(Path.of("docs/library.md"));
        int section = guide.indexOf("\n## Use it in your own job\n");
        assertThat(section).as("the library guide's section").isNotNegative();
        int start = guide.indexOf("```java\n", section);
        int end = guide.indexOf("\n```\n", start);
        assertThat(start).isNotNegative();
        assertThat(guide.indexOf("\n## ", section + 1))
                .as("the block is in the section")
                .isGreaterThan(start);
        return guide.substring(start + "```java\n".length(), end + 1);
    }

    private static String pom(String version) {
        return String.join(
                "\n",
                "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">",
                "  <modelVersion>4.0.0</modelVersion>",
                "  <groupId>example</groupId>",
                "  <artifactId>readme-example</artifactId>",
                "  <version>1</version>",
                "  <properties>",
                "    <maven.compiler.release>17</maven.compiler.release>",
                "    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>",
                "  </properties>",
                "  <dependencies>",
                "    <dependency>",
                "      <groupId>org.quadfence</groupId>",
                "      <artifactId>quadfence</artifactId>",
                "      <version>" + version + "</version>",
                "    </dependency>",
                "    <dependency>",
                "      <groupId>org.apache.flink</groupId>",
                "      <artifactId>flink-streaming-java</artifactId>",
                "      <version>2.2.1</version>",
                "    </dependency>",
                "  </dependencies>",
                "  <build>",
                "    <plugins>",
                "      <plugin>",
                "        <artifactId>maven-compiler-plugin</artifactId>",
                "        <version>3.13.0</version>",
                "      </plugin>",
                "      <plugin>",
                "        <artifactId>maven-resources-plugin</artifactId>",
                "        <version>3.3.1</version>",
                "      </plugin>",
                "    </plugins>",
                "  </build>",
                "</project>",
                "");
    }

    private static void mvn(Path dir, String... goals) throws Exception {
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q", "-ntp"));
        command.addAll(List.of(goals));
        Process p =
                new ProcessBuilder(command)
                        .directory(dir.toFile())
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("mvn %s ends", command).isTrue();
        assertThat(p.exitValue()).as("mvn %s:%n%s", command, out).isZero();
    }
}
