package org.quadfence.job;

import org.quadfence.geo.Box;

/** What a tile keeps of one fence: its pieces in the tile, and its properties (or null). */
public record TileFence(Box[] clips, String properties) {}
