package org.quadfence.stages;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quadfence.model.CurrentFences;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The entity stage's current fences (contract section 9): one record per change of the set. */
class CurrentFencesTest {

    private KeyedOneInputStreamOperatorTestHarness<String, Membership, SequencedEvent> harness;

    private void open(long ttl, boolean exitOnExpiry) throws Exception {
        harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new MembershipTracker(0, ttl, exitOnExpiry),
                        new StageKeys.EntityKey(),
                        Types.STRING);
        harness.open();
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private void in(String group, long t, double lat, String[] inside, String... near)
            throws Exception {
        harness.processElement(new Membership(group, "e", t, 0, lat, inside, near), t);
    }

    private static String[] fences(String... ids) {
        return ids;
    }

    /** The records of the side output, as "[fences] @time lat", each with its record time. */
    private List<String> current() {
        Queue<StreamRecord<CurrentFences>> out =
                harness.getSideOutput(MembershipTracker.CURRENT_FENCES);
        if (out == null) {
            return List.of();
        }
        return out.stream()
                .map(
                        r -> {
                            CurrentFences c = r.getValue();
                            assertThat(r.getTimestamp()).isEqualTo(c.timestamp());
                            return c.group()
                                    + " "
                                    + Arrays.toString(c.fenceIds())
                                    + " @"
                                    + c.timestamp()
                                    + " "
                                    + c.lat();
                        })
                .collect(Collectors.toList());
    }

    @Test
    void eachChangeOfTheSetGivesOneRecordAndAnUnchangedSetNone() throws Exception {
        open(0, false);
        in(Groups.DEFAULT, 10, 1, fences("A"));
        in(Groups.DEFAULT, 20, 2, fences("A"));
        in(Groups.DEFAULT, 30, 3, fences("A", "B"));
        in(Groups.DEFAULT, 40, 4, fences("B"));
        in(Groups.DEFAULT, 50, 5, fences());
        in(Groups.DEFAULT, 60, 6, fences());
        harness.processWatermark(1000);
        assertThat(current())
                .containsExactly(
                        "default [A] @10 1.0",
                        "default [A, B] @30 3.0",
                        "default [B] @40 4.0",
                        "default [] @50 5.0");
    }

    @Test
    void aFenceKeptByTheExitMarginIsNoChange() throws Exception {
        open(0, false);
        in("fleet", 10, 1, fences("A"));
        in("fleet", 20, 2, fences(), "A");
        in("fleet", 30, 3, fences());
        harness.processWatermark(1000);
        assertThat(current()).containsExactly("fleet [A] @10 1.0", "fleet [] @30 3.0");
    }

    @Test
    void aForgottenEntityGetsAnEmptySetAtItsExpiryWithItsLastPosition() throws Exception {
        open(100, false);
        in(Groups.DEFAULT, 10, 1, fences("A"));
        in(Groups.DEFAULT, 20, 2, fences("A"));
        harness.processWatermark(1000);
        assertThat(current()).containsExactly("default [A] @10 1.0", "default [] @120 2.0");
    }

    @Test
    void aStageWhoseCurrentFencesNobodyReadsEmitsNoneAndTheSameEvents() throws Exception {
        harness =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new MembershipTracker(0, 100, true, false),
                        new StageKeys.EntityKey(),
                        Types.STRING);
        harness.open();
        in(Groups.DEFAULT, 10, 1, fences("A"));
        harness.processWatermark(1000);
        assertThat(current()).isEmpty();
        assertThat(harness.extractOutputValues())
                .extracting(e -> e.event().event() + " " + e.event().fenceId())
                .containsExactly("ENTER A", "EXIT A");
    }

    @Test
    void anEntityInNoFenceIsForgottenWithoutARecord() throws Exception {
        open(100, true);
        in(Groups.DEFAULT, 10, 1, fences());
        harness.processWatermark(1000);
        assertThat(current()).isEmpty();
    }
}
