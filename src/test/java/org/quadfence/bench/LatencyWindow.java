package org.quadfence.bench;

import java.util.Locale;

/** What a latency run of the job harness sent and read in its measured window, per second. */
final class LatencyWindow {
    private final long[] at = new long[2];
    private final long[] produced = new long[2];
    private final long[] read = new long[2];
    private final long[] churn = new long[2];

    /** At the window's start: positions sent, positions the job read, fence changes sent. */
    void start(long positions, long positionsRead, long changes) {
        mark(0, positions, positionsRead, changes);
    }

    /** At the window's end, as {@link #start}. */
    void end(long positions, long positionsRead, long changes) {
        mark(1, positions, positionsRead, changes);
    }

    private void mark(int i, long positions, long positionsRead, long changes) {
        at[i] = System.nanoTime();
        produced[i] = positions;
        read[i] = positionsRead;
        churn[i] = changes;
    }

    double producedPerSecond() {
        return perSecond(produced);
    }

    double readPerSecond() {
        return perSecond(read);
    }

    double churnPerSecond() {
        return perSecond(churn);
    }

    private double perSecond(long[] counts) {
        return at[1] <= at[0] ? Double.NaN : (counts[1] - counts[0]) / ((at[1] - at[0]) / 1e9);
    }

    String describe() {
        return String.format(
                Locale.ROOT,
                "; in the window %.0f positions/s sent, %.0f read, %.0f fence changes/s",
                producedPerSecond(),
                readPerSecond(),
                churnPerSecond());
    }
}
