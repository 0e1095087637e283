package org.quadfence.kafka;

import java.io.Serializable;

/**
 * What a source does to a record read behind its partition's watermark (contract section 12): the
 * record as it goes on, told the watermark that the partition's records before it had earned. A
 * source reading several partitions emits the least of their watermarks, and only every {@code
 * watermark-interval}; this tells each record its own partition's, exactly.
 *
 * @param <T> the records
 */
@FunctionalInterface
public interface BehindMark<T> extends Serializable {

    /** {@code record}, read when its partition's watermark was {@code watermark}. */
    T marked(T record, long watermark);
}
