package org.quadfence.stages;

import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Entity-id churn with {@code entity-ttl}: a fleet whose ids change all the time (each id sends a
 * few positions, in and out of fences, and is never seen again) keeps the entity stage's state,
 * timers and checkpoint size flat. Short here; {@code -Dsoak.windows=2000} runs it longer (see
 * docs/soak.md).
 */
class EntityChurnSoakTest {

    private static final long TTL = 10_000;
    private static final int ENTITIES_PER_WINDOW = 500;
    private static final long WINDOW_MS = 5_000;

    @Test
    void stateTimersAndCheckpointSizeStayFlatWhileEntityIdsChurn() throws Exception {
        int windows = Integer.getInteger("soak.windows", 60);
        List<long[]> samples = new ArrayList<>();
        try (KeyedOneInputStreamOperatorTestHarness<String, Membership, SequencedEvent> harness =
                StageTestBase.membershipTracker(2_000, TTL, true)) {
            harness.open();
            for (int w = 0; w < windows; w++) {
                long start = w * WINDOW_MS;
                for (int e = 0; e < ENTITIES_PER_WINDOW; e++) {
                    String id = "w" + w + "-e" + e;
                    for (int k = 0; k < 4; k++) {
                        long t = start + e + k * 1_000L;
                        String[] fences = k % 2 == 0 ? new String[] {"A", "B"} : new String[0];
                        if (e % 3 == 0) {
                            fences = new String[] {"C"};
                        }
                        harness.processElement(
                                new Membership(Groups.DEFAULT, id, t, 1, 2, fences), t);
                    }
                }
                harness.processWatermark(start + WINDOW_MS - 1);
                harness.getOutput().clear();
                OperatorSubtaskState snapshot = harness.snapshot(w, w);
                samples.add(
                        new long[] {
                            harness.numKeyedStateEntries(),
                            harness.numEventTimeTimers(),
                            snapshot.getStateSize()
                        });
            }
        }
        // After the first ttl has passed, every window looks like the one before it.
        long[] settled = samples.get(5);
        long[] last = samples.get(samples.size() - 1);
        System.out.printf(
                "entity churn soak, %d windows of %d new entities: keyed state entries %d -> %d,"
                        + " timers %d -> %d, checkpoint bytes %d -> %d%n",
                windows,
                ENTITIES_PER_WINDOW,
                settled[0],
                last[0],
                settled[1],
                last[1],
                settled[2],
                last[2]);
        for (int i = 0; i < 3; i++) {
            assertThat(last[i])
                    .as("measure %d", i)
                    .isLessThanOrEqualTo(settled[i] + settled[i] / 10);
        }
        // Bounded by the entities of the last ttl: at most three windows of them.
        assertThat(last[1]).isLessThanOrEqualTo(3L * ENTITIES_PER_WINDOW);
    }
}
