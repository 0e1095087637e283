package org.quadfence.geo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Valid fences whose edges or vertices lie as close as doubles allow still cost memory and work in
 * proportion to their edges and the cells those cross (contract section 8): each builds, cuts to
 * tile levels 7 and 12 and answers within a time budget; every tile piece keeps at most {@value
 * PolygonTree#REFS_PER_EDGE} edge references and {@value PolygonTree#NODES_PER_EDGE} nodes per edge
 * that meets its tile, plus {@value PolygonTree#SPARE}; and every answer is exact. Invalid ones are
 * rejected with a sentence, never an Error.
 */
class PolygonBudgetTest {

    // Generous for a busy machine: each step below takes at most about a second when idle.
    private static final Duration TIME = Duration.ofSeconds(30);
    private static final int[] LEVELS = {7, 12};

    static Stream<Arguments> hostileFences() {
        return Stream.of(
                Arguments.of(
                        "a comb of 25,000 slots 1e-9 apart",
                        one(FenceShapes.comb(25_000, -90, 45, 1, 1e-9))),
                Arguments.of(
                        "a comb of 1,000 slots 1e-12 apart",
                        one(FenceShapes.comb(1_000, 10, 10, 2, 1e-12))),
                Arguments.of(
                        "a star of 40,000 spikes 1e-6 deep",
                        one(FenceShapes.star(40_000, 10, 10, 1, 1e-6))),
                Arguments.of(
                        "a star of 40,000 spikes 1e-9 deep",
                        one(FenceShapes.star(40_000, -60, -30, 1, 1e-9))),
                Arguments.of(
                        "a star of 40,000 long spikes",
                        one(FenceShapes.star(40_000, 100, 20, 1, 0.999))),
                Arguments.of(
                        "long collinear runs",
                        one(FenceShapes.collinearRuns(20_000, 30, 30, 1, 1e-9))),
                Arguments.of("needles 1e-9 wide", one(FenceShapes.needles(2_000, -20, 0, 1, 1e-9))),
                Arguments.of("vertices on tile corners", tileCorners()),
                Arguments.of("holes 1e-9 apart", holesApart(1e-9)),
                Arguments.of("polygons 1e-9 apart", stacked(2_000, 1e-9)));
    }

    private static double[][][] one(double[] ring) {
        return new double[][][] {{ring}};
    }

    private static double[][][] tileCorners() {
        double[][][] polygons = new double[4][][];
        for (int k = 0; k < polygons.length; k++) {
            polygons[k] = new double[][] {FenceShapes.tileCorners(3 * k, 64 + k)};
        }
        return polygons;
    }

    // A square with two holes side by side, a wall 'gap' wide between them.
    private static double[][][] holesApart(double gap) {
        return new double[][][] {
            {
                FenceShapes.rectangle(0, 0, 1, 1),
                FenceShapes.rectangle(0.25, 0.25, 0.5, 0.75),
                FenceShapes.rectangle(0.5 + gap, 0.25, 0.75, 0.75)
            }
        };
    }

    // Thin rectangles 1 degree wide, one above the other with a gap between.
    private static double[][][] stacked(int count, double gap) {
        double[][][] polygons = new double[count][][];
        double h = 1e-6;
        for (int k = 0; k < count; k++) {
            double y = 5 + k * (h + gap);
            polygons[k] = new double[][] {FenceShapes.rectangle(50, y, 51, y + h)};
        }
        return polygons;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFences")
    void aHostileFenceBuildsCutsAndAnswersExactlyWithinItsBudget(String name, double[][][] fence) {
        Polygon polygon = assertTimeoutPreemptively(TIME, () -> Polygon.of(fence, 200_000), name);
        List<double[]> points = samplePoints(fence, new SplittableRandom(name.hashCode()));
        boolean[] expected = new boolean[points.size()];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = BruteForce.contains(fence, points.get(i)[0], points.get(i)[1]);
        }
        for (int level : LEVELS) {
            CellGrid grid = new CellGrid(level, level);
            Map<Long, PolygonPiece> cells =
                    assertTimeoutPreemptively(TIME, () -> cut(polygon, grid), name);
            assertWithinBudget(fence, grid, cells);
            for (int i = 0; i < expected.length; i++) {
                double[] p = points.get(i);
                assertThat(tileContains(cells, grid, p[0], p[1]))
                        .as("%s, level %d, (%s, %s)", name, level, p[0], p[1])
                        .isEqualTo(expected[i]);
            }
        }
        boolean[] answers =
                assertTimeoutPreemptively(
                        TIME,
                        () -> {
                            boolean[] out = new boolean[points.size()];
                            for (int i = 0; i < out.length; i++) {
                                out[i] = polygon.contains(points.get(i)[0], points.get(i)[1]);
                            }
                            return out;
                        });
        assertThat(answers).as(name).isEqualTo(expected);
        // The polygon's own lookup is such a cut, to a grid coarse enough that its edges cross 4
        // cell lines each on average, and so within a constant per vertex.
        assertThat(polygon.lookupSize()).isLessThanOrEqualTo(160L * polygon.vertexCount() + 4096);
    }

    private static Map<Long, PolygonPiece> cut(Polygon polygon, CellGrid grid) {
        Map<Long, PolygonPiece> cells = new HashMap<>();
        polygon.cut(
                grid,
                0,
                true,
                (column, row, piece) ->
                        cells.put(key(column, row), piece == null ? PolygonPiece.COVERED : piece));
        return cells;
    }

    private static long key(int column, int row) {
        return (long) column << 32 | row;
    }

    // As the job looks a point up: lon 180 in column 0, as -180.
    private static boolean tileContains(
            Map<Long, PolygonPiece> cells, CellGrid grid, double lon, double lat) {
        double x = lon == 180 ? -180 : lon;
        PolygonPiece piece = cells.get(key(grid.column(x), grid.row(lat)));
        return piece == PolygonPiece.COVERED || piece != null && piece.contains(x, lat);
    }

    // The pieces together keep at most 4 references and 4 nodes per (edge, cell) pair where the
    // edge meets the closed cell, plus 64 per piece.
    private static void assertWithinBudget(
            double[][][] fence, CellGrid grid, Map<Long, PolygonPiece> cells) {
        long refs = 0;
        long nodes = 0;
        long pieces = 0;
        for (PolygonPiece piece : cells.values()) {
            if (piece != PolygonPiece.COVERED) {
                refs += piece.edges().length / 4;
                nodes += piece.nodes().length / 2;
                pieces++;
            }
        }
        long meetings = meetings(fence, grid);
        assertThat(refs).isLessThanOrEqualTo(4 * meetings + 64 * pieces);
        assertThat(nodes).isLessThanOrEqualTo(4 * meetings + 64 * pieces);
    }

    // The (edge, cell) pairs where the edge meets the closed cell, counted edge by edge.
    private static long meetings(double[][][] fence, CellGrid grid) {
        long count = 0;
        for (double[][] rings : fence) {
            for (double[] ring : rings) {
                for (int i = 0; i + 3 < ring.length; i += 2) {
                    count += cellsMet(grid, ring[i], ring[i + 1], ring[i + 2], ring[i + 3]);
                }
            }
        }
        return count;
    }

    private static long cellsMet(CellGrid grid, double ax, double ay, double bx, double by) {
        if (ax == bx && ay == by) {
            return 0;
        }
        long count = 0;
        int lastColumn = grid.column(Math.max(ax, bx));
        int lastRow = grid.row(Math.max(ay, by));
        for (int c = grid.firstColumn(Math.min(ax, bx)); c <= lastColumn; c++) {
            for (int r = grid.firstRow(Math.min(ay, by)); r <= lastRow; r++) {
                boolean meets =
                        Segments.touchesBox(
                                ax,
                                ay,
                                bx,
                                by,
                                grid.west(c),
                                grid.south(r),
                                grid.west(c + 1),
                                grid.south(r + 1));
                count += meets ? 1 : 0;
            }
        }
        return count;
    }

    // Vertices, points exactly on axis-aligned edges, edge midpoints, one ulp and 1e-10 off
    // vertices, and random points in and around the bounding box: about 1,500.
    private static List<double[]> samplePoints(double[][][] fence, SplittableRandom random) {
        List<double[]> vertices = new ArrayList<>();
        for (double[][] rings : fence) {
            for (double[] ring : rings) {
                for (int i = 0; i + 3 < ring.length; i += 2) {
                    vertices.add(new double[] {ring[i], ring[i + 1], ring[i + 2], ring[i + 3]});
                }
            }
        }
        double minX = 180;
        double minY = 90;
        double maxX = -180;
        double maxY = -90;
        for (double[] e : vertices) {
            minX = Math.min(minX, e[0]);
            maxX = Math.max(maxX, e[0]);
            minY = Math.min(minY, e[1]);
            maxY = Math.max(maxY, e[1]);
        }
        List<double[]> points = new ArrayList<>();
        for (int k = 0; k < 1_500; k++) {
            double[] e = vertices.get(random.nextInt(vertices.size()));
            double[] p =
                    switch (k % 6) {
                        case 0 -> new double[] {e[0], e[1]};
                        case 1 -> new double[] {(e[0] + e[2]) / 2, (e[1] + e[3]) / 2};
                        case 2 ->
                                new double[] {
                                    random.nextBoolean() ? Math.nextUp(e[0]) : e[0] - 1e-10,
                                    random.nextBoolean() ? Math.nextDown(e[1]) : e[1] + 1e-10
                                };
                        case 3 ->
                                new double[] {
                                    e[0] + (e[2] - e[0]) * random.nextDouble(),
                                    e[1] + (e[3] - e[1]) * random.nextDouble()
                                };
                        default ->
                                new double[] {
                                    minX + (maxX - minX) * (1.2 * random.nextDouble() - 0.1),
                                    minY + (maxY - minY) * (1.2 * random.nextDouble() - 0.1)
                                };
                    };
            points.add(
                    new double[] {
                        Math.max(-180, Math.min(180, p[0])), Math.max(-90, Math.min(90, p[1]))
                    });
        }
        return points;
    }

    @Test
    void aTreeKeepsAtMostFourReferencesAndFourNodesPerEdgeWhateverTheEdges() {
        // Coincident edges (never valid, but the tree must not care): 30 copies of one diagonal,
        // and 30 horizontal edges 1e-12 apart, each polygon a run of its own.
        for (double[] edge :
                new double[][] {{0.1, 0.1, 0.9, 0.8, 0}, {0.1, 0.5, 0.9, 0.5, 1e-12}}) {
            int n = 30;
            double[] coords = new double[4 * n];
            int[] ends = new int[n];
            for (int i = 0; i < n; i++) {
                coords[4 * i] = edge[0];
                coords[4 * i + 1] = edge[1] + i * edge[4];
                coords[4 * i + 2] = edge[2];
                coords[4 * i + 3] = edge[3] + i * edge[4];
                ends[i] = 4 * (i + 1);
            }
            Box cell = new Box(0, 0, 1, 1);
            PolygonPiece piece =
                    assertTimeoutPreemptively(
                            Duration.ofSeconds(5),
                            () ->
                                    PolygonTree.piece(
                                            cell,
                                            cell,
                                            coords,
                                            ends,
                                            new boolean[n],
                                            new double[0],
                                            new double[0]));
            assertThat(piece.edges().length / 4).isLessThanOrEqualTo(4 * n + 64);
            assertThat(piece.nodes().length / 2).isLessThanOrEqualTo(4 * n + 64);
            assertThat(piece.contains(0.5, 0.5)).isTrue();
            assertThat(piece.contains(0.5, 0.25)).isFalse();
        }
    }

    @Test
    void theHostileSamplesCombAndStarAreUsedAndItsRepeatedAndOverlappingPolygonsRejected()
            throws IOException {
        Map<String, double[][][]> sample = hostileSample();
        for (String id : new String[] {"comb", "star"}) {
            double[][][] fence = sample.get(id);
            Polygon polygon =
                    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Polygon.of(fence));
            for (int level : LEVELS) {
                CellGrid grid = new CellGrid(level, level);
                Map<Long, PolygonPiece> cells =
                        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> cut(polygon, grid));
                assertWithinBudget(fence, grid, cells);
            }
            for (double[] p : samplePoints(fence, new SplittableRandom(3))) {
                assertThat(polygon.contains(p[0], p[1]))
                        .isEqualTo(BruteForce.contains(fence, p[0], p[1]));
            }
        }
        assertThatThrownBy(() -> Polygon.of(sample.get("nine")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "invalid polygon (OGC): Self-intersection at [2.0, 0.0]: ring 0 of polygon"
                                + " 0 and ring 0 of polygon 1 overlap along an edge");
        assertThatThrownBy(() -> Polygon.of(sample.get("overlap2")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("invalid polygon (OGC): Self-intersection at [")
                .hasMessageContaining("ring 0 of polygon 0 and ring 0 of polygon 1 cross there");
    }

    // The polygon fences of the hostile sample by id (lines 186 to 189 of its fences.jsonl).
    private static Map<String, double[][][]> hostileSample() throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, double[][][]> fences = new HashMap<>();
        try (InputStream in =
                PolygonBudgetTest.class.getResourceAsStream(
                        "/samples/sample-hostile/fences.jsonl")) {
            for (String line : new String(in.readAllBytes()).split("\n")) {
                JsonNode n = json.readTree(line);
                if (n != null && n.path("geometry").has("coordinates")) {
                    fences.put(n.path("id").asText(), polygons(n.get("geometry")));
                }
            }
        }
        return fences;
    }

    private static double[][][] polygons(JsonNode geometry) {
        JsonNode c = geometry.get("coordinates");
        boolean multi = geometry.path("type").asText().equals("MultiPolygon");
        double[][][] out = new double[multi ? c.size() : 1][][];
        for (int p = 0; p < out.length; p++) {
            JsonNode rings = multi ? c.get(p) : c;
            out[p] = new double[rings.size()][];
            for (int r = 0; r < rings.size(); r++) {
                JsonNode ring = rings.get(r);
                out[p][r] = new double[2 * ring.size()];
                for (int i = 0; i < ring.size(); i++) {
                    out[p][r][2 * i] = ring.get(i).get(0).asDouble();
                    out[p][r][2 * i + 1] = ring.get(i).get(1).asDouble();
                }
            }
        }
        return out;
    }

    @Test
    void randomFencesOfNearlyCoincidentVerticesAreUsedOrRejectedWithASentence() {
        SplittableRandom random = new SplittableRandom(11);
        int used = 0;
        for (int k = 0; k < 300; k++) {
            double[][][] fence = nearlyCoincident(random);
            Polygon polygon;
            try {
                polygon = assertTimeoutPreemptively(TIME, () -> Polygon.of(fence));
            } catch (IllegalArgumentException rejected) {
                assertThat(rejected.getMessage()).matches("[a-z].{20,}");
                continue;
            }
            used++;
            CellGrid grid = new CellGrid(12, 12);
            Map<Long, PolygonPiece> cells = cut(polygon, grid);
            assertWithinBudget(fence, grid, cells);
            for (double[] p : samplePoints(fence, random)) {
                boolean expected = BruteForce.contains(fence, p[0], p[1]);
                assertThat(polygon.contains(p[0], p[1])).isEqualTo(expected);
                assertThat(tileContains(cells, grid, p[0], p[1])).isEqualTo(expected);
            }
        }
        assertThat(used).isGreaterThan(30);
    }

    // A star-shaped ring or two whose vertices sit on a grid of 1e-9 degree near a tile corner,
    // with random repeats: spikes, slivers and edges a few 1e-9 apart.
    private static double[][][] nearlyCoincident(SplittableRandom random) {
        double x = new CellGrid(12, 12).west(random.nextInt(4096));
        double y = new CellGrid(12, 12).south(random.nextInt(2048));
        double[][][] fence = new double[1 + random.nextInt(2)][][];
        for (int p = 0; p < fence.length; p++) {
            int n = 3 + random.nextInt(12);
            double[] angles = random.doubles(n, 0, 2 * Math.PI).sorted().toArray();
            double[] ring = new double[2 * n + 2];
            double cx = x + (p == 0 ? 0 : 40e-9);
            for (int i = 0; i < n; i++) {
                double r = 1e-9 * random.nextInt(1, 20);
                ring[2 * i] = clamp(cx + Math.rint(r * Math.cos(angles[i]) * 1e9) * 1e-9, 180);
                ring[2 * i + 1] = clamp(y + Math.rint(r * Math.sin(angles[i]) * 1e9) * 1e-9, 90);
            }
            ring[2 * n] = ring[0];
            ring[2 * n + 1] = ring[1];
            fence[p] = new double[][] {ring};
        }
        return fence;
    }

    private static double clamp(double v, double limit) {
        return Math.max(-limit, Math.min(limit, v));
    }
}
