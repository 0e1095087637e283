package org.quadfence.demo;

import org.quadfence.model.EventType;
import org.quadfence.model.GeofenceEvent;

import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What the demo prints: start-up steps, one line per ENTER, EXIT, DWELL or CROSS, and status lines.
 * Colored with ANSI escapes when asked to (a terminal without NO_COLOR), plain otherwise: ENTER
 * green, EXIT red, DWELL blue, CROSS yellow. A CROSS line shows where the vehicle's path met the
 * fence (the event's {@code at}) rather than the position after it. The line of an event with a
 * visit (contract section 11) ends with what the visit adds: an EXIT how long the visit lasted
 * ("after 4 min 12 s"), a DWELL how long the vehicle has been inside, an ENTER that waited for its
 * fence's {@code enterAfterMs} how long it waited ("confirmed after 20 s").
 *
 * <p>Event lines (of all kinds) are printed at a steady pace of at most {@value #LINES_PER_SECOND}
 * a second, so a person can follow them; when events come faster, those that do not fit in a
 * second's worth of lines are counted as not shown, and the status line says how many. A rare event
 * (a CROSS, a DWELL, or any event of a fence with rules) takes the place of a queued line of
 * another kind when the queue is full (that line is counted as not shown instead), so they show
 * even when events come in bursts.
 */
final class Console implements AutoCloseable {

    static final int LINES_PER_SECOND = 10;

    private static final DateTimeFormatter CLOCK =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());
    private static final Map<String, String> KIND_COLORS =
            Map.of(
                    "cbd", "91",
                    "zone", "96",
                    "corner", "92",
                    "depot", "94",
                    "school", "93",
                    "loading", "95",
                    "toll", "33");

    private final PrintStream out;
    private final boolean color;
    private final Function<String, City.Fence> fences;
    private final BlockingQueue<GeofenceEvent> queue = new ArrayBlockingQueue<>(LINES_PER_SECOND);
    private final AtomicLong notShown = new AtomicLong();
    private final Thread printer;

    /**
     * @param fences the demo's fences by id, for the names and kinds printed with their events
     */
    Console(PrintStream out, boolean color, Function<String, City.Fence> fences) {
        this.out = out;
        this.color = color;
        this.fences = fences;
        printer = new Thread(this::print, "quadfence-demo-console");
        printer.setDaemon(true);
        printer.start();
    }

    /** Colors for a terminal that has not opted out (https://no-color.org). */
    static boolean colorWanted() {
        String noColor = System.getenv("NO_COLOR");
        return System.console() != null
                && (noColor == null || noColor.isEmpty())
                && !"dumb".equals(System.getenv("TERM"));
    }

    /** A start-up or shut-down step. */
    void step(String text) {
        line(paint("1;36", "quadfence demo") + "  " + text);
    }

    /** The start of a step that takes a while; {@link #done} ends its line. */
    void begin(String text) {
        synchronized (out) {
            out.print(paint("1;36", "quadfence demo") + "  " + text + " ");
            out.flush();
        }
    }

    /** The end of the line that {@link #begin} started. */
    void done(String text) {
        line(text);
    }

    /** A warning a person should read. */
    void warn(String text) {
        line(paint("1;33", "quadfence demo") + "  " + text);
    }

    /**
     * Queues an event line; counted as not shown when the queue holds a second's worth, unless it
     * is a rare one and the queue holds a line that is not, which then gives way to it.
     */
    synchronized void event(GeofenceEvent e) {
        if (queue.offer(e)) {
            return;
        }
        notShown.incrementAndGet();
        if (isRare(e)) {
            // The newest common line gives way, so the others keep their order.
            GeofenceEvent givesWay = null;
            for (GeofenceEvent queued : queue) {
                if (!isRare(queued)) {
                    givesWay = queued;
                }
            }
            if (givesWay != null && queue.remove(givesWay)) {
                queue.offer(e);
            }
        }
    }

    // What only toll gates and the few fences with rules give.
    private boolean isRare(GeofenceEvent e) {
        if (e.event() == EventType.CROSS || e.event() == EventType.DWELL) {
            return true;
        }
        City.Fence f = fences.apply(e.fenceId());
        return f != null && !f.rules().isNone();
    }

    /** Event lines not shown so far. */
    long notShown() {
        return notShown.get();
    }

    /** A status line. */
    void status(String text) {
        line(
                paint("2", CLOCK.format(Instant.now()))
                        + "  "
                        + paint("1;7", " status ")
                        + " "
                        + text);
    }

    private String paint(String ansi, String text) {
        return color ? "\u001b[" + ansi + "m" + text + "\u001b[0m" : text;
    }

    private void print() {
        try {
            while (true) {
                line(format(queue.take()));
                TimeUnit.MILLISECONDS.sleep(1000 / LINES_PER_SECOND);
            }
        } catch (InterruptedException stopping) {
            // close() asked to stop
        }
    }

    /** The line of an event, as {@link #event} prints it. */
    String format(GeofenceEvent e) {
        City.Fence f = fences.apply(e.fenceId());
        String[] word = word(e.event());
        // A CROSS: where the path met the fence.
        double lat = e.at() != null ? e.at().lat() : e.lat();
        double lon = e.at() != null ? e.at().lon() : e.lon();
        return paint("2", CLOCK.format(Instant.ofEpochMilli(e.timestamp())))
                + "  "
                + paint(word[1], word[0])
                + "  "
                + paint("1", pad(e.entityId(), 11))
                + paint(
                        KIND_COLORS.getOrDefault(f == null ? "" : f.kind(), "0"),
                        pad(f == null ? e.fenceId() : f.name(), 44))
                + paint(
                        "2",
                        pad(e.fenceId(), 25) + String.format(Locale.ROOT, "%.5f, %.5f", lat, lon))
                + visit(e);
    }

    // What the event's visit adds to its line; nothing for a CROSS, an ENTER at once, or a visit
    // whose start is not known.
    private static String visit(GeofenceEvent e) {
        if (!e.hasVisit()) {
            return "";
        }
        long ms = e.timestamp() - e.enteredAt();
        return switch (e.event()) {
            case ENTER -> ms > 0 ? "  confirmed after " + duration(ms) : "";
            case DWELL -> "  inside for " + duration(ms);
            case EXIT -> "  after " + duration(ms);
            case CROSS -> "";
        };
    }

    /** A duration for people: "0.4 s", "12 s", "2 min", "4 min 12 s", "1 h 5 min". */
    static String duration(long ms) {
        long tenths = Math.round(ms / 100.0);
        if (tenths < 100) {
            return tenths % 10 == 0
                    ? tenths / 10 + " s"
                    : String.format(Locale.ROOT, "%.1f s", tenths / 10.0);
        }
        long s = Math.round(ms / 1000.0);
        if (s < 3600) {
            return s / 60 == 0
                    ? s + " s"
                    : s / 60 + " min" + (s % 60 == 0 ? "" : " " + s % 60 + " s");
        }
        long min = Math.round(ms / 60_000.0);
        return min / 60 + " h" + (min % 60 == 0 ? "" : " " + min % 60 + " min");
    }

    // The event's word, padded to five columns, and its color.
    private static String[] word(EventType event) {
        return switch (event) {
            case ENTER -> new String[] {"ENTER", "1;32"};
            case EXIT -> new String[] {"EXIT ", "1;31"};
            case CROSS -> new String[] {"CROSS", "1;33"};
            case DWELL -> new String[] {"DWELL", "1;34"};
        };
    }

    private static String pad(String s, int width) {
        return s.length() >= width
                ? s.substring(0, width - 2) + "~ "
                : s + " ".repeat(width - s.length());
    }

    private void line(String text) {
        synchronized (out) {
            out.println(text);
            out.flush();
        }
    }

    /** Stops printing event lines; the ones still queued are dropped. */
    @Override
    public void close() throws InterruptedException {
        printer.interrupt();
        printer.join(2_000);
    }
}
