package org.quadfence.bench;

import org.apache.flink.util.Collector;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.quadfence.model.Membership;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The harness's memberships for the event path alone answer as the tile stage does: the fences of
 * the position's group in force at its time, by ascending id, and they read back unchanged from
 * their Kafka record bytes. Run with {@code mvn -B -ntp test -Dtest=EventHeavyMembershipsTest} (the
 * bench package is left out of the default test run).
 */
class EventHeavyMembershipsTest {

    private final EventHeavyMemberships answers = new EventHeavyMemberships();

    @Test
    void aPositionGetsTheFencesOfItsGroupThatCoverItByAscendingId() {
        fence("{\"fenceId\":\"b\",\"rect\":[0,0,2,2]}", 0);
        fence("{\"fenceId\":\"a\",\"rect\":[1,1,3,3]}", 0);
        fence("{\"fenceId\":\"g\",\"rect\":[0,0,3,3],\"group\":\"fleet-b\"}", 0);

        Membership m = position("{\"entityId\":\"e\",\"lon\":1.5,\"lat\":1.5,\"timestamp\":10}");

        assertThat(m.fenceIds()).containsExactly("a", "b");
        assertThat(m.group()).isEqualTo("default");
        assertThat(m.entityId()).isEqualTo("e");
        assertThat(m.timestamp()).isEqualTo(10);
        assertThat(
                        position(
                                        "{\"entityId\":\"f\",\"lon\":1.5,\"lat\":1.5,\"timestamp\":10,"
                                            + "\"group\":\"fleet-b\"}")
                                .fenceIds())
                .containsExactly("g");
    }

    @Test
    void aFenceChangeHoldsFromItsTimeOn() {
        fence("{\"fenceId\":\"a\",\"rect\":[0,0,1,1]}", 0);
        fence("{\"fenceId\":\"a\",\"deleted\":true,\"timestamp\":1000}", 1000);
        fence("{\"fenceId\":\"n\",\"rect\":[0,0,1,1],\"timestamp\":2000}", 2000);

        assertThat(at(999)).containsExactly("a");
        assertThat(at(1000)).isEmpty();
        assertThat(at(1999)).isEmpty();
        assertThat(at(2000)).containsExactly("n");
    }

    @Test
    void positionsLeaveInTimeOrderOnceNoEarlierOneCanCome() {
        fence("{\"fenceId\":\"a\",\"rect\":[0,0,1,1]}", 0);
        fence("{\"fenceId\":\"n\",\"rect\":[0,0,1,1],\"timestamp\":1000}", 1000);
        List<Membership> out = new ArrayList<>();
        EventHeavyMemberships.Out collect = (k, m, t) -> out.add(m);

        answers.position(new byte[0], position(1001), collect);
        answers.position(new byte[0], position(999), collect);
        assertThat(out).isEmpty();
        answers.position(new byte[0], position(1002 + BenchWorld.JITTER_MS), collect);

        assertThat(out).extracting(Membership::timestamp).containsExactly(999L, 1001L);
        assertThat(out.get(0).fenceIds()).containsExactly("a");
        assertThat(out.get(1).fenceIds()).containsExactly("a", "n");
        answers.flush(collect);
        assertThat(out).extracting(Membership::timestamp).endsWith(1002L + BenchWorld.JITTER_MS);
    }

    @Test
    void aMembershipReadsBackFromItsRecordBytesUnchanged() throws Exception {
        fence("{\"fenceId\":\"a\",\"rect\":[0,0,1,1]}", 0);
        Membership m = position("{\"entityId\":\"e\",\"lon\":0.25,\"lat\":0.75,\"timestamp\":7}");
        MembershipRecords records = new MembershipRecords();
        records.open(null);
        List<Membership> out = new ArrayList<>();

        records.deserialize(
                new ConsumerRecord<>("memberships", 0, 0, new byte[0], MembershipRecords.bytes(m)),
                new Collector<>() {
                    @Override
                    public void collect(Membership record) {
                        out.add(record);
                    }

                    @Override
                    public void close() {}
                });

        assertThat(out).hasSize(1);
        Membership back = out.get(0);
        assertThat(back.fenceIds()).containsExactly("a");
        assertThat(back).usingRecursiveComparison().isEqualTo(m);
    }

    private String[] at(long t) {
        return answer(position(t)).fenceIds();
    }

    private static byte[] position(long t) {
        return ("{\"entityId\":\"e\",\"lon\":0.5,\"lat\":0.5,\"timestamp\":" + t + "}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private void fence(String json, long time) {
        answers.fence(json.getBytes(StandardCharsets.UTF_8), time);
    }

    private Membership position(String json) {
        return answer(json.getBytes(StandardCharsets.UTF_8));
    }

    /** The membership of one position alone, all earlier ones answered. */
    private Membership answer(byte[] value) {
        List<Membership> out = new ArrayList<>();
        answers.position(new byte[0], value, (k, m, t) -> out.add(m));
        answers.flush((k, m, t) -> out.add(m));
        return out.get(out.size() - 1);
    }
}
