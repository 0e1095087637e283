/**
 * A region quadtree over closed planar boxes, the broad phase of the geofence match: {@link
 * org.quadfence.index.QuadTree} finds the items whose bounding box contains a point or meets an
 * area; the exact shape test is the caller's. No Flink, Kafka or JSON in here.
 */
package org.quadfence.index;
