package org.quadfence.bench;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.reader.StreamFormat;
import org.apache.flink.core.fs.local.LocalDataInputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.bench.PeerRecords.Event;
import org.quadfence.bench.PeerRecords.Fence;
import org.quadfence.bench.PeerRecords.Position;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The peer reads the contract's records and writes its event lines. Run with {@code mvn -B -ntp
 * test -Dtest='Peer*Test'} (the bench package is left out of the default test run).
 */
class PeerJsonTest {

    @Test
    void positionsTakeBothTimeFormsAndDefaultGroupAndRefuseWhatTheContractRefuses()
            throws IOException {
        Position p =
                position(
                        "{\"entityId\":\"t\",\"lon\":-180,\"lat\":90,"
                                + "\"timestamp\":\"2024-11-22T00:00:00Z\",\"group\":\"default\","
                                + "\"speed\":{\"x\":[1]}}");
        assertThat(p.entityId).isEqualTo("t");
        assertThat(p.lon).isEqualTo(-180);
        assertThat(p.timestamp).isEqualTo(1_732_233_600_000L);
        assertThat(p.group).isNull();
        assertThat(
                        position(
                                        "{\"entityId\":\"t\",\"lon\":1,\"lat\":2,\"timestamp\":5,\"group\":\"g\"}")
                                .group)
                .isEqualTo("g");
        assertThat(position("{\"entityId\":\"t\",\"lon\":1,\"lat\":91,\"timestamp\":5}")).isNull();
        assertThat(position("{\"entityId\":\"t\",\"lon\":1,\"lat\":9}")).isNull();
        assertThat(position("{\"entityId\":7,\"lon\":1,\"lat\":9,\"timestamp\":5}")).isNull();
        assertThat(position("{\"entityId\":\"t\",\"lon\":1,\"lat\":9,\"timestamp\":5,\"group\":1}"))
                .isNull();
        assertThat(position("not json")).isNull();
    }

    @Test
    void fencesOfEveryShapeAndDeletes() throws IOException {
        Fence multi =
                fence(
                        "{\"type\":\"Feature\",\"id\":\"m\",\"geometry\":{\"coordinates\":[[[[0,0],"
                            + "[1,0],[1,1],[0,0]]],[[[2,2],[3,2],[3,3],[2,2]]]],\"type\":\"MultiPolygon\"},\"properties\":{\"a\":"
                            + " 1, \"b\": [1, 2]}}");
        assertThat(multi.shape).isEqualTo(Fence.POLYGON);
        assertThat(multi.polygonRings).containsExactly(1, 1);
        assertThat(multi.ringPoints).containsExactly(4, 4);
        assertThat(multi.coords).hasSize(16);
        assertThat(multi.properties).isEqualTo("{\"a\":1,\"b\":[1,2]}");
        Fence circle =
                fence("{\"fenceId\":\"c\",\"circle\":{\"lat\":2,\"lon\":1,\"radiusMeters\":5}}");
        assertThat(circle.coords).containsExactly(1, 2, 5);
        assertThat(fence("{\"fenceId\":\"d\",\"deleted\":true,\"group\":\"g\"}").key())
                .isEqualTo("g\u0000d");
        // A Polygon whose coordinates are a MultiPolygon's, and a rect of 3 numbers.
        assertThat(
                        fence(
                                "{\"type\":\"Feature\",\"id\":\"x\",\"geometry\":{\"type\":\"Polygon\","
                                    + "\"coordinates\":[[[[0,0],[1,0],[1,1],[0,0]]]]}}"))
                .isNull();
        assertThat(fence("{\"fenceId\":\"r\",\"rect\":[1,2,3]}")).isNull();
    }

    @Test
    void eventsAreTheContractsLines() throws IOException {
        Event e = new Event();
        e.entityId = "t\"1";
        e.fenceId = "f";
        e.type = "EXIT";
        e.timestamp = 7;
        e.lon = -0.0;
        e.lat = 40.5;
        e.group = "g";
        e.properties = "{\"name\":\"Dépôt\"}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PeerEvents().encode(e, out);
        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"entityId\":\"t\\\"1\",\"fenceId\":\"f\",\"event\":\"EXIT\","
                                + "\"timestamp\":7,\"lon\":-0.0,\"lat\":40.5,\"group\":\"g\","
                                + "\"properties\":{\"name\":\"Dépôt\"}}\n");
    }

    @Test
    void linesAcrossReadBuffersBlankLinesAndALastLineWithoutItsEnd(@TempDir Path dir)
            throws IOException {
        StringBuilder text = new StringBuilder();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String id = "e" + i + "x".repeat(i % 97);
            ids.add(id);
            text.append("{\"entityId\":\"").append(id).append("\",\"lon\":1,\"lat\":2,");
            text.append("\"timestamp\":").append(i).append(i % 10 == 0 ? "}\r\n\n" : "}\n");
        }
        text.setLength(text.length() - 1);
        Path file = Files.writeString(dir.resolve("p.jsonl"), text);
        StreamFormat.Reader<Position> reader =
                new PeerLines<>(new PeerJson.Positions(), Position.class)
                        .createReader(new Configuration(), new LocalDataInputStream(file.toFile()));
        List<String> read = new ArrayList<>();
        for (Position p; (p = reader.read()) != null; ) {
            read.add(p.entityId);
        }
        reader.close();
        assertThat(read).isEqualTo(ids);
    }

    private static Position position(String line) throws IOException {
        byte[] bytes = ("  " + line + "  ").getBytes(StandardCharsets.UTF_8);
        return new PeerJson.Positions().parse(bytes, 2, bytes.length - 4);
    }

    private static Fence fence(String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return new PeerJson.Fences().parse(bytes, 0, bytes.length);
    }
}
