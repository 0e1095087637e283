package org.quadfence.io;

import org.quadfence.model.AttributeMatch;
import org.quadfence.model.DeadLetter;
import org.quadfence.model.FenceChange;
import org.quadfence.model.FenceRules;
import org.quadfence.model.Groups;
import org.quadfence.model.Parsed;
import org.quadfence.model.Position;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The rules of the JSON codecs for records that arrive as objects, from a user's own stream: a
 * position or fence change that breaks one becomes the dead letter the JSON reader would give, with
 * the record's text as {@code raw}. A null group is the default group; a position's attributes are
 * kept as an unmodifiable sorted copy, as the reader makes them.
 */
public final class RecordChecks implements Serializable {

    private static final long serialVersionUID = 1L;

    private final InputRules rules;

    public RecordChecks(InputRules rules) {
        this.rules = rules;
    }

    /** {@code p} if it keeps contract sections 1 and 11 and the rules, else its dead letter. */
    public Parsed<Position> check(Position p) {
        try {
            id(p.entityId(), "entityId");
            coordinate(p.lon(), "lon", 180);
            coordinate(p.lat(), "lat", 90);
            eventTime(p.timestamp());
            if (!(p.accuracy() >= 0 && p.accuracy() <= Limits.MAX_ACCURACY_METERS)) {
                throw new BadRecord(PositionCodec.accuracyRule() + p.accuracy());
            }
            Position checked = p.group() != null ? p : p.inGroup(Groups.DEFAULT);
            if (p.attributes() != null) {
                checked =
                        new Position(
                                p.entityId(),
                                p.lon(),
                                p.lat(),
                                p.timestamp(),
                                checked.group(),
                                p.accuracy(),
                                attributes(p.attributes()));
            }
            return Parsed.of(checked);
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
            if (!c.isDelete()) {
                rules(c.rules());
            }
            return Parsed.of(c.group() != null ? c : c.inGroup(Groups.DEFAULT));
        } catch (BadRecord e) {
            return failed(DeadLetter.FENCES, e, c);
        }
    }

    private static Map<String, String> attributes(Map<String, String> attributes) {
        if (attributes.size() > Limits.MAX_ATTRIBUTES) {
            throw new BadRecord(PositionCodec.attributesRule() + attributes.size() + " names");
        }
        TreeMap<String, String> copy = new TreeMap<>();
        for (Map.Entry<String, String> e : attributes.entrySet()) {
            if (e.getKey() == null || e.getValue() == null) {
                throw new BadRecord(
                        PositionCodec.attributesRule()
                                + (e.getKey() == null
                                        ? "a null name"
                                        : "null for " + Json.quote(e.getKey())));
            }
            copy.put(e.getKey(), e.getValue());
        }
        PositionCodec.checkAttributesSize(copy);
        return Collections.unmodifiableSortedMap(copy);
    }

    /** The rules of contract section 11 that the types of {@link FenceRules} do not keep. */
    private static void rules(FenceRules r) {
        ms(r.dwellMs(), "dwellMs", FenceRules.JOB_DWELL);
        ms(r.enterAfterMs(), "enterAfterMs", 0);
        ms(r.exitAfterMs(), "exitAfterMs", 0);
        double margin = r.exitMarginMeters();
        if (!Double.isNaN(margin) && !(margin >= 0 && margin <= Limits.MAX_EXIT_MARGIN_METERS)) {
            throw new BadRecord(FenceRulesCodec.marginRule() + margin);
        }
        if (r.validUntil() != FenceRules.NO_END
                && (r.validUntil() < Timestamps.MIN || r.validUntil() > Timestamps.MAX)) {
            throw new BadRecord(FenceRulesCodec.validUntilRule() + r.validUntil());
        }
        if (r.schedule() != null) {
            FenceRulesCodec.checkZone(r.schedule().zone().getId());
        }
        AttributeMatch match = r.match();
        if (match != null) {
            if (match.allowed().size() > Limits.MAX_MATCH_NAMES) {
                throw new BadRecord(
                        FenceRulesCodec.matchRule() + match.allowed().size() + " names");
            }
            for (Map.Entry<String, Set<String>> e : match.allowed().entrySet()) {
                if (e.getValue().size() > Limits.MAX_MATCH_VALUES) {
                    throw new BadRecord(
                            FenceRulesCodec.matchValuesRule(e.getKey())
                                    + e.getValue().size()
                                    + " strings");
                }
            }
        }
    }

    /** A time of the rules: {@code absent}, or 0 to {@link Limits#MAX_RULE_MS}. */
    private static void ms(long ms, String name, long absent) {
        if (ms != absent && (ms < 0 || ms > Limits.MAX_RULE_MS)) {
            throw new BadRecord(FenceRulesCodec.msRule(name) + ms);
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
