package org.quadfence.model;

import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the serializers of the immutable records have in common: no state (one instance serves every
 * thread), no copies, and how a field is written. A string goes in one write: a header (a variable
 * number of bytes: 0 for null, else its length and whether every character fits one byte), then its
 * characters, a byte each when all are below 256 (ids almost always are), two bytes each otherwise,
 * so any string, lone surrogates included, reads back equal. One write per string matters in
 * checkpoints, whose streams take every single-byte write as a call of its own. An array goes as
 * its length (-1 for null), then its elements.
 *
 * @param <T> the record
 */
public abstract class RecordSerializer<T> extends TypeSerializerSingleton<T> {

    private static final long serialVersionUID = 1L;

    private static final int MAX_VAR_INT = 5;
    private static final int SCRATCH_BYTES = 4096;
    private static final int MAX_SCRATCH_BYTES = 1 << 16;
    // A thread's scratch buffers sit in the first slot from its id on that is free, its own, or
    // a dead thread's: threads never take each other's buffers over (a checkpoint's threads and
    // the task's would, each call, if they met in one slot). No ThreadLocal: its lookups were 5%
    // of a replay's samples. Nor the thread's identity hash: that line alone was 4.6% of them.
    static final int SLOTS = 256;
    private static final int PROBES = 8;
    private static final Scratch[] SCRATCHES = new Scratch[SLOTS];

    @Override
    public final boolean isImmutableType() {
        return true;
    }

    @Override
    public final T copy(T from) {
        return from;
    }

    @Override
    public final T copy(T from, T reuse) {
        return from;
    }

    @Override
    public final int getLength() {
        return -1;
    }

