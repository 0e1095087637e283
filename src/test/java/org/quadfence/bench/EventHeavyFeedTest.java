package org.quadfence.bench;

import org.junit.jupiter.api.Test;
import org.quadfence.io.FenceChangeCodec;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Parsed;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EventHeavyFeedTest {

    @Test
    void fenceRecordsAreKeyedByTheirFenceIdAndStampedWithTheirTime() {
        EventHeavyFeed feed = new EventHeavyFeed(42, 2_000, 500, 30_000);
        FenceChangeCodec codec = new FenceChangeCodec();
        int[] n = new int[2]; // fences at time 0, changes later
        feed.fences(
                2_000,
                1_000_000,
                2_000_000,
                (k, v, ts) -> {
                    Parsed<FenceChange> p = codec.parse(k, v, ts);
                    assertTrue(p.ok(), () -> p.deadLetter() + " of " + text(v));
                    assertEquals(text(k), p.value().fenceId());
                    assertEquals(ts, p.value().timestamp());
                    n[ts == 0 ? 0 : 1]++;
                });
        assertEquals(2_000, n[0]);
        assertEquals(EventHeavyFeed.changes(2_000), n[1]);
    }

    @Test
    void positionRecordsAreKeyedByEntityAndStampedWithTheirEventTime() {
        EventHeavyFeed feed = new EventHeavyFeed(42, 2_000, 500, 30_000);
        int[] n = {0};
        feed.round(
                1_000_000,
                3,
                30_000,
                (k, v, ts) -> {
                    String s = text(v);
                    assertTrue(s.contains("\"entityId\":\"" + text(k) + "\""), s);
                    assertTrue(s.contains("\"timestamp\":" + ts), s);
                    assertTrue(ts >= 1_090_000 && ts < 1_120_000 + BenchWorld.JITTER_MS, s);
                    n[0]++;
                });
        assertEquals(500, n[0]);
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
