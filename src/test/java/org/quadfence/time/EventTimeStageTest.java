package org.quadfence.time;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

class EventTimeStageTest {

    private static final int MAX_PARALLELISM = 128;

    /** Records "key@time"; logs what it is handed, and sets a timer at time + 10 for "timer@t". */
    static final class Recorder extends EventTimeStage<String, String, String>
            implements OneInputStreamOperator<String, String> {

        Recorder(int heldLimit) {
            super(Types.STRING, heldLimit);
        }

        @Override
        public void processElement(StreamRecord<String> record) throws Exception {
            String r = record.getValue();
            if (r.startsWith("timer@")) {
                registerTimer(time(r) + 10);
            } else {
                hold(r, time(r));
            }
        }

        @Override
        protected void onTime(long time, List<String> records) {
            emit(time + " " + getCurrentKey() + " " + records, time);
        }

        @Override
        protected void onTimer(long time) {
            if (getCurrentKey().equals("t")) {
                emit(time + " " + getCurrentKey() + " timer", time);
            }
        }

        static long time(String r) {
            return Long.parseLong(r.substring(r.indexOf('@') + 1));
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness(
            int heldLimit, int parallelism, int subtask) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new Recorder(heldLimit),
                r -> r.startsWith("timer@") ? "t" : r.substring(0, r.indexOf('@')),
                Types.STRING,
                MAX_PARALLELISM,
                parallelism,
                subtask);
    }

    private static void feed(
            KeyedOneInputStreamOperatorTestHarness<String, String, String> h, String... records)
            throws Exception {
        for (String r : records) {
            h.processElement(r, Recorder.time(r));
        }
    }

    private static List<String> run(int heldLimit) throws Exception {
        var h = harness(heldLimit, 1, 0);
        h.open();
        feed(h, "b@5", "a@5", "timer@-5", "a@3", "b@5", "c@9");
        h.processWatermark(5);
        feed(h, "a@7", "a@6");
        h.processWatermark(20);
        List<String> out = new ArrayList<>(h.extractOutputValues());
        h.close();
        return out;
    }

    @Test
    void recordsWaitForTheWatermarkAndComeByTimeThenKeyWithTimersFirst() throws Exception {
        assertThat(run(EventTimeStage.HELD_LIMIT))
                .containsExactly(
                        "3 a [a@3]",
                        "5 t timer",
                        "5 a [a@5]",
                        "5 b [b@5, b@5]",
                        "6 a [a@6]",
                        "7 a [a@7]",
                        "9 c [c@9]");
    }

    @Test
    void recordsPastTheLimitWaitInKeyedStateAndComeInTheSameOrderForEachKey() throws Exception {
        assertThat(byKey(run(2))).isEqualTo(byKey(run(EventTimeStage.HELD_LIMIT)));
    }

    private static Map<String, List<String>> byKey(List<String> out) {
        Map<String, List<String>> byKey = new TreeMap<>();
        for (String line : out) {
            byKey.computeIfAbsent(line.split(" ")[1], k -> new ArrayList<>()).add(line);
        }
        return byKey;
    }

    @Test
    void afterTheBacklogDrainsRecordsWaitInMemoryAgain() throws Exception {
        var h = harness(2, 1, 0);
        h.open();
        Recorder stage = (Recorder) h.getOperator();
        feed(h, "a@1", "b@2", "c@3");
        assertThat(stage.waiting()).isEqualTo("0 in memory, 3 times in keyed state");
        h.processWatermark(3);
        feed(h, "a@4");
        assertThat(stage.waiting()).isEqualTo("1 in memory, 0 times in keyed state");
        h.close();
    }

    @Test
    void waitingRecordsSurviveARestoreAtAnotherParallelism() throws Exception {
        for (int limit : new int[] {EventTimeStage.HELD_LIMIT, 3}) {
            var h = harness(limit, 1, 0);
            h.open();
            String[] records = {"a@1", "b@2", "c@3", "d@4", "e@5", "f@6", "g@7", "h@8"};
            feed(h, records);
            OperatorSubtaskState snapshot = h.snapshot(1, 1);
            h.close();

            List<String> restored = new ArrayList<>();
            for (int subtask = 0; subtask < 2; subtask++) {
                var r = harness(limit, 2, subtask);
                r.initializeState(
                        AbstractStreamOperatorTestHarness.repartitionOperatorState(
                                snapshot, MAX_PARALLELISM, 1, 2, subtask));
                r.open();
                r.processWatermark(10);
                assertThat(r.extractOutputValues()).isNotEmpty();
                restored.addAll(r.extractOutputValues());
                r.close();
            }
            assertThat(restored)
                    .containsExactlyInAnyOrder(
                            "1 a [a@1]",
                            "2 b [b@2]",
                            "3 c [c@3]",
                            "4 d [d@4]",
                            "5 e [e@5]",
                            "6 f [f@6]",
                            "7 g [g@7]",
                            "8 h [h@8]");
        }
    }
}
