package org.quadfence.io;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.Parsed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/** The input lines of the sample cases give exactly the dead letters the cases expect. */
class SampleFilesTest {

    private final PositionCodec positions = new PositionCodec();
    private final FenceChangeCodec fences = new FenceChangeCodec();

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {"sample-clean", "sample-nasty", "sample-features", "sample-features-nasty"})
    void everyLineIsARecordOrADeadLetterAndTheDeadLettersAreTheExpectedOnes(String sample)
            throws IOException {
        Map<String, Integer> expected = expectedCounts(sample);
        List<String> badPositions = errors(sample, "positions.jsonl", positions::parse);
        List<String> badFences = errors(sample, "fences.jsonl", this::parseFenceLine);
        assertThat(badPositions)
                .as("dead letters of %s positions", sample)
                .hasSize(expected.getOrDefault(DeadLetter.POSITIONS, 0));
        assertThat(badFences)
                .as("dead letters of %s fences", sample)
                .hasSize(expected.getOrDefault(DeadLetter.FENCES, 0));
    }

    /** Informative only: polygons, circles and their dead letters come with contract section 6. */
    private Parsed<?> parseFenceLine(byte[] line) {
        return fences.parse(null, line, Long.MIN_VALUE);
    }

    /** "line N: error" for each line that is a dead letter. */
    private static List<String> errors(
            String sample, String file, Function<byte[], Parsed<?>> parse) {
        List<String> errors = new ArrayList<>();
        List<byte[]> lines = Samples.lines(sample, file);
        for (int i = 0; i < lines.size(); i++) {
            Parsed<?> parsed = parse.apply(lines.get(i));
            if (!parsed.ok()) {
                errors.add("line " + (i + 1) + ": " + parsed.deadLetter().error());
            }
        }
        return errors;
    }

    private static Map<String, Integer> expectedCounts(String sample) throws IOException {
        Path counts = Samples.file(sample, "meta.json").resolveSibling("expected_dlq_counts.json");
        if (!Files.exists(counts)) {
            return Map.of();
        }
        return new ObjectMapper().readValue(counts.toFile(), new TypeReference<>() {});
    }
}
