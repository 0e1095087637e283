package org.quadfence.model;

import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

import java.io.IOException;

/**
 * What the serializers of the immutable records have in common: no state (one instance serves every
 * thread), no copies, and how a field is written. A string goes as {@link StringValue} writes it
 * (its length in a variable number of bytes, then its characters; any length, and null as one
 * byte), an array as its length (-1 for null), then its elements.
 *
 * @param <T> the record
 */
public abstract class RecordSerializer<T> extends TypeSerializerSingleton<T> {

    private static final long serialVersionUID = 1L;

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

    /** Writes {@code a}, which may be null, as may its elements. */
    protected static void writeStrings(String[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        for (String s : a) {
            StringValue.writeString(s, out);
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
            a[i] = StringValue.readString(in);
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
