package org.quadfence.bench;

import org.locationtech.jts.index.hprtree.HPRtree;
import org.locationtech.jts.index.quadtree.Quadtree;
import org.locationtech.jts.index.strtree.STRtree;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * Build and change costs at {@value #N} fences: one invocation inserts (or removes) them all, and
 * the score is the time per fence. Bulk builds count as one operation per fence too.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 6)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms3g", "-Xmx3g", "-XX:+UseParallelGC"})
@OperationsPerInvocation(UpdateBench.N)
public class UpdateBench {
    static final int N = 100_000;
    static final int CAPACITY = 8;
    static final int MAX_DEPTH = 16;

    /** The fences of one workload, in a shuffled order for removal. */
    @State(Scope.Benchmark)
    public static class Data {
        @Param({"UNIFORM", "CLUSTERED"})
        Workload.Dist dist;

        @Param({"SMALL", "MIXED"})
        Workload.Size size;

        Fence[] fences;
        Box[] boxes;
        Map<Fence, Box> map;
        List<Fence> shuffled;

        @Setup(Level.Trial)
        public void setUp() {
            fences = Workload.fences(N, dist, size, 42);
            boxes = new Box[N];
            for (int i = 0; i < N; i++) {
                boxes[i] = fences[i].box();
            }
            map = PointIndex.boxes(fences);
            shuffled = new ArrayList<>(List.of(fences));
            Collections.shuffle(shuffled, new Random(7));
        }
    }

    /** A full tree of ours, built again before each removal run. */
    @State(Scope.Thread)
    public static class Ours {
        QuadTree<Fence> tree;

        @Setup(Level.Invocation)
        public void setUp(Data d) {
            tree = QuadTree.build(Box.WORLD, CAPACITY, MAX_DEPTH, d.map);
        }
    }

    /** A full JTS Quadtree, built again before each removal run. */
    @State(Scope.Thread)
    public static class Jts {
        Quadtree tree;

        @Setup(Level.Invocation)
        public void setUp(Data d) {
            tree = new Quadtree();
            for (Fence f : d.fences) {
                tree.insert(f.envelope(), f);
            }
        }
    }

    @Benchmark
    public Object quadfenceInsert(Data d) {
        QuadTree<Fence> tree = new QuadTree<>(Box.WORLD, CAPACITY, MAX_DEPTH);
        for (int i = 0; i < N; i++) {
            tree.insert(d.fences[i], d.boxes[i]);
        }
        return tree;
    }

    @Benchmark
    public Object quadfenceBulkBuild(Data d) {
        return QuadTree.build(Box.WORLD, CAPACITY, MAX_DEPTH, d.map);
    }

    @Benchmark
    public Object quadfenceRemove(Data d, Ours o) {
        for (Fence f : d.shuffled) {
            o.tree.remove(f);
        }
        return o.tree;
    }

    @Benchmark
    public Object jtsQuadtreeInsert(Data d) {
        Quadtree tree = new Quadtree();
        for (Fence f : d.fences) {
            tree.insert(f.envelope(), f);
        }
        return tree;
    }

    @Benchmark
    public Object jtsQuadtreeRemove(Data d, Jts j) {
        for (Fence f : d.shuffled) {
            j.tree.remove(f.envelope(), f);
        }
        return j.tree;
    }

    @Benchmark
    public Object strtreeInsertAndBuild(Data d) {
        STRtree tree = new STRtree();
        for (Fence f : d.fences) {
            tree.insert(f.envelope(), f);
        }
        tree.build();
        return tree;
    }

    @Benchmark
    public Object hprtreeInsertAndBuild(Data d) {
        HPRtree tree = new HPRtree();
        for (Fence f : d.fences) {
            tree.insert(f.envelope(), f);
        }
        tree.build();
        return tree;
    }
}
