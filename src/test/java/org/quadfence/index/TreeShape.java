package org.quadfence.index;

import org.quadfence.bench.PointIndex;
import org.quadfence.bench.Workload;
import org.quadfence.geo.Box;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tuning aid, not a test: builds trees with several (capacity, maxDepth) pairs over one workload,
 * prints their shape, then times point queries round-robin with the JTS peers and keeps each one's
 * best round, which holds up on a busy machine better than one long run.
 *
 * <p>Arguments: n dist size capacity maxDepth [capacity maxDepth ...]
 */
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
        List<String> names = new ArrayList<>();
        List<QuadTree<Object>> trees = new ArrayList<>();
        for (int a = 3; a < args.length; a += 2) {
            int cap = Integer.parseInt(args[a]);
            int depth = Integer.parseInt(args[a + 1]);
            long t0 = System.nanoTime();
            QuadTree<Object> tree = QuadTree.build(Box.WORLD, cap, depth, items);
            long t1 = System.nanoTime();
            System.out.printf(
                    "capacity %d maxDepth %d: build %.0f ms, nodes %d, height %d, pairs/item"
                            + " %.2f%n",
                    cap,
                    depth,
                    (t1 - t0) / 1e6,
                    tree.nodeCount(),
                    tree.height(),
                    tree.storedPairs() / (double) n);
            names.add("capacity " + cap + " maxDepth " + depth);
            trees.add(tree);
        }
        PointIndex.Impl[] peers = {
            PointIndex.Impl.HPRTREE, PointIndex.Impl.STRTREE, PointIndex.Impl.JTS_QUADTREE
        };
        List<PointIndex> others = new ArrayList<>();
        for (PointIndex.Impl impl : peers) {
            others.add(PointIndex.of(impl, fences, 0, 0));
        }
        int all = trees.size() + others.size();
        long[] best = new long[all];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        long[] hits = new long[1];
        int m = Math.min(pts.length, 2 * 8192);
        for (int round = 0; round < 15; round++) {
            for (int t = 0; t < all; t++) {
                long s = System.nanoTime();
                for (int i = 0; i < m; i += 2) {
                    if (t < trees.size()) {
                        trees.get(t).query(pts[i], pts[i + 1], o -> hits[0]++);
                    } else {
                        hits[0] += others.get(t - trees.size()).count(pts[i], pts[i + 1]);
                    }
                }
                best[t] = Math.min(best[t], System.nanoTime() - s);
            }
        }
        for (int t = 0; t < all; t++) {
            System.out.printf(
                    "%-26s best %.0f ns/query%n",
                    t < trees.size() ? names.get(t) : peers[t - trees.size()], best[t] / (m / 2.0));
        }
    }
}
