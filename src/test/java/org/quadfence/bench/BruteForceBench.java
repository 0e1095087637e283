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
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/** {@link PointQueryBench}'s question answered by testing every box: at 10k fences only. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xms2g", "-Xmx2g", "-XX:+UseParallelGC"})
public class BruteForceBench {
    @Param({"10000"})
    int n;

    @Param({"UNIFORM", "CLUSTERED"})
    Workload.Dist dist;

    @Param({"SMALL", "MIXED"})
    Workload.Size size;

    private PointIndex index;
    private double[] points;
    private int cursor;

    @Setup(Level.Trial)
    public void setUp() {
        points = Workload.points(dist, 42);
        index = PointIndex.of(PointIndex.Impl.BRUTE, Workload.fences(n, dist, size, 42), 0, 0);
    }

    @Benchmark
    public long pointQuery() {
        int i = cursor;
        cursor = (i + 2) & (2 * Workload.POINTS - 1);
        return index.count(points[i], points[i + 1]) + index.idSum;
    }
}
