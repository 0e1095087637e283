package org.quadfence.stages;

import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.util.Collector;

import org.quadfence.geo.Path;
import org.quadfence.model.Position;
import org.quadfence.model.Step;
import org.quadfence.tiles.TileGrid;

/**
 * Sends each step (option {@code crossing}) to the tiles of one tier that must answer it: its
 * position's own tile, and, when a path is tested, every other tile whose closed cell the path
 * meets ({@link TileGrid#tilesOnPath}). The path is at most {@code crossing-max-meters} long
 * ({@link org.quadfence.rules.PathSteps}), so the tiles are at most {@link #maxTiles()}: the bound
 * of the work of one position (README, "Limits").
 */
public final class PathTiles implements FlatMapFunction<Step, Step> {

    private static final long serialVersionUID = 1L;

    private final TileGrid grid;
    private final int maxTiles;

    /**
     * @param grid the tier's tiles
     * @param maxMeters option {@code crossing-max-meters}
     */
    public PathTiles(TileGrid grid, double maxMeters) {
        this.grid = grid;
        this.maxTiles = TileGrid.maxTilesOnPath(maxMeters, grid.level());
    }

    /** The most tiles one step goes to in this tier. */
    public int maxTiles() {
        return maxTiles;
    }

    @Override
    public void flatMap(Step step, Collector<Step> out) {
        Position b = step.to();
        long own = grid.tileOf(b.lon(), b.lat());
        if (step.from() == null) {
            out.collect(new Step(b, null, own));
            return;
        }
        Path path = new Path(step.from().lon(), step.from().lat(), b.lon(), b.lat());
        long[] tiles = grid.tilesOnPath(path, maxTiles);
        if (tiles == null) {
            // Never for a step of at most crossing-max-meters: maxTiles bounds its tiles.
            out.collect(new Step(b, null, own));
            return;
        }
        boolean ownSeen = false;
        for (long tile : tiles) {
            ownSeen |= tile == own;
            out.collect(new Step(b, step.from(), tile));
        }
        if (!ownSeen) {
            out.collect(new Step(b, step.from(), own));
        }
    }
}
