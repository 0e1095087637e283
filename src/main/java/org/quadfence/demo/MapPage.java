package org.quadfence.demo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.quadfence.geo.Box;
import org.quadfence.geo.Boxes;
import org.quadfence.geo.Rectangle;
import org.quadfence.index.QuadTree;
import org.quadfence.model.GeofenceEvent;
import org.quadfence.model.Waypoint;
import org.quadfence.tiles.TileCut;
import org.quadfence.tiles.TileGrid;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The demo's map: {@code map.html}, a self-contained page (inline canvas drawing, no network) with
 * the street grid, the fences, the tiles that hold them (with their pieces and markers, as the
 * job's FenceRouter cuts them), the recent tracks of a sample of vehicles, where every vehicle is
 * the latest ENTER and EXIT events, and the crossings (CROSS events) of the last minute: each a
 * line from the position before the fence to the one after it, and a dot where it met the fence.
 * Fences with rules carry what they say, a scheduled one whether its schedule is on now, and an
 * event with a visit its start, from which the page shows how long the visit lasted. Each {@link
 * #write} rewrites the page with the data inline and {@code map-data.js} next to it, which the open
 * page reloads every three seconds while the demo runs, keeping its zoom and pan.
 */
final class MapPage {

    private static final String PLACEHOLDER = "/*QF_DATA*/";

    private final Path html;
    private final Path script;
    private final String template;
    private final ObjectMapper json = new ObjectMapper();
    private final Map<String, Object> fixed = new LinkedHashMap<>();
    private final List<City.Fence> scheduled = new ArrayList<>();

    /** A map of {@code city} with the tiles of {@code grid}, written into {@code dir}. */
    MapPage(Path dir, City city, TileGrid grid, int capacity, int maxDepth, String title)
            throws IOException {
        Files.createDirectories(dir);
        this.html = dir.resolve("map.html");
        this.script = dir.resolve("map-data.js");
        try (InputStream in = MapPage.class.getResourceAsStream("map.html")) {
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Rectangle b = City.bounds();
        fixed.put("title", title);
        fixed.put("tileLevel", grid.level());
        fixed.put("bounds", box(b.minLon(), b.minLat(), b.maxLon(), b.maxLat()));
        fixed.put("grid", grid());
        List<Map<String, Object>> fences = new ArrayList<>();
        for (City.Fence f : city.fences()) {
            Rectangle r = f.rect();
            Map<String, Object> fence = new LinkedHashMap<>();
            fence.put("id", f.id());
            fence.put("kind", f.kind());
            fence.put("name", f.name());
            fence.put("b", box(r.minLon(), r.minLat(), r.maxLon(), r.maxLat()));
            if (!f.rules().isNone()) {
                fence.put("rules", f.about());
            }
            fences.add(fence);
            if (f.rules().schedule() != null) {
                scheduled.add(f);
            }
        }
        fixed.put("fences", fences);
        fixed.put("tiles", tiles(city, grid, capacity, maxDepth));
    }

    /** The page's path. */
    Path html() {
        return html;
    }

    /**
     * Rewrites the page and its data file; each is replaced in one step, so a reader never sees
     * half a file.
     *
     * @param live whether the demo still runs (the page keeps reloading its data while it does)
     * @param now the event time the schedules are on or off at (the demo's is the wall clock)
     * @param events the latest events, oldest first
     * @param crossings the CROSS events to draw with their paths, oldest first
     * @param stats the numbers of the status line, by name
     */
    void write(
            boolean live,
            long now,
            Fleet.FleetView fleet,
            List<GeofenceEvent> events,
            List<GeofenceEvent> crossings,
            Map<String, Object> stats)
            throws IOException {
        Map<String, Object> data = new LinkedHashMap<>(fixed);
        data.put("live", live);
        data.put("stats", stats);
        Map<String, Boolean> on = new LinkedHashMap<>();
        for (City.Fence f : scheduled) {
            on.put(f.id(), f.rules().schedule().contains(now));
        }
        data.put("scheduleOn", on);
        List<double[]> vehicles = new ArrayList<>();
        for (double[] v : fleet.vehicles()) {
            vehicles.add(new double[] {round(v[0]), round(v[1]), v[2], v[3]});
        }
        data.put("vehicles", vehicles);
        List<Map<String, Object>> tracks = new ArrayList<>();
        for (Fleet.Track t : fleet.tracks()) {
            double[] p = new double[t.lonLat().length];
            for (int i = 0; i < p.length; i++) {
                p[i] = round(t.lonLat()[i]);
            }
            tracks.add(Map.of("k", t.kind(), "p", p));
        }
        data.put("tracks", tracks);
        List<Map<String, Object>> seen = new ArrayList<>();
        for (GeofenceEvent e : events) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("t", e.timestamp());
            m.put("e", e.event().name());
            m.put("v", e.entityId());
            m.put("f", e.fenceId());
            m.put("lon", round(e.lon()));
            m.put("lat", round(e.lat()));
            if (e.hasVisit()) {
                m.put("a", e.enteredAt());
            }
            seen.add(m);
        }
        data.put("events", seen);
        List<Map<String, Object>> crossed = new ArrayList<>();
        for (GeofenceEvent e : crossings) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("t", e.timestamp());
            c.put("v", e.entityId());
            c.put("f", e.fenceId());
            c.put("lon", round(e.lon()));
            c.put("lat", round(e.lat()));
            c.put("from", point(e.from()));
            c.put("at", point(e.at()));
            crossed.add(c);
        }
        data.put("crossings", crossed);
        String text = toJson(data);
        replace(script, "qfUpdate(" + text + ");\n");
        // Inline, "</" would end the script element early.
        replace(html, template.replace(PLACEHOLDER, text.replace("</", "<\\/")));
    }

    private Map<String, Object> grid() {
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("lon0", City.LON0);
        g.put("lat0", City.LAT0);
        g.put("blockLon", City.BLOCK_LON);
        g.put("blockLat", City.BLOCK_LAT);
        g.put("west", City.WEST);
        g.put("east", City.EAST);
        g.put("south", City.SOUTH);
        g.put("north", City.NORTH);
        g.put("ns", new TreeMap<>(City.namedNorthSouth()));
        g.put("ew", new TreeMap<>(City.namedEastWest()));
        return g;
    }

    // The tiles the city touches and those the fences are cut into: per tile its clipped pieces,
    // the fences that cover it whole (markers, no geometry), and the leaf cells of the quadtree
    // the job builds over them (same capacity and depth).
    private static List<Map<String, Object>> tiles(
            City city, TileGrid grid, int capacity, int maxDepth) {
        Map<Long, Map<String, Box>> boxes = new TreeMap<>();
        Map<Long, int[]> pieces = new TreeMap<>();
        Map<Long, List<String>> markers = new TreeMap<>();
        Rectangle b = City.bounds();
        grid.tilesTouching(
                new Box(b.minLon(), b.minLat(), b.maxLon(), b.maxLat()),
                tile -> pieces.put(tile, new int[1]));
        for (City.Fence f : city.fences()) {
            for (TileCut cut : grid.cut(f.rect())) {
                pieces.computeIfAbsent(cut.tile(), t -> new int[1]);
                Map<String, Box> inTile = boxes.computeIfAbsent(cut.tile(), t -> new TreeMap<>());
                List<Box> parts = ((Boxes) cut.piece()).boxes();
                if (cut.covered()) {
                    markers.computeIfAbsent(cut.tile(), t -> new ArrayList<>()).add(f.id());
                } else {
                    pieces.get(cut.tile())[0] += parts.size();
                }
                for (int i = 0; i < parts.size(); i++) {
                    inTile.put(f.id() + "#" + i, parts.get(i));
                }
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        pieces.forEach(
                (tile, n) -> {
                    Box c = grid.cell(tile);
                    List<double[]> cells = new ArrayList<>();
                    QuadTree.build(c, capacity, maxDepth, boxes.getOrDefault(tile, Map.of()))
                            .leafCells(l -> cells.add(box(l.minX(), l.minY(), l.maxX(), l.maxY())));
                    out.add(
                            Map.of(
                                    "q", grid.quadkey(tile),
                                    "b", box(c.minX(), c.minY(), c.maxX(), c.maxY()),
                                    "pieces", n[0],
                                    "markers", markers.getOrDefault(tile, List.of()),
                                    "cells", cells));
                });
        return out;
    }

    private static Map<String, Object> point(Waypoint p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("t", p.timestamp());
        m.put("lon", round(p.lon()));
        m.put("lat", round(p.lat()));
        return m;
    }

    private static double[] box(double w, double s, double e, double n) {
        return new double[] {w, s, e, n};
    }

    // A micro-degree is about 0.1 m: finer digits only make the file bigger.
    private static double round(double degrees) {
        return Math.round(degrees * 1e6) / 1e6;
    }

    private String toJson(Object data) {
        try {
            return json.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void replace(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
