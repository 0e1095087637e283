#!/usr/bin/env python3
"""gen.py - an independent oracle for CROSS events (quadfence contract section 10), and the
random sample it makes.

    gen.py generate DIR [--seed N]    # writes fences.jsonl, positions.jsonl, expected.jsonl, meta.json
    gen.py oracle DIR > events.jsonl  # the events of DIR's fences.jsonl and positions.jsonl

Written from the contract alone (sections 1-3, 6 and 10), standard library only. It knows
rectangles (antimeridian and degenerate ones included), Polygon and MultiPolygon Features (holes
included), circles, groups, timestamped upserts and deletes, ENTER/EXIT, and CROSS with
crossing-max-meters and crossing-max-gap. It does not know hysteresis, DWELL or entity-ttl: the
sample it generates uses none of them.

Exactness: the question "does the path meet this polygon or rectangle, and where first" is
answered with fractions.Fraction on the coordinates as parsed (IEEE doubles, as the job reads
them), so touches and near misses are decided exactly. For circles (haversine, R = 6371008.8 m)
the first point is found by sampling the path finely and bisecting, to far better than the
contract's 1e-7 degree. The generator drops positions whose events would flip under a
perturbation of 1e-9 degree (or 1 cm for circles), so that any correct implementation, exact or
careful floating point, agrees with expected.jsonl.
"""
import json
import math
import os
import random
import sys
from bisect import bisect_right
from datetime import datetime, timedelta, timezone
from fractions import Fraction as Fr

R = 6371008.8
T0 = 1732233600000
EPS_DEG = 1e-9
EPS_M = 0.01
NEG_INF = float("-inf")


# ------------------------------------------------------------------ input


def millis(v):
    if isinstance(v, bool):
        raise ValueError("timestamp")
    if isinstance(v, int):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
        return (datetime.fromisoformat(v.replace("Z", "+00:00")) - epoch) // timedelta(milliseconds=1)
    raise ValueError("timestamp")


def group_of(d):
    g = d.get("group")
    return "default" if g is None else g


class Shape:
    """A fence's geometry. kind: 'boxes' [(x0, y0, x1, y1)], 'polys' [[ring, ...], ...] with rings
    as lists of (x, y) (closed), or 'circle' (lon, lat, r). Coordinates are Fractions of the
    doubles, except the circle's floats."""

    def __init__(self, kind, data):
        self.kind, self.data = kind, data
        if kind == "circle":
            lon, lat, r = data
            dlat = math.degrees(r / R)
            coslat = max(math.cos(math.radians(min(89.999, abs(lat) + dlat))), 1e-12)
            dlon = min(180.0, dlat / coslat)
            self.bboxes = [(lon - dlon - 1e-6, lat - dlat - 1e-6, lon + dlon + 1e-6, lat + dlat + 1e-6)]
        elif kind == "boxes":
            self.bboxes = [tuple(float(v) for v in b) for b in data]
        else:
            self.bboxes = []
            for poly in data:
                xs = [float(x) for x, _ in poly[0]]
                ys = [float(y) for _, y in poly[0]]
                self.bboxes.append((min(xs), min(ys), max(xs), max(ys)))

    def near(self, lon, lat, eps=1e-6):
        """Cheap float prefilter: the point is in (or near) one of the shape's boxes."""
        for x0, y0, x1, y1 in self.bboxes:
            if y0 - eps <= lat <= y1 + eps:
                for shift in (-360, 0, 360):
                    if x0 + shift - eps <= lon <= x1 + shift + eps:
                        return True
        return False

    def float_rings(self):
        if not hasattr(self, "_fr"):
            self._fr = [[(float(x), float(y)) for x, y in ring] for ring in self.rings()]
        return self._fr

    def rings(self):
        """All rings (boxes as 4-vertex rings), as lists of (x, y) Fractions, closed."""
        if self.kind == "boxes":
            return [[(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)] for x0, y0, x1, y1 in self.data]
        if self.kind == "polys":
            return [ring for poly in self.data for ring in poly]
        return []


