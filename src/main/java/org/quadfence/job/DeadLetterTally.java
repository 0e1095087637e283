package org.quadfence.job;

import org.apache.flink.api.common.accumulators.Accumulator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

import org.quadfence.model.DeadLetter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Counts the records on the way to the dead-letter output by input and reason, as one Flink
 * accumulator, so that {@code ./quadfence replay} ends with how many fences were repaired and how
 * many records are dead letters, and why ({@link #summary}), and {@code ./quadfence run} says so as
 * it goes ({@link #statusLine}). A reason is the error without what is particular to the record
 * (numbers, positions, quoted text): {@code "record too large"}, {@code "late"}, {@code "longitude
 * step over 180"}. At most {@link #MOST_REASONS} reasons are told apart; the rest count as {@code
 * "other"}, so the accumulator stays small whatever the input.
 */
public final class DeadLetterTally extends RichMapFunction<DeadLetter, DeadLetter> {

    private static final long serialVersionUID = 1L;

    /** The accumulator's name. */
    public static final String ACCUMULATOR = "dead-letters-by-reason";

    /** The most reasons counted apart. */
    static final int MOST_REASONS = 64;

    // Keys of the accumulator: what, a tab, the reason; what is the input, or REPAIRED.
    private static final String REPAIRED = "repaired";

    private static final Pattern RING = Pattern.compile("\\bring \\d+ of polygon \\d+");
    private static final Pattern POLYGON = Pattern.compile("\\bpolygon \\d+");
    private static final Pattern ONE_WORD = Pattern.compile("[A-Za-z-]+");

    // Words a reason does not end with once what follows them is cut.
    private static final List<String> TRAILING =
            List.of(
                    "at",
                    "near",
                    "of",
                    "in",
                    "got",
                    "between",
                    "and",
                    "than",
                    "with",
                    "to",
                    "from",
                    "the",
                    "a",
                    "an",
                    "is",
                    "has",
                    "by",
                    "for",
                    "position",
                    "positions",
                    "point");

    private transient Counts counts;

    @Override
    public void open(OpenContext openContext) {
        Object existing = getRuntimeContext().getAccumulator(ACCUMULATOR);
        if (existing instanceof Counts c) {
            counts = c;
        } else {
            counts = new Counts();
            getRuntimeContext().addAccumulator(ACCUMULATOR, counts);
        }
    }

    @Override
    public DeadLetter map(DeadLetter d) {
        counts.add(key(d));
        return d;
    }

    /** The accumulator key of a dead letter: its input (or "repaired"), a tab, its reason. */
    static String key(DeadLetter d) {
        String error = d.error() == null ? "" : d.error();
        if (d.repaired()) {
            return REPAIRED
                    + "\t"
                    + reason(
                            error.startsWith(DeadLetter.REPAIRED)
                                    ? error.substring(DeadLetter.REPAIRED.length())
                                    : error);
        }
        return d.input() + "\t" + reason(error);
    }

    /**
     * The reason of a dead letter's error: the error up to what is particular to the record, such
     * as "record too large", "late", "lat out of range", "longitude step over 180"; with " (not
     * repaired)" when {@code fence-repair make-valid} could not repair it.
     */
    public static String reason(String error) {
        String e = error.strip();
        for (String marker :
                new String[] {"; fence-repair make-valid", " (fence-repair make-valid"}) {
            int at = e.indexOf(marker);
            if (at > 0) {
                return reason(e.substring(0, at)) + " (not repaired)";
            }
        }
        if (e.contains("longitude step over 180")) {
            return "longitude step over 180";
        }
        if (e.contains("max-vertices") || e.contains("vertices, more than the limit")) {
            return "more vertices than max-vertices";
        }
        if (e.contains(" is not closed")) {
            return "unclosed ring";
        }
        if (e.contains("a ring needs at least 4")) {
            return "ring of fewer than 4 positions";
        }
        if (e.contains("fewer than 3 distinct positions")) {
            return "ring of fewer than 3 distinct positions";
        }
        int colon = e.indexOf(':');
        if (colon > 0 && ONE_WORD.matcher(e.substring(0, colon)).matches()) {
            return e.substring(0, colon);
        }
        e = POLYGON.matcher(RING.matcher(e).replaceAll("a ring")).replaceAll("a polygon");
        int cut = e.length();
        for (int i = 0; i < e.length(); i++) {
            char c = e.charAt(i);
            if (Character.isDigit(c) || c == '[' || c == '"' || c == '{' || c == '\'' || c == ';') {
                cut = i;
                break;
            }
        }
        String r = trim(e.substring(0, cut));
        if (r.length() > 60) {
            int at = r.indexOf(':');
            r = trim(at > 0 && at <= 60 ? r.substring(0, at) : r.substring(0, 60));
        }
        return r.isEmpty() ? "other" : r;
    }

    // Without trailing punctuation and the words that led to what was cut.
    private static String trim(String s) {
        String r = s;
        while (true) {
            String before = r;
            r = r.replaceAll("[\\s:,;(\\-.=]+$", "");
            int space = r.lastIndexOf(' ');
            if (space > 0 && TRAILING.contains(r.substring(space + 1).toLowerCase(Locale.ROOT))) {
                r = r.substring(0, space);
            }
            if (r.equals(before)) {
                return r;
            }
        }
    }

    /**
     * The lines {@code ./quadfence replay} ends with: the fences repaired, then the dead letters,
     * each with its count per reason (input and reason for dead letters), most frequent first; none
     * when the accumulator is absent.
     *
     * @param accumulators a job's accumulators; others than this one are ignored
     * @param where where the dead letters went, for the reader: a file name
     */
    public static List<String> summary(Map<String, Object> accumulators, String where) {
        Map<String, Long> all = counts(accumulators);
        List<String> lines = new ArrayList<>();
        if (all == null) {
            return lines;
        }
        Map<String, Long> repaired = part(all, true);
        Map<String, Long> dead = part(all, false);
        long repairedTotal = total(repaired);
        long deadTotal = total(dead);
        if (repairedTotal > 0) {
            lines.add(
                    "fences repaired (fence-repair make-valid): "
                            + repairedTotal
                            + ", reported in "
                            + where
                            + " with \"repaired\":true");
            sorted(repaired).forEach(e -> lines.add("  " + e.getKey() + ": " + e.getValue()));
        }
        lines.add("dead letters: " + deadTotal + (deadTotal > 0 ? ", in " + where : ""));
        sorted(dead)
                .forEach(
                        e ->
                                lines.add(
                                        "  "
                                                + e.getKey().replace("\t", ", ")
                                                + ": "
                                                + e.getValue()));
        return lines;
    }

    /**
     * One line for a running job: {@code dead letters: N (input, reason: n; ...); fences repaired:
     * M (reason: m; ...)}, or null when the accumulator is absent.
     */
    public static String statusLine(Map<String, Object> accumulators) {
        Map<String, Long> all = counts(accumulators);
        if (all == null) {
            return null;
        }
        Map<String, Long> repaired = part(all, true);
        Map<String, Long> dead = part(all, false);
        StringBuilder line = new StringBuilder("dead letters: ").append(total(dead));
        appendReasons(line, dead);
        if (!repaired.isEmpty()) {
            line.append("; fences repaired: ").append(total(repaired));
            appendReasons(line, repaired);
        }
        return line.toString();
    }

    private static void appendReasons(StringBuilder line, Map<String, Long> counts) {
        if (counts.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        sorted(counts)
                .forEach(e -> parts.add(e.getKey().replace("\t", ", ") + ": " + e.getValue()));
        line.append(" (").append(String.join("; ", parts)).append(')');
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> counts(Map<String, Object> accumulators) {
        Object value = accumulators.get(ACCUMULATOR);
        return value instanceof Map<?, ?> m ? (Map<String, Long>) m : null;
    }

    // The repaired fences by reason, or the dead letters by input and reason.
    private static Map<String, Long> part(Map<String, Long> all, boolean repaired) {
        Map<String, Long> out = new TreeMap<>();
        all.forEach(
                (key, n) -> {
                    boolean isRepaired = key.startsWith(REPAIRED + "\t");
                    if (isRepaired == repaired) {
                        out.put(repaired ? key.substring(REPAIRED.length() + 1) : key, n);
                    }
                });
        return out;
    }

    private static long total(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static List<Map.Entry<String, Long>> sorted(Map<String, Long> counts) {
        List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(
                Map.Entry.<String, Long>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()));
        return entries;
    }

    /**
     * Counts per key, of at most {@link #MOST_REASONS} keys; the rest count as their input's other.
     */
    static final class Counts implements Accumulator<String, TreeMap<String, Long>> {

        private static final long serialVersionUID = 1L;

        private TreeMap<String, Long> counts = new TreeMap<>();

        @Override
        public void add(String key) {
            add(key, 1);
        }

        private void add(String key, long n) {
            String k = key;
            if (!counts.containsKey(k) && counts.size() >= MOST_REASONS) {
                k = k.substring(0, k.indexOf('\t') + 1) + "other";
            }
            counts.merge(k, n, Long::sum);
        }

        @Override
        public TreeMap<String, Long> getLocalValue() {
            return counts;
        }

        @Override
        public void resetLocal() {
            counts = new TreeMap<>();
        }

        @Override
        public void merge(Accumulator<String, TreeMap<String, Long>> other) {
            other.getLocalValue().forEach(this::add);
        }

        @Override
        public Counts clone() {
            Counts c = new Counts();
            c.counts = new TreeMap<>(counts);
            return c;
        }
    }
}
