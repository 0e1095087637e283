package org.quadfence.io;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.quadfence.geo.Polygon;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a GeoJSON geometry (RFC 7946) of a Feature fence: a Polygon or a MultiPolygon (an empty one
 * included), checked by {@link Polygon} (whose message becomes the error), as {@link
 * Polygon#coordinates()}; with {@link InputRules#makeValid()}, one that is not valid is repaired
 * when it can be ({@link PolygonRepair}).
 */
final class Geometries {

    /**
     * A geometry as read.
     *
     * @param polygons its coordinates, as {@link Polygon#coordinates()}
     * @param repairedBecause null, or why it had to be repaired (the validity error): then {@code
     *     polygons} are the repaired ones
     */
    record Read(double[][][] polygons, String repairedBecause) {}

    private Geometries() {}

    /** The geometry at the parser's current token, or null for JSON null. */
    static Read read(JsonParser p, InputRules rules) throws IOException {
        if (p.currentToken() == JsonToken.VALUE_NULL) {
            return null;
        }
        if (p.currentToken() != JsonToken.START_OBJECT) {
            throw new BadRecord("geometry must be a GeoJSON object, got " + Json.describe(p));
        }
        String type = null;
        Object coordinates = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "type" -> type = Json.string(p, "geometry type");
                case "coordinates" -> coordinates = nested(p, new int[] {positionsAllowed(rules)});
                default -> p.skipChildren();
            }
        }
        if (!"Polygon".equals(type) && !"MultiPolygon".equals(type)) {
            throw new BadRecord(
                    "geometry must be a Polygon or a MultiPolygon, got "
                            + (type == null ? "no type" : Json.quote(type)));
        }
        if (coordinates == null) {
            throw new BadRecord("geometry " + type + " has no coordinates");
        }
        double[][][] polygons =
                type.equals("Polygon")
                        ? new double[][][] {polygon(coordinates, "coordinates")}
                        : multiPolygon(coordinates);
        try {
            return new Read(Polygon.of(polygons, rules.maxVertices()).coordinates(), null);
        } catch (IllegalArgumentException e) {
            if (!rules.makeValid()) {
                throw new BadRecord(e.getMessage());
            }
            return new Read(
                    PolygonRepair.repair(polygons, rules.maxVertices(), e.getMessage()),
                    e.getMessage());
        }
    }

    /**
     * The most positions a geometry may hold before it is refused unread: twice the vertex limit (a
     * valid ring of n vertices has n + 1 positions, n at least 3), so that a record of many tiny
     * positions costs memory in proportion to max-vertices, not to its size.
     */
    private static int positionsAllowed(InputRules rules) {
        return (int) Math.min(Integer.MAX_VALUE, 2L * rules.maxVertices() + 16);
    }

    /**
     * A JSON array as nested lists of Doubles (finite numbers only); {@code left[0]} is the number
     * of positions (arrays that start with a number) still allowed.
     */
    private static Object nested(JsonParser p, int[] left) throws IOException {
        if (p.currentToken() == JsonToken.START_ARRAY) {
            List<Object> items = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                if (items.isEmpty() && p.currentToken().isNumeric() && --left[0] < 0) {
                    throw new BadRecord(
                            "the geometry has too many positions: more vertices than the limit"
                                    + " (max-vertices)");
                }
                items.add(nested(p, left));
            }
            return items;
        }
        return Json.finite(p, "a coordinate");
    }

    private static double[][][] multiPolygon(Object c) {
        // No polygons: an empty MultiPolygon, valid under OGC, a fence that contains no point.
        List<?> polys = list(c, "MultiPolygon coordinates");
        double[][][] out = new double[polys.size()][][];
        for (int i = 0; i < out.length; i++) {
            out[i] = polygon(polys.get(i), "polygon " + i);
        }
        return out;
    }

    private static double[][] polygon(Object c, String what) {
        List<?> rings = list(c, what);
        if (rings.isEmpty()) {
            throw new BadRecord(what + " needs at least one ring");
        }
        double[][] out = new double[rings.size()][];
        for (int r = 0; r < out.length; r++) {
            List<?> positions = list(rings.get(r), what + " ring " + r);
            double[] flat = new double[positions.size() * 2];
            for (int k = 0; k < positions.size(); k++) {
                // The position's name is built only for an error: built for every vertex, it was
                // 5% of the fences source's time under fence churn.
                if (!(positions.get(k) instanceof List<?> position)) {
                    throw new BadRecord(
                            what + " ring " + r + " position " + k + " must be an array");
                }
                if (position.size() < 2
                        || !(position.get(0) instanceof Double lon)
                        || !(position.get(1) instanceof Double lat)) {
                    throw new BadRecord(
                            what + " ring " + r + " position " + k + " must be [lon, lat]");
                }
                flat[2 * k] = lon;
                flat[2 * k + 1] = lat;
            }
            out[r] = flat;
        }
        return out;
    }

    private static List<?> list(Object o, String what) {
        if (!(o instanceof List<?> l)) {
            throw new BadRecord(what + " must be an array");
        }
        return l;
    }
}