def parse_fence(d):
    """(group, fenceId, timestamp or -inf, Shape or None for a delete)."""
    g = group_of(d)
    ts = millis(d["timestamp"]) if d.get("timestamp") is not None else NEG_INF
    if d.get("type") == "Feature":
        fid = d["id"]
        if d.get("deleted") is True:
            return g, fid, ts, None
        geom = d["geometry"]
        polys = geom["coordinates"] if geom["type"] == "MultiPolygon" else [geom["coordinates"]]
        data = [[[(Fr(x), Fr(y)) for x, y in ring] for ring in poly] for poly in polys]
        return g, fid, ts, Shape("polys", data)
    fid = d["fenceId"]
    if d.get("deleted") is True:
        return g, fid, ts, None
    if "rect" in d:
        x0, y0, x1, y1 = (Fr(v) for v in d["rect"])
        boxes = [(x0, y0, x1, y1)] if x0 <= x1 else [(x0, y0, Fr(180), y1), (Fr(-180), y0, x1, y1)]
        return g, fid, ts, Shape("boxes", boxes)
    c = d["circle"]
    return g, fid, ts, Shape("circle", (float(c["lon"]), float(c["lat"]), float(c["radiusMeters"])))


class Fences:
    """Every fence's versions: (group, fenceId) -> sorted [(timestamp, Shape or None)]."""

    def __init__(self, records):
        self.versions = {}
        for i, d in enumerate(records):
            g, fid, ts, shape = parse_fence(d)
            self.versions.setdefault((g, fid), []).append((ts, i, shape))
        self.by_group, self.times = {}, {}
        for key, vs in self.versions.items():
            vs.sort(key=lambda v: (v[0], v[1]))
            self.times[key] = [v[0] for v in vs]
            self.by_group.setdefault(key[0], []).append(key)
        for keys in self.by_group.values():
            keys.sort()

    def in_force(self, group, t):
        """[(fenceId, Shape)] of the group at time t (changes with timestamp <= t applied)."""
        out = []
        for key in self.by_group.get(group, []):
            vs = self.versions[key]
            i = bisect_right(self.times[key], t) - 1
            if i >= 0 and vs[i][2] is not None:
                out.append((key[1], vs[i][2]))
        return out


# ------------------------------------------------------------------ geometry


def cross(ox, oy, ax, ay, bx, by):
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox)


def on_segment(px, py, ax, ay, bx, by):
    return (cross(ax, ay, bx, by, px, py) == 0 and min(ax, bx) <= px <= max(ax, bx)
            and min(ay, by) <= py <= max(ay, by))


def in_ring(px, py, ring):
    """The closed ring holds the point (boundary included); exact."""
    inside = False
    for (ax, ay), (bx, by) in zip(ring, ring[1:]):
        if on_segment(px, py, ax, ay, bx, by):
            return True
        if (ay > py) != (by > py):
            x = ax + (py - ay) * (bx - ax) / (by - ay)
            if x > px:
                inside = not inside
    return inside


def in_ring_strictly(px, py, ring):
    for (ax, ay), (bx, by) in zip(ring, ring[1:]):
        if on_segment(px, py, ax, ay, bx, by):
            return False
    return in_ring(px, py, ring)


def in_poly(px, py, poly):
    return in_ring(px, py, poly[0]) and not any(in_ring_strictly(px, py, h) for h in poly[1:])


def hav_m(lon1, lat1, lon2, lat2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1.0, math.sqrt(h)))


def inside(shape, lon, lat):
    """The position (doubles) lies in the closed shape; lon 180 and -180 are one meridian."""
    if shape.kind == "circle":
        clon, clat, r = shape.data
        return hav_m(clon, clat, lon, lat) <= r
    xs = [Fr(lon)] + ([Fr(-lon)] if abs(lon) == 180 else [])
    y = Fr(lat)
    for x in xs:
        if shape.kind == "boxes":
            if any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in shape.data):
                return True
        elif any(in_poly(x, y, poly) for poly in shape.data):
            return True
    return False


def unwrapped(a, b):
    """b's lon on the path from a (contract 10: the shorter way; at exactly 180, east from a)."""
    d = b[0] - a[0]
    if d > 180:
        return b[0] - 360
    if d <= -180:
        return b[0] + 360
    return b[0]


def first_in_box(ax, ay, dx, dy, box):
    """Smallest s in [0, 1] with A + s D in the closed box, or None (Liang-Barsky, exact)."""
    lo, hi = Fr(0), Fr(1)
    x0, y0, x1, y1 = box
    for p, d, mn, mx in ((ax, dx, x0, x1), (ay, dy, y0, y1)):
        if d == 0:
            if p < mn or p > mx:
                return None
        else:
            t1, t2 = (mn - p) / d, (mx - p) / d
            if t1 > t2:
                t1, t2 = t2, t1
            lo, hi = max(lo, t1), min(hi, t2)
            if lo > hi:
                return None
    return lo


