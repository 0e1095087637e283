package org.quadfence.testing;

import java.math.BigDecimal;
import java.math.MathContext;

/** Polygon fences of many vertices as GeoJSON Feature lines, for the record-size limit. */
public final class LargeFences {

    private LargeFences() {}

    /**
     * A Feature fence: a convex polygon of {@code vertices} vertices on a circle of {@code radius}
     * degrees around (lon, lat), in one line of compact JSON.
     *
     * @param seventeenDigits whether each coordinate is written with 17 significant digits (as the
     *     contract's largest fences are), else in Java's shortest form
     */
    public static String circle(
            String id,
            double lon,
            double lat,
            double radius,
            int vertices,
            boolean seventeenDigits) {
        StringBuilder s =
                new StringBuilder(vertices * 42 + 128)
                        .append("{\"type\":\"Feature\",\"id\":\"")
                        .append(id)
                        .append("\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[");
        for (int i = 0; i <= vertices; i++) {
            double angle = 2 * Math.PI * (i % vertices) / vertices;
            if (i > 0) {
                s.append(',');
            }
            s.append('[')
                    .append(number(lon + radius * Math.cos(angle), seventeenDigits))
                    .append(',')
                    .append(number(lat + radius * Math.sin(angle), seventeenDigits))
                    .append(']');
        }
        return s.append("]]},\"properties\":{\"name\":\"").append(id).append("\"}}").toString();
    }

    private static String number(double v, boolean seventeenDigits) {
        return seventeenDigits
                ? new BigDecimal(v).round(new MathContext(17)).toPlainString()
                : Double.toString(v);
    }
}
