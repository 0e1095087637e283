package org.quadfence.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.util.GeometryFixer;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The public real-world sample (published country borders) under both values of {@code
 * fence-repair}: with reject exactly its expected dead letters (gh:AQ, whose ring steps over 180
 * degrees of longitude), with make-valid every fence that JTS GeometryFixer leaves an area for.
 */
class RealWorldRepairTest {

    private static final Path SAMPLE = Path.of("src/test/resources/samples/sample-realworld");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GeometryFactory JTS = new GeometryFactory();

    private static List<String> lines() throws Exception {
        return Files.readAllLines(SAMPLE.resolve("fences.jsonl"));
    }

    private static Parsed<FenceChange> parse(FenceChangeCodec codec, String line) {
        return codec.parse(null, line.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE);
    }

    @Test
    void withRejectTheDeadLettersAreExactlyTheExpectedOnes() throws Exception {
        JsonNode expected = JSON.readTree(SAMPLE.resolve("expected_dlq_counts.json").toFile());
        FenceChangeCodec codec = new FenceChangeCodec(InputRules.DEFAULTS);
        List<String> dead = new ArrayList<>();
        for (String line : lines()) {
            Parsed<FenceChange> parsed = parse(codec, line);
            assertThat(parsed.notice()).isNull();
            if (!parsed.ok()) {
                dead.add(JSON.readTree(line).get("id").asText());
                assertThat(parsed.deadLetter().error()).contains("longitude step over 180");
            }
        }
        assertThat(dead).hasSize(expected.get("fences").asInt()).containsExactly("gh:AQ");
    }

    @Test
    void withMakeValidEveryFenceThatGeometryFixerLeavesAnAreaForIsUsed() throws Exception {
        FenceChangeCodec codec = new FenceChangeCodec(InputRules.DEFAULTS.withMakeValid(true));
        FenceChangeCodec reject = new FenceChangeCodec(InputRules.DEFAULTS);
        int used = 0;
        for (String line : lines()) {
            JsonNode fence = JSON.readTree(line);
            String id = fence.get("id").asText();
            Parsed<FenceChange> parsed = parse(codec, line);
            boolean stepOver180 = stepOver180(fence.get("geometry"));
            boolean area = !stepOver180 && fixedArea(fence.get("geometry")) > 0;
            assertThat(parsed.ok()).as(id).isEqualTo(area);
            if (parsed.ok()) {
                used++;
                // A fence valid as it is is used as it is; one that is not is reported.
                Parsed<FenceChange> asIs = parse(reject, line);
                assertThat(parsed.notice() == null).as(id).isEqualTo(asIs.ok());
                if (parsed.notice() != null) {
                    assertThat(parsed.notice().repaired()).isTrue();
                    assertThat(parsed.notice().error())
                            .isEqualTo("repaired (make-valid): " + asIs.deadLetter().error());
                }
            } else {
                assertThat(id).isEqualTo("gh:AQ");
                assertThat(parsed.deadLetter().error())
                        .contains("does not repair a longitude step over 180");
            }
        }
        assertThat(used).isEqualTo(412);
    }

    private static boolean stepOver180(JsonNode geometry) {
        for (JsonNode polygon : polygons(geometry)) {
            for (JsonNode ring : polygon) {
                for (int i = 1; i < ring.size(); i++) {
                    if (Math.abs(ring.get(i).get(0).asDouble() - ring.get(i - 1).get(0).asDouble())
                            > 180) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** The area GeometryFixer (collapses dropped) leaves of the geometry, built here anew. */
    private static double fixedArea(JsonNode geometry) {
        List<org.locationtech.jts.geom.Polygon> polygons = new ArrayList<>();
        for (JsonNode polygon : polygons(geometry)) {
            List<LinearRing> rings = new ArrayList<>();
            for (JsonNode ring : polygon) {
                Coordinate[] c = new Coordinate[ring.size()];
                for (int i = 0; i < c.length; i++) {
                    c[i] =
                            new Coordinate(
                                    ring.get(i).get(0).asDouble(), ring.get(i).get(1).asDouble());
                }
                rings.add(JTS.createLinearRing(c));
            }
            polygons.add(
                    JTS.createPolygon(
                            rings.get(0),
                            rings.subList(1, rings.size()).toArray(new LinearRing[0])));
        }
        GeometryFixer fixer =
                new GeometryFixer(
                        JTS.createMultiPolygon(
                                polygons.toArray(new org.locationtech.jts.geom.Polygon[0])));
        fixer.setKeepCollapsed(false);
        Geometry fixed = fixer.getResult();
        return fixed.getArea();
    }

    private static List<JsonNode> polygons(JsonNode geometry) {
        List<JsonNode> out = new ArrayList<>();
        if (geometry.get("type").asText().equals("Polygon")) {
            out.add(geometry.get("coordinates"));
        } else {
            geometry.get("coordinates").forEach(out::add);
        }
        return out;
    }
}
