package org.quadfence.time;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Records come out of the wait as a stable sort of all of them would hand them over. */
class WaitingRecordsTest {

    /** A record: its time, a key, and its place in arrival order. */
    private record Rec(long time, int key, int arrival) {}

    private static final Comparator<Rec> DUE_ORDER =
            Comparator.comparingLong(Rec::time).thenComparingInt(Rec::key);

    @Test
    void eachWatermarkTakesExactlyTheDueRecordsInTimeKeyAndArrivalOrder() {
        Random random = new Random(42);
        for (int round = 0; round < 200; round++) {
            WaitingRecords<Rec> waiting = new WaitingRecords<>(DUE_ORDER, Rec::time);
            List<Rec> reference = new ArrayList<>();
            long watermark = 0;
            int arrival = 0;
            for (int step = 0; step < 30; step++) {
                int arriving = random.nextInt(40);
                for (int i = 0; i < arriving; i++) {
                    // Out of order by up to 20 behind the watermark's next step, few keys: ties.
                    Rec r =
                            new Rec(
                                    watermark + 1 + random.nextInt(25),
                                    random.nextInt(3),
                                    arrival++);
                    waiting.add(r);
                    reference.add(r);
                }
                assertThat(waiting.size()).isEqualTo(reference.size());
                watermark += random.nextInt(12);
                List<Rec> due = new ArrayList<>();
                waiting.takeDue(watermark, due);

                long mark = watermark;
                List<Rec> expected =
                        new ArrayList<>(reference.stream().filter(r -> r.time() <= mark).toList());
                expected.sort(DUE_ORDER.thenComparingInt(Rec::arrival));
                reference.removeIf(r -> r.time() <= mark);
                assertThat(due).containsExactlyElementsOf(expected);
                assertThat(waiting.size()).isEqualTo(reference.size());
                assertThat(waiting.minTime())
                        .isEqualTo(
                                reference.stream()
                                        .mapToLong(Rec::time)
                                        .min()
                                        .orElse(Long.MAX_VALUE));
                List<Rec> left = new ArrayList<>();
                waiting.forEach(left::add);
                assertThat(left).containsExactlyInAnyOrderElementsOf(reference);
            }
        }
    }

    @Test
    void clearLeavesNothingWaiting() {
        WaitingRecords<Rec> waiting = new WaitingRecords<>(DUE_ORDER, Rec::time);
        waiting.add(new Rec(5, 0, 0));
        waiting.takeDue(1, new ArrayList<>());
        waiting.add(new Rec(3, 0, 1));
        waiting.clear();
        assertThat(waiting.isEmpty()).isTrue();
        assertThat(waiting.minTime()).isEqualTo(Long.MAX_VALUE);
        List<Rec> due = new ArrayList<>();
        waiting.takeDue(Long.MAX_VALUE, due);
        assertThat(due).isEmpty();
    }
}
