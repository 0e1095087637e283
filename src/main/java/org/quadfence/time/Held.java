package org.quadfence.time;

/**
 * A record of a key waiting for its time.
 *
 * @param hash the key's hash code, kept because the due order and the checkpoint ask it often
 */
record Held<K, T>(K key, int hash, long time, T record) {

    Held(K key, long time, T record) {
        this(key, key.hashCode(), time, record);
    }
}
