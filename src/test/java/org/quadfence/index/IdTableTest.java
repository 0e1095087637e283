package org.quadfence.index;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class IdTableTest {

    /** An id whose hash codes collide often, so that probe runs wrap and deletions shift them. */
    private record Key(int value) {
        @Override
        public int hashCode() {
            return value % 7;
        }
    }

    @Test
    void randomPutsAndRemovesAgreeWithAHashMap() {
        Random rnd = new Random(5);
        IdTable table = new IdTable(0);
        Map<Object, Integer> model = new HashMap<>();
        List<Object> seen = new ArrayList<>();
        for (int op = 0; op < 200_000; op++) {
            Object id =
                    rnd.nextInt(3) == 0 || seen.isEmpty()
                            ? (rnd.nextBoolean() ? new Key(rnd.nextInt(500)) : rnd.nextInt(5000))
                            : seen.get(rnd.nextInt(seen.size()));
            int kind = rnd.nextInt(10);
            if (kind < 5) {
                int v = rnd.nextInt(1000);
                table.put(id, v);
                model.put(id, v);
                seen.add(id);
            } else if (kind < 8) {
                assertThat(table.remove(id)).isEqualTo(model.remove(id) != null);
            } else {
                assertThat(table.get(id)).isEqualTo(model.getOrDefault(id, IdTable.ABSENT));
            }
            assertThat(table.size()).isEqualTo(model.size());
        }
        for (Object id : seen) {
            assertThat(table.get(id)).isEqualTo(model.getOrDefault(id, IdTable.ABSENT));
        }
    }

    @Test
    void anEqualIdFindsTheStoredOneAndClearEmptiesTheTable() {
        IdTable table = new IdTable(3);
        table.put(new String("a"), 1);
        table.put("b", 2);
        assertThat(table.get("a")).isEqualTo(1);
        table.put("a", 3);
        assertThat(table.size()).isEqualTo(2);
        assertThat(table.get(new String("a"))).isEqualTo(3);
        table.clear();
        assertThat(table.size()).isZero();
        assertThat(table.get("b")).isEqualTo(IdTable.ABSENT);
    }
}
