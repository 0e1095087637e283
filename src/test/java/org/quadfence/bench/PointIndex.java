package org.quadfence.bench;

import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.ItemVisitor;
import org.locationtech.jts.index.hprtree.HPRtree;
import org.locationtech.jts.index.quadtree.Quadtree;
import org.locationtech.jts.index.strtree.STRtree;
import org.quadfence.geo.Box;
import org.quadfence.index.QuadTree;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One index under test, answering the same question for all: how many fences have an envelope
 * containing the point (and a checksum of their ids, so that every hit is really read).
 */
public abstract class PointIndex {
    long hits;
    long idSum;

    /** The number of fences whose closed box contains the point. */
    public abstract long count(double x, double y);

    /** The index itself, for measuring its memory. */
    abstract Object structure();

    public enum Impl {
        QUADFENCE,
        HPRTREE,
        STRTREE,
        JTS_QUADTREE,
        BRUTE
    }

    public static PointIndex of(Impl impl, Fence[] fences, int capacity, int maxDepth) {
        return switch (impl) {
            case QUADFENCE -> new Ours(fences, capacity, maxDepth);
            case HPRTREE -> new Hpr(fences);
            case STRTREE -> new Str(fences);
            case JTS_QUADTREE -> new JtsQuad(fences);
            case BRUTE -> new Brute(fences);
        };
    }

    static Map<Fence, Box> boxes(Fence[] fences) {
        Map<Fence, Box> m = new HashMap<>(fences.length * 4 / 3 + 1);
        for (Fence f : fences) {
            m.put(f, f.box());
        }
        return m;
    }

    static final class Ours extends PointIndex implements Consumer<Fence> {
        final QuadTree<Fence> tree;

        Ours(Fence[] fences, int capacity, int maxDepth) {
            tree = QuadTree.build(Box.WORLD, capacity, maxDepth, boxes(fences));
        }

        @Override
        Object structure() {
            return tree;
        }

        @Override
        public long count(double x, double y) {
            hits = 0;
            tree.query(x, y, this);
            return hits;
        }

        @Override
        public void accept(Fence f) {
            hits++;
            idSum += f.id;
        }
    }

    abstract static class Jts extends PointIndex implements ItemVisitor {
        final Envelope env = new Envelope();

        @Override
        public void visitItem(Object item) {
            hits++;
            idSum += ((Fence) item).id;
        }
    }

    static final class Hpr extends Jts {
        final HPRtree tree = new HPRtree();

        Hpr(Fence[] fences) {
            for (Fence f : fences) {
                tree.insert(f.envelope(), f);
            }
            tree.build();
        }

        @Override
        Object structure() {
            return tree;
        }

        @Override
        public long count(double x, double y) {
            hits = 0;
            env.init(x, x, y, y);
            tree.query(env, this);
            return hits;
        }
    }

    static final class Str extends Jts {
        final STRtree tree = new STRtree();

        Str(Fence[] fences) {
            for (Fence f : fences) {
                tree.insert(f.envelope(), f);
            }
            tree.build();
        }

        @Override
        Object structure() {
            return tree;
        }

        @Override
        public long count(double x, double y) {
            hits = 0;
            env.init(x, x, y, y);
            tree.query(env, this);
            return hits;
        }
    }

    /** JTS Quadtree returns every item of the nodes it visits: the envelope test is ours. */
    static final class JtsQuad extends Jts {
        final Quadtree tree = new Quadtree();
        private double qx;
        private double qy;

        JtsQuad(Fence[] fences) {
            for (Fence f : fences) {
                tree.insert(f.envelope(), f);
            }
        }

        @Override
        Object structure() {
            return tree;
        }

        @Override
        public long count(double x, double y) {
            hits = 0;
            qx = x;
            qy = y;
            env.init(x, x, y, y);
            tree.query(env, this);
            return hits;
        }

        @Override
        public void visitItem(Object item) {
            Fence f = (Fence) item;
            if (f.contains(qx, qy)) {
                hits++;
                idSum += f.id;
            }
        }
    }

    /** Every box tested, from packed coordinates: the floor any index has to beat. */
    static final class Brute extends PointIndex {
        final double[] c;
        final Fence[] fences;

        Brute(Fence[] fences) {
            this.fences = fences;
            c = new double[4 * fences.length];
            for (int i = 0; i < fences.length; i++) {
                Fence f = fences[i];
                c[4 * i] = f.minX;
                c[4 * i + 1] = f.minY;
                c[4 * i + 2] = f.maxX;
                c[4 * i + 3] = f.maxY;
            }
        }

        @Override
        Object structure() {
            return c;
        }

        @Override
        public long count(double x, double y) {
            hits = 0;
            for (int i = 0, j = 0; i < fences.length; i++, j += 4) {
                if (x >= c[j] && y >= c[j + 1] && x <= c[j + 2] && y <= c[j + 3]) {
                    hits++;
                    idSum += fences[i].id;
                }
            }
            return hits;
        }
    }
}
