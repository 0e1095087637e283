package org.quadfence.model;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The serializers' per-thread scratch buffers: a thread keeps its own, whoever else runs. */
class ScratchTest {

    @Test
    void twoLiveThreadsWhoseIdsShareASlotEachKeepABufferOfTheirOwn() throws Exception {
        CountDownLatch firstTook = new CountDownLatch(1);
        CountDownLatch secondTook = new CountDownLatch(1);
        CompletableFuture<byte[][]> first = new CompletableFuture<>();
        CompletableFuture<byte[][]> second = new CompletableFuture<>();
        Thread a =
                new Thread(
                        () -> {
                            byte[] before = RecordSerializer.scratch(16);
                            firstTook.countDown();
                            await(secondTook);
                            first.complete(new byte[][] {before, RecordSerializer.scratch(16)});
                        });
        // Thread ids are handed out as threads are made: make threads (never started) until one
        // has a's id modulo the table's size, so that both start from the same slot.
        Thread b;
        do {
            b =
                    new Thread(
                            () -> {
                                byte[] before = RecordSerializer.scratch(16);
                                second.complete(
                                        new byte[][] {before, RecordSerializer.scratch(16)});
                                secondTook.countDown();
                            });
        } while ((b.getId() - a.getId()) % RecordSerializer.SLOTS != 0);

        a.start();
        await(firstTook);
        b.start();

        byte[][] mine = first.get(10, TimeUnit.SECONDS);
        byte[][] theirs = second.get(10, TimeUnit.SECONDS);
        assertThat(theirs[0]).isNotSameAs(mine[0]);
        // Neither took the other's slot over: each call found the buffer the thread had.
        assertThat(mine[1]).isSameAs(mine[0]);
        assertThat(theirs[1]).isSameAs(theirs[0]);
        a.join();
        b.join();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
