package org.quadfence.io;

import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.Groups;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.io.Serializable;

/**
 * The rules of the JSON codecs for records that arrive as objects, from a user's own stream: a
 * position or fence change that breaks one becomes the dead letter the JSON reader would give, with
 * the record's text as {@code raw}. A null group is the default group.
 */
public final class RecordChecks implements Serializable {

    private static final long serialVersionUID = 1L;

    private final InputRules rules;

    public RecordChecks(InputRules rules) {
        this.rules = rules;
    }

    /** {@code p} if it keeps contract section 1 and the rules, else its dead letter. */
    public Parsed<Position> check(Position p) {
        try {
            id(p.entityId(), "entityId");
            coordinate(p.lon(), "lon", 180);
            coordinate(p.lat(), "lat", 90);
            eventTime(p.timestamp());
            return Parsed.of(
                    p.group() != null
                            ? p
                            : new Position(p.entityId(), p.lon(), p.lat(), p.timestamp()));
        } catch (BadRecord e) {
            return failed(DeadLetter.POSITIONS, e, p);
        }
    }

    /** {@code c} if it keeps contract sections 2 and 6 and the rules, else its dead letter. */
    public Parsed<FenceChange> check(FenceChange c) {
        try {
            id(c.fenceId(), "fenceId");
            if (c.timestamp() != Long.MIN_VALUE) {
                eventTime(c.timestamp());
            }
            if (c.polygons() != null) {
                long vertices = 0;
                for (double[][] ring : c.polygons()) {
                    vertices += ring.length;
                }
                if (vertices > rules.maxVertices()) {
                    throw new BadRecord(
                            "polygon has "
                                    + vertices
                                    + " vertices, more than max-vertices ("
                                    + rules.maxVertices()
                                    + ")");
                }
            }
            return Parsed.of(c.group() != null ? c : c.inGroup(Groups.DEFAULT));
        } catch (BadRecord e) {
            return failed(DeadLetter.FENCES, e, c);
        }
    }

    private static <T> Parsed<T> failed(String input, BadRecord e, Object record) {
        return Parsed.failed(
                new DeadLetter(
                        input,
                        e.getMessage(),
                        DeadLetterCodec.cut(String.valueOf(record), Limits.MAX_RAW_CHARS)));
    }

    private static void id(String id, String name) {
        if (id == null || id.isEmpty() || id.codePointCount(0, id.length()) > Limits.MAX_ID_CHARS) {
            throw new BadRecord(
                    name
                            + " must be a string of 1 to "
                            + Limits.MAX_ID_CHARS
                            + " characters, got "
                            + (id == null ? "null" : id.length() + " UTF-16 units"));
        }
    }

    private static void coordinate(double v, String name, int bound) {
        if (!(v >= -bound && v <= bound)) {
            throw new BadRecord(name + " out of range [-" + bound + ", " + bound + "]: " + v);
        }
    }

    private void eventTime(long t) {
        if (t < 0 || t > Timestamps.MAX) {
            throw new BadRecord("timestamp out of range [0, " + Timestamps.MAX + "]: " + t);
        }
        rules.checkFuture(t);
    }
}