def first_on_edge(ax, ay, dx, dy, cx, cy, ex, ey):
    """Smallest s in [0, 1] with A + s D on the closed edge C + t E, or None (exact)."""
    den = dx * ey - dy * ex
    wx, wy = cx - ax, cy - ay
    if den != 0:
        s = (wx * ey - wy * ex) / den
        t = (wx * dy - wy * dx) / den
        return s if 0 <= s <= 1 and 0 <= t <= 1 else None
    if wx * dy - wy * dx != 0 or (dx == 0 and dy == 0):
        return None
    dd = dx * dx + dy * dy
    s0 = (wx * dx + wy * dy) / dd
    s1 = ((wx + ex) * dx + (wy + ey) * dy) / dd
    lo, hi = max(min(s0, s1), Fr(0)), min(max(s0, s1), Fr(1))
    return lo if lo <= hi else None


def first_in_poly(ax, ay, dx, dy, poly):
    if in_poly(ax, ay, poly):
        return Fr(0)
    best = None
    for ring in poly:
        for (cx, cy), (qx, qy) in zip(ring, ring[1:]):
            s = first_on_edge(ax, ay, dx, dy, cx, cy, qx - cx, qy - cy)
            if s is not None and (best is None or s < best):
                best = s
    return best


def circle_first(clon, clat, r, a, blon, b):
    """Smallest s with the path point within r of the centre, or None; and how close the
    decision is (meters between the radius and the nearest approach, when missed)."""
    f = lambda s: hav_m(clon, clat, a[0] + s * (blon - a[0]), a[1] + s * (b[1] - a[1])) - r
    n = 4000
    vals = [f(i / n) for i in range(n + 1)]
    first = next((i for i, v in enumerate(vals) if v <= 0), None)
    if first is None:
        i = min(range(n + 1), key=lambda k: vals[k])
        lo, hi = max(0, i - 1) / n, min(n, i + 1) / n
        for _ in range(100):  # golden section for the nearest approach
            m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
            if f(m1) < f(m2):
                hi = m2
            else:
                lo = m1
        smin = (lo + hi) / 2
        if f(smin) > 0:
            return None, f(smin)
        first, right = None, smin
        left = max(0, i - 1) / n
    else:
        if first == 0:
            return 0.0, abs(vals[0])
        left, right = (first - 1) / n, first / n
    for _ in range(80):
        mid = (left + right) / 2
        if f(mid) <= 0:
            right = mid
        else:
            left = mid
    return right, abs(vals[0])


def circle_nearest(clon, clat, r, a, blon, b):
    """The nearest approach of the path to the centre, minus r (meters)."""
    f = lambda s: hav_m(clon, clat, a[0] + s * (blon - a[0]), a[1] + s * (b[1] - a[1])) - r
    n = 4000
    vals = [f(i / n) for i in range(n + 1)]
    i = min(range(n + 1), key=lambda k: vals[k])
    lo, hi = max(0, i - 1) / n, min(n, i + 1) / n
    for _ in range(100):
        m1, m2 = lo + (hi - lo) * 0.382, lo + (hi - lo) * 0.618
        if f(m1) < f(m2):
            hi = m2
        else:
            lo = m1
    return min(f((lo + hi) / 2), vals[i])


def first_point(shape, a, b):
    """(s, at lon, at lat) of the first point of the path a -> b in the shape, or None."""
    blon = unwrapped(a, b)
    if shape.kind == "circle":
        s, _ = circle_first(*shape.data, a, blon, b)
        if s is None:
            return None
        return s, norm_lon(a[0] + s * (blon - a[0])), a[1] + s * (b[1] - a[1])
    ax, ay, bx, by = Fr(a[0]), Fr(a[1]), Fr(blon), Fr(b[1])
    dx, dy = bx - ax, by - ay
    best = None
    for shift in (-360, 0, 360):
        sx = ax - shift  # the path shifted instead of the shape
        if shape.kind == "boxes":
            hits = [first_in_box(sx, ay, dx, dy, box) for box in shape.data]
        else:
            hits = [first_in_poly(sx, ay, dx, dy, poly) for poly in shape.data]
        for s in hits:
            if s is not None and (best is None or s < best):
                best = s
    if best is None:
        return None
    return best, norm_lon(float(ax + best * dx)), float(ay + best * dy)


