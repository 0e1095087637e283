package org.quadfence.cluster;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.options.JobOptions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code flink run target/quadfence.jar --help} through Flink's own command line ({@code
 * CliFrontend}, from the jars in target/flink-lib), which hands the arguments after the jar to its
 * main: the usage and every option, and exit 0, without a cluster to talk to.
 */
class FlinkRunHelpITCase {

    private static final Path FLINK_LIB = Path.of("target/flink-lib");
    private static final Path JOB_JAR = Path.of("target/quadfence.jar");

    @TempDir Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void flinkRunOfTheJarWithHelpPrintsTheUsageAndEveryOptionAndExitsZero(String help)
            throws Exception {
        assertThat(JOB_JAR).as("the shaded jar (mvn package)").isRegularFile();
        Path conf = Files.createDirectories(tmp.resolve("conf"));
        Files.writeString(conf.resolve("config.yaml"), "");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(StandaloneFlinkCluster.JAVA_17_FLAGS);
        cmd.add("-classpath");
        cmd.add(FLINK_LIB.toAbsolutePath() + "/*");
        cmd.add("org.apache.flink.client.cli.CliFrontend");
        cmd.addAll(List.of("run", JOB_JAR.toAbsolutePath().toString(), help));
        ProcessBuilder pb =
                new ProcessBuilder(cmd)
                        .redirectOutput(tmp.resolve("out.txt").toFile())
                        .redirectError(tmp.resolve("err.txt").toFile());
        pb.environment().put("FLINK_CONF_DIR", conf.toString());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("flink run ended").isTrue();
        String out = Files.readString(tmp.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(tmp.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("exit code; stderr: %s", err).isZero();
        assertThat(out)
                .startsWith("usage: flink run target/quadfence.jar")
                .contains("--config FILE")
                .contains(JobOptions.describe());
    }
}
