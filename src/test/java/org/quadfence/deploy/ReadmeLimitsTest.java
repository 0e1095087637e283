package org.quadfence.deploy;

import org.junit.jupiter.api.Test;
import org.quadfence.geo.Circle;
import org.quadfence.io.Limits;
import org.quadfence.options.QuadfenceOptions;
import org.quadfence.stages.Tiers;
import org.quadfence.testing.ReadmeTable;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's table of limits gives the numbers the code enforces. */
class ReadmeLimitsTest {

    @Test
    void theReadmesLimitsAreTheNumbersTheCodeEnforces() throws IOException {
        Map<String, String> limits = new LinkedHashMap<>();
        for (List<String> row : ReadmeTable.rows("README.md", "| what | limit |")) {
            limits.put(row.get(0), row.get(1));
        }
        assertThat(limits.get("record size (position or fence)"))
                .startsWith(
                        "max-record-bytes, default "
                                + (Limits.DEFAULT_MAX_RECORD_BYTES >> 20)
                                + " MiB; at least "
                                + Limits.BYTES_PER_VERTEX
                                + " bytes a vertex of max-vertices + "
                                + (Limits.BYTES_BESIDES_VERTICES >> 20)
                                + " MiB, at most "
                                + (Limits.MOST_RECORD_BYTES >> 30)
                                + " GiB");
        assertThat(limits.get("JSON nesting, string, number, field name"))
                .isEqualTo(
                        String.format(
                                "%d levels, %,d chars, %,d chars, %,d chars",
                                Limits.MAX_NESTING_DEPTH,
                                Limits.MAX_STRING_CHARS,
                                Limits.MAX_NUMBER_CHARS,
                                Limits.MAX_NAME_CHARS));
        assertThat(limits.get("entityId, fenceId"))
                .isEqualTo("1 to " + Limits.MAX_ID_CHARS + " code points");
        assertThat(limits.get("properties"))
                .startsWith(String.format("%,d characters", Limits.MAX_PROPERTIES_CHARS));
        assertThat(limits.get("circle radius"))
                .isEqualTo(
                        String.format(
                                "> 0 and at most %,d km", (long) Circle.MAX_RADIUS_METERS / 1000));
        assertThat(limits.get("a fence's tiles"))
                .startsWith(
                        Tiers.WIDE_TILES
                                + " at tile-level, else one per level-"
                                + Tiers.WIDE_LEVEL
                                + " tile");
        assertThat(limits.get("a position's tiles with crossing"))
                .contains(
                        String.format(
                                "at most %,d at tile-level 7, %,d at 12, %,d at 14, %,d at 16 for"
                                        + " the default %,d m",
                                TileGrid.maxTilesOnPath(50_000, 7),
                                TileGrid.maxTilesOnPath(50_000, 12),
                                TileGrid.maxTilesOnPath(50_000, 14),
                                TileGrid.maxTilesOnPath(50_000, 16),
                                QuadfenceOptions.CROSSING_MAX_METERS.defaultValue().longValue()))
                .contains(
                        String.format(
                                "%,d at 16 below latitude 60",
                                TileGrid.maxTilesOnPath(50_000, 60, 16)))
                .contains(
                        String.format(
                                "plus %,d of the wide tier",
                                TileGrid.maxTilesOnPath(50_000, Tiers.WIDE_LEVEL)));
        assertThat(limits.get("records waiting for the watermark in memory"))
                .startsWith(
                        String.format(
                                "max-waiting-records, default %,d per subtask",
                                QuadfenceOptions.MAX_WAITING_RECORDS.defaultValue()));
    }
}
