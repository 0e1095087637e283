package org.quadfence.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.quadfence.io.DeadLetterCodec;
import org.quadfence.job.DeadLetterTally;
import org.quadfence.model.DeadLetter;
import org.quadfence.testing.LargeFences;
import org.quadfence.testing.SampleCheck;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./quadfence replay} with fences that the old limits refused (contract section 8a): a fence
 * record over 1 MiB is used, a repaired fence gives its events and its {@code "repaired":true}
 * report, and replay ends by saying how many fences were repaired and how many dead letters there
 * are, and why.
 */
class ReplaySummaryITCase {

    @TempDir Path dir;

    private static String position(String entity, double lon, double lat, long t) {
        return "{\"entityId\":\""
                + entity
                + "\",\"lon\":"
                + lon
                + ",\"lat\":"
                + lat
                + ",\"timestamp\":"
                + t
                + "}";
    }

    /** Runs replay through the command line; returns what it printed. */
    private String replay(List<String> fences, List<String> positions, String... options)
            throws Exception {
        Files.write(dir.resolve("fences.jsonl"), fences);
        Files.write(dir.resolve("positions.jsonl"), positions);
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "replay",
                                "--fences",
                                dir.resolve("fences.jsonl").toString(),
                                "--positions",
                                dir.resolve("positions.jsonl").toString(),
                                "--output",
                                dir.resolve("events.jsonl").toString(),
                                "--dlq",
                                dir.resolve("dlq.jsonl").toString(),
                                "--parallelism",
                                "2"));
        args.addAll(List.of(options));
        PrintStream out = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.run(args.toArray(new String[0]))).isZero();
        } finally {
            System.setOut(out);
        }
        String text = printed.toString(StandardCharsets.UTF_8);
        System.out.print(text);
        return text;
    }

    private List<String> events() throws Exception {
        return SampleCheck.read(dir.resolve("events.jsonl")).stream()
                .map(e -> e.entityId() + " " + e.event() + " " + e.fenceId() + " @" + e.timestamp())
                .collect(Collectors.toList());
    }

    private List<DeadLetter> deadLetters() throws Exception {
        DeadLetterCodec codec = new DeadLetterCodec();
        List<DeadLetter> out = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("dlq.jsonl"))) {
            out.add(codec.decode(line.getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    @Test
    void aFenceRecordOverOneMebibyteGivesItsEventsAndALongerRecordIsADeadLetter() throws Exception {
        String big = LargeFences.circle("big", 10, 20, 5, 40_001, false);
        assertThat(big.length()).isGreaterThan(1 << 20);
        String tooLarge =
                "{\"entityId\":\"x\",\"lon\":1,\"lat\":2,\"timestamp\":1500,\"pad\":\""
                        + "p".repeat(16 << 20)
                        + "\"}";
        String printed =
                replay(
                        List.of(big),
                        List.of(
                                position("e", 10, 20, 1000),
                                tooLarge,
                                position("e", 10, 25.5, 2000),
                                position("e", 10, 24.9, 3000)));
        assertThat(events())
                .containsExactly("e ENTER big @1000", "e EXIT big @2000", "e ENTER big @3000");
        List<DeadLetter> dead = deadLetters();
        assertThat(dead).hasSize(1);
        assertThat(dead.get(0).error())
                .isEqualTo(
                        "record too large: "
                                + tooLarge.length()
                                + " bytes, over the 16777216-byte limit (max-record-bytes)");
        assertThat(printed)
                .contains(
                        "dead letters: 1, in " + dir.resolve("dlq.jsonl"),
                        "  positions, record too large: 1")
                .doesNotContain("fences repaired");
    }

    @Test
    void withMakeValidARepairedFenceGivesItsEventsAndItsReportAndReplaySaysSo() throws Exception {
        String spike =
                "{\"type\":\"Feature\",\"id\":\"spiky\",\"geometry\":{\"type\":\"Polygon\","
                        + "\"coordinates\":[[[0,0],[10,0],[10,5],[15,5],[10,5],[10,10],[0,10],"
                        + "[0,0]]]}}";
        String antimeridian =
                "{\"type\":\"Feature\",\"id\":\"am\",\"geometry\":{\"type\":\"Polygon\","
                        + "\"coordinates\":[[[170,-10],[-170,-10],[-170,10],[170,10],[170,-10]]]}}";
        List<String> positions =
                List.of(
                        position("e", 5, 5, 1000),
                        position("e", 12, 5, 2000),
                        position("e", 9, 9, 3000));
        String printed =
                replay(List.of(spike, antimeridian), positions, "--fence-repair", "make-valid");
        assertThat(events())
                .containsExactly(
                        "e ENTER spiky @1000", "e EXIT spiky @2000", "e ENTER spiky @3000");
        List<DeadLetter> dead = deadLetters();
        assertThat(dead).hasSize(2);
        DeadLetter repaired = dead.stream().filter(DeadLetter::repaired).findFirst().orElseThrow();
        assertThat(repaired.input()).isEqualTo("fences");
        assertThat(repaired.error()).startsWith("repaired (make-valid): ");
        assertThat(repaired.raw()).isEqualTo(spike);
        assertThat(Files.readString(dir.resolve("dlq.jsonl"))).contains("\"repaired\":true");
        DeadLetter refused = dead.stream().filter(d -> !d.repaired()).findFirst().orElseThrow();
        assertThat(refused.error()).contains("does not repair a longitude step over 180");
        String reason =
                DeadLetterTally.reason(
                        repaired.error().substring("repaired (make-valid): ".length()));
        assertThat(printed)
                .contains(
                        "fences repaired (fence-repair make-valid): 1, reported in "
                                + dir.resolve("dlq.jsonl")
                                + " with \"repaired\":true",
                        "  " + reason + ": 1",
                        "dead letters: 1, in " + dir.resolve("dlq.jsonl"),
                        "  fences, longitude step over 180 (not repaired): 1");

        // Without make-valid, the same fence is a dead letter and gives no events.
        String rejected = replay(List.of(spike, antimeridian), positions);
        assertThat(events()).isEmpty();
        assertThat(deadLetters()).hasSize(2).noneMatch(DeadLetter::repaired);
        assertThat(rejected).contains("dead letters: 2, in ").doesNotContain("fences repaired");
    }
}
