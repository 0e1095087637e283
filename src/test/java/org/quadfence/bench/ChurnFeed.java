package org.quadfence.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The latency phase's second producer (issue 21, goal 3): a thread that writes {@link
 * DispatchZones} changes at a fixed rate, event time = now, while the positions are produced.
 * {@link #sent} read at the two ends of a window gives the rate achieved in it.
 */
final class ChurnFeed implements Runnable {

    private final DispatchZones zones;
    private final double perSecond;
    private final BenchWorld.RecordSink out;
    private final AtomicLong sent = new AtomicLong();
    private volatile boolean stop;
    private volatile Throwable failure;
    private Thread thread;

    ChurnFeed(DispatchZones zones, double perSecond, BenchWorld.RecordSink out) {
        this.zones = zones;
        this.perSecond = perSecond;
        this.out = out;
    }

    void start() {
        thread = new Thread(this, "bench-churn");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops the thread and waits for it; rethrows what failed in it. */
    void stop() throws InterruptedException {
        stop = true;
        thread.join(10_000);
        if (failure != null) {
            throw new IllegalStateException("the churn producer failed", failure);
        }
    }

    /** Changes sent so far. */
    long sent() {
        return sent.get();
    }

    DispatchZones zones() {
        return zones;
    }

    @Override
    public void run() {
        try {
            long t0 = System.nanoTime();
            while (!stop) {
                long due = (long) ((System.nanoTime() - t0) / 1e9 * perSecond);
                while (sent.get() < due && !stop) {
                    zones.next(System.currentTimeMillis(), out);
                    sent.incrementAndGet();
                }
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
        }
    }
}
