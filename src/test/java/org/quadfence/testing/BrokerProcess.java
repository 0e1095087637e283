package org.quadfence.testing;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.quadfence.demo.EmbeddedKafka;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A real Kafka broker in a JVM of its own, so that a test can kill it with SIGKILL and start it
 * again on the same ports and the same data directory, as an operator's restart or a crash of the
 * broker's machine looks to its clients.
 *
 * <p>The broker has the settings of {@link EmbeddedKafka} ({@link EmbeddedKafka#serverProperties}:
 * one KRaft node, 127.0.0.1 only, records kept forever, no auto topic creation, records up to
 * {@link EmbeddedKafka#MESSAGE_MAX_BYTES}). {@link #format} writes its {@code server.properties}
 * into a directory the test chooses and formats its log there, on two loopback ports that are free
 * at that moment and stay the broker's for good; {@link #start} runs {@code kafka.Kafka} with the
 * test's class path (about five seconds) and returns once the broker answers consumer group
 * requests. Each start's output (the broker's warnings and errors, its start and log recovery) goes
 * to a file {@code broker-N.log} in the directory given for logs.
 */
public final class BrokerProcess implements Broker, AutoCloseable {

    /** How long a start may take on a loaded machine before the test gives up on it. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path dir;
    private final Path logs;
    private final int port;
    private final int controllerPort;
    private Process process;
    private int starts;

    private BrokerProcess(Path dir, Path logs, int port, int controllerPort) {
        this.dir = dir;
        this.logs = logs;
        this.port = port;
        this.controllerPort = controllerPort;
    }

    /**
     * Writes the configuration of a broker with its data in {@code dir} (made if missing) and
     * formats its log there, on two loopback ports free as of now; starts nothing.
     *
     * @param logs where the output of each start goes
     */
    public static BrokerProcess format(Path dir, Path logs) throws IOException {
        Files.createDirectories(dir);
        Files.createDirectories(logs);
        BrokerProcess broker =
                new BrokerProcess(dir, logs, EmbeddedKafka.freePort(), EmbeddedKafka.freePort());
        Properties p =
                EmbeddedKafka.serverProperties(
                        dir.resolve("logs"), broker.port, broker.controllerPort);
        try (OutputStream out = Files.newOutputStream(broker.config())) {
            p.store(out, "BrokerProcess: the settings of EmbeddedKafka");
        }
        EmbeddedKafka.format(broker.config());
        Files.writeString(
                broker.logConfig(),
                String.join(
                        "\n",
                        "rootLogger.level = WARN",
                        "rootLogger.appenderRef.out.ref = out",
                        "appender.out.type = Console",
                        "appender.out.name = out",
                        "appender.out.layout.type = PatternLayout",
                        "appender.out.layout.pattern = %d{HH:mm:ss.SSS} %-5p [%c{1}] %m%n",
                        // "Kafka Server started", and the log recovery after a kill.
                        "logger.server.name = kafka.server.KafkaRaftServer",
                        "logger.server.level = INFO",
                        "logger.recovery.name = org.apache.kafka.storage.internals.log.LogLoader",
                        "logger.recovery.level = INFO",
                        // Transactions aborted by the coordinator (timed out, fenced).
                        "logger.txn.name = kafka.coordinator.transaction",
                        "logger.txn.level = INFO",
                        ""));
        return broker;
    }

    /** host:port for clients; the same across restarts. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The broker's data directory (its log in {@code logs}, its {@code server.properties}). */
    public Path dir() {
        return dir;
    }

    /**
     * Starts the broker in a new JVM and waits until it answers a consumer group request (which
     * also makes and loads the group coordinator's topic on the first start).
     *
     * @return how long the start took
     * @throws IllegalStateException when it runs already
     * @throws IOException when it exits or does not answer within 90 s; the message holds the end
     *     of its output
     */
    public synchronized Duration start() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("the broker runs already (pid " + process.pid() + ")");
        }
        long began = System.nanoTime();
        Path output = logs.resolve("broker-" + ++starts + ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx512m");
        cmd.add("-XX:+UseG1GC");
        cmd.add("-Djava.awt.headless=true");
        cmd.add("-Dlog4j2.configurationFile=" + logConfig().toAbsolutePath());
        cmd.add("-cp");
        cmd.add(classpath());
        cmd.add("kafka.Kafka");
        cmd.add(config().toAbsolutePath().toString());
        process =
                new ProcessBuilder(cmd)
                        .redirectErrorStream(true)
                        .redirectOutput(output.toFile())
                        .start();
        awaitReady(process, output, began);
        return Duration.ofNanos(System.nanoTime() - began);
    }

    private void awaitReady(Process p, Path output, long began) throws IOException {
        long deadline = began + START_TIMEOUT.toNanos();
        try (Admin admin =
                Admin.create(
                        Map.of(
                                "bootstrap.servers", bootstrapServers(),
                                "reconnect.backoff.max.ms", "200",
                                "default.api.timeout.ms",
                                        String.valueOf(START_TIMEOUT.toMillis())))) {
            KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> ready =
                    admin.listConsumerGroupOffsets("warm-up").partitionsToOffsetAndMetadata();
            while (!ready.isDone()) {
                if (!p.isAlive()) {
                    throw new IOException(
                            "the broker exited ("
                                    + p.exitValue()
                                    + ") while it started:\n"
                                    + tail(output));
                }
                if (System.nanoTime() > deadline) {
                    throw new IOException(
                            "the broker did not answer within "
                                    + START_TIMEOUT
                                    + ":\n"
                                    + tail(output));
                }
                Thread.sleep(100);
            }
            ready.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the broker started", e);
        } catch (ExecutionException e) {
            throw new IOException("the broker's group coordinator did not come up", e);
        }
    }

    /** Whether the broker's JVM runs. */
    public synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    /** The process id of the broker's JVM (the last one started). */
    public synchronized long pid() {
        if (process == null) {
            throw new IllegalStateException("never started");
        }
        return process.pid();
    }

    /**
     * SIGKILL on the broker's JVM ({@link Process#destroyForcibly} on Linux): no shutdown, nothing
     * flushed beyond what the kernel holds, a log to recover at the next start. Waits until it is
     * gone.
     */
    public synchronized void kill() throws InterruptedException {
        if (process != null) {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the broker survived SIGKILL: " + process.pid());
            }
        }
    }

    /** SIGTERM, the broker's controlled shutdown; SIGKILL after 30 s. */
    public synchronized void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }

    @Override
    public void createTopic(String name, int partitions, boolean compacted) throws Exception {
        EmbeddedKafka.createTopic(bootstrapServers(), name, partitions, compacted);
    }

    @Override
    public KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted) {
        return EmbeddedKafka.consumer(bootstrapServers(), group, readCommitted);
    }

    /** Stops the broker (SIGTERM, then SIGKILL); its directory stays, the test's to delete. */
    @Override
    public void close() throws InterruptedException {
        stop();
    }

    private Path config() {
        return dir.resolve("server.properties");
    }

    private Path logConfig() {
        return dir.resolve("log4j2.properties");
    }

    private static String tail(Path output) throws IOException {
        if (!Files.exists(output)) {
            return "(no output)";
        }
        List<String> lines = Files.readAllLines(output);
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    // Surefire and failsafe start tests with a manifest-only jar; the real class path is in this
    // property.
    private static String classpath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }
}
