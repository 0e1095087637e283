package org.quadfence.model;

import org.quadfence.geo.PolygonPiece;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The packed layout of a {@link PolygonPiece} (state format 8): the piece's bytes in one block, so
 * that a checkpoint stream takes one write per piece instead of one per byte of each number, and
 * each edge once. A piece keeps an edge in every leaf of its quadtree that the edge meets (about
 * twice on average), so its {@code edges} repeat; here they are a table of distinct edges, written
 * as runs of joined edges (a run of r edges is r + 1 vertices), and one index into that table per
 * edge of {@code edges}. The same for {@code near}. Counts, tree nodes and slot ends are varints;
 * the slots' bits are packed eight to a byte; every double goes as its raw bits, so a piece reads
 * back equal, bit for bit.
 *
 * <p>Block: its length (varint), then the bounds and the cell (8 doubles), {@code nodes} (zigzag
 * varints), {@code slotEnds} (ascending, as differences), {@code slotInside}, {@code edges}, {@code
 * near} (each as the table and indexes), {@code seams} (doubles). Each array starts with its length
 * + 1, 0 for null.
 */
final class PackedPolygonPiece {

    private static final VarHandle LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private byte[] b;
    private int at;

    private PackedPolygonPiece(byte[] b) {
        this.b = b;
    }

    /**
     * Packs {@code p} into {@code buffer} (a larger one when it does not fit): the block is the
     * first {@link #length()} bytes of {@link #bytes()}.
     */
    static PackedPolygonPiece pack(PolygonPiece p, byte[] buffer) {
        PackedPolygonPiece w = new PackedPolygonPiece(buffer);
        w.packBody(p);
        return w;
    }

    byte[] bytes() {
        return b;
    }

    int length() {
        return at;
    }

    /** Reads a piece from the first {@code length} bytes of {@code block} (no length prefix). */
    static PolygonPiece unpack(byte[] block, int length) {
        PackedPolygonPiece r = new PackedPolygonPiece(block);
        PolygonPiece p = r.readBody();
        if (r.at != length) {
            throw new IllegalStateException(
                    "a packed polygon piece of " + length + " bytes read " + r.at);
        }
        return p;
    }

    private void packBody(PolygonPiece p) {
        for (double v :
                new double[] {
                    p.minX(), p.minY(), p.maxX(), p.maxY(), p.west(), p.south(), p.east(), p.north()
                }) {
            putDouble(v);
        }
        int[] nodes = p.nodes();
        putLength(nodes);
        if (nodes != null) {
            for (int v : nodes) {
                putVarInt(zigzag(v));
            }
        }
        int[] ends = p.slotEnds();
        putLength(ends);
        if (ends != null) {
            int previous = 0;
            for (int v : ends) {
                putVarInt(zigzag(v - previous));
                previous = v;
            }
        }
        boolean[] inside = p.slotInside();
        putLength(inside == null ? -1 : inside.length);
        if (inside != null) {
            for (int i = 0; i < inside.length; i += 8) {
                int bits = 0;
                for (int j = 0; j < 8 && i + j < inside.length; j++) {
                    bits |= inside[i + j] ? 1 << j : 0;
                }
                putByte(bits);
            }
        }
        putEdges(p.edges());
        putEdges(p.near());
        double[] seams = p.seams();
        putLength(seams == null ? -1 : seams.length);
        if (seams != null) {
            for (double v : seams) {
                putDouble(v);
            }
        }
    }

    private PolygonPiece readBody() {
        double[] box = new double[8];
        for (int i = 0; i < 8; i++) {
            box[i] = readDouble();
        }
        int[] nodes = newInts(readVarInt() - 1);
        for (int i = 0; nodes != null && i < nodes.length; i++) {
            nodes[i] = unzigzag(readVarInt());
        }
        int[] ends = newInts(readVarInt() - 1);
        for (int i = 0, previous = 0; ends != null && i < ends.length; i++) {
            previous += unzigzag(readVarInt());
            ends[i] = previous;
        }
        int insideLength = readVarInt() - 1;
        boolean[] inside = insideLength < 0 ? null : new boolean[insideLength];
        for (int i = 0; i < insideLength; i += 8) {
            int bits = b[at++];
            for (int j = 0; j < 8 && i + j < insideLength; j++) {
                inside[i + j] = (bits & (1 << j)) != 0;
            }
        }
        double[] edges = readEdges();
        double[] near = readEdges();
        int seamsLength = readVarInt() - 1;
        double[] seams = seamsLength < 0 ? null : new double[seamsLength];
        for (int i = 0; i < seamsLength; i++) {
            seams[i] = readDouble();
        }
        return new PolygonPiece(
                box[0], box[1], box[2], box[3], box[4], box[5], box[6], box[7], nodes, ends, inside,
                edges, near, seams);
    }

