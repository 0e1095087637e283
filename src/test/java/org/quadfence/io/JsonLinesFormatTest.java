package org.quadfence.io;

import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.local.LocalDataInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON-lines file reader: one record a line, whatever the lines' lengths and line ends. */
class JsonLinesFormatTest {

    @TempDir Path dir;

    @Test
    void everyLineOfAFileOfManyBlocksIsReadWholeWhereverItsEndFalls() throws Exception {
        Random random = new Random(21);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        List<Position> written = new ArrayList<>();
        // Lines of 47 to about 3,000 bytes, some ending in "\r\n", some followed by empty lines:
        // over 40 blocks of 64 KiB, so line ends, "\r" and "\n" fall on every side of a block's
        // end.
        for (int t = 0; file.size() < 40 * 65536; t++) {
            String pad = " ".repeat(random.nextInt(3000));
            String line =
                    "{\"entityId\":\"e" + t + "\",\"lon\":1,\"lat\":2,\"timestamp\":" + t + pad;
            file.write((line + "}").getBytes(StandardCharsets.UTF_8));
            file.write((random.nextBoolean() ? "\r\n" : "\n").getBytes(StandardCharsets.UTF_8));
            if (random.nextInt(10) == 0) {
                file.write('\n');
            }
            written.add(new Position("e" + t, 1, 2, t));
        }
        file.write("{\"entityId\":\"last\",\"lon\":1,\"lat\":2,\"timestamp\":9}".getBytes());
        written.add(new Position("last", 1, 2, 9));

        assertThat(read(file.toByteArray(), 4096)).containsExactlyElementsOf(written);
    }

    @Test
    void aLineOverTheLimitAcrossBlocksIsOneDeadLetterAndTheNextLineIsRead() throws Exception {
        String huge = "{\"entityId\":\"e\"" + " ".repeat(200_000) + "}";
        String position = "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":3}";
        byte[] file = (huge + "\n" + position + "\n").getBytes(StandardCharsets.UTF_8);

        List<Parsed<Position>> read = parse(file, 4096);

        assertThat(read).hasSize(2);
        assertThat(read.get(0).deadLetter().error()).startsWith("record too large: 200016 bytes");
        assertThat(read.get(0).deadLetter().raw()).hasSize(Limits.MAX_RAW_CHARS);
        assertThat(read.get(1).value()).isEqualTo(new Position("e", 1, 2, 3));
    }

    @Test
    void theJsonLinesReaderCutsNoLineAndSkipsOnlyALineOverTheLimit() throws Exception {
        String position = "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":3}";
        int limit = position.length();
        String longer =
                "{\"entityId\":\"e\",\"lon\":1,\"lat\":2,\"timestamp\":4" + " ".repeat(9000) + "}";
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (String line : new String[] {position + "\r\n", longer + "\r\n", "\n", position}) {
            file.write(line.getBytes(StandardCharsets.UTF_8));
        }

        List<Parsed<Position>> read = parse(file.toByteArray(), limit);

        assertThat(read).hasSize(3);
        assertThat(read.get(0).value()).isEqualTo(new Position("e", 1, 2, 3));
        assertThat(read.get(1).deadLetter())
                .isEqualTo(
                        new DeadLetter(
                                DeadLetter.POSITIONS,
                                "record too large: "
                                        + longer.length()
                                        + " bytes, over the "
                                        + limit
                                        + "-byte limit (max-record-bytes)",
                                longer.substring(0, Limits.MAX_RAW_CHARS)));
        assertThat(read.get(2).value()).isEqualTo(new Position("e", 1, 2, 3));
    }

    private List<Position> read(byte[] file, int limit) throws Exception {
        List<Position> positions = new ArrayList<>();
        for (Parsed<Position> p : parse(file, limit)) {
            assertThat(p.deadLetter()).isNull();
            positions.add(p.value());
        }
        return positions;
    }

    private List<Parsed<Position>> parse(byte[] file, int limit) throws Exception {
        Path path = Files.write(dir.resolve("positions.jsonl"), file);
        InputRules rules = InputRules.DEFAULTS.withMaxRecordBytes(limit);
        JsonLinesFormat<Position> format =
                new JsonLinesFormat<>(
                        () -> new PositionCodec(rules)::parse,
                        new TypeHint<Parsed<Position>>() {}.getTypeInfo(),
                        DeadLetter.POSITIONS,
                        limit);
        List<Parsed<Position>> read = new ArrayList<>();
        try (StreamFormat.Reader<Parsed<Position>> reader =
                format.createReader(new Configuration(), new LocalDataInputStream(path.toFile()))) {
            for (Parsed<Position> p; (p = reader.read()) != null; ) {
                read.add(p);
            }
        }
        return read;
    }
}
