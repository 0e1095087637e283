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
        int controllerPort = freePort();
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
        p.setProperty("log.dirs", dir.resolve("logs").toString());
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
        Path config = dir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(config)) {
            p.store(out, null);
        }
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
        KafkaRaftServer server = new KafkaRaftServer(new KafkaConfig(p), Time.SYSTEM);
        server.startup();
        EmbeddedKafka kafka = new EmbeddedKafka(dir, port, server);
        kafka.loadGroupCoordinator();
        return kafka;
    }

    // Consumer group offsets live in an internal topic made on first use; until it is loaded,
    // offset commits fail (retriably, with a warning each). Make and load it now.
    private void loadGroupCoordinator() throws IOException {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            admin.listConsumerGroupOffsets("warm-up")
                    .partitionsToOffsetAndMetadata()
                    .get(60, TimeUnit.SECONDS);
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
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers()))) {
            NewTopic topic = new NewTopic(name, partitions, (short) 1);
            if (compacted) {
                topic.configs(Map.of("cleanup.policy", "compact"));
            }
            admin.createTopics(List.of(topic)).all().get();
        }
        // Producing right after creation sometimes hangs on NOT_LEADER_OR_FOLLOWER.
        try (KafkaConsumer<byte[], byte[]> c = consumer("ready-check", false)) {
            List<TopicPartition> parts = new ArrayList<>();
            for (int i = 0; i < partitions; i++) {
                parts.add(new TopicPartition(name, i));
            }
            c.endOffsets(parts, Duration.ofSeconds(30));
        }
    }

    /** A consumer of bytes; {@code readCommitted} sees only committed transactions. */
    public KafkaConsumer<byte[], byte[]> consumer(String group, boolean readCommitted) {
        Properties p = new Properties();
        p.setProperty("bootstrap.servers", bootstrapServers());
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

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
