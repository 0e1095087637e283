package org.quadfence.bench;

import org.junit.jupiter.api.Test;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DispatchZonesTest {

    @Test
    void everyChangeIsAValidFenceChangeAndDeletesOnlyZonesThatExist() {
        DispatchZones zones = new DispatchZones(42, 500);
        FenceChangeCodec codec = new FenceChangeCodec();
        Set<String> live = new HashSet<>();
        int[] counts = new int[3]; // deletes, upserts, most vertices
        int[] fewest = {Integer.MAX_VALUE};
        for (int i = 0; i < 2_000; i++) {
            zones.next(
                    1_000_000L + 2L * i,
                    (k, v, ts) -> {
                        Parsed<FenceChange> p = codec.parse(k, v, ts);
                        assertTrue(p.ok(), () -> p.deadLetter() + " of " + text(v));
                        assertNull(p.notice(), () -> "repaired: " + text(v));
                        FenceChange c = p.value();
                        assertEquals(ts, c.timestamp());
                        if (c.isDelete()) {
                            assertTrue(live.remove(c.fenceId()), c.fenceId() + " deleted");
                            counts[0]++;
                        } else {
                            live.add(c.fenceId());
                            counts[1]++;
                            int n = text(v).split("\\],\\[").length; // closing vertex included
                            counts[2] = Math.max(counts[2], n - 1);
                            fewest[0] = Math.min(fewest[0], n - 1);
                        }
                    });
        }
        assertEquals(live.size(), zones.live());
        assertTrue(counts[0] > 120 && counts[0] < 280, counts[0] + " deletes of 2,000");
        assertTrue(fewest[0] >= 20 && counts[2] <= 200, fewest[0] + " to " + counts[2]);
    }

    private static String text(byte[] v) {
        return new String(v, StandardCharsets.UTF_8);
    }
}
