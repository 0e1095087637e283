package org.quadfence.demo;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The demo's numbers, taken every few seconds: positions, events (all kinds) and crossings (CROSS
 * events) per second since the last time, vehicles inside a fence now (from the memberships topic)
 * and the busiest fence, consumer lag, the last checkpoint and how long a position takes to come
 * back as an event. They make the status line and the map's panel.
 */
final class Status {

    private final City city;
    private final Fleet fleet;
    private final EventFeed feed;
    private final CurrentFencesFeed current;
    private final JobMonitor monitor;
    private long lastTime = System.currentTimeMillis();
    private long lastPublished;
    private long lastEvents;
    private long lastCrosses;
    private Map<String, Object> numbers;
    private String jobState = "unknown";

    Status(City city, Fleet fleet, EventFeed feed, CurrentFencesFeed current, JobMonitor monitor) {
        this.city = city;
        this.fleet = fleet;
        this.feed = feed;
        this.current = current;
        this.monitor = monitor;
        this.lastPublished = fleet.published();
        this.lastEvents = events(feed);
        this.lastCrosses = feed.crosses();
        this.numbers = take(0, 0, 0, "none yet", -1);
    }

    /** Takes the numbers anew (asks the job's REST API and Kafka; up to a few seconds). */
    void update() {
        long now = System.currentTimeMillis();
        double seconds = Math.max(1, now - lastTime) / 1000.0;
        long published = fleet.published();
        long events = events(feed);
        long crosses = feed.crosses();
        jobState = monitor.state();
        numbers =
                take(
                        (published - lastPublished) / seconds,
                        (events - lastEvents) / seconds,
                        (crosses - lastCrosses) / seconds,
                        monitor.lastCheckpoint(),
                        monitor.lag());
        lastTime = now;
        lastPublished = published;
        lastEvents = events;
        lastCrosses = crosses;
    }

    private static long events(EventFeed feed) {
        return feed.enters() + feed.exits() + feed.dwells() + feed.crosses();
    }

    /** Counts events and vehicles anew, keeping the rates and the job's numbers: at the end. */
    void recount() {
        Map<String, Object> n = new LinkedHashMap<>(numbers);
        n.put("updated", System.currentTimeMillis());
        n.put("enters", feed.enters());
        n.put("exits", feed.exits());
        n.put("dwells", feed.dwells());
        n.put("crosses", feed.crosses());
        n.put("parked", fleet.view().parked());
        n.put("inside", current.entitiesInside());
        n.put("busiestFence", current.busiestFence());
        numbers = n;
    }

    /** The numbers by name, as the map's page reads them. */
    Map<String, Object> numbers() {
        return numbers;
    }

    /** The job's state at the last update: RUNNING, RESTARTING, FAILED, ... */
    String jobState() {
        return jobState;
    }

    /** The numbers as one line; {@code skipped} is the count of event lines not printed. */
    String line(long skipped) {
        Map<String, Object> n = numbers;
        long lag = (long) n.get("lag");
        Object latency = n.get("latencySeconds");
        return String.format(
                Locale.ROOT,
                "%,d positions/s  %s events/s  %s crossings/s  |  %d fences, %,d of %,d vehicles"
                        + " inside, busiest %s  |  lag %s  checkpoint %s%s%s%s",
                n.get("positionsPerSecond"),
                n.get("eventsPerSecond"),
                n.get("crossingsPerSecond"),
                city.fences().size(),
                n.get("inside"),
                n.get("vehicles"),
                n.get("busiestFence"),
                lag < 0 ? "?" : String.format(Locale.ROOT, "%,d", lag),
                n.get("checkpoint"),
                latency == null ? "" : "  latency " + latency + " s",
                jobState.equals("RUNNING") ? "" : "  |  job " + jobState,
                skipped == 0
                        ? ""
                        : String.format(Locale.ROOT, "  |  %,d event lines skipped", skipped));
    }

    private Map<String, Object> take(
            double positionsPerSecond,
            double eventsPerSecond,
            double crossingsPerSecond,
            String checkpoint,
            long lag) {
        Fleet.FleetView view = fleet.view();
        double latency = feed.latencyMillis() / 1000;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("updated", System.currentTimeMillis());
        n.put("positionsPerSecond", Math.round(positionsPerSecond));
        n.put("eventsPerSecond", Math.round(eventsPerSecond * 10) / 10.0);
        n.put("crossingsPerSecond", Math.round(crossingsPerSecond * 10) / 10.0);
        n.put("enters", feed.enters());
        n.put("exits", feed.exits());
        n.put("dwells", feed.dwells());
        n.put("crosses", feed.crosses());
        n.put("vehicles", view.size());
        n.put("parked", view.parked());
        n.put("inside", current.entitiesInside());
        n.put("busiestFence", current.busiestFence());
        n.put("checkpoint", checkpoint);
        n.put("lag", lag);
        n.put("latencySeconds", Double.isNaN(latency) ? null : Math.round(latency * 10) / 10.0);
        return n;
    }
}