def norm_lon(x):
    while x > 180:
        x -= 360
    while x < -180:
        x += 360
    return x


def bbox_meets(shape, a, b):
    """Cheap float prefilter: the path's bounding box meets one of the shape's (with shifts)."""
    blon = unwrapped(a, b)
    px0, px1 = min(a[0], blon) - 1e-6, max(a[0], blon) + 1e-6
    py0, py1 = min(a[1], b[1]) - 1e-6, max(a[1], b[1]) + 1e-6
    for x0, y0, x1, y1 in shape.bboxes:
        if y1 < py0 or y0 > py1:
            continue
        for shift in (-360, 0, 360):
            if x0 + shift <= px1 and x1 + shift >= px0:
                return True
    return False


# ------------------------------------------------------------------ robustness (generator only)


def pt_seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    dd = dx * dx + dy * dy
    t = 0.0 if dd == 0 else max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / dd))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))


def fragile_point(shape, lon, lat):
    if shape.kind == "circle":
        clon, clat, r = shape.data
        return abs(hav_m(clon, clat, lon, lat) - r) < EPS_M
    for shift in (-360, 0, 360):
        for ring in shape.float_rings():
            for (ax, ay), (bx, by) in zip(ring, ring[1:]):
                if pt_seg_dist(lon - shift, lat, ax, ay, bx, by) < EPS_DEG:
                    return True
    return False


def fragile_path(shape, a, b):
    blon = unwrapped(a, b)
    if shape.kind == "circle":
        return abs(circle_nearest(*shape.data, a, blon, b)) < EPS_M
    for shift in (-360, 0, 360):
        ax, bx = a[0] - shift, blon - shift
        for ring in shape.float_rings():
            for (cx, cy), (qx, qy) in zip(ring, ring[1:]):
                if (pt_seg_dist(cx, cy, ax, a[1], bx, b[1]) < EPS_DEG
                        or pt_seg_dist(ax, a[1], cx, cy, qx, qy) < EPS_DEG
                        or pt_seg_dist(bx, b[1], cx, cy, qx, qy) < EPS_DEG):
                    return True
    return False


# ------------------------------------------------------------------ the oracle


def oracle(fence_records, position_records, opts, fragile=None):
    """The events of contract sections 3 and 10 (no hysteresis, DWELL or expiry), in time order.
    With fragile (a set), adds the indexes of positions whose events are near a tie."""
    fences = Fences(fence_records)
    max_m = float(opts.get("crossing-max-meters", 50000))
    max_gap = int(opts.get("crossing-max-gap", 0))
    crossing = str(opts.get("crossing", "false")) == "true"
    by_entity = {}
    for i, p in enumerate(position_records):
        key = (group_of(p), p["entityId"])
        by_entity.setdefault(key, []).append((millis(p["timestamp"]), float(p["lat"]), float(p["lon"]), i))
    events = []
    for (g, ent), ps in by_entity.items():
        ps.sort()
        seen, prev, P = set(), None, set()
        for t, lat, lon, idx in ps:
            if (t, lat, lon) in seen:
                continue  # an exact duplicate counts once
            seen.add((t, lat, lon))
            here = fences.in_force(g, t)
            S = {fid for fid, shape in here if shape.near(lon, lat) and inside(shape, lon, lat)}
            if fragile is not None and any(shape.near(lon, lat) and fragile_point(shape, lon, lat)
                                           for _, shape in here):
                fragile.add(idx)
            base = {"entityId": ent, "timestamp": t, "lon": lon, "lat": lat}
            if g != "default":
                base["group"] = g
            crossed = []
            if crossing and prev is not None:
                pt, plat, plon, _ = prev
                dist = hav_m(plon, plat, lon, lat)
                if fragile is not None and abs(dist - max_m) < 1:
                    fragile.add(idx)
                if (max_gap == 0 or t - pt <= max_gap) and dist <= max_m:
                    a, b = (plon, plat), (lon, lat)
                    for fid, shape in here:
                        if fid in P or fid in S or not bbox_meets(shape, a, b):
                            continue
                        if fragile is not None and fragile_path(shape, a, b):
                            fragile.add(idx)
                        hit = first_point(shape, a, b)
                        if hit is not None:
                            s, at_lon, at_lat = hit
                            at_t = pt + math.floor((t - pt) * (s if isinstance(s, Fr) else Fr(s)))
                            crossed.append((fid, shape, {"timestamp": pt, "lon": plon, "lat": plat},
                                            {"timestamp": at_t, "lon": at_lon, "lat": at_lat}))
            props = {fid: fence_props(fence_records, g, fid, t) for fid in S | P | {c[0] for c in crossed}}
            for fid, _, frm, at in sorted(crossed, key=lambda c: c[0]):
                events.append(event(base, fid, "CROSS", props[fid], frm, at))
            for fid in sorted(P - S):
                events.append(event(base, fid, "EXIT", props[fid]))
            for fid in sorted(S - P):
                events.append(event(base, fid, "ENTER", props[fid]))
            P, prev = S, (t, lat, lon, idx)
    events.sort(key=lambda e: e["timestamp"])
    return events


