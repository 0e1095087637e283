package org.quadfence.io;

import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKTReader;
import org.quadfence.geo.Polygon;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code fence-repair make-valid} (contract section 8a, "Repair, when asked"): what OGC validity
 * rejects is replaced by what JTS GeometryFixer makes of it, used, and reported; what is not a
 * validity error is never repaired.
 */
class PolygonRepairTest {

    private final FenceChangeCodec reject = new FenceChangeCodec(InputRules.DEFAULTS);
    private final FenceChangeCodec makeValid =
            new FenceChangeCodec(InputRules.DEFAULTS.withMakeValid(true));

    private static String feature(String id, String type, String coordinates) {
        return "{\"type\":\"Feature\",\"id\":\""
                + id
                + "\",\"geometry\":{\"type\":\""
                + type
                + "\",\"coordinates\":"
                + coordinates
                + "}}";
    }

    private static Parsed<FenceChange> parse(FenceChangeCodec codec, String line) {
        return codec.parse(null, line.getBytes(StandardCharsets.UTF_8), Long.MIN_VALUE);
    }

    /**
     * Whether {@link Polygon#of} applies OGC validity, under which two polygons may touch at a
     * vertex (what GeometryFixer makes of a bow-tie); the rule before it refused that.
     */
    private static boolean ogcValidity() {
        try {
            Polygon.of(
                    new double[][][] {
                        {{0, 0, 1, 1, 0, 2, 0, 0}}, {{1, 1, 2, 0, 2, 2, 1, 1}},
                    });
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The parsed fence is used after a repair, and reported with the reason of reject mode. */
    private Polygon repaired(String line) {
        Parsed<FenceChange> rejected = parse(reject, line);
        assertThat(rejected.ok()).as("refused without make-valid").isFalse();
        Parsed<FenceChange> parsed = parse(makeValid, line);
        assertThat(parsed.deadLetter()).as("a dead letter with make-valid").isNull();
        DeadLetter notice = parsed.notice();
        assertThat(notice)
                .isEqualTo(
                        new DeadLetter(
                                DeadLetter.FENCES,
                                "repaired (make-valid): " + rejected.deadLetter().error(),
                                line,
                                true));
        return Polygon.fromCoordinates(parsed.value().polygons());
    }

    private static double area(double[][][] polygons) {
        double sum = 0;
        for (double[][] rings : polygons) {
            for (int r = 0; r < rings.length; r++) {
                double a = 0;
                double[] ring = rings[r];
                for (int i = 0; i + 3 < ring.length; i += 2) {
                    a += ring[i] * ring[i + 3] - ring[i + 2] * ring[i + 1];
                }
                sum += (r == 0 ? 1 : -1) * Math.abs(a / 2);
            }
        }
        return sum;
    }

    @Test
    void aBowTieBecomesItsTwoTriangles() {
        double[][][] bowTie = {{{0, 0, 2, 2, 2, 0, 0, 2, 0, 0}}};
        double[][][] fixed = PolygonRepair.fixed(bowTie, 100, "why");
        assertThat(fixed).hasNumberOfRows(2);
        assertThat(area(fixed)).isEqualTo(2.0);
        String line = feature("bow-tie", "Polygon", "[[[0,0],[2,2],[2,0],[0,2],[0,0]]]");
        assumeTrue(ogcValidity(), "Polygon.of applies OGC validity (the other branch)");
        Polygon p = repaired(line);
        assertThat(p.polygonCount()).isEqualTo(2);
        assertThat(p.contains(0.1, 1)).isTrue();
        assertThat(p.contains(1.9, 1)).isTrue();
        assertThat(p.contains(1, 0.1)).isFalse();
        assertThat(p.contains(1, 1)).isTrue();
    }

    @Test
    void aSpikeIsCutOff() {
        String line =
                feature(
                        "spike",
                        "Polygon",
                        "[[[0,0],[10,0],[10,5],[15,5],[10,5],[10,10],[0,10],[0,0]]]");
        Polygon p = repaired(line);
        // The square, with the spike's foot (10, 5) left on its edge.
        assertThat(p.vertexCount()).isEqualTo(5);
        assertThat(p.contains(5, 5)).isTrue();
        assertThat(p.contains(12, 5)).isFalse();
        assertThat(area(p.coordinates())).isEqualTo(100.0);
    }

    @Test
    void aCollapsedRingOfAMultiPolygonIsDroppedAndTheRestKept() {
        String line =
                feature(
                        "collapsed",
                        "MultiPolygon",
                        "[[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[2,2],[1,1],[1,1]]],"
                                + "[[[10,10],[11,11],[10,10],[10,10]]],"
                                + "[[[20,20],[21,20],[20,20]]]]");
        Polygon p = repaired(line);
        assertThat(p.polygonCount()).isEqualTo(1);
        assertThat(p.coordinates()[0]).hasNumberOfRows(1);
        assertThat(p.contains(1.5, 1.5)).isTrue();
        assertThat(p.contains(10, 10)).isFalse();
        assertThat(area(p.coordinates())).isEqualTo(16.0);
    }

    @Test
    void overlappingMembersAreMergedIntoOne() {
        String line =
                feature(
                        "overlap",
                        "MultiPolygon",
                        "[[[[0,0],[4,0],[4,4],[0,4],[0,0]]],[[[2,2],[6,2],[6,6],[2,6],[2,2]]]]");
        Polygon p = repaired(line);
        assertThat(p.polygonCount()).isEqualTo(1);
        assertThat(p.vertexCount()).isEqualTo(8);
        assertThat(area(p.coordinates())).isEqualTo(28.0);
        assertThat(p.contains(3, 3)).isTrue();
        assertThat(p.contains(5, 1)).isFalse();
    }

    @Test
    void aRingThatCollapsesEntirelyIsADeadLetter() {
        for (String coordinates :
                new String[] {
                    "[[[0,0],[1,1],[2,2],[0,0]]]",
                    "[[[0,0],[1,1],[0,0]]]",
                    "[[[3,3],[3,3],[3,3],[3,3]]]"
                }) {
            String line = feature("line", "Polygon", coordinates);
            String reason = parse(reject, line).deadLetter().error();
            assertThat(parse(makeValid, line).deadLetter())
                    .isEqualTo(
                            new DeadLetter(
                                    DeadLetter.FENCES,
                                    reason
                                            + "; fence-repair make-valid leaves nothing with an"
                                            + " area",
                                    line));
        }
    }

    @Test
    void aRingWithALongitudeStepOver180IsNeverRepaired() {
        String line =
                feature("am", "Polygon", "[[[170,-10],[-170,-10],[-170,10],[170,10],[170,-10]]]");
        String reason = parse(reject, line).deadLetter().error();
        assertThat(reason).contains("longitude step over 180");
        Parsed<FenceChange> parsed = parse(makeValid, line);
        assertThat(parsed.ok()).isFalse();
        assertThat(parsed.deadLetter().error())
                .isEqualTo(
                        reason
                                + " (fence-repair make-valid does not repair a longitude step over"
                                + " 180 (ring 0 of polygon 0, positions 0 and 1): split it at 180"
                                + " into a MultiPolygon (RFC 7946 3.1.9))");
        // Also when another ring of the fence is what validity names first.
        String both =
                feature(
                        "both",
                        "MultiPolygon",
                        "[[[[0,0],[2,2],[2,0],[0,2],[0,0]]],"
                                + "[[[170,-10],[-170,-10],[-170,10],[170,10],[170,-10]]]]");
        assertThat(parse(makeValid, both).deadLetter().error())
                .contains("does not repair a longitude step over 180 (ring 0 of polygon 1");
    }

    @Test
    void unclosedRingsRangesAndTheVertexLimitAreNeverRepaired() {
        String unclosed = feature("open", "Polygon", "[[[0,0],[2,2],[2,0],[0,2]]]");
        assertThat(parse(makeValid, unclosed).deadLetter().error())
                .isEqualTo(
                        parse(reject, unclosed).deadLetter().error()
                                + " (fence-repair make-valid does not repair an unclosed ring"
                                + " (ring 0 of polygon 0))");
        String range = feature("range", "Polygon", "[[[0,0],[2,2],[2,0],[0,91],[0,0]]]");
        assertThat(parse(makeValid, range).deadLetter().error())
                .endsWith(
                        "does not repair a position out of range (ring 0 of polygon 0, position"
                                + " 3))");
        FenceChangeCodec small = new FenceChangeCodec(new InputRules(4, 0).withMakeValid(true));
        String five = feature("five", "Polygon", "[[[0,0],[2,2],[2,0],[1,-1],[0,2],[0,0]]]");
        assertThat(parse(small, five).deadLetter().error())
                .endsWith(
                        "(fence-repair make-valid does not repair a fence of more than"
                                + " max-vertices (4) vertices)");
        // Structure and JSON errors are never validity errors.
        String point =
                "{\"type\":\"Feature\",\"id\":\"p\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}";
        assertThat(parse(makeValid, point)).isEqualTo(parse(reject, point));
    }

    @Test
    void aRepairedFenceOverMaxVerticesIsADeadLetter() {
        // Two triangles as a star of David: 6 vertices, 12 once merged.
        String star =
                feature(
                        "star",
                        "MultiPolygon",
                        "[[[[0,0],[6,0],[3,5],[0,0]]],[[[0,3.5],[3,-1.5],[6,3.5],[0,3.5]]]]");
        FenceChangeCodec ten = new FenceChangeCodec(new InputRules(10, 0).withMakeValid(true));
        String reason =
                parse(new FenceChangeCodec(new InputRules(10, 0)), star).deadLetter().error();
        assertThat(parse(ten, star).deadLetter().error())
                .isEqualTo(
                        reason
                                + "; repaired by fence-repair make-valid it is still refused: the"
                                + " fence has 12 vertices, more than the limit of 10");
        assertThat(parse(makeValid, star).ok()).isTrue();
    }

    @Test
    void ringsThatCrossMoreThanFourTimesAVertexAreNotRepaired() {
        // A star polygon of 401 points: every edge crosses most others, about 80,000 crossings.
        StringBuilder ring = new StringBuilder("[[");
        int n = 401;
        for (int i = 0; i <= n; i++) {
            double angle = 2 * Math.PI * ((long) i * 199 % n) / n;
            ring.append(i > 0 ? "," : "")
                    .append('[')
                    .append(10 * Math.cos(angle))
                    .append(',')
                    .append(10 * Math.sin(angle))
                    .append(']');
        }
        String line = feature("star", "Polygon", ring.append("]]").toString());
        long start = System.nanoTime();
        Parsed<FenceChange> parsed = parse(makeValid, line);
        assertThat(parsed.deadLetter().error())
                .endsWith(
                        " (fence-repair make-valid does not repair rings that cross or touch more"
                                + " than 1672 times: 4 a vertex, at most max-vertices)");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
    }

    @Test
    void theRejectModeIsUnchangedAndGivesNoNotice() {
        String line =
                feature(
                        "spike",
                        "Polygon",
                        "[[[0,0],[10,0],[10,5],[15,5],[10,5],[10,10],[0,10],[0,0]]]");
        Parsed<FenceChange> parsed = parse(reject, line);
        assertThat(parsed.notice()).isNull();
        assertThat(parsed.deadLetter().repaired()).isFalse();
        String valid = feature("ok", "Polygon", "[[[0,0],[1,0],[1,1],[0,0]]]");
        assertThat(parse(makeValid, valid))
                .usingRecursiveComparison()
                .isEqualTo(parse(reject, valid));
        assertThat(parse(makeValid, valid).notice()).isNull();
    }

    @Test
    void thePolygonsOfAGeometryCollectionAreKeptAndTheRestDropped() throws Exception {
        Geometry g =
                new WKTReader(new GeometryFactory())
                        .read(
                                "GEOMETRYCOLLECTION (POLYGON ((0 0, 1 0, 1 1, 0 0)), LINESTRING (5"
                                    + " 5, 6 6), MULTIPOLYGON (((10 10, 12 10, 12 12, 10 10), (10.5"
                                    + " 10.2, 11.5 10.2, 11.5 11.2, 10.5 10.2))), POINT (3 3),"
                                    + " POLYGON EMPTY)");
        double[][][] polygons = PolygonRepair.polygonal(g);
        assertThat(polygons).hasNumberOfRows(2);
        assertThat(polygons[0]).hasNumberOfRows(1);
        assertThat(polygons[1]).hasNumberOfRows(2);
        assertThat(polygons[1][1]).containsExactly(10.5, 10.2, 11.5, 10.2, 11.5, 11.2, 10.5, 10.2);
    }
}
