package org.quadfence.index;

import org.quadfence.bench.PointIndex;
import org.quadfence.bench.Workload;
import org.quadfence.geo.Box;

import java.util.LinkedHashMap;
import java.util.Map;

/** Tuning aid, not a test: tree shape and a rough query time for the benchmark workloads. */
public final class TreeShape {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        Workload.Dist dist = Workload.Dist.valueOf(args[1]);
        Workload.Size size = Workload.Size.valueOf(args[2]);
        var fences = Workload.fences(n, dist, size, 42);
        double[] pts = Workload.points(dist, 42);
        Map<Object, Box> items = new LinkedHashMap<>();
        for (var f : fences) {
            items.put(f, f.box());
        }
        for (int a = 3; a < args.length; a += 2) {
            int cap = Integer.parseInt(args[a]);
            int depth = Integer.parseInt(args[a + 1]);
            long t0 = System.nanoTime();
            QuadTree<Object> tree = QuadTree.build(Box.WORLD, cap, depth, items);
            long t1 = System.nanoTime();
            long[] hits = new long[1];
            long best = Long.MAX_VALUE;
            for (int rep = 0; rep < 8; rep++) {
                long s = System.nanoTime();
                for (int i = 0; i < pts.length; i += 2) {
                    tree.query(pts[i], pts[i + 1], o -> hits[0]++);
                }
                best = Math.min(best, System.nanoTime() - s);
            }
            System.out.printf(
                    "cap %d depth %d: build %.0f ms, nodes %d, height %d, pairs/item %.2f, %.0f"
                            + " ns/query, %.1f hits%n",
                    cap,
                    depth,
                    (t1 - t0) / 1e6,
                    tree.nodeCount(),
                    tree.height(),
                    tree.storedPairs() / (double) n,
                    best / (double) Workload.POINTS,
                    hits[0] / 8.0 / Workload.POINTS);
        }
        PointIndex hpr = PointIndex.of(PointIndex.Impl.HPRTREE, fences, 0, 0);
        long best = Long.MAX_VALUE;
        for (int rep = 0; rep < 8; rep++) {
            long s = System.nanoTime();
            for (int i = 0; i < pts.length; i += 2) {
                hpr.count(pts[i], pts[i + 1]);
            }
            best = Math.min(best, System.nanoTime() - s);
        }
        System.out.printf("hprtree: %.0f ns/query%n", best / (double) Workload.POINTS);
    }
}
