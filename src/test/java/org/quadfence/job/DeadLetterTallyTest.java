package org.quadfence.job;

import org.junit.jupiter.api.Test;
import org.quadfence.model.DeadLetter;

import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The dead letters' reasons, and the summary that replay and run print of them. */
class DeadLetterTallyTest {

    @Test
    void aReasonIsTheErrorWithoutWhatIsParticularToTheRecord() {
        Map<String, String> cases = new java.util.LinkedHashMap<>();
        cases.put(
                "record too large: 2000000 bytes, over the 1048576-byte limit (max-record-bytes)",
                "record too large");
        cases.put(
                "late: event time 2024-11-22T00:00:01Z arrived after the watermark had passed"
                        + " 2024-11-22T00:00:05Z; raise max-out-of-orderness",
                "late");
        cases.put("future: event time 9999-01-01T00:00:00Z is 7973 years ahead", "future");
        cases.put("lat out of range [-90, 90]: 91.2", "lat out of range");
        cases.put("missing field entityId", "missing field entityId");
        cases.put(
                "entityId must be a string of 1 to 256 characters, got 300 characters",
                "entityId must be a string");
        cases.put(
                "not JSON: Unrecognized token 'fence': was expecting (JSON String, Number)",
                "not JSON: Unrecognized token");
        cases.put(
                "timestamp out of range [0, 253402300799999] (1970-01-01T00:00:00Z to"
                        + " 9999-12-31T23:59:59.999Z): -5",
                "timestamp out of range");
        cases.put(
                "ring 0 of polygon 0 crosses the antimeridian between positions 0 [-180.0, -85.0]"
                        + " and 1 [180.0, -85.0] (a longitude step over 180): split it at 180",
                "longitude step over 180");
        cases.put(
                "invalid polygon (OGC): Self-intersection at [1.5, 2.5] (ring 0 of polygon 0)",
                "invalid polygon (OGC): Self-intersection");
        cases.put(
                "ring 0 of polygon 0 intersects itself at [22.5, -52.5]: edges may meet only",
                "a ring intersects itself");
        cases.put(
                "the fence has 100001 vertices, more than the limit of 100000",
                "more vertices than max-vertices");
        cases.put(
                "ring 0 of polygon 1 is not closed: first [1.0, 2.0] != last [3.0, 4.0]",
                "unclosed ring");
        cases.put(
                "ring 0 of polygon 0 has 3 positions; a ring needs at least 4 (the first repeated"
                        + " at the end); fence-repair make-valid leaves nothing with an area",
                "ring of fewer than 4 positions (not repaired)");
        cases.put(
                "rings cross or touch: ring 0 of polygon 0 and ring 0 of polygon 1 overlap at [2.0,"
                        + " 0.0]: the polygons of a MultiPolygon may not overlap or touch",
                "rings cross or touch: a ring and a ring overlap");
        cases.put("", "other");
        cases.forEach(
                (error, reason) ->
                        assertThat(DeadLetterTally.reason(error)).as(error).isEqualTo(reason));
    }

    @Test
    void theSummarySaysHowManyFencesWereRepairedAndHowManyDeadLettersThereAreByReason() {
        DeadLetterTally.Counts counts = new DeadLetterTally.Counts();
        for (DeadLetter d :
                new DeadLetter[] {
                    new DeadLetter("positions", "late: event time 1", "{}"),
                    new DeadLetter("positions", "late: event time 2", "{}"),
                    new DeadLetter(
                            "fences", "record too large: 5 bytes, over the 4-byte limit", ""),
                    DeadLetter.repaired(
                            "fences", "ring 0 of polygon 0 intersects itself at [1, 1]", ""),
                }) {
            counts.add(DeadLetterTally.key(d));
        }
        DeadLetterTally.Counts other = new DeadLetterTally.Counts();
        other.add(DeadLetterTally.key(new DeadLetter("positions", "late: x", "")));
        counts.merge(other);
        Map<String, Object> accumulators =
                Map.of(DeadLetterTally.ACCUMULATOR, counts.getLocalValue(), "x", 1L);
        assertThat(DeadLetterTally.summary(accumulators, "out.dlq"))
                .containsExactly(
                        "fences repaired (fence-repair make-valid): 1, reported in out.dlq with"
                                + " \"repaired\":true",
                        "  a ring intersects itself: 1",
                        "dead letters: 4, in out.dlq",
                        "  positions, late: 3",
                        "  fences, record too large: 1");
        assertThat(DeadLetterTally.statusLine(accumulators))
                .isEqualTo(
                        "dead letters: 4 (positions, late: 3; fences, record too large: 1);"
                                + " fences repaired: 1 (a ring intersects itself: 1)");
        Map<String, Object> none = Map.of(DeadLetterTally.ACCUMULATOR, new TreeMap<String, Long>());
        assertThat(DeadLetterTally.summary(none, "out.dlq")).containsExactly("dead letters: 0");
        assertThat(DeadLetterTally.statusLine(none)).isEqualTo("dead letters: 0");
        assertThat(DeadLetterTally.summary(Map.of(), "out.dlq")).isEmpty();
        assertThat(DeadLetterTally.statusLine(Map.of())).isNull();
    }

    @Test
    void theReasonsCountedApartAreBoundedWhateverTheInput() {
        DeadLetterTally.Counts counts = new DeadLetterTally.Counts();
        for (int i = 0; i < 10_000; i++) {
            counts.add("positions\tmissing field f" + i);
        }
        assertThat(counts.getLocalValue()).hasSize(DeadLetterTally.MOST_REASONS + 1);
        assertThat(counts.getLocalValue().get("positions\tother"))
                .isEqualTo(10_000L - DeadLetterTally.MOST_REASONS);
        assertThat(counts.clone().getLocalValue()).isEqualTo(counts.getLocalValue());
        counts.resetLocal();
        assertThat(counts.getLocalValue()).isEmpty();
    }
}