_PROPS = {}


def fence_props(records, g, fid, t):
    """The properties of the fence's version in force at t (or of its last version, for a fence
    left because it was deleted)."""
    if id(records) not in _PROPS:
        table = {}
        for i, d in enumerate(records):
            key = (group_of(d), d.get("fenceId", d.get("id")))
            ts = millis(d["timestamp"]) if d.get("timestamp") is not None else NEG_INF
            table.setdefault(key, []).append((ts, i, None if d.get("deleted") else d.get("properties")))
        for v in table.values():
            v.sort(key=lambda x: (x[0], x[1]))
        _PROPS[id(records)] = table
    vs = _PROPS[id(records)].get((g, fid), [])
    last = None
    for ts, i, p in vs:
        if ts <= t and not records[i].get("deleted"):
            last = p
    return last


def event(base, fid, kind, props, frm=None, at=None):
    e = {"entityId": base["entityId"], "fenceId": fid, "event": kind, "timestamp": base["timestamp"],
         "lon": base["lon"], "lat": base["lat"]}
    if "group" in base:
        e["group"] = base["group"]
    if props is not None:
        e["properties"] = props
    if frm is not None:
        e["from"], e["at"] = frm, at
    return e


# ------------------------------------------------------------------ the generator

REGIONS = [  # (name, centre lon, centre lat)
    ("zurich", 8.5, 47.3), ("nyc", -74.0, 40.7), ("dateline", 180.0, -17.0), ("tokyo", 139.7, 35.7),
    ("rio", -43.2, -22.9), ("tromso", 18.9, 69.6), ("null-island", 0.0, 0.0),
]
HALF = 0.3  # half the width and height of a region, degrees
OPTS = {"max-out-of-orderness": 1000, "crossing": "true", "crossing-max-meters": 20000,
        "crossing-max-gap": 300000}


def rnd(x):
    return round(x, 7)


def wrap(x):
    x = norm_lon(x)
    return -180.0 + 1e-7 if x == -180 else (180.0 - 1e-7 if x == 180 else x)


def star(rng, cx, cy, radius, n):
    """A star-shaped ring around (cx, cy): sorted angles, gaps under 180 degrees."""
    angles = [2 * math.pi * i / n + rng.uniform(-0.3, 0.3) * 2 * math.pi / n for i in range(n)]
    pts = []
    for a in angles:
        r = radius * rng.uniform(0.5, 1.0)
        pts.append((rnd(cx + r * math.cos(a) / math.cos(math.radians(cy))), rnd(cy + r * math.sin(a))))
    return pts


def closed(pts):
    return [list(p) for p in pts] + [list(pts[0])]


def shrink(pts, cx, cy, k):
    return [(rnd(cx + k * (x - cx)), rnd(cy + k * (y - cy))) for x, y in pts]


