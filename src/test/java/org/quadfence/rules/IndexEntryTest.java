package org.quadfence.rules;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class IndexEntryTest {

    @Test
    void idsAreTheDistinctFenceIdsAscendingForFewAndForManyHits() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            int n = random.nextInt(round % 2 == 0 ? 8 : 60);
            List<IndexEntry> hits = new ArrayList<>();
            TreeSet<String> expected = new TreeSet<>();
            for (int i = 0; i < n; i++) {
                String id = "f-" + random.nextInt(n + 3);
                Box[] boxes = {new Box(0, 0, 1, 1), new Box(1, 0, 2, 1)};
                IndexEntry.of(id, Boxes.of(boxes), null, (entry, box) -> hits.add(entry));
                expected.add(id);
            }
            assertThat(IndexEntry.ids(hits)).containsExactlyElementsOf(expected);
        }
    }
}
