package org.quadfence.demo;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.RawValue;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.quadfence.geo.Rectangle;
import org.quadfence.io.FenceRulesCodec;
import org.quadfence.kafka.Partitions;
import org.quadfence.model.FenceRules;

import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The demo's simulated fleet as a service of its own, for a job that runs elsewhere (the {@code
 * fleet} service of docker/docker-compose.yml): the vehicles of {@link Fleet} drive on the {@link
 * City}'s streets and send a position each a second to the positions topic until the process is
 * stopped; the city's fences go to the fences topic once, when that topic is empty. It uses Kafka's
 * client and Jackson from the job jar and nothing of Flink, so it runs from the jar with a logging
 * library beside it (Flink's lib/ has one):
 *
 * <pre>
 * java -cp quadfence.jar:/opt/flink/lib/* org.quadfence.demo.FleetFeed --bootstrap-servers kafka:9092
 * </pre>
 */
public final class FleetFeed {

    static final String USAGE =
            String.join(
                    System.lineSeparator(),
                    "usage: java -cp quadfence.jar:FLINK_LIB/* org.quadfence.demo.FleetFeed"
                            + " --bootstrap-servers HOST:PORT [--key value ...]",
                    "Sends the demo's simulated fleet (Chicago's street grid) to Kafka as live"
                            + " positions, about one per vehicle a second, until stopped;",
                    "writes the demo's fences once, when the fences topic is empty. Both topics"
                            + " must exist.",
                    "options:",
                    "  --bootstrap-servers HOST:PORT  the Kafka brokers (required)",
                    "  --positions-topic NAME         where positions go (default: positions)",
                    "  --fences-topic NAME            where the fences go (default: fences)",
                    "  --vehicles N                   the size of the fleet (default: 1000)",
                    "  --seed N                       the fleet and fences of this seed (default:"
                            + " 42)",
                    "  --tile-level N                 the job's tile level: one fence is placed"
                            + " on a tile corner (default: 14)",
                    "  --duration SECONDS             stop after this long; 0: when stopped"
                            + " (default: 0)",
                    "  --help                         this text");

    private static final long TICK_MS = 100;
    private static final long STATUS_MS = 10_000;

    private FleetFeed() {}

    /** The command line; exits 0 when stopped, 2 on a usage error, 1 when Kafka fails it. */
    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println("fleet: " + e.getMessage() + System.lineSeparator() + USAGE);
            code = 2;
        } catch (Exception e) {
            System.err.println("fleet: " + e);
            code = 1;
        }
        System.exit(code);
    }

    /**
     * Runs as {@code args} say, printing what it does to {@code out}, until {@code --duration} has
     * passed or the JVM shuts down; returns the exit code.
     *
     * @throws IllegalArgumentException on a bad command line
     */
    static int run(String[] args, PrintStream out) throws Exception {
        if (List.of(args).contains("--help")) {
            out.println(USAGE);
            return 0;
        }
        Map<String, String> o = options(args);
        String bootstrap = o.get("bootstrap-servers");
        if (bootstrap.isEmpty()) {
            throw new IllegalArgumentException("--bootstrap-servers is required");
        }
        int vehicles = (int) number(o, "vehicles", 1, 1_000_000);
        long seed = number(o, "seed", Long.MIN_VALUE, Long.MAX_VALUE);
        int tileLevel = (int) number(o, "tile-level", 0, 16);
        long seconds = number(o, "duration", 0, Long.MAX_VALUE / 1000);

        long started = System.currentTimeMillis();
        City city = new City(seed, tileLevel, started);
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        // docker stop, Ctrl-C: the last positions are flushed before the JVM exits.
        Thread hook =
                new Thread(
                        () -> {
                            stop.countDown();
                            try {
                                done.await(10, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "fleet-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (KafkaProducer<byte[], byte[]> producer = producer(bootstrap)) {
            String fences = o.get("fences-topic");
            if (isEmpty(bootstrap, fences, o.get("positions-topic"))) {
                sendFences(producer, fences, city, started - 60_000);
                out.printf(
                        Locale.ROOT,
                        "fleet: %d fences written to %s%n",
                        city.fences().size(),
                        fences);
            } else {
                out.printf(Locale.ROOT, "fleet: %s holds fences already; none written%n", fences);
            }
            Fleet fleet =
                    new Fleet(city, vehicles, seed, started, producer, o.get("positions-topic"));
            out.printf(
                    Locale.ROOT,
                    "fleet: %,d vehicles, about %,d positions/s to %s on %s%n",
                    fleet.size(),
                    fleet.size(),
                    o.get("positions-topic"),
                    bootstrap);
            drive(fleet, seconds, stop, out);
            producer.flush();
            out.printf(Locale.ROOT, "fleet: stopped after %,d positions%n", fleet.published());
        } finally {
            done.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
        return 0;
    }

    // Until the time is up or `stop` opens.
    private static void drive(Fleet fleet, long seconds, CountDownLatch stop, PrintStream out)
            throws InterruptedException {
        ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
        try {
            timers.scheduleAtFixedRate(
                    () -> fleet.advance(System.currentTimeMillis()),
                    0,
                    TICK_MS,
                    TimeUnit.MILLISECONDS);
            timers.scheduleAtFixedRate(
                    () -> out.printf(Locale.ROOT, "fleet: %,d positions sent%n", fleet.published()),
                    STATUS_MS,
                    STATUS_MS,
                    TimeUnit.MILLISECONDS);
            if (seconds > 0) {
                stop.await(seconds, TimeUnit.SECONDS);
            } else {
                stop.await();
            }
        } finally {
            timers.shutdown();
            timers.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    /**
     * Whether {@code topic} holds no record. Both topics must exist: the broker of the compose file
     * creates none by itself.
     */
    private static boolean isEmpty(String bootstrap, String topic, String positions)
            throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Map<String, TopicDescription> topics;
            try {
                topics =
                        admin.describeTopics(List.of(topic, positions))
                                .allTopicNames()
                                .get(60, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                throw new IllegalStateException(
                        "topics " + topic + " and " + positions + ": " + e.getCause().getMessage(),
                        e);
            }
            return admin
                    .listOffsets(Partitions.latest(topics.get(topic)))
                    .all()
                    .get(60, TimeUnit.SECONDS)
                    .values()
                    .stream()
                    .allMatch(r -> r.offset() == 0);
        }
    }

    /**
     * Writes the city's fences to {@code topic} as the job reads them (keyed by id, valid from
     * {@code since}, with name and kind as properties, and a fence's rules under {@code "rules"},
     * with what they say as the property {@code "rules"}) and waits until Kafka has them all.
     */
    static void sendFences(Producer<byte[], byte[]> producer, String topic, City city, long since)
            throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Future<?>> sent = new ArrayList<>();
        for (City.Fence f : city.fences()) {
            Rectangle r = f.rect();
            Map<String, Object> value = new LinkedHashMap<>();
            value.put("fenceId", f.id());
            value.put("rect", new double[] {r.minLon(), r.minLat(), r.maxLon(), r.maxLat()});
            value.put("timestamp", since);
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("name", f.name());
            properties.put("kind", f.kind());
            if (!f.rules().isNone()) {
                properties.put("rules", f.about());
                value.put("rules", rules(json, f.rules()));
            }
            value.put("properties", properties);
            sent.add(
                    producer.send(
                            new ProducerRecord<>(
                                    topic,
                                    f.id().getBytes(StandardCharsets.UTF_8),
                                    json.writeValueAsBytes(value))));
        }
        for (Future<?> f : sent) {
            f.get(60, TimeUnit.SECONDS);
        }
    }

    // The rules object as FenceRulesCodec writes it, for the value's ObjectMapper to copy.
    private static RawValue rules(ObjectMapper json, FenceRules rules) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator g = json.getFactory().createGenerator(text)) {
            FenceRulesCodec.write(g, rules);
        }
        return new RawValue(text.toString());
    }

    /** An idempotent producer of bytes that waits for every replica. */
    static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
        Map<String, Object> p = new HashMap<>();
        p.put("bootstrap.servers", bootstrapServers);
        p.put("acks", "all");
        p.put("enable.idempotence", "true");
        p.put("linger.ms", "20");
        return new KafkaProducer<>(p, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("bootstrap-servers", "");
        o.put("positions-topic", "positions");
        o.put("fences-topic", "fences");
        o.put("vehicles", "1000");
        o.put("seed", "42");
        o.put("tile-level", "14");
        o.put("duration", "0");
        for (int i = 0; i < args.length; i += 2) {
            String key = args[i].startsWith("--") ? args[i].substring(2) : "";
            if (!o.containsKey(key)) {
                throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            o.put(key, args[i + 1].trim());
        }
        return o;
    }

    private static long number(Map<String, String> o, String key, long least, long most) {
        try {
            long n = Long.parseLong(o.get(key));
            if (n >= least && n <= most) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(
                String.format(
                        Locale.ROOT,
                        "--%s must be a whole number from %d to %d, got '%s'",
                        key,
                        least,
                        most,
                        o.get(key)));
    }
}