def gen_fences(rng):
    out, n = [], 0

    def fid(kind):
        nonlocal n
        n += 1
        return f"{kind}-{n}"

    for name, lon0, lat0 in REGIONS:
        def spot(margin=0.05):
            return lon0 + rng.uniform(-HALF + margin, HALF - margin), lat0 + rng.uniform(-HALF + margin, HALF - margin)

        def grp():
            return {"group": "fleet-b"} if rng.random() < 0.2 else {}

        def props(i):
            return {"properties": {"name": f"{name} {i}", "lane": i % 4}} if rng.random() < 0.3 else {}

        for i in range(14):  # gates and yards: rectangles
            x, y = spot()
            w = rng.choice([rng.uniform(0.002, 0.02), rng.uniform(0.04, 0.15)])
            h = rng.choice([rng.uniform(0.002, 0.02), rng.uniform(0.04, 0.15)])
            out.append({"fenceId": fid(f"{name}-rect"), "rect": [rnd(wrap(x - w / 2)), rnd(y - h / 2), rnd(wrap(x + w / 2)), rnd(y + h / 2)], **grp(), **props(i)})
        for i in range(5):  # degenerate rectangles: lines across the roads, and a point
            x, y = spot()
            L = rng.uniform(0.01, 0.05)
            r = [x, y - L / 2, x, y + L / 2] if i % 2 else [x - L / 2, y, x + L / 2, y]
            if i == 4:
                r = [x, y, x, y]
            out.append({"fenceId": fid(f"{name}-line"), "rect": [rnd(wrap(r[0])), rnd(r[1]), rnd(wrap(r[2])), rnd(r[3])], **grp()})
        for i in range(7):  # polygons, some with a hole
            x, y = spot(0.12)
            if name == "dateline":
                x = lon0 + rng.choice([-1, 1]) * rng.uniform(0.1, 0.2)
            pts = star(rng, x, y, rng.uniform(0.02, 0.08), rng.randint(5, 12))
            rings = [closed(pts)]
            if i % 2 == 0:
                rings.append(closed(list(reversed(shrink(pts, x, y, 0.35)))))
            rings = [[[wrap(px), py] for px, py in ring] for ring in rings]
            out.append({"type": "Feature", "id": fid(f"{name}-poly"), "geometry": {"type": "Polygon", "coordinates": rings},
                        "properties": {"kind": "polygon"} if i % 3 == 0 else None, **grp()})
        for i in range(3):  # multipolygons: two stars side by side
            x, y = spot(0.15)
            if name == "dateline":
                x = lon0 + rng.choice([-1, 1]) * rng.uniform(0.17, 0.2)
            r = rng.uniform(0.02, 0.04)
            off = 2.5 * r / math.cos(math.radians(y))
            p1 = star(rng, x - off, y, r, rng.randint(4, 8))
            p2 = star(rng, x + off, y, r, rng.randint(4, 8))
            polys = [[closed(p1)], [closed(p2)]]
            if i == 0:
                polys[1].append(closed(list(reversed(shrink(p2, x + off, y, 0.3)))))
            polys = [[[[wrap(px), py] for px, py in ring] for ring in poly] for poly in polys]
            out.append({"type": "Feature", "id": fid(f"{name}-multi"), "geometry": {"type": "MultiPolygon", "coordinates": polys}, **grp()})
        for i in range(6):  # circles
            x, y = spot()
            out.append({"fenceId": fid(f"{name}-circle"), "circle": {"lon": rnd(wrap(x)), "lat": rnd(y), "radiusMeters": round(rng.uniform(200, 3000), 1)}, **grp()})
        if name == "dateline":  # polygons split at the antimeridian, as RFC 7946 asks
            for i in range(3):
                y = lat0 + rng.uniform(-0.25, 0.25)
                h = rng.uniform(0.01, 0.05)
                w1, w2 = rng.uniform(0.005, 0.05), rng.uniform(0.005, 0.05)
                east = [[rnd(180 - w1), rnd(y)], [180.0, rnd(y)], [180.0, rnd(y + h)], [rnd(180 - w1), rnd(y + h)], [rnd(180 - w1), rnd(y)]]
                west = [[-180.0, rnd(y)], [rnd(-180 + w2), rnd(y)], [rnd(-180 + w2), rnd(y + h)], [-180.0, rnd(y + h)], [-180.0, rnd(y)]]
                out.append({"type": "Feature", "id": fid("dateline-split"), "geometry": {"type": "MultiPolygon", "coordinates": [[east], [west]]}})
            for i in range(3):  # gates on the antimeridian line itself
                y = lat0 + rng.uniform(-0.25, 0.25)
                out.append({"fenceId": fid("dateline-meridian"), "rect": [180.0, rnd(y), 180.0, rnd(y + 0.03)]})
    # changes in time: gates moved, deleted, created, while the entities drive
    rects = [f for f in out if "rect" in f and f["rect"][0] != f["rect"][2]]
    changes = []
    for i in range(40):
        f = dict(rng.choice(rects))
        t = T0 + rng.randint(60000, 3000000) // 1000 * 1000 + i
        kind = rng.choice(["move", "delete", "create"])
        if kind == "delete":
            d = {"fenceId": f["fenceId"], "deleted": True, "timestamp": t}
            if "group" in f:
                d["group"] = f["group"]
            changes.append(d)
        else:
            dx, dy = rng.uniform(-0.05, 0.05), rng.uniform(-0.05, 0.05)
            r = f["rect"]
            g = {k: v for k, v in f.items() if k not in ("rect", "timestamp")}
            if kind == "create":
                g["fenceId"] = f["fenceId"] + f"-new{i}"
            g["rect"] = [rnd(wrap(r[0] + dx)), rnd(r[1] + dy), rnd(wrap(r[2] + dx)), rnd(r[3] + dy)]
            g["timestamp"] = t
            changes.append(g)
    changes.sort(key=lambda c: c["timestamp"])
    return out + changes


