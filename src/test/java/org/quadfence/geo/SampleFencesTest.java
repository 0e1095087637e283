package org.quadfence.geo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The polygon and circle fences of the feature samples, read with a bare-bones GeoJSON reader (the
 * real codec lives in io): the well-formed ones build, and the expected events agree with the
 * geometry: each ENTER's position lies in the fence as in force at that time, and each EXIT's
 * position lies beyond the samples' exit margin from the fence as in force then (expiry EXITs
 * aside), as contract section 6 has it with this project's distance.
 */
class SampleFencesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    // The samples' exit-margin-meters (meta.json).
    private static final double MARGIN = 20;

    private record Version(long timestamp, Shape shape) {}

    @ParameterizedTest
    @ValueSource(strings = {"sample-features", "sample-features-nasty"})
    void expectedEventsAgreeWithTheGeometry(String sample) throws IOException {
        Map<String, TreeMap<Long, List<Version>>> fences = new HashMap<>();
        List<String> rejected = new ArrayList<>();
        int built = 0;
        for (String line : Files.readAllLines(file(sample, "fences.jsonl"))) {
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            if (n == null || !n.isObject()) {
                continue;
            }
            String id = n.has("fenceId") ? n.path("fenceId").asText() : n.path("id").asText();
            String group = n.path("group").isTextual() ? n.path("group").asText() : "default";
            long t;
            Shape shape = null;
            try {
                t = time(n.get("timestamp"));
                if (n.path("deleted").asBoolean(false)) {
                    shape = null;
                } else if (n.has("geometry")) {
                    if (!n.path("type").asText().equals("Feature")) {
                        throw new IllegalArgumentException("not a Feature: " + n.path("type"));
                    }
                    shape = polygon(n.get("geometry"));
                } else if (n.has("circle")) {
                    JsonNode c = n.get("circle");
                    shape =
                            new Circle(
                                    num(c.get("lon")),
                                    num(c.get("lat")),
                                    num(c.get("radiusMeters")));
                } else if (n.has("rect")) {
                    JsonNode r = n.get("rect");
                    if (r.size() != 4) {
                        throw new IllegalArgumentException("rect needs 4 numbers");
                    }
                    shape =
                            new Rectangle(
                                    num(r.get(0)), num(r.get(1)), num(r.get(2)), num(r.get(3)));
                } else {
                    continue;
                }
                if (shape != null) {
                    built++;
                }
            } catch (RuntimeException e) {
                rejected.add(e.getMessage());
                continue;
            }
            fences.computeIfAbsent(group + "/" + id, k -> new TreeMap<>())
                    .computeIfAbsent(t, k -> new ArrayList<>())
                    .add(new Version(t, shape));
        }
        int enters = 0;
        int exits = 0;
        int exitsNear = 0;
        for (String line : Files.readAllLines(file(sample, "expected.jsonl"))) {
            JsonNode e = JSON.readTree(line);
            String group = e.path("group").isTextual() ? e.path("group").asText() : "default";
            String key = group + "/" + e.get("fenceId").asText();
            long t = e.get("timestamp").asLong();
            double lon = e.get("lon").asDouble();
            double lat = e.get("lat").asDouble();
            Map.Entry<Long, List<Version>> v = fences.get(key).floorEntry(t);
            Shape shape = v == null ? null : v.getValue().get(v.getValue().size() - 1).shape();
            switch (e.get("event").asText()) {
                case "ENTER" -> {
                    enters++;
                    assertThat(shape).as(line).isNotNull();
                    assertThat(shape.contains(lon, lat)).as(line + " in " + shape).isTrue();
                }
                case "EXIT" -> {
                    if (e.path("expiry").asBoolean(false)) {
                        continue;
                    }
                    exits++;
                    if (shape != null && shape.distanceMeters(lon, lat) <= MARGIN) {
                        exitsNear++;
                    }
                }
                default -> {}
            }
        }
        assertThat(built).isGreaterThan(200);
        assertThat(enters).isGreaterThan(1000);
        assertThat(exits).isGreaterThan(1000);
        assertThat(exitsNear).as("EXITs within the exit margin").isZero();
        if (sample.endsWith("nasty")) {
            assertThat(String.join("\n", rejected))
                    .contains("is not closed: first")
                    .contains("crosses the antimeridian")
                    .contains("invalid polygon (OGC): Self-intersection at")
                    .contains("a ring needs at least 4")
                    .contains("ring 0 of polygon 0 and ring 1 of polygon 0 cross there");
        } else {
            assertThat(rejected).isEmpty();
        }
    }

    private static Polygon polygon(JsonNode g) {
        JsonNode c = g.get("coordinates");
        return switch (g.path("type").asText()) {
            case "Polygon" -> Polygon.of(new double[][][] {rings(c)});
            case "MultiPolygon" -> {
                double[][][] ps = new double[c.size()][][];
                for (int i = 0; i < c.size(); i++) {
                    ps[i] = rings(c.get(i));
                }
                yield Polygon.of(ps);
            }
            default -> throw new IllegalArgumentException("not a polygon: " + g.path("type"));
        };
    }

    private static double[][] rings(JsonNode c) {
        double[][] rings = new double[c.size()][];
        for (int r = 0; r < c.size(); r++) {
            JsonNode ring = c.get(r);
            rings[r] = new double[2 * ring.size()];
            for (int i = 0; i < ring.size(); i++) {
                rings[r][2 * i] = num(ring.get(i).get(0));
                rings[r][2 * i + 1] = num(ring.get(i).get(1));
            }
        }
        return rings;
    }

    private static double num(JsonNode n) {
        if (n == null || !n.isNumber()) {
            throw new IllegalArgumentException("not a number: " + n);
        }
        return n.doubleValue();
    }

    private static long time(JsonNode t) {
        if (t == null) {
            return Long.MIN_VALUE;
        }
        return t.isNumber() ? t.asLong() : Instant.parse(t.asText()).toEpochMilli();
    }

    private static Path file(String sample, String name) {
        try {
            return Path.of(
                    SampleFencesTest.class.getResource("/samples/" + sample + "/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
