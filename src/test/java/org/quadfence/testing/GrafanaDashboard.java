package org.quadfence.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Grafana dashboard of the compose set-up (docker/grafana/dashboards/quadfence.json): its
 * panels' Prometheus queries, and the metrics they name.
 */
public final class GrafanaDashboard {

    /** The dashboard, relative to the project directory. */
    public static final Path FILE = Path.of("docker/grafana/dashboards/quadfence.json");

    // Flink's Prometheus reporter names every metric flink_<scope>_<name>.
    private static final Pattern METRIC = Pattern.compile("\\bflink_[A-Za-z0-9_]+");

    private GrafanaDashboard() {}

    /** The dashboard as JSON. */
    public static JsonNode read() throws IOException {
        return new ObjectMapper().readTree(FILE.toFile());
    }

    /** The query of every target of every panel. */
    public static List<String> queries() throws IOException {
        List<String> queries = new ArrayList<>();
        for (JsonNode panel : read().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queries.add(target.path("expr").asText());
            }
        }
        return queries;
    }

    /** The Prometheus names of the metrics the queries read. */
    public static Set<String> metrics() throws IOException {
        Set<String> names = new TreeSet<>();
        for (String query : queries()) {
            Matcher m = METRIC.matcher(query);
            while (m.find()) {
                names.add(m.group());
            }
        }
        return names;
    }
}
