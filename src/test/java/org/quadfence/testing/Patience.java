package org.quadfence.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How long a test waits for a condition, and where to look when it runs out: what the tests that
 * kill runs or brokers wait with.
 */
public final class Patience {

    private final Supplier<Duration> limit;
    private final Supplier<String> whereToLook;

    /**
     * @param limit the longest wait, read at each wait (a test may change it)
     * @param whereToLook said in the message of a wait that timed out: "the logs are in ..."
     */
    public Patience(Supplier<Duration> limit, Supplier<String> whereToLook) {
        this.limit = limit;
        this.whereToLook = whereToLook;
    }

    /** The longest wait, as of now. */
    public Duration limit() {
        return limit.get();
    }

    /**
     * Waits until {@code done}, checked every 100 ms.
     *
     * @throws AssertionError naming {@code what}, the limit and where to look, when it ran out
     */
    public void await(String what, BooleanSupplier done) throws InterruptedException {
        Duration patience = limit();
        long deadline = System.nanoTime() + patience.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "timed out after "
                                + patience
                                + " waiting for "
                                + what
                                + "; "
                                + whereToLook.get());
            }
            Thread.sleep(100);
        }
    }

    /**
     * A reader of {@code topic} with read_committed and this patience, the end markers of {@link
     * PositionFeeder} left out; {@code quiet}: see {@link CommittedReader#awaitQuiet}.
     */
    public CommittedReader committed(Broker kafka, String topic, Duration quiet) {
        return new CommittedReader(
                kafka.consumer("reader-" + topic + "-" + System.nanoTime(), true),
                topic,
                PositionFeeder.END,
                this,
                quiet);
    }
}
