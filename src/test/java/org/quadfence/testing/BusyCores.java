package org.quadfence.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Threads that spin on every core while open: a busy machine for tests whose promise must hold
 * whatever the load, such as a job that must not take a slow partition for an idle one.
 */
public final class BusyCores implements AutoCloseable {

    private final List<Thread> threads = new ArrayList<>();

    private BusyCores(int count) {
        for (int i = 0; i < count; i++) {
            Thread t =
                    new Thread(
                            () -> {
                                long spin = 0;
                                while (!Thread.currentThread().isInterrupted()) {
                                    spin++;
                                }
                                if (spin < 0) {
                                    throw new AssertionError("overflow");
                                }
                            },
                            "busy-loop-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    /** Two spinning threads per core of this machine. */
    public static BusyCores everyCoreTwice() {
        return new BusyCores(Runtime.getRuntime().availableProcessors() * 2);
    }

    @Override
    public void close() throws InterruptedException {
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            t.join();
        }
    }
}
