/**
 * The exact geometry of fences on the lon/lat plane, the narrow phase of the geofence match: {@link
 * org.quadfence.geo.Rectangle}, {@link org.quadfence.geo.Polygon} (Polygon and MultiPolygon, holes
 * included) and {@link org.quadfence.geo.Circle}, each a {@link org.quadfence.geo.Shape}: closed
 * containment, bounding boxes, and the hysteresis distance (rules in {@link
 * org.quadfence.geo.Earth}). Longitude 180 and -180 are the same meridian throughout.
 *
 * <p>For the tiles of the job, fences are cut into {@link org.quadfence.geo.ShapePiece}s: what a
 * tile holds of a fence, which answers exactly like the whole fence for the points of its cell.
 *
 * <p>Between two positions an entity moves along a {@link org.quadfence.geo.Path}, straight in the
 * lon/lat plane the shorter way round; {@link org.quadfence.geo.PathCrossing} finds where a path
 * first meets a fence, or a tile's piece of it (contract section 10).
 *
 * <p>No Flink, Kafka or JSON in here, and of JTS only the names of the OGC validity rules ({@code
 * TopologyValidationError}); the checks themselves are the project's own.
 */
package org.quadfence.geo;
