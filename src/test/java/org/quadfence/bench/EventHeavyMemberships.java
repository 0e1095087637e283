package org.quadfence.bench;

import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The tile stage's answers for the event-heavy world's positions, made outside Flink for the
 * harness's event path alone (phase {@code eventpath}): for each position, the fences of its group
 * that cover it, by ascending id, from the peer's index ({@link PeerFenceIndex}), with every fence
 * change up to the position's time applied and none after it. Positions come out of order by less
 * than {@link BenchWorld#JITTER_MS}; they wait here until no earlier one can come, and leave in
 * time order, each with its membership.
 */
final class EventHeavyMemberships {

    private final PeerFenceIndex index = new PeerFenceIndex();
    private final PeerJson.Fences fences = new PeerJson.Fences();
    private final PeerJson.Positions positions = new PeerJson.Positions();
    private final ArrayDeque<Change> later = new ArrayDeque<>();
    private final PriorityQueue<Waiting> waiting =
            new PriorityQueue<>(
                    Comparator.comparingLong((Waiting w) -> w.position().timestamp)
                            .thenComparingLong(Waiting::seq));
    private final List<PeerFenceIndex.Entry> hits = new ArrayList<>();
    private long seq;

    private record Change(long time, PeerRecords.Fence fence) {}

    private record Waiting(long seq, byte[] key, PeerRecords.Position position) {}

    /** Where the memberships go, with their position's key and time. */
    interface Out {
        void accept(byte[] key, Membership membership, long timestamp);
    }

    /**
     * Takes a fence record as the harness writes it to the fences topic, with its record time (0:
     * from the beginning); fences come before the positions, their changes in ascending time.
     */
    void fence(byte[] value, long time) {
        PeerRecords.Fence f = parse(fences, value);
        if (f == null) {
            throw new IllegalArgumentException("not a fence: " + new String(value));
        }
        if (time <= 0) {
            apply(f);
        } else {
            later.add(new Change(time, f));
        }
    }

    /**
     * Takes a position record; gives {@code out} the memberships of the positions no later one can
     * precede.
     */
    void position(byte[] key, byte[] value, Out out) {
        PeerRecords.Position p = parse(positions, value);
        if (p == null) {
            throw new IllegalArgumentException("not a position: " + new String(value));
        }
        waiting.add(new Waiting(seq++, key, p));
        while (waiting.peek().position().timestamp < p.timestamp - BenchWorld.JITTER_MS) {
            answer(waiting.poll(), out);
        }
    }

    /** Gives {@code out} the memberships of the positions still waiting. */
    void flush(Out out) {
        while (!waiting.isEmpty()) {
            answer(waiting.poll(), out);
        }
    }

    private void answer(Waiting w, Out out) {
        PeerRecords.Position p = w.position();
        while (!later.isEmpty() && later.peek().time() <= p.timestamp) {
            apply(later.poll().fence());
        }
        index.covering(p.group, p.lon, p.lat, hits);
        String[] ids = new String[hits.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = hits.get(i).fence.fenceId;
        }
        String group = p.group == null ? Groups.DEFAULT : p.group;
        out.accept(
                w.key(),
                new Membership(group, p.entityId, p.timestamp, p.lon, p.lat, ids),
                p.timestamp);
    }

    private static <T> T parse(PeerJson.ObjectParser<T> parser, byte[] value) {
        try {
            return parser.parse(value, 0, value.length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void apply(PeerRecords.Fence f) {
        if (f.deleted) {
            index.delete(f.key());
        } else {
            index.upsert(f);
        }
    }
}
