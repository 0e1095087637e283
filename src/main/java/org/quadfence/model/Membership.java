package org.quadfence.model;

/**
 * The fences that contain one position: what the tile stage tells the entity stage. {@code
 * fenceIds} is sorted ascending and holds each id once; {@code properties} holds the properties of
 * each of those fences (null where a fence has none), in the same order.
 */
public record Membership(
        String group,
        String entityId,
        long timestamp,
        double lon,
        double lat,
        String[] fenceIds,
        String[] properties) {}
