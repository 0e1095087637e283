package org.quadfence.model;

/**
 * The fences that contain one position: what the tile stage tells the entity stage. {@code
 * fenceIds} is sorted ascending and holds each id once.
 */
public record Membership(
        String entityId, long timestamp, double lon, double lat, String[] fenceIds) {}
