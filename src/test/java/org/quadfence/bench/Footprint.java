package org.quadfence.bench;

import org.openjdk.jol.info.GraphLayout;

/**
 * Bytes per fence of each index, measured with JOL over everything the index reaches, minus the
 * fence objects themselves (the same for all). Arguments: fence counts, e.g. {@code 100000
 * 1000000}. Run with a heap big enough for the largest (JOL walks the whole graph).
 */
public final class Footprint {
    public static void main(String[] args) {
        System.out.printf(
                "%-10s %-10s %-7s %-13s %12s %10s%n",
                "n", "dist", "size", "impl", "bytes", "B/fence");
        for (String arg : args) {
            int n = Integer.parseInt(arg);
            for (Workload.Dist dist : Workload.Dist.values()) {
                for (Workload.Size size : Workload.Size.values()) {
                    Fence[] fences = Workload.fences(n, dist, size, 42);
                    GraphLayout items = GraphLayout.parseInstance((Object[]) fences);
                    for (PointIndex.Impl impl : PointIndex.Impl.values()) {
                        if (impl == PointIndex.Impl.BRUTE) {
                            continue;
                        }
                        PointIndex index = PointIndex.of(impl, fences, 8, 16);
                        long bytes =
                                GraphLayout.parseInstance(index.structure())
                                        .subtract(items)
                                        .totalSize();
                        System.out.printf(
                                "%-10d %-10s %-7s %-13s %12d %10.1f%n",
                                n, dist, size, impl, bytes, bytes / (double) n);
                    }
                }
            }
        }
    }
}
