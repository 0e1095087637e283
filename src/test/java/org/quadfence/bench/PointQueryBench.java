package org.quadfence.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Point-query throughput, one point per operation, cycling through 65536 points drawn from the
 * fences' distribution. Each (size, distribution, n, impl) runs in its own JVM, with one index
 * built once per trial. {@code capacity} and {@code maxDepth} apply to QUADFENCE only.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms6g", "-Xmx6g", "-XX:+UseParallelGC"})
public class PointQueryBench {
    @Param({"10000", "100000", "1000000"})
    int n;

    @Param({"UNIFORM", "CLUSTERED"})
    Workload.Dist dist;

    @Param({"SMALL", "MIXED"})
    Workload.Size size;

    @Param({"QUADFENCE", "HPRTREE", "STRTREE", "JTS_QUADTREE"})
    PointIndex.Impl impl;

    @Param({"8"})
    int capacity;

    @Param({"16"})
    int maxDepth;

    private static final int CHECKED = 4096;

    private PointIndex index;
    private double[] points;
    private int cursor;

    @Setup(Level.Trial)
    public void setUp() {
        Fence[] fences = Workload.fences(n, dist, size, 42);
        points = Workload.points(dist, 42);
        index = PointIndex.of(impl, fences, capacity, maxDepth);
    }

    @TearDown(Level.Trial)
    public void report() {
        // The same number for every impl of a workload says they answer the same question.
        long hits = 0;
        for (int i = 0; i < 2 * CHECKED; i += 2) {
            hits += index.count(points[i], points[i + 1]);
        }
        System.out.printf(
                "%n[check] %s %s %s n=%d: %d hits on the first %d points%n",
                impl, dist, size, n, hits, CHECKED);
    }

    @Benchmark
    public long pointQuery() {
        int i = cursor;
        cursor = (i + 2) & (2 * Workload.POINTS - 1);
        return index.count(points[i], points[i + 1]) + index.idSum;
    }
}