    @Override
    public final T deserialize(T reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public final void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    /** Writes {@code s}, which may be null. */
    protected static void writeString(String s, DataOutputView out) throws IOException {
        if (s == null) {
            out.writeByte(0);
            return;
        }
        int n = s.length();
        // Copied out once and tested as an array: charAt's checks were 3.6% of a replay. One
        // lookup of the thread's scratch for both buffers (room for two bytes a character).
        int most = MAX_VAR_INT + 2 * n;
        Scratch scratch =
                most > MAX_SCRATCH_BYTES
                        ? new Scratch(Thread.currentThread(), new byte[most], new char[n])
                        : mine(most, n);
        char[] c = scratch.chars;
        s.getChars(0, n, c, 0);
        int any = 0;
        for (int i = 0; i < n; i++) {
            any |= c[i];
        }
        boolean oneByte = any < 256;
        byte[] b = scratch.bytes;
        int at = putVarInt(((n << 1) | (oneByte ? 0 : 1)) + 1, b, 0);
        if (oneByte) {
            for (int i = 0; i < n; i++) {
                b[at++] = (byte) c[i];
            }
        } else {
            for (int i = 0; i < n; i++) {
                b[at++] = (byte) (c[i] >>> 8);
                b[at++] = (byte) c[i];
            }
        }
        out.write(b, 0, at);
    }

    /**
     * A string header that {@link #writeString} never writes (an empty string of two-byte
     * characters): written before a string, it marks a layout with more fields, which the reader
     * tells apart by the first header it reads ({@link #readString(int, DataInputView)}).
     */
    protected static final int EXTENDED = 2;

    /** Writes the {@link #EXTENDED} mark. */
    protected static void writeExtended(DataOutputView out) throws IOException {
        out.writeByte(EXTENDED);
    }

    /** Reads what {@link #writeString} wrote. */
    protected static String readString(DataInputView in) throws IOException {
        return readString(readVarInt(in), in);
    }

    /** Reads the rest of what {@link #writeString} wrote, its header's varint already read. */
    protected static String readString(int headerVarInt, DataInputView in) throws IOException {
        int header = headerVarInt - 1;
        if (header < 0) {
            return null;
        }
        int n = header >>> 1;
        if ((header & 1) == 0) {
            byte[] b = scratch(n);
            in.readFully(b, 0, n);
            return new String(b, 0, n, StandardCharsets.ISO_8859_1);
        }
        byte[] b = scratch(2 * n);
        in.readFully(b, 0, 2 * n);
        char[] c = new char[n];
        for (int i = 0; i < n; i++) {
            c[i] = (char) (((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff));
        }
        return new String(c);
    }

    /**
     * A buffer of at least {@code size} bytes for this thread's string or block in flight: they go
     * through it, not through a new array each (strings were a seventh of the job's allocation).
     * Valid until the thread's next call.
     */
    protected static byte[] scratch(int size) {
        if (size > MAX_SCRATCH_BYTES) {
            return new byte[size];
        }
        return mine(size, 0).bytes;
    }

    /** This thread's scratch, with at least the bytes and chars asked for. */
    private static Scratch mine(int bytes, int chars) {
        Thread thread = Thread.currentThread();
        int home = (int) thread.getId();
        for (int probe = 0; probe < PROBES; probe++) {
            int slot = (home + probe) & (SLOTS - 1);
            Scratch s = SCRATCHES[slot];
            // Only the thread that made a scratch uses it; its final fields make it safe to read.
            if (s != null && s.owner == thread) {
                if (s.bytes.length < bytes || s.chars.length < chars) {
                    // Only the buffer too small is made anew.
                    s =
                            new Scratch(
                                    thread,
                                    s.bytes.length < bytes ? new byte[bytes] : s.bytes,
                                    s.chars.length < chars ? new char[chars] : s.chars);
                    SCRATCHES[slot] = s;
                }
                return s;
            }
            if (s == null || !s.owner.isAlive()) {
                s = made(thread, bytes, chars);
                SCRATCHES[slot] = s;
                return s;
            }
        }
        // The slots from this thread's on are other live threads': buffers for this call only.
        return made(thread, bytes, chars);
    }

    private static Scratch made(Thread owner, int bytes, int chars) {
        return new Scratch(
                owner,
                new byte[Math.max(SCRATCH_BYTES, bytes)],
                new char[Math.max(SCRATCH_BYTES, chars)]);
    }

    /**
     * Reads a block of {@code length} bytes and returns what {@code reader} makes of it; when this
     * thread's last block read here was the same, bit for bit, and made by the same reader, returns
     * what was made of that one instead. The copies of a record sent to several keys of a stage
     * arrive one after the other, and an immutable value needs making only once.
     */
    protected static <V> V readShared(DataInputView in, int length, BlockReader<V> reader)
            throws IOException {
        if (length > MAX_SCRATCH_BYTES) {
            byte[] block = new byte[length];
            in.readFully(block);
            return reader.read(block, length);
        }
        Scratch s = mine(0, 0);
        return s.readShared(in, length, reader);
    }

    /** Makes a value of the first {@code length} bytes of a block, keeping nothing of it. */
    @FunctionalInterface
    protected interface BlockReader<V> {
        V read(byte[] block, int length) throws IOException;
    }

    /**
     * A thread's buffers for strings in flight, and the last block {@link #readShared} read, with
     * what was made of it; only the thread that owns it reads or changes it.
     */
    private static final class Scratch {
        final Thread owner;
        final byte[] bytes;
        final char[] chars;
        private byte[] lastBlock = new byte[0];
        private byte[] spare = new byte[0];
        private int lastLength = -1;
        private BlockReader<?> lastReader;
        private Object lastValue;

        Scratch(Thread owner, byte[] bytes, char[] chars) {
            this.owner = owner;
            this.bytes = bytes;
            this.chars = chars;
        }

        @SuppressWarnings("unchecked")
        <V> V readShared(DataInputView in, int length, BlockReader<V> reader) throws IOException {
            if (spare.length < length) {
                spare = new byte[Math.max(length, 2 * spare.length)];
            }
            byte[] block = spare;
            in.readFully(block, 0, length);
            if (reader == lastReader
                    && length == lastLength
                    && Arrays.equals(block, 0, length, lastBlock, 0, length)) {
                return (V) lastValue;
            }
            V value = reader.read(block, length);
            spare = lastBlock;
            lastBlock = block;
            lastLength = length;
            lastReader = reader;
            lastValue = value;
            return value;
        }
    }

    /**
     * Puts {@code v}, not negative, into {@code b} at {@code at} as a varint (room for five bytes
     * needed); returns where it ends.
     */
    static int putVarInt(int v, byte[] b, int at) {
        while ((v & ~0x7f) != 0) {
            b[at++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[at++] = (byte) v;
        return at;
    }

    /**
     * Writes {@code v}, not negative, in one to five bytes, each a write of its own: the scratch
     * buffer may hold the block that follows.
     */
    protected static void writeVarInt(int v, DataOutputView out) throws IOException {
        while ((v & ~0x7f) != 0) {
            out.writeByte((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.writeByte(v);
    }

    /** Reads what {@link #writeVarInt} wrote. */
    protected static int readVarInt(DataInputView in) throws IOException {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.readUnsignedByte();
            v |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
    }

    /** Writes {@code a}, which may be null, as may its elements. */
    protected static void writeStrings(String[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (String s : a) {
            writeString(s, out);
        }
    }

    /** Reads what {@link #writeStrings} wrote. */
    protected static String[] readStrings(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        String[] a = new String[n];
        for (int i = 0; i < n; i++) {
            a[i] = readString(in);
        }
        return a;
    }

    /** Writes {@code a}, which may be null. */
    protected static void writeLongs(long[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (long v : a) {
            out.writeLong(v);
        }
    }

    /** Reads what {@link #writeLongs} wrote. */
    protected static long[] readLongs(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readLong();
        }
        return a;
    }

    /** Writes {@code a}, which may be null. */
    protected static void writeInts(int[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (int v : a) {
            out.writeInt(v);
        }
    }

    /** Reads what {@link #writeInts} wrote. */
    protected static int[] readInts(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readInt();
        }
        return a;
    }

    /** Writes {@code a}, which may be null. */
    protected static void writeDoubles(double[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (double v : a) {
            out.writeDouble(v);
        }
    }

    /** Reads what {@link #writeDoubles} wrote. */
    protected static double[] readDoubles(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        double[] a = new double[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readDouble();
        }
        return a;
    }

    /** Writes {@code a}, which may be null, one byte an element. */
    protected static void writeBooleans(boolean[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (boolean v : a) {
            out.writeBoolean(v);
        }
    }

    /** Reads what {@link #writeBooleans} wrote. */
    protected static boolean[] readBooleans(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        boolean[] a = new boolean[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readBoolean();
        }
        return a;
    }
}
