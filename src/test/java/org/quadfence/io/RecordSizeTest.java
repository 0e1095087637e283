package org.quadfence.io;

import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Polygon;
import org.quadfence.kafka.KafkaIo;
import org.quadfence.kafka.OutageTolerantKafkaSink;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;
import org.quadfence.options.JobOptions;
import org.quadfence.testing.LargeFences;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Records up to {@code max-record-bytes} (contract section 8a, "Record size"): every fence the
 * other limits admit is read, from a record or a file line, and only a longer record is a dead
 * letter "record too large" (a file line's: {@link JsonLinesFormatTest}).
 */
class RecordSizeTest {

    private static Parsed<FenceChange> fence(InputRules rules, String line) {
        return new FenceChangeCodec(rules)
                .parse(null, line.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE);
    }

    @Test
    void aPolygonOf40001VerticesOverOneMebibyteIsUsedWithTheDefaults() {
        String line = LargeFences.circle("big", 10, 20, 5, 40_001, false);
        assertThat(line.length()).isGreaterThan(1 << 20);
        Parsed<FenceChange> parsed = fence(JobOptions.defaults().inputRules(), line);
        assertThat(parsed.deadLetter()).isNull();
        Polygon p = Polygon.fromCoordinates(parsed.value().polygons());
        assertThat(p.vertexCount()).isEqualTo(40_001);
        assertThat(p.contains(10, 20)).isTrue();
        assertThat(p.contains(10, 25.001)).isFalse();
    }

    @Test
    void aPolygonOfMaxVerticesWithSeventeenDigitsFitsTheLeastRecordSizeTheOptionAllows() {
        String line = LargeFences.circle("largest", -73.98, 40.75, 0.5, 100_000, true);
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        assertThat((long) bytes.length)
                .isGreaterThan(4_000_000L)
                .isLessThan(Limits.leastRecordBytes(100_000));
        InputRules least =
                InputRules.DEFAULTS.withMaxRecordBytes((int) Limits.leastRecordBytes(100_000));
        for (InputRules rules : List.of(least, InputRules.DEFAULTS)) {
            Parsed<FenceChange> parsed = fence(rules, line);
            assertThat(parsed.deadLetter()).isNull();
            assertThat(Polygon.fromCoordinates(parsed.value().polygons()).vertexCount())
                    .isEqualTo(100_000);
        }
    }

    @Test
    void aRecordOverTheLimitIsADeadLetterRecordTooLargeWithItsRawTextCut() {
        String line = LargeFences.circle("big", 10, 20, 5, 40_001, false);
        int length = line.getBytes(StandardCharsets.UTF_8).length;
        Parsed<FenceChange> parsed = fence(InputRules.DEFAULTS.withMaxRecordBytes(1 << 20), line);
        assertThat(parsed.deadLetter())
                .isEqualTo(
                        new DeadLetter(
                                DeadLetter.FENCES,
                                "record too large: "
                                        + length
                                        + " bytes, over the 1048576-byte limit (max-record-bytes)",
                                line.substring(0, Limits.MAX_RAW_CHARS)));
        // Kafka: the same with a key.
        assertThat(
                        new FenceChangeCodec(InputRules.DEFAULTS.withMaxRecordBytes(1 << 20))
                                .parse(
                                        "big".getBytes(StandardCharsets.UTF_8),
                                        line.getBytes(StandardCharsets.UTF_8),
                                        0)
                                .deadLetter()
                                .error())
                .startsWith("record too large: ");
    }

    @Test
    void theJobsKafkaClientsFetchAndWriteRecordsOfTheLimitUnlessTheUserSaysOtherwise()
            throws Exception {
        InputRules rules = InputRules.DEFAULTS.withMaxRecordBytes(64 << 20);
        KafkaIo kafka = new KafkaIo("127.0.0.1:9092", "g", "t", new Properties(), rules);
        for (KafkaSource<?> source :
                List.of(
                        kafka.fences("fences", false),
                        kafka.positions("positions", OffsetsInitializer.earliest(), false))) {
            Properties p = field(KafkaSource.class, source, "props");
            assertThat(p)
                    .containsEntry("max.partition.fetch.bytes", String.valueOf(64 << 20))
                    .containsEntry("fetch.max.bytes", String.valueOf(64 << 20));
        }
        Properties defaults =
                field(
                        KafkaSource.class,
                        new KafkaIo("b", "g", "t", new Properties(), InputRules.DEFAULTS)
                                .fences("f", false),
                        "props");
        assertThat(defaults)
                .containsEntry("max.partition.fetch.bytes", String.valueOf(16 << 20))
                .containsEntry("fetch.max.bytes", String.valueOf(50 << 20));
        KafkaSink<?> sink =
                ((OutageTolerantKafkaSink<?>)
                                kafka.events(
                                        "events",
                                        org.apache.flink.connector.base.DeliveryGuarantee.NONE))
                        .kafka();
        assertThat(field(KafkaSink.class, sink, "kafkaProducerConfig"))
                .containsEntry("max.request.size", String.valueOf(16 << 20));

        Properties user = new Properties();
        user.putAll(
                Map.of(
                        "max.partition.fetch.bytes", "1000",
                        "fetch.max.bytes", "2000",
                        "max.request.size", "3000"));
        KafkaIo own = new KafkaIo("127.0.0.1:9092", "g", "t", user, rules);
        assertThat(field(KafkaSource.class, own.fences("fences", false), "props"))
                .containsEntry("max.partition.fetch.bytes", "1000")
                .containsEntry("fetch.max.bytes", "2000");
        assertThat(
                        field(
                                KafkaSink.class,
                                ((OutageTolerantKafkaSink<?>)
                                                own.deadLetters(
                                                        "dlq",
                                                        org.apache.flink.connector.base
                                                                .DeliveryGuarantee.NONE))
                                        .kafka(),
                                "kafkaProducerConfig"))
                .containsEntry("max.request.size", "3000");
    }

    private static Properties field(Class<?> type, Object o, String name) throws Exception {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return (Properties) f.get(o);
    }
}
