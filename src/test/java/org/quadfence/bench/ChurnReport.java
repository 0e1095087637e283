package org.quadfence.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The harness's fence churn tables (issue 21, goal 3): each churn run beside the run of the same
 * kind without churn, with the rates achieved and the latency bound of the goal.
 */
final class ChurnReport {

    /** One latency run; rates are per second over the measured window. */
    record LatencyRow(
            String delivery,
            String backend,
            double rate,
            double churn,
            double churnAchieved,
            double positionsProduced,
            double positionsRead,
            long p50,
            long p99,
            long max,
            long boundMs,
            boolean keptUp) {}

    /** One throughput run; changes per 100,000 positions. */
    record ThroughputRow(String backend, double churn, long changes, double steady, long events) {}

    private final List<LatencyRow> latency = new ArrayList<>();
    private final List<ThroughputRow> throughput = new ArrayList<>();

    void add(LatencyRow row) {
        latency.add(row);
    }

    void add(ThroughputRow row) {
        throughput.add(row);
    }

    void describeThroughput(StringBuilder b) {
        if (throughput.isEmpty()) {
            return;
        }
        b.append(
                "Fence churn (setting churn): the fences topic also holds that many dispatch-zone"
                    + " changes per 100,000 positions (polygons of 20 to 200 vertices, upserts"
                    + " drifting and one in ten deletes), their times spread over the positions'"
                    + " event time.\n\n"
                    + "| state backend | churn per 100k positions | fence changes | positions/s"
                    + " (steady, 10-90%) | of the run without churn | events |\n"
                    + "|---|---:|---:|---:|---:|---:|\n");
        for (ThroughputRow r : throughput) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %,.0f | %,d | %,.0f | %s | %,d |%n",
                            r.backend(),
                            r.churn(),
                            r.changes(),
                            r.steady(),
                            ratio(r.steady(), baseline(r)),
                            r.events()));
        }
        b.append('\n');
    }

    void describeLatency(StringBuilder b) {
        if (latency.isEmpty()) {
            return;
        }
        b.append(
                "Fence churn (setting churn): a second producer writes that many dispatch-zone"
                    + " changes per second (event time = now) to the run's fences topic while the"
                    + " positions are produced. Rates are over the measured window: changes sent,"
                    + " positions sent, positions the job's source read. Bound ="
                    + " max-out-of-orderness + checkpoint-interval + 0.5 s of the run (the goal"
                    + " holds for exactly-once runs); the position rate goal: read rate >= 90% of"
                    + " the run without churn.\n\n"
                    + "| delivery | backend | rate | churn | churn achieved/s | positions sent/s |"
                    + " positions read/s | of the run without churn | p50 | p99 | max | bound | p99"
                    + " within bound | kept up |\n"
                    + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
        for (LatencyRow r : latency) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "| %s | %s | %,.0f | %,.0f | %,.0f | %,.0f | %,.0f | %s | %s | %s | %s"
                                    + " | %,d ms | %s | %s |%n",
                            r.delivery(),
                            r.backend(),
                            r.rate(),
                            r.churn(),
                            r.churnAchieved(),
                            r.positionsProduced(),
                            r.positionsRead(),
                            ratio(r.positionsRead(), baseline(r)),
                            ms(r.p50()),
                            ms(r.p99()),
                            ms(r.max()),
                            r.boundMs(),
                            r.p99() < 0 ? "- (no events)" : r.p99() <= r.boundMs() ? "yes" : "NO",
                            r.keptUp() ? "yes" : "NO"));
        }
        b.append('\n');
    }

    /** The positions read/s of the run of the same kind without churn, or NaN. */
    private double baseline(LatencyRow row) {
        for (LatencyRow r : latency) {
            if (r.churn() == 0
                    && r.rate() == row.rate()
                    && r.delivery().equals(row.delivery())
                    && r.backend().equals(row.backend())) {
                return r.positionsRead();
            }
        }
        return Double.NaN;
    }

    private double baseline(ThroughputRow row) {
        for (ThroughputRow r : throughput) {
            if (r.churn() == 0 && r.backend().equals(row.backend())) {
                return r.steady();
            }
        }
        return Double.NaN;
    }

    private static String ms(long v) {
        return v < 0 ? "-" : String.format(Locale.ROOT, "%,d ms", v);
    }

    private static String ratio(double v, double base) {
        return Double.isNaN(base) || base == 0
                ? "-"
                : String.format(Locale.ROOT, "%.0f%%", 100 * v / base);
    }
}
