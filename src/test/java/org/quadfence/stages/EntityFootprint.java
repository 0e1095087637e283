package org.quadfence.stages;

import org.openjdk.jol.info.GraphLayout;
import org.quadfence.model.Groups;
import org.quadfence.model.Membership;

/**
 * Heap bytes per entity in a fence in the entity stage's keyed state (issue 9, item 6): the heap
 * state backend of a MembershipTracker that tracks N entities, each in one of 1,000 fences, minus
 * the same backend with no entity. Run with the job-bench profile:
 *
 * <pre>
 * mvn -B -ntp -Pjob-bench test-compile exec:exec -Djob-bench.main=org.quadfence.stages.EntityFootprint \
 *     -Djob-bench.args=100000
 * </pre>
 */
public final class EntityFootprint {

    private EntityFootprint() {}

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0].trim());
        long empty = backendBytes(0);
        long full = backendBytes(n);
        System.out.printf(
                "%d entities in a fence: %.1f bytes per entity (backend %d -> %d bytes)%n",
                n, (full - empty) / (double) n, empty, full);
    }

    private static long backendBytes(int entities) throws Exception {
        var harness = StageTestBase.membershipTracker(0, 0, false);
        harness.open();
        for (int e = 0; e < entities; e++) {
            String fence = "fence-" + (e % 1000);
            harness.processElement(
                    new Membership(
                            Groups.DEFAULT,
                            String.format("entity-%06d", e),
                            1_000 + e,
                            -73.98,
                            40.75,
                            new String[] {new String(fence)}),
                    1_000 + e);
        }
        harness.processWatermark(Long.MAX_VALUE - 1);
        long bytes =
                GraphLayout.parseInstance(harness.getOperator().getKeyedStateBackend()).totalSize();
        harness.close();
        return bytes;
    }
}
