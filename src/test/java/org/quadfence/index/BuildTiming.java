package org.quadfence.index;

import org.quadfence.bench.Fence;
import org.quadfence.bench.Workload;
import org.quadfence.geo.Box;

import java.util.HashMap;
import java.util.Map;

/** Tuning aid, not a test: best-of-N time per fence of bulk build against inserts. */
public final class BuildTiming {
    public static void main(String[] args) {
        int n = Integer.parseInt(args[0]);
        Fence[] fences =
                Workload.fences(
                        n, Workload.Dist.valueOf(args[1]), Workload.Size.valueOf(args[2]), 42);
        Map<Fence, Box> map = new HashMap<>();
        Box[] boxes = new Box[n];
        for (int i = 0; i < n; i++) {
            boxes[i] = fences[i].box();
            map.put(fences[i], boxes[i]);
        }
        long bestBuild = Long.MAX_VALUE;
        long bestInsert = Long.MAX_VALUE;
        long bestMap = Long.MAX_VALUE;
        for (int r = 0; r < 10; r++) {
            long t0 = System.nanoTime();
            QuadTree<Fence> built = QuadTree.build(Box.WORLD, 8, 16, map);
            long t1 = System.nanoTime();
            QuadTree<Fence> tree = new QuadTree<>(Box.WORLD, 8, 16);
            for (int i = 0; i < n; i++) {
                tree.insert(fences[i], boxes[i]);
            }
            long t2 = System.nanoTime();
            HashMap<Fence, Box> copy = new HashMap<>(n * 4 / 3 + 1);
            for (Map.Entry<Fence, Box> e : map.entrySet()) {
                copy.put(e.getKey(), e.getValue());
            }
            long t3 = System.nanoTime();
            bestBuild = Math.min(bestBuild, t1 - t0);
            bestInsert = Math.min(bestInsert, t2 - t1);
            bestMap = Math.min(bestMap, t3 - t2);
            if (built.size() != tree.size() || copy.size() != n) {
                throw new AssertionError();
            }
        }
        System.out.printf(
                "build %.0f ns/fence, insert %.0f ns/fence, map copy alone %.0f ns/fence%n",
                bestBuild / (double) n, bestInsert / (double) n, bestMap / (double) n);
    }
}