def gen_positions(rng):
    out = []
    for k in range(56):
        name, lon0, lat0 = REGIONS[k % len(REGIONS)]
        ent = f"{name}-{k}"
        g = {"group": "fleet-b"} if k % 5 == 0 else {}
        x, y = lon0 + rng.uniform(-0.2, 0.2), lat0 + rng.uniform(-0.2, 0.2)
        heading = rng.uniform(0, 2 * math.pi)
        t = T0 + rng.randint(0, 60000)
        speed = rng.uniform(20, 50)  # m/s
        for _ in range(rng.randint(70, 110)):
            out.append({"entityId": ent, "lon": rnd(wrap(x)), "lat": rnd(y), "timestamp": t, **g})
            u = rng.random()
            if u < 0.02:
                dt = 0  # the next position at the same millisecond
            elif u < 0.04:
                dt = rng.randint(300001, 700000)  # beyond crossing-max-gap
            elif u < 0.05:
                dt = 300000  # exactly crossing-max-gap: still consecutive
            else:
                dt = rng.randint(20000, 120000)
            t += dt
            heading += rng.gauss(0, 0.6)
            meters = speed * max(dt, 1000) / 1000
            if rng.random() < 0.03:
                meters = rng.uniform(22000, 40000)  # beyond crossing-max-meters
            meters = min(meters, 40000)
            if rng.random() < 0.08:
                meters = 0  # standing
            ny = y + math.degrees(meters * math.sin(heading) / R)
            nx = x + math.degrees(meters * math.cos(heading) / R) / math.cos(math.radians(y))
            if abs(ny - lat0) > HALF or abs(norm_lon(nx - lon0)) > HALF:
                heading += math.pi
                continue
            x, y = nx, ny
    out.sort(key=lambda p: p["timestamp"])
    return out


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n")


def generate(out_dir, seed):
    rng = random.Random(seed)
    fences = gen_fences(rng)
    positions = gen_positions(rng)
    dropped = 0
    while True:
        fragile = set()
        events = oracle(fences, positions, OPTS, fragile)
        if not fragile:
            break
        dropped += len(fragile)
        positions = [p for i, p in enumerate(positions) if i not in fragile]
    os.makedirs(out_dir, exist_ok=True)
    write_jsonl(os.path.join(out_dir, "fences.jsonl"), fences)
    write_jsonl(os.path.join(out_dir, "positions.jsonl"), positions)
    write_jsonl(os.path.join(out_dir, "expected.jsonl"), events)
    count = lambda k: sum(1 for e in events if e["event"] == k)
    meta = {"seed": seed, "size": "random", "bound_ms": 1000,
            "features": ["crossing", "polygons", "circles", "groups"],
            "engine_options": OPTS, "fence_lines": len(fences), "position_lines": len(positions),
            "bad_lines": 0, "events": {k: count(k) for k in ("CROSS", "ENTER", "EXIT")},
            "dropped_fragile_positions": dropped,
            "note": "made by gen.py (an oracle independent of the job, exact arithmetic); no hysteresis, DWELL or entity-ttl"}
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
        f.write("\n")
    print(json.dumps(meta["events"]), "positions", len(positions), "fences", len(fences), "dropped", dropped)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 10
        generate(sys.argv[2], seed)
    elif len(sys.argv) == 3 and sys.argv[1] == "oracle":
        d = sys.argv[2]
        read = lambda n: [json.loads(l) for l in open(os.path.join(d, n), encoding="utf-8") if l.strip()]
        meta = json.load(open(os.path.join(d, "meta.json")))
        opts = dict(meta.get("engine_options", {}))
        for e in oracle(read("fences.jsonl"), read("positions.jsonl"), opts):
            print(json.dumps(e, separators=(",", ":"), ensure_ascii=False))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