    /** Edges of four doubles each: the table of distinct ones in runs, then one index each. */
    private void putEdges(double[] e) {
        putLength(e == null ? -1 : e.length);
        if (e == null || e.length == 0) {
            return;
        }
        if (e.length % 4 != 0) {
            throw new IllegalArgumentException("edges of four doubles each, got " + e.length);
        }
        int n = e.length / 4;
        int[] table = new int[Integer.highestOneBit(Math.max(2, n) * 2 - 1) * 2];
        Arrays.fill(table, -1);
        int[] index = new int[n];
        int[] distinct = new int[n]; // the first edge of each distinct one, in order
        int count = 0;
        for (int i = 0; i < n; i++) {
            int slot = hash(e, i) & (table.length - 1);
            while (table[slot] >= 0 && !same(e, distinct[table[slot]], i)) {
                slot = (slot + 1) & (table.length - 1);
            }
            if (table[slot] < 0) {
                table[slot] = count;
                distinct[count++] = i;
            }
            index[i] = table[slot];
        }
        putVarInt(count);
        for (int d = 0; d < count; ) {
            int run = 1;
            while (d + run < count && joined(e, distinct[d + run - 1], distinct[d + run])) {
                run++;
            }
            putVarInt(run);
            putDouble(e[4 * distinct[d]]);
            putDouble(e[4 * distinct[d] + 1]);
            for (int k = d; k < d + run; k++) {
                putDouble(e[4 * distinct[k] + 2]);
                putDouble(e[4 * distinct[k] + 3]);
            }
            d += run;
        }
        for (int i : index) {
            putVarInt(i);
        }
    }

    private double[] readEdges() {
        int length = readVarInt() - 1;
        if (length <= 0) {
            return length < 0 ? null : new double[0];
        }
        int count = readVarInt();
        double[] distinct = new double[4 * count];
        for (int d = 0; d < count; ) {
            int run = readVarInt();
            double x = readDouble();
            double y = readDouble();
            for (int k = d; k < d + run; k++) {
                distinct[4 * k] = x;
                distinct[4 * k + 1] = y;
                x = readDouble();
                y = readDouble();
                distinct[4 * k + 2] = x;
                distinct[4 * k + 3] = y;
            }
            d += run;
        }
        double[] e = new double[length];
        for (int i = 0; i < length; i += 4) {
            System.arraycopy(distinct, 4 * readVarInt(), e, i, 4);
        }
        return e;
    }

    private static int hash(double[] e, int i) {
        long h = 0;
        for (int k = 4 * i; k < 4 * i + 4; k++) {
            h = h * 0x9E3779B97F4A7C15L + Double.doubleToRawLongBits(e[k]);
        }
        return (int) (h ^ (h >>> 29) ^ (h >>> 47));
    }

    private static boolean same(double[] e, int i, int j) {
        for (int k = 0; k < 4; k++) {
            if (Double.doubleToRawLongBits(e[4 * i + k])
                    != Double.doubleToRawLongBits(e[4 * j + k])) {
                return false;
            }
        }
        return true;
    }

    /** Whether edge {@code j} starts where edge {@code i} ends. */
    private static boolean joined(double[] e, int i, int j) {
        return Double.doubleToRawLongBits(e[4 * i + 2]) == Double.doubleToRawLongBits(e[4 * j])
                && Double.doubleToRawLongBits(e[4 * i + 3])
                        == Double.doubleToRawLongBits(e[4 * j + 1]);
    }

    private static int[] newInts(int length) {
        return length < 0 ? null : new int[length];
    }

    private void putLength(int[] a) {
        putLength(a == null ? -1 : a.length);
    }

    private void putLength(int length) {
        putVarInt(length + 1);
    }

    private void ensure(int more) {
        if (at + more > b.length) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, at + more));
        }
    }

    private void putByte(int v) {
        ensure(1);
        b[at++] = (byte) v;
    }

    private void putDouble(double v) {
        ensure(8);
        LONG.set(b, at, Double.doubleToRawLongBits(v));
        at += 8;
    }

    private void putVarInt(int v) {
        ensure(5);
        at = RecordSerializer.putVarInt(v, b, at);
    }

    // Small negative numbers (inner tree nodes, -c-1) in one byte too.
    private static int zigzag(int v) {
        return (v << 1) ^ (v >> 31);
    }

    private static int unzigzag(int z) {
        return (z >>> 1) ^ -(z & 1);
    }

    private double readDouble() {
        long bits = (long) LONG.get(b, at);
        at += 8;
        return Double.longBitsToDouble(bits);
    }

    private int readVarInt() {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[at++];
            v |= (x & 0x7f) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
    }
}
