package org.quadfence.stages;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.runtime.state.FunctionInitializationContext;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The job options a stage's state was built with, kept in its checkpoints: a restore with other
 * values would find fences in the wrong tiles (and timers of tiles that no longer exist), so it is
 * refused with a message that names the option, and without restarts, so the job does not loop.
 */
public final class StateOptions {

    /** The layout of this version's state. */
    public static final String FORMAT = "9";

    /**
     * The formats this version restores: the stable ones (7 on, docs/operations.md, "Upgrades"),
     * each read and migrated to {@link #FORMAT}; earlier ones are refused.
     */
    public static final Set<String> READABLE = Set.of("7", "8", "9");

    private StateOptions() {}

    /**
     * Records {@code options} in the operator state, after checking that a restored state has the
     * same values.
     *
     * @throws SuppressRestartsException when a restored value differs
     */
    static void check(FunctionInitializationContext context, Map<String, String> options)
            throws Exception {
        check(context, options, Map.of());
    }

    /**
     * As {@link #check(FunctionInitializationContext, Map)}, for options that came after state
     * format 7 too: {@code later} holds each such option's value in state written without it (the
     * value that keeps the state as it was). An option at that value is not recorded, so that the
     * state stays as earlier versions wrote it; any other value is, and is checked.
     */
    static void check(
            FunctionInitializationContext context,
            Map<String, String> options,
            Map<String, String> later)
            throws Exception {
        ListState<String> stored =
                context.getOperatorStateStore()
                        .getUnionListState(
                                new ListStateDescriptor<>("state-options", Types.STRING));
        Map<String, String> all = new TreeMap<>(options);
        all.put("state-format", FORMAT);
        if (context.isRestored()) {
            boolean any = false;
            Map<String, String> laterThen = new TreeMap<>(later);
            for (String entry : stored.get()) {
                int at = entry.indexOf('=');
                if (later.containsKey(entry.substring(0, at))) {
                    laterThen.put(entry.substring(0, at), entry.substring(at + 1));
                }
            }
            for (var e : laterThen.entrySet()) {
                String now = all.get(e.getKey());
                if (now != null && !now.equals(e.getValue())) {
                    throw new SuppressRestartsException(
                            new IllegalStateException(message(e.getKey(), e.getValue(), now)));
                }
            }
            for (String entry : stored.get()) {
                any |=
                        entry.startsWith("state-format=")
                                && READABLE.contains(entry.substring("state-format=".length()));
                int eq = entry.indexOf('=');
                String key = entry.substring(0, eq);
                String then = entry.substring(eq + 1);
                String now = all.get(key);
                if (now != null && !now.equals(then) && !key.equals("state-format")) {
                    throw new SuppressRestartsException(
                            new IllegalStateException(message(key, then, now)));
                }
            }
            if (!any) {
                throw new SuppressRestartsException(
                        new IllegalStateException(
                                "cannot restore: the checkpoint or savepoint was written by an"
                                        + " earlier quadfence, whose state format this version"
                                        + " does not read (state format "
                                        + FORMAT
                                        + "); start without it (./quadfence run --fresh): the"
                                        + " fences topic is read again from its beginning"));
            }
        }
        List<String> entries = new ArrayList<>();
        all.forEach(
                (k, v) -> {
                    if (!v.equals(later.get(k))) {
                        entries.add(k + "=" + v);
                    }
                });
        stored.update(entries);
    }

    private static String message(String key, String then, String now) {
        return "cannot restore: the checkpoint or savepoint was taken with "
                + key
                + " "
                + then
                + " and the job now has "
                + key
                + " "
                + now
                + switch (key) {
                    case "crossing" -> "; the records waiting in the tile stages depend on it.";
                    case "max-backlog" -> "; the entity stage's timers depend on it.";
                    default -> "; the fences' tiles depend on it.";
                }
                + " Restore with "
                + key
                + " "
                + then
                + ", or start without the checkpoint (./quadfence run --fresh)";
    }
}
