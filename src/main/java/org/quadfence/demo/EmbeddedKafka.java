package org.quadfence.demo;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import kafka.tools.StorageTool;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Time;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A real single-node Kafka broker (KRaft, broker and controller in one) in this JVM, listening on
 * 127.0.0.1 only, with its data in a temporary directory that {@link #close} deletes: the broker of
 * {@code ./quadfence demo} and of the tests. Records are kept forever (the sink stamps records with
 * event time, and replayed samples are from the past), and auto topic creation is off, so a missing
 * topic is an error rather than a surprise.
 */
public final class EmbeddedKafka implements AutoCloseable {

    /** The broker's message.max.bytes: a record of 16 MiB (max-record-bytes) and room to spare. */
    public static final int MESSAGE_MAX_BYTES = 17 << 20;

    private final Path dir;
    private final int port;
    private final KafkaRaftServer server;

    private EmbeddedKafka(Path dir, int port, KafkaRaftServer server) {
        this.dir = dir;
        this.port = port;
        this.server = server;
    }

    /**
     * Formats a fresh log directory in a new temporary directory and starts the broker on two free
     * loopback ports, ready for consumer groups; about four seconds.
     */
    public static EmbeddedKafka start() throws IOException {
        Path dir = Files.createTempDirectory("quadfence-kafka");
        int port = freePort();
        Properties p = serverProperties(dir.resolve("logs"), port, freePort());
        Path config = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            p.store(out, null);
        }
        format(config);
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p), Time.SYSTEM);
        server.startup();
        EmbeddedKafka kafka = new EmbeddedKafka(dir, port, server);
        awaitGroupCoordinator(kafka.bootstrapServers(), Duration.ofSeconds(60));
        return kafka;
    }

    /**
     * The settings of the broker: one KRaft node (broker and controller in one) listening on
     * 127.0.0.1 only, clients on {@code port} and the controller on {@code controllerPort}, its log
     * in {@code logDir}; internal topics of one replica, records kept forever, no auto topic
     * creation, records up to {@link #MESSAGE_MAX_BYTES}. A broker in a process of its own (the
     * tests' {@code BrokerProcess}) is started with the same, so that the two stay alike.
     */
    public static Properties serverProperties(Path logDir, int port, int controllerPort) {
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        p.setProperty(
                "listeners",
                "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", logDir.toString());
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("offsets.topic.num.partitions", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("transaction.state.log.num.partitions", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        p.setProperty("log.retention.ms", "-1");
        // Room for records of the job's default max-record-bytes (16 MiB) with their batch's
        // overhead, so that the job, not the broker, uses them or dead-letters larger ones.
        p.setProperty("message.max.bytes", String.valueOf(MESSAGE_MAX_BYTES));
        return p;
    }

    /**
     * Formats the log directory that the broker configuration file {@code config} names, with a new
     * cluster id; a directory formatted already is left as it is.
     */
    public static void format(Path config) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        int rc =
                StorageTool.execute(
                        new String[] {
                            "format",
                            "-t",
                            Uuid.randomUuid().toString(),
                            "-c",
                            config.toString(),
                            "--ignore-formatted"
                        },
                        quiet);
        if (rc != 0) {
            throw new IllegalStateException("kafka storage format failed: " + rc);
        }
    }

    /**
     * Waits until the broker at {@code bootstrapServers} answers a consumer group request, at most
     * {@code timeout}. Consumer group offsets live in an internal topic made on first use; until it
     * is loaded, offset commits fail (retriably, with a warning each): this makes and loads it.
     */
    private static void awaitGroupCoordinator(String bootstrapServers, Duration timeout)
            throws IOException {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            admin.listConsumerGroupOffsets("warm-up")
                    .partitionsToOffsetAndMetadata()
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the broker started", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IOException("the broker's group coordinator did not come up", e);
        }
    }

    /** host:port for clients. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Creates a topic and waits until it takes records. */
    public void createTopic(String name, int partitions, boolean compacted) throws Exception {
        createTopic(bootstrapServers(), name, partitions, compacted);
    }

    /** A consumer of bytes; {@code readCommitted} sees only committed transactions. */
    public KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted) {
        return consumer(bootstrapServers(), group, readCommitted);
    }

    /**
     * Creates a topic on the broker at {@code bootstrapServers} and waits until it takes records.
     */
    public static void createTopic(
            String bootstrapServers, String name, int partitions, boolean compacted)
            throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
            NewTopic topic = new NewTopic(name, partitions, (short) 1);
            if (compacted) {
                topic.configs(Map.of("cleanup.policy", "compact"));
            }
            admin.createTopics(List.of(topic)).all().get();
        }
        // Producing right after creation sometimes hangs on NOT_LEADER_OR_FOLLOWER.
        try (KafkaConsumer<byte[], byte[]> c = consumer(bootstrapServers, "ready-check", false)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                parts.add(new TopicPartition(name, i));
            }
            c.endOffsets(parts, Duration.ofSeconds(30));
        }
    }

    /**
     * A consumer of bytes of the broker at {@code bootstrapServers}, from the earliest offset when
     * its group has none, committing only when told; {@code readCommitted} sees only committed
     * transactions.
     */
    public static KafkaConsumer<byte[], byte[]> consumer(
            String bootstrapServers, String group, boolean readCommitted) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrapServers);
        p.setProperty("group.id", group);
        p.setProperty("auto.offset.reset", "earliest");
        p.setProperty("enable.auto.commit", "false");
        p.setProperty("isolation.level", readCommitted ? "read_committed" : "read_uncommitted");
        return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    /** Shuts the broker down and deletes its directory. */
    @Override
    public void close() throws IOException {
        server.shutdown();
        server.awaitShutdown();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** A TCP port on 127.0.0.1 that is free as of now. */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
