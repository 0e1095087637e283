package org.quadfence.bench;

import org.junit.jupiter.api.Test;
import org.quadfence.bench.PeerRecords.Fence;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The peer's fence index answers as the contract says (closed shapes, haversine circles, holes, the
 * antimeridian, groups), before and after its lazy rebuilds. Run with {@code mvn -B -ntp test
 * -Dtest='Peer*Test'} (the bench package is left out of the default test run).
 */
class PeerFenceIndexTest {

    private static final double EARTH_RADIUS_METERS = 6_371_008.8;

    private final PeerJson.Fences parser = new PeerJson.Fences();
    private final PeerFenceIndex index = new PeerFenceIndex();

    @Test
    void rectanglesAreClosedAndMayCrossTheAntimeridian() throws IOException {
        add("{\"fenceId\":\"r\",\"rect\":[10,20,11,21]}");
        add("{\"fenceId\":\"am\",\"rect\":[170,-10,-170,10]}");
        assertThat(ids(null, 10, 20)).containsExactly("r");
        assertThat(ids(null, 11, 21)).containsExactly("r");
        assertThat(ids(null, 11.000001, 21)).isEmpty();
        assertThat(ids(null, 179.5, 0)).containsExactly("am");
        assertThat(ids(null, -175, 10)).containsExactly("am");
        assertThat(ids(null, 0, 0)).isEmpty();
    }

    @Test
    void circlesTakeTheHaversineDistance() throws IOException {
        add("{\"fenceId\":\"c\",\"circle\":{\"lon\":10,\"lat\":50,\"radiusMeters\":1000}}");
        // Due north the haversine distance is R times the latitude step.
        assertThat(ids(null, 10, 50 + Math.toDegrees(999.9 / EARTH_RADIUS_METERS)))
                .containsExactly("c");
        assertThat(ids(null, 10, 50 + Math.toDegrees(1000.1 / EARTH_RADIUS_METERS))).isEmpty();
    }

    @Test
    void polygonsCoverTheirBoundaryButNotTheirHoles() throws IOException {
        add(
                "{\"type\":\"Feature\",\"id\":7,\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
                        + "[[[0,0],[4,0],[4,4],[0,4],[0,0]],[[1,1],[1,3],[3,3],[3,1],[1,1]]]}}");
        assertThat(ids(null, 0.5, 0.5)).containsExactly("7");
        assertThat(ids(null, 4, 2)).containsExactly("7");
        assertThat(ids(null, 1, 2)).containsExactly("7");
        assertThat(ids(null, 2, 2)).isEmpty();
    }

    @Test
    void aPositionMeetsOnlyTheFencesOfItsGroupInAscendingId() throws IOException {
        add("{\"fenceId\":\"b\",\"rect\":[0,0,1,1]}");
        add("{\"fenceId\":\"a\",\"rect\":[0,0,1,1]}");
        add("{\"fenceId\":\"a\",\"rect\":[0,0,1,1],\"group\":\"g\"}");
        add("{\"fenceId\":\"d\",\"rect\":[0,0,1,1],\"group\":\"default\"}");
        assertThat(ids(null, 0.5, 0.5)).containsExactly("a", "b", "d");
        assertThat(ids("g", 0.5, 0.5)).containsExactly("a");
    }

    @Test
    void changesAfterABuildCountAtOnceAndRebuildsKeepThem() throws IOException {
        for (int i = 0; i < 100; i++) {
            add("{\"fenceId\":\"f" + i + "\",\"rect\":[" + i + ",0," + i + ".5,1]}");
        }
        for (int i = 0; i < 100_000 && index.builds() == 0; i++) {
            ids(null, 3.2, 0.5);
        }
        assertThat(index.builds()).isEqualTo(1);
        add("{\"fenceId\":\"f3\",\"rect\":[50,0,50.5,1]}");
        add("{\"fenceId\":\"f4\",\"deleted\":true}");
        assertThat(ids(null, 3.2, 0.5)).isEmpty();
        assertThat(ids(null, 50.2, 0.5)).containsExactly("f3", "f50");
        assertThat(ids(null, 4.2, 0.5)).isEmpty();
        for (int i = 0; i < 100_000 && index.builds() == 1; i++) {
            ids(null, 0.2, 0.5);
        }
        assertThat(index.builds()).isEqualTo(2);
        assertThat(ids(null, 50.2, 0.5)).containsExactly("f3", "f50");
        assertThat(ids(null, 3.2, 0.5)).isEmpty();
        assertThat(ids(null, 4.2, 0.5)).isEmpty();
    }

    private void add(String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        Fence f = parser.parse(bytes, 0, bytes.length);
        assertThat(f).as(line).isNotNull();
        if (f.deleted) {
            index.delete(f.key());
        } else {
            assertThat(index.upsert(f)).isTrue();
        }
    }

    private List<String> ids(String group, double lon, double lat) {
        List<PeerFenceIndex.Entry> hits = new ArrayList<>();
        index.covering(group, lon, lat, hits);
        List<String> ids = new ArrayList<>();
        hits.forEach(e -> ids.add(e.fence.fenceId));
        return ids;
    }
}
