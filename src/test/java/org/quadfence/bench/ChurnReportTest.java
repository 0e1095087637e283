package org.quadfence.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ChurnReportTest {

    @Test
    void aChurnRunIsComparedWithTheRunOfItsKindWithoutChurnAndWithItsBound() {
        ChurnReport report = new ChurnReport();
        report.add(row("exactly-once", 0, 100_000, 2_000));
        report.add(row("at-least-once", 0, 50_000, 900));
        report.add(row("exactly-once", 1_000, 95_000, 2_600));
        StringBuilder b = new StringBuilder();
        report.describeLatency(b);
        String text = b.toString();
        assertTrue(
                text.contains("| 1,000 | 1,000 | 100,000 | 95,000 | 95% | 1,000 ms | 2,600 ms |"),
                text);
        assertTrue(text.contains("| 2,500 ms | NO | yes |"), text);
        assertTrue(text.contains("| 50,000 | 100% | 1,000 ms | 900 ms |"), text);
    }

    private static ChurnReport.LatencyRow row(
            String delivery, double churn, double read, long p99) {
        return new ChurnReport.LatencyRow(
                delivery, "hashmap", 100_000, churn, churn, 100_000, read, 1_000, p99, 3_000, 2_500,
                true);
    }
}
