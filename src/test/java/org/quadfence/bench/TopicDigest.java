package org.quadfence.bench;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.quadfence.testing.KafkaTopics;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * What a topic holds, independent of partitions and order: the number of records and a hash of
 * their sorted values. To keep millions of records cheap, each value is first reduced to the first
 * 8 bytes of its SHA-256; the hash is the SHA-256 of those sorted, so two topics with the same
 * values in any order and partitioning have the same digest.
 *
 * @param records the records read
 * @param hash the first 16 hex digits of the hash
 */
record TopicDigest(long records, String hash) {

    /** Reads {@code topic} from its beginning to its end offsets as they are now. */
    static TopicDigest of(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        List<TopicPartition> parts = KafkaTopics.assignFromBeginning(consumer, topic);
        Map<TopicPartition, Long> end = consumer.endOffsets(parts);
        MessageDigest line = sha256();
        long[] hashes = new long[1 << 16];
        int n = 0;
        long deadline = System.currentTimeMillis() + 300_000;
        while (!atEnd(consumer, parts, end)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("reading " + topic + " took over 5 minutes");
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (n == hashes.length) {
                    hashes = Arrays.copyOf(hashes, 2 * n);
                }
                hashes[n++] = ByteBuffer.wrap(line.digest(r.value())).getLong();
            }
        }
        Arrays.sort(hashes, 0, n);
        MessageDigest all = sha256();
        ByteBuffer b = ByteBuffer.allocate(8);
        for (int i = 0; i < n; i++) {
            all.update(b.clear().putLong(hashes[i]).array());
        }
        return new TopicDigest(n, HexFormat.of().formatHex(all.digest(), 0, 8));
    }

    /** Whether {@code c} has read every one of {@code parts} up to its offset in {@code end}. */
    static boolean atEnd(
            KafkaConsumer<byte[], byte[]> c,
            List<TopicPartition> parts,
            Map<TopicPartition, Long> end) {
        for (TopicPartition tp : parts) {
            if (c.position(tp) < end.get(tp)) {
                return false;
            }
        }
        return true;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
