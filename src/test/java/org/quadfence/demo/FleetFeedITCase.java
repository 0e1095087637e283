package org.quadfence.demo;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.geo.Rectangle;
import org.quadfence.io.PositionCodec;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;
import org.quadfence.testing.KafkaBroker;
import org.quadfence.testing.KafkaTopics;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link FleetFeed} against a real Kafka broker (KRaft, in this JVM, on 127.0.0.1): the positions
 * it sends parse as the job parses them, one vehicle a key; the fences go once. And the compose
 * file's {@code fleet} service, its command run as it stands with the image's paths mapped to the
 * build's (the shaded jar, and target/flink-lib for Flink's lib/), feeds the broker too.
 */
class FleetFeedITCase {

    private static final Path COMPOSE = Path.of("docker/docker-compose.yml");
    @RegisterExtension static final KafkaBroker kafka = KafkaBroker.perClass();

    @TempDir Path tmp;

    @Test
    void theFleetSendsValidPositionsOfEveryVehicleAndTheFencesOnlyOnce() throws Exception {
        kafka.createTopic("p1", 4, false);
        kafka.createTopic("f1", 1, true);
        String[] args = {
            "--bootstrap-servers", kafka.bootstrapServers(),
            "--positions-topic", "p1",
            "--fences-topic", "f1",
            "--vehicles", "40",
            "--duration", "4"
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        assertThat(FleetFeed.run(args, new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isZero();

        int fences = new City(42, 14, System.currentTimeMillis()).fences().size();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("fleet: " + fences + " fences written to f1")
                .contains("fleet: 40 vehicles")
                .contains("fleet: stopped after");
        List<ConsumerRecord<byte[], byte[]>> positions = readAll("p1");
        Set<String> vehicles = new HashSet<>();
        PositionCodec codec = new PositionCodec();
        Rectangle grid = City.bounds();
        for (ConsumerRecord<byte[], byte[]> r : positions) {
            Parsed<Position> p = codec.parse(r.value());
            assertThat(p.ok()).as(new String(r.value(), StandardCharsets.UTF_8)).isTrue();
            assertThat(new String(r.key(), StandardCharsets.UTF_8)).isEqualTo(p.value().entityId());
            assertThat(p.value().timestamp()).isEqualTo(r.timestamp());
            // On the grid, give or take the GPS noise (0.001 degrees is 80 m or more).
            assertThat(p.value().lon()).isBetween(grid.minLon() - 0.001, grid.maxLon() + 0.001);
            assertThat(p.value().lat()).isBetween(grid.minLat() - 0.001, grid.maxLat() + 0.001);
            vehicles.add(p.value().entityId());
        }
        // About one position a vehicle a second, for four seconds.
        assertThat(vehicles).hasSize(40);
        assertThat(positions.size()).isBetween(40 * 2, 40 * 6);
        assertThat(readAll("f1")).hasSize(fences);

        out.reset();
        assertThat(FleetFeed.run(args, new PrintStream(out, true, StandardCharsets.UTF_8)))
                .isZero();
        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("fleet: f1 holds fences already; none written");
        assertThat(readAll("f1")).hasSize(fences);
    }

    @Test
    void theComposeServiceRunsTheFleetFromTheJobJarUntilStopped() throws Exception {
        kafka.createTopic("positions", 4, false);
        kafka.createTopic("fences", 1, true);
        List<String> command = composeCommand();
        Path log = tmp.resolve("fleet.log");
        Process fleet =
                new ProcessBuilder(command)
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        try {
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            int read = 0;
            while (read < 100 && System.nanoTime() < deadline && fleet.isAlive()) {
                Thread.sleep(1000);
                read = readAll("positions").size();
            }
            assertThat(read).as(Files.readString(log)).isGreaterThanOrEqualTo(100);
        } finally {
            // SIGTERM, as docker stop sends it.
            fleet.destroy();
            assertThat(fleet.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(Files.readString(log))
                .contains("fences written to fences")
                .contains("fleet: 1,000 vehicles")
                .contains("fleet: stopped after");

        List<String> help = new ArrayList<>(command.subList(0, command.indexOf(MAIN) + 1));
        help.add("--help");
        Process usage = new ProcessBuilder(help).redirectErrorStream(true).start();
        String printed = new String(usage.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(usage.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(usage.exitValue()).isZero();
        assertThat(printed).startsWith("usage: ").contains("--bootstrap-servers", "--vehicles");
    }

    @Test
    void aBadCommandLineIsRefusedBeforeKafkaIsAsked() {
        PrintStream out =
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> FleetFeed.run(new String[] {"--vehicles", "10"}, out))
                .hasMessage("--bootstrap-servers is required");
        assertThatThrownBy(() -> FleetFeed.run(new String[] {"--bootstrap", "k:9092"}, out))
                .hasMessage("unknown option '--bootstrap'");
        assertThatThrownBy(
                        () ->
                                FleetFeed.run(
                                        new String[] {
                                            "--bootstrap-servers", "k:9092", "--vehicles"
                                        },
                                        out))
                .hasMessage("option --vehicles needs a value");
        assertThatThrownBy(
                        () ->
                                FleetFeed.run(
                                        new String[] {
                                            "--bootstrap-servers", "k:9092", "--vehicles", "0"
                                        },
                                        out))
                .hasMessageContaining("--vehicles must be a whole number from 1");
    }

    private static final String MAIN = FleetFeed.class.getName();

    /**
     * The fleet service's entrypoint and command, with the image's paths and broker replaced by the
     * build's and the test's.
     */
    private static List<String> composeCommand() throws Exception {
        Map<?, ?> compose =
                new Yaml(new SafeConstructor(new LoaderOptions())).load(Files.readString(COMPOSE));
        Map<?, ?> service = (Map<?, ?>) ((Map<?, ?>) compose.get("services")).get("fleet");
        List<String> command = new ArrayList<>();
        for (Object word : (List<?>) service.get("entrypoint")) {
            command.add(
                    String.valueOf(word)
                            .replace("/opt/flink/usrlib/quadfence.jar", jar("target/quadfence.jar"))
                            .replace("/opt/flink/lib/*", jar("target/flink-lib") + "/*"));
        }
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (Object word : (List<?>) service.get("command")) {
            command.add(String.valueOf(word).replace("kafka:9092", kafka.bootstrapServers()));
        }
        assertThat(command).contains(MAIN, kafka.bootstrapServers());
        return command;
    }

    private static String jar(String path) {
        Path p = Path.of(path).toAbsolutePath();
        assertThat(p).as("built by mvn package and pre-integration-test").exists();
        return p.toString();
    }

    private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer("test-" + topic, false)) {
            var partitions = KafkaTopics.assignFromBeginning(consumer, topic);
            Map<?, Long> ends = consumer.endOffsets(partitions);
            long total = ends.values().stream().mapToLong(Long::longValue).sum();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < total && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
