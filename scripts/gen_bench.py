#!/usr/bin/env python3
"""Generate a deterministic synthetic city for `make bench`: a location history and campaigns.

    python3 scripts/gen_bench.py --size S --out bench-data/
    python3 scripts/gen_bench.py --size M --regions 100000 --out bench-data/   # M with 100k regions
    python3 scripts/gen_bench.py --size M --regions 100000 --side 32 --out bench-data/
                                       # ... on M's 32 x 32 km city: ten times denser places

writes into OUT/<size>/ (OUT/M-r100000/ and the like when an option overrides the size):

    history.jsonl            the fixes, formats.md 2.1
    campaigns/*.yaml         three campaigns and a settings file, formats.md 1
    campaigns/regions/*.geojson   most regions, as GeoJSON imports
    manifest.json            what was generated: counts, seed, file sizes, generation time

| size | fixes      | regions | users   | city        |
| ---- | ---------- | ------- | ------- | ----------- |
| S    | 100,000    | 1,000   | 1,000   | 10 x 10 km  |
| M    | 1,000,000  | 10,000  | 10,000  | 32 x 32 km  |
| L    | 10,000,000 | 100,000 | 100,000 | 100 x 100 km |

Measured on the 2-core build machine (CPython 3.11, one process): S 0.6 s, M 5.5 s, L 60 s
(951 MB of history), with the other core busy; `--jobs 2` splits the users over two processes
(same bytes; it helps only when both cores are free).

The city is a square around Livermore, California, sized for about 10 places per km2. Places
are restaurants, cafes, shops, gyms, malls, car dealers and competitors: circles of 50-400 m
(GeoJSON Point features; each import entry gives one radius) and polygons, some with holes and
some MultiPolygons. Users (about 100 fixes each, 35 to 250) live somewhere in the city and
follow one of five habits over a week (Mon 2026-11-16 to Sun 2026-11-22, Pacific Standard Time):
car shoppers who see three or four dealers on consecutive days, weekday lunchers at
competitors, gym-goers who get a coffee after the workout, diners and shoppers who stop at a
few places, and commuters who drive through without stopping. Phones report every 5-30 s while
driving or walking and every 30-150 s while still, with up to 20 m of jitter; about 1% of fixes
have an accuracy worse than 100 m.

The history is grouped by user (each user's lines contiguous, as a partitioned export writes
them; `--order mixed` interleaves blocks of 1,000 users by time instead), in time order except
for about 0.3% of adjacent pairs swapped. Most timestamps are RFC 3339 in UTC; about 4% are epoch
seconds (some with a fraction), 2% carry milliseconds, 1% a -08:00 offset; accuracy is null on
2% of lines and absent on 3%; 2% of users have integer ids. Every line is valid.

The campaigns use every condition kind (inside, visited with distinct/within/min_dwell,
dwelled, sequence, during, all, any, not), caps with and without a period, holdouts, an active
window, per-region tracking overrides, and settings with a per-user limit.

Deterministic: the same arguments give the same bytes (users are generated in blocks of 1,000,
each from its own seed, so `--jobs` does not change the output).
"""

import argparse
import json
import math
import os
import random
import sys
import time

SIZES = {"S": (100_000, 1_000), "M": (1_000_000, 10_000), "L": (10_000_000, 100_000)}
R = 6371008.8
LAT0, LON0 = 37.70, -121.76                 # city center
KY = 180.0 / (math.pi * R)                  # degrees of latitude per meter
KX = KY / math.cos(math.radians(LAT0))      # degrees of longitude per meter (at the center)
BASE = 1794816000                           # 2026-11-16T00:00:00-08:00 (a Monday), epoch seconds
UTC_SHIFT = 8 * 3600                        # PST = UTC-8 all week
BLOCK = 1000                                # users per seeded block
DAYS = 60                                   # the week, plus room for trips pushed late

# Place kinds: (kind, tag, campaign, share of regions, circle radii, polygon share)
KINDS = [
    ("restaurant", "restaurant", "city", 0.26, (50, 80, 120, 200), 0.15),
    ("cafe", "cafe", "city", 0.14, (50, 80, 120), 0.05),
    ("shop", "shop", "city", 0.14, (50, 80, 120, 200), 0.20),
    ("gym", "gym", "city", 0.06, (80, 120, 200), 0.20),
    ("mall", "mall", "city", 0.04, (300, 400), 0.60),
    ("dealer", "car-dealer", "car-shoppers", 0.10, (120, 200, 300), 0.25),
    ("competitor", "competitor", "competitor-lunch", 0.26, (50, 80, 120, 200), 0.35),
]
CITY_KINDS = {"restaurant", "cafe", "shop", "gym", "mall"}   # city features carry their kind as a tag
SUBTAGS = {
    "restaurant": ["italian", "mexican", "thai", "burgers", "pizza", "sushi"],
    "cafe": ["coffee", "juice", "bakery"],
    "shop": ["grocery", "fashion", "electronics", "hardware"],
    "gym": ["fitness", "yoga"],
    "mall": ["shopping"],
    "dealer": ["new-cars", "used-cars", "trucks", "luxury"],
    "competitor": ["burgers", "pizza", "tacos", "noodles"],
}


# ---------------------------------------------------------------------------------------------
# Regions

class Place:
    __slots__ = ("id", "kind", "x", "y", "r", "poly", "holes", "multi", "radius_class", "tags")


def make_places(n_regions, side, rng):
    """Place `n_regions` regions in a `side` x `side` m square; returns a list of Place."""
    places = []
    counts = [max(3, int(round(n_regions * k[3]))) for k in KINDS]
    counts[0] += n_regions - sum(counts)        # restaurants absorb the rounding
    if counts[0] < 3:
        raise SystemExit("error: --regions must be at least %d" % (3 * len(KINDS) + 5))
    # A few clusters (downtowns, auto rows) so that places are not uniformly spread.
    centers = [(rng.uniform(0.1, 0.9) * side, rng.uniform(0.1, 0.9) * side)
               for _ in range(max(3, n_regions // 200))]
    seq = 0
    for (kind, tag, campaign, share, radii, poly_share), count in zip(KINDS, counts):
        for _ in range(count):
            p = Place()
            seq += 1
            p.id = "%s-%d" % (kind, seq)
            p.kind = kind
            if rng.random() < 0.5:
                cx, cy = centers[rng.randrange(len(centers))]
                spread = side * 0.04
                p.x = min(side, max(0.0, rng.gauss(cx, spread)))
                p.y = min(side, max(0.0, rng.gauss(cy, spread)))
            else:
                p.x = rng.uniform(0.0, side)
                p.y = rng.uniform(0.0, side)
            p.r = float(rng.choice(radii))
            p.radius_class = int(p.r)
            p.poly = p.holes = p.multi = None
            if rng.random() < poly_share:
                p.radius_class = None
                with_hole = rng.random() < 0.4
                p.poly = star(p.x, p.y, p.r, rng, rng.randint(7, 12) if with_hole else rng.randint(4, 10))
                if with_hole:
                    p.holes = [hole(p.x, p.y, p.r, rng)]
                elif rng.random() < 0.15:
                    # a second, separate building: MultiPolygon
                    a = rng.uniform(0, 2 * math.pi)
                    qx, qy = p.x + 2.6 * p.r * math.cos(a), p.y + 2.6 * p.r * math.sin(a)
                    p.multi = star(qx, qy, p.r * 0.6, rng, rng.randint(4, 7))
            p.tags = [rng.choice(SUBTAGS[kind])] if rng.random() < 0.6 else []
            places.append(p)
    return places


def star(cx, cy, r, rng, k):
    """A simple (star-shaped) ring around (cx, cy), counterclockwise, radii 0.7r-1.0r."""
    step = 2 * math.pi / k
    out = []
    for i in range(k):
        a = i * step + rng.uniform(-0.15, 0.15) * step
        rr = r * rng.uniform(0.7, 1.0)
        out.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return out


def hole(cx, cy, r, rng):
    """A small clockwise ring within 0.28r of the center (well inside a star() ring with k >= 7)."""
    h = r * rng.uniform(0.1, 0.15)
    ox, oy = rng.uniform(-0.05, 0.05) * r, rng.uniform(-0.05, 0.05) * r
    return [(cx + ox - h, cy + oy - h), (cx + ox - h, cy + oy + h),
            (cx + ox + h, cy + oy + h), (cx + ox + h, cy + oy - h)]


def ll(x, y):
    return [round(LON0 + (x - HALF[0]) * KX, 7), round(LAT0 + (y - HALF[0]) * KY, 7)]


HALF = [0.0]   # half the city side, set in main(); x = y = HALF is the city center


def ring_json(ring):
    pts = [ll(x, y) for (x, y) in ring]
    pts.append(pts[0])
    return pts


def feature(p):
    props = {"name": "%s %s" % (p.kind.capitalize(), p.id.split("-")[-1])}
    tags = ([p.kind] if p.kind in CITY_KINDS else []) + p.tags
    if tags:
        props["tags"] = tags
    if p.poly is None:
        geom = {"type": "Point", "coordinates": ll(p.x, p.y)}
    elif p.multi is not None:
        geom = {"type": "MultiPolygon", "coordinates": [[ring_json(p.poly)], [ring_json(p.multi)]]}
    else:
        rings = [ring_json(p.poly)] + [ring_json(h) for h in (p.holes or [])]
        geom = {"type": "Polygon", "coordinates": rings}
    return {"type": "Feature", "id": p.id, "properties": props, "geometry": geom}


def write_geojson(path, places):
    with open(path, "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps(feature(p), separators=(",", ":")) for p in places))
        f.write("\n]}\n")


# ---------------------------------------------------------------------------------------------
# Campaigns

def import_entries(files, tag, extra=None):
    out = []
    for name, radius in files:
        out.append("  - import: regions/%s\n    tags: [%s]\n" % (name, tag))
        if radius is not None:
            out.append("    radius: %dm\n" % radius)
        if extra and radius in extra:
            out.append(extra[radius])
    return "".join(out)


def ll_text(x, y):
    lon, lat = ll(x, y)
    return '"%.6f, %.6f"' % (lat, lon)


def write_campaigns(cdir, places, side):
    rdir = os.path.join(cdir, "regions")
    os.makedirs(rdir, exist_ok=True)
    files = {"city": [], "car-shoppers": [], "competitor-lunch": []}
    by_campaign = {}
    for (kind, tag, campaign, _, _, _) in KINDS:
        by_campaign.setdefault(campaign, [])
    for p in places:
        campaign = next(k[2] for k in KINDS if k[0] == p.kind)
        by_campaign[campaign].append(p)
    short = {"city": "city", "car-shoppers": "dealers", "competitor-lunch": "competitors"}
    for campaign, ps in by_campaign.items():
        groups = {}
        for p in ps:
            groups.setdefault(p.radius_class, []).append(p)
        for rc in sorted(groups, key=lambda v: (v is None, v or 0)):
            name = "%s-%s.geojson" % (short[campaign], "polygons" if rc is None else "r%d" % rc)
            write_geojson(os.path.join(rdir, name), groups[rc])
            files[campaign].append((name, rc))

    # city: tags come from each feature's kind, so the import entries add a common tag and
    # the features carry their kind as a property tag too.
    c = side / 2.0
    city = """# Generated by scripts/gen_bench.py: the city's everyday places.
campaign: city
name: Everyday places
active:
  from: 2026-11-16
  until: 2026-11-30
  timezone: America/Los_Angeles
holdout: 5%%
regions:
  - id: city-hall
    tags: [landmark]
    circle: { center: %s, radius: 150m }
  - id: central-park
    tags: [park]
    polygon: [%s, %s, %s, %s]
    holes:
      - [%s, %s, %s, %s]
    confirm: 1m
%srules:
  - id: post-workout
    when:
      sequence:
        steps:
          - { tags: [gym], min_dwell: 30m }
          - { tags: [cafe] }
        within: 2h
    offer: smoothie
  - id: mall-browse
    when:
      all:
        - inside: { tags: [mall] }
        - not: { inside: { tags: [cafe] } }
    offer: mall-coupon
  - id: early-bird
    when:
      all:
        - inside: { tags: [gym] }
        - during: { hours: "05:00-08:00" }
    offer: early-bird
  - id: foodie
    when:
      any:
        - dwelled: { tags: [restaurant], over: 45m }
        - visited: { tags: [restaurant], at_least: 3, within: 7d, min_dwell: 20m }
    offer: foodie-club
  - id: weekend-brunch
    when:
      all:
        - dwelled: { tags: [cafe], over: 20m }
        - during: { days: [sat, sun], hours: "09:00-13:00" }
    offer: brunch
  - id: shopper
    when:
      visited: { tags: [shop], at_least: 2, distinct: true, within: 1d, min_dwell: 10m }
    offer: shop-points
  - id: civic
    when:
      any:
        - inside: { regions: [city-hall] }
        - dwelled: { regions: [central-park], over: 15m }
    offer: city-news
offers:
  - id: smoothie
    priority: 8
    cap: 1 per 24h
    message: A free smoothie after your workout
  - id: mall-coupon
    priority: 1
    cap: 3 per 7d
  - id: early-bird
    priority: 2
    cap: 1 per 1d
  - id: foodie-club
    priority: 4
    cap: 1
  - id: brunch
    priority: 3
    cap: 1 per 1w
  - id: shop-points
    priority: 2
    cap: 2 per 7d
    message: Double points this week
  - id: city-news
    cap: 1 per 7d
""" % (ll_text(c - 900, c + 700),
       ll_text(c + 600, c - 700), ll_text(c + 1400, c - 700), ll_text(c + 1400, c - 100), ll_text(c + 600, c - 100),
       ll_text(c + 900, c - 500), ll_text(c + 1100, c - 500), ll_text(c + 1100, c - 300), ll_text(c + 900, c - 300),
       import_entries(files["city"], "place"))
    dealers = """# Generated by scripts/gen_bench.py: car shoppers.
campaign: car-shoppers
holdout: 10%%
tracking: { hysteresis: 25m, confirm: 30s, max_accuracy: 80m, max_gap: 20m }
regions:
%srules:
  - id: three-dealers
    description: Visited three different car dealers within 72 hours
    when:
      visited: { tags: [car-dealer], at_least: 3, distinct: true, within: 72h, min_dwell: 5m }
    offer: test-drive
  - id: dealer-regular
    when:
      visited: { tags: [car-dealer], at_least: 2, within: 5d, min_dwell: 10m }
    offer: service-plan
offers:
  - id: test-drive
    priority: 10
    cap: 1 per 7d
    message: Book a test drive and get $500 off
  - id: service-plan
    priority: 3
    cap: 1
""" % import_entries(files["car-shoppers"], "car-dealer", {300: "    confirm: 1m\n"})
    lunch = """# Generated by scripts/gen_bench.py: competitors' lunch crowd.
campaign: competitor-lunch
tracking: { confirm: 30s }
regions:
%srules:
  - id: lunch
    when:
      all:
        - dwelled: { tags: [competitor], over: 10m }
        - during: { days: [mon, tue, wed, thu, fri], hours: "11:30-14:00", timezone: America/Los_Angeles }
    offer: lunch-coupon
  - id: evening
    when:
      all:
        - dwelled: { tags: [competitor], over: 30m }
        - not: { during: { days: [mon, tue, wed, thu, fri], hours: "11:00-15:00", timezone: America/Los_Angeles } }
    offer: dinner-coupon
  - id: switcher
    when:
      sequence:
        steps:
          - { tags: [competitor], min_dwell: 10m }
          - { tags: [competitor], min_dwell: 10m }
        within: 3d
    offer: loyalty
offers:
  - id: lunch-coupon
    priority: 5
    cap: 2 per 7d
    message: "Lunch with us: 20%% off"
  - id: dinner-coupon
    priority: 4
    cap: 1 per 3d
  - id: loyalty
    priority: 6
    cap: 1
""" % import_entries(files["competitor-lunch"], "competitor", {50: "    hysteresis: 10m\n"})
    settings = """# Generated by scripts/gen_bench.py.
settings:
  limits:
    per_user: 3 per 24h
  tracking: { hysteresis: 20m, confirm: 20s, max_accuracy: 100m, max_gap: 30m }
"""
    for name, text in (("city.yaml", city), ("car-shoppers.yaml", dealers),
                       ("competitor-lunch.yaml", lunch), ("settings.yaml", settings)):
        with open(os.path.join(cdir, name), "w", encoding="utf-8") as f:
            f.write(text)


def write_zones(cdir, side, k, rng):
    """Heavy overlap (`--overlap K`): a fourth campaign of K polygons that each cover the whole
    city (and its 150 m of jitter), so every fix lies inside K regions more than the city's own."""
    feats = []
    for i in range(k):
        lo, hi = -2000.0 - rng.uniform(0, 1000), side + 2000.0 + rng.uniform(0, 1000)
        ring = [(lo - rng.uniform(0, 500), lo - rng.uniform(0, 500)), (hi + rng.uniform(0, 500), lo - rng.uniform(0, 500)),
                (hi + rng.uniform(0, 500), hi + rng.uniform(0, 500)), (lo - rng.uniform(0, 500), hi + rng.uniform(0, 500))]
        feats.append({"type": "Feature", "id": "zone-%d" % (i + 1), "properties": {"name": "Zone %d" % (i + 1)},
                      "geometry": {"type": "Polygon", "coordinates": [ring_json(ring)]}})
    with open(os.path.join(cdir, "regions", "zones.geojson"), "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps(x, separators=(",", ":")) for x in feats))
        f.write("\n]}\n")
    with open(os.path.join(cdir, "zones.yaml"), "w", encoding="utf-8") as f:
        f.write("""# Generated by scripts/gen_bench.py --overlap %d: every fix lies inside all of these zones.
campaign: zones
regions:
  - import: regions/zones.geojson
    tags: [zone]
rules:
  - id: three-zones
    when:
      visited: { tags: [zone], at_least: 3, distinct: true, within: 1d }
    offer: zone-offer
  - id: zone-dweller
    when:
      dwelled: { tags: [zone], over: 2h }
    offer: zone-offer
offers:
  - id: zone-offer
    cap: 1 per 1d
""" % k)


PEER_KINDS = ("poly", "o1", "o10", "o100", "unvisited")


def ngon(cx, cy, r, rng, k=32):
    """A star-shaped ring of k vertices around (cx, cy), counterclockwise, radii 0.85r-1.0r."""
    step = 2 * math.pi / k
    return [(cx + r * rng.uniform(0.85, 1.0) * math.cos(i * step), cy + r * rng.uniform(0.85, 1.0) * math.sin(i * step))
            for i in range(k)]


def tile(x0, y0, t, per_side=8):
    """A square tile of side t as a ring of 4 x per_side vertices (collinear points on each side),
    so that the tiles of one layer share their edges exactly."""
    out = []
    for (ax, ay, bx, by) in ((x0, y0, x0 + t, y0), (x0 + t, y0, x0 + t, y0 + t),
                             (x0 + t, y0 + t, x0, y0 + t), (x0, y0 + t, x0, y0)):
        for i in range(per_side):
            f = i / per_side
            out.append((ax + (bx - ax) * f, ay + (by - ay) * f))
    return out


def write_peer(cdir, places, side, kind, rng):
    """Peer cases (`--peer KIND`): one campaign of 32-vertex polygons at `hysteresis: 0m` and
    `confirm: 0s` (SQL-like containment) with one rule a SQL engine can state too (three distinct
    places entered within 24 hours), as GeoJSON for geocampaign and as WKT in regions.csv for the
    peer. poly: the city's places as polygons; oK: K layers of tiles over the whole city, each
    layer shifted, so every fix lies inside exactly K polygons (about 10k polygons in all);
    unvisited: poly plus 9 times as many polygons east of the city that no fix reaches."""
    polys = []
    if kind in ("poly", "unvisited"):
        for p in places:
            polys.append((p.id, ngon(p.x, p.y, p.r, rng)))
    if kind == "unvisited":
        n = 9 * len(places)
        far = math.sqrt(n / 10.0) * 1000.0          # about 10 places per km2, as the city
        for i in range(n):
            x, y = side + 10000.0 + rng.uniform(0, far), rng.uniform(0, far)
            polys.append(("far-%d" % (i + 1), ngon(x, y, rng.choice((50.0, 80.0, 120.0, 200.0)), rng)))
    if kind.startswith("o"):
        k = int(kind[1:])
        g = max(1, int(round(math.sqrt(10000.0 / k))))
        t = (side + 1000.0) / g
        for layer in range(k):
            o = t * layer / k
            for i in range(g + 1):
                for j in range(g + 1):
                    polys.append(("t%d-%d-%d" % (layer, i, j), tile(-500.0 - o + i * t, -500.0 - o + j * t, t)))
    rdir = os.path.join(cdir, "regions")
    os.makedirs(rdir, exist_ok=True)
    with open(os.path.join(rdir, "places.geojson"), "w", encoding="utf-8") as f:
        f.write('{"type":"FeatureCollection","features":[\n')
        f.write(",\n".join(json.dumps({"type": "Feature", "id": pid, "properties": {},
                                         "geometry": {"type": "Polygon", "coordinates": [ring_json(ring)]}},
                                        separators=(",", ":")) for pid, ring in polys))
        f.write("\n]}\n")
    with open(os.path.join(os.path.dirname(cdir), "regions.csv"), "w", encoding="utf-8") as f:
        f.write("id,wkt\n")
        for pid, ring in polys:
            pts = ring_json(ring)
            f.write('%s,"POLYGON ((%s))"\n' % (pid, ", ".join("%.7f %.7f" % (lon, lat) for lon, lat in pts)))
    with open(os.path.join(cdir, "peer.yaml"), "w", encoding="utf-8") as f:
        f.write("""# Generated by scripts/gen_bench.py --peer %s: the campaign Benchmarks/peers/duckdb_campaign.py
# states in SQL (every decision is a trigger: no cap, holdout or limit).
campaign: peer
tracking: { hysteresis: 0m, confirm: 0s, max_accuracy: 100m, max_gap: 30m }
regions:
  - import: regions/places.geojson
    tags: [place]
rules:
  - id: three-places
    when:
      visited: { tags: [place], at_least: 3, distinct: true, within: 1d }
    offer: peer-offer
offers:
  - id: peer-offer
""" % kind)
    return len(polys)


# ---------------------------------------------------------------------------------------------
# Users and fixes

PERSONAS = [  # (name, share, relative fix budget)
    ("shopper", 0.08, 1.6),
    ("luncher", 0.15, 1.0),
    ("gym", 0.10, 1.1),
    ("regular", 0.40, 1.0),
    ("commuter", 0.27, 0.75),
]


class Done(Exception):
    pass


class Grid:
    """Places of one kind bucketed in 4 km cells, to pick places near a user."""

    def __init__(self, places, cell=4000.0):
        self.cell = cell
        self.cells = {}
        self.all = places
        for p in places:
            self.cells.setdefault((int(p.x // cell), int(p.y // cell)), []).append(p)

    def near(self, x, y, rng):
        cx, cy = int(x // self.cell), int(y // self.cell)
        for _ in range(4):
            lst = self.cells.get((cx + rng.randint(-1, 1), cy + rng.randint(-1, 1)))
            if lst:
                return lst[rng.randrange(len(lst))]
        return self.all[rng.randrange(len(self.all))]


def stop_point(p, rng):
    """A point well inside place p (for polygons with a hole: between the hole and the edge)."""
    a = rng.uniform(0, 2 * math.pi)
    if p.poly is None:
        d = rng.uniform(0.0, max(0.0, min(0.45 * p.r, p.r - 45.0)))
    else:
        d = rng.uniform(0.36, 0.44) * p.r if p.holes else rng.uniform(0.0, 0.4) * p.r
    return p.x + d * math.cos(a), p.y + d * math.sin(a)


def make_tables():
    days = []
    for d in range(DAYS + 2):
        t = BASE + d * 86400
        days.append(time.strftime("%Y-%m-%d", time.gmtime(t - (t % 86400))))
    sod = ["%02d:%02d:%02d" % (s // 3600, (s // 60) % 60, s % 60) for s in range(86400)]
    return days, sod


def gen_block(block):
    """Generate the lines of users [block*BLOCK, ...) as one string (settings in the global G)."""
    n_users_total, budgets, personas = G["users"], G["budgets"], G["personas"]
    grids, side, seed = G["grids"], G["side"], G["seed"]
    mixed = G["order"] == "mixed"
    rng = random.Random(seed * 7919 + block)
    rnd = rng.random
    uni = rng.uniform
    days, sod = TABLES
    first_day = (BASE // 86400)
    out_users = []
    lo, hi = block * BLOCK, min(n_users_total, (block + 1) * BLOCK)
    for u in range(lo, hi):
        budget = budgets[u]
        persona = personas[u]
        uid = ('%d' % (900000 + u)) if (u * 2654435761) % 100 < 2 else '"u-%06d"' % u
        lines = []
        times = []
        st = [0.0, 0.0, 0.0]     # t (seconds since local Monday midnight), x, y

        def emit():
            if len(lines) >= budget:
                raise Done
            t, x, y = st
            if mixed:
                times.append(t)
            r = rnd()
            if r < 0.01:
                jx, jy, acc = uni(-150, 150), uni(-150, 150), int(uni(101, 400))
            else:
                jx, jy, acc = uni(-14, 14), uni(-14, 14), int(3 + r * 45)
            lat = LAT0 + (y + jy - HALF[0]) * KY
            lon = LON0 + (x + jx - HALF[0]) * KX
            ti = int(t)
            e = BASE + ti
            r2 = rnd()
            if r2 < 0.90:
                dd = e // 86400 - first_day
                ts = '"%sT%sZ"' % (days[dd], sod[e % 86400])
            elif r2 < 0.94:
                ts = ('%d' % e) if r2 < 0.92 else ('%d.%03d' % (e, int((t - ti) * 1000)))
            elif r2 < 0.96:
                dd = e // 86400 - first_day
                ts = '"%sT%s.%03dZ"' % (days[dd], sod[e % 86400], int((t - ti) * 1000))
            elif r2 < 0.97:
                el = e - UTC_SHIFT
                dd = el // 86400 - first_day
                ts = '"%sT%s-08:00"' % (days[dd], sod[el % 86400])
            else:
                ts = '"%sT%sZ"' % (days[e // 86400 - first_day], sod[e % 86400])
            r3 = rnd()
            if r3 < 0.95:
                lines.append('{"user":%s,"ts":%s,"lat":%.6f,"lon":%.6f,"accuracy":%d}\n'
                             % (uid, ts, lat, lon, acc))
            elif r3 < 0.97:
                lines.append('{"user":%s,"ts":%s,"lat":%.6f,"lon":%.6f,"accuracy":null}\n'
                             % (uid, ts, lat, lon))
            else:
                lines.append('{"user":%s,"ts":%s,"lat":%.6f,"lon":%.6f}\n' % (uid, ts, lat, lon))

        def move(x1, y1, speed, dt_lo, dt_hi):
            x0, y0 = st[1], st[2]
            dx, dy = x1 - x0, y1 - y0
            dist = math.hypot(dx, dy)
            if dist < 1.0:
                return
            done = 0.0
            while True:
                dt = uni(dt_lo, dt_hi)
                done += speed * dt * uni(0.8, 1.2)
                st[0] += dt
                if done >= dist:
                    st[1], st[2] = x1, y1
                    emit()
                    return
                f = done / dist
                st[1], st[2] = x0 + dx * f, y0 + dy * f
                emit()

        def stay(seconds):
            end = st[0] + seconds
            while True:
                st[0] += uni(30.0, 150.0)
                if st[0] >= end:
                    st[0] = end
                    emit()
                    return
                emit()

        def drive(x1, y1):
            move(x1, y1, uni(9.0, 20.0), 5.0, 30.0)

        def visit(p, minutes):
            """Drive to p's parking lot, walk in, stay, walk back out."""
            sx, sy = stop_point(p, rng)
            a = math.atan2(sy - p.y, sx - p.x) + uni(-0.5, 0.5)
            lot = (p.x + (p.r + 40.0) * math.cos(a), p.y + (p.r + 40.0) * math.sin(a))
            drive(*lot)
            move(sx, sy, 1.3, 8.0, 20.0)
            stay(minutes * 60.0)
            move(lot[0], lot[1], 1.3, 8.0, 20.0)

        def start(day, hour, where=None):
            t = day * 86400 + hour * 3600 + uni(-600, 600)
            st[0] = max(st[0] + 1800.0, t)       # never before the previous trip ended
            st[1], st[2] = where or home
            emit()

        home = (uni(0, side), uni(0, side))
        work = (uni(0, side), uni(0, side))
        try:
            if persona == "shopper":
                d0 = rng.randint(0, 3)
                for i in range(rng.randint(3, 4)):
                    start(d0 + i, uni(10, 17))
                    visit(grids["dealer"].near(home[0], home[1], rng), uni(6, 25))
                    if rnd() < 0.3:
                        visit(grids["dealer"].near(st[1], st[2], rng), uni(6, 20))
                    drive(*home)
            elif persona == "luncher":
                for d in sorted(rng.sample(range(5), 3)):
                    start(d, uni(7.5, 9))
                    drive(*work)
                    st[0] = max(st[0] + 60.0, d * 86400 + uni(11.4, 13.0) * 3600)   # office: silent till lunch
                    emit()
                    visit(grids["competitor"].near(work[0], work[1], rng), uni(8, 45))
                    drive(*work)
            elif persona == "gym":
                for d in sorted(rng.sample(range(7), 3)):
                    start(d, uni(5.2, 7.0) if rnd() < 0.4 else uni(16, 19))
                    visit(grids["gym"].near(home[0], home[1], rng), uni(25, 75))
                    visit(grids["cafe"].near(st[1], st[2], rng), uni(8, 35))
                    drive(*home)
            elif persona == "regular":
                for d in sorted(rng.sample(range(7), 3)):
                    start(d, uni(9, 19))
                    for _ in range(rng.randint(1, 3)):
                        kind = rng.choice(("restaurant", "restaurant", "cafe", "shop", "shop", "mall",
                                           "competitor"))
                        visit(grids[kind].near(st[1], st[2], rng), uni(4, 70))
                    drive(*home)
            else:
                for d in range(5):
                    start(d, uni(7, 9))
                    drive(*work)
                    stay(uni(60, 200))
                    start(d, uni(17, 19), work)
                    drive(*home)
            d = 7
            while True:   # budget left: keep living, one errand a day
                start(d, uni(9, 18))
                visit(grids[rng.choice(("restaurant", "cafe", "shop"))].near(home[0], home[1], rng), uni(5, 40))
                drive(*home)
                d += 1
        except Done:
            pass
        # a few adjacent pairs out of order, as real exports have
        n = len(lines)
        for _ in range(int(n * 0.003)):
            i = rng.randrange(n - 1)
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
            if mixed:
                times[i], times[i + 1] = times[i + 1], times[i]
        if mixed:
            out_users.append(list(zip(times, lines)))
        else:
            out_users.append("".join(lines))
    if not mixed:
        return "".join(out_users)
    merged = [tl for user in out_users for tl in user]
    merged.sort(key=lambda tl: tl[0])        # stable: a user's swapped pairs keep their order if equal
    return "".join(line for _, line in merged)


TABLES = None
G = {}    # generation settings shared with worker processes (set before they fork)


def main():
    global TABLES, G
    ap = argparse.ArgumentParser(description="Generate a deterministic synthetic city for `make bench`.")
    ap.add_argument("--size", choices=sorted(SIZES), required=True, help="S, M or L")
    ap.add_argument("--out", default="bench-data", help="output folder (default bench-data/)")
    ap.add_argument("--regions", type=int, help="override the number of regions of the size")
    ap.add_argument("--fixes", type=int, help="override the number of fixes of the size")
    ap.add_argument("--users", type=int, help="override the number of users (default fixes/100)")
    ap.add_argument("--side", type=float,
                    help="city side in km (default: grows with the regions, about 10 places per km2)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--order", choices=("user", "mixed"), default="user",
                    help="user: each user's lines contiguous (default); mixed: blocks of 1,000 users interleaved")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1; output is the same)")
    ap.add_argument("--peer", choices=PEER_KINDS, help="instead of the three campaigns, the peer campaign "
                    "(polygons at hysteresis 0m, also as WKT in regions.csv; the history is that of the size)")
    ap.add_argument("--overlap", type=int, help="add a campaign of K regions that each cover the whole city "
                    "(every fix inside K regions more; the history is that of the size)")
    args = ap.parse_args()

    t_start = time.time()
    fixes, regions = SIZES[args.size]
    name = args.size
    name += ("-r%d" % args.regions) if args.regions is not None else ""
    name += ("-f%d" % args.fixes) if args.fixes is not None else ""
    name += ("-u%d" % args.users) if args.users is not None else ""
    name += ("-s%g" % args.side) if args.side is not None else ""
    name += "-mixed" if args.order == "mixed" else ""
    name += ("-o%d" % args.overlap) if args.overlap else ""
    name += ("-peer-%s" % args.peer) if args.peer else ""
    fixes = args.fixes if args.fixes is not None else fixes
    regions = args.regions if args.regions is not None else regions
    users = args.users if args.users is not None else max(1, fixes // 100)
    if fixes < users:
        raise SystemExit("error: fewer fixes than users")
    # the city grows with the places: about 10 places per km2, at least 8 x 8 km
    side = max(8000.0, math.sqrt(regions / 10.0) * 1000.0) if args.side is None else args.side * 1000.0
    HALF[0] = side / 2.0

    out = os.path.join(args.out, name)
    cdir = os.path.join(out, "campaigns")
    os.makedirs(cdir, exist_ok=True)
    for old in os.listdir(cdir):
        if old.endswith((".yaml", ".yml")):
            os.remove(os.path.join(cdir, old))
    rdir = os.path.join(cdir, "regions")
    if os.path.isdir(rdir):
        for old in os.listdir(rdir):
            if old.endswith(".geojson"):
                os.remove(os.path.join(rdir, old))

    rng = random.Random(args.seed)
    places = make_places(regions - 2, side, rng)     # + city-hall and central-park in city.yaml
    n_regions = len(places) + 2 + (args.overlap or 0)
    if args.peer:
        n_regions = write_peer(cdir, places, side, args.peer, random.Random(args.seed * 2003 + PEER_KINDS.index(args.peer)))
    else:
        write_campaigns(cdir, places, side)
    if args.overlap:
        write_zones(cdir, side, args.overlap, random.Random(args.seed * 1009 + args.overlap))
    t_regions = time.time()

    # users: persona and fix budget (scaled so that the budgets sum to exactly `fixes`)
    prng = random.Random(args.seed * 31 + 7)
    personas, weights = [], []
    cum = []
    acc = 0.0
    for (pname, share, _) in PERSONAS:
        acc += share
        cum.append(acc)
    for _ in range(users):
        r = prng.random() * acc
        i = next(k for k, c in enumerate(cum) if r < c or k == len(cum) - 1)
        personas.append(PERSONAS[i][0])
        weights.append(PERSONAS[i][2] * prng.uniform(0.5, 1.5))
    scale = fixes / sum(weights)
    budgets = [max(1, int(w * scale)) for w in weights]
    diff = fixes - sum(budgets)
    i = 0
    while diff != 0:
        step = 1 if diff > 0 else -1
        if budgets[i % users] + step >= 1:
            budgets[i % users] += step
            diff -= step
        i += 1

    grids = {}
    for kind in set(p.kind for p in places):
        grids[kind] = Grid([p for p in places if p.kind == kind])
    TABLES = make_tables()
    G = {"users": users, "budgets": budgets, "personas": personas, "grids": grids, "side": side,
         "seed": args.seed, "order": args.order}

    path = os.path.join(out, "history.jsonl")
    blocks = (users + BLOCK - 1) // BLOCK
    with open(path, "w", encoding="utf-8", newline="\n", buffering=1 << 22) as f:
        if args.jobs > 1:
            import multiprocessing
            ctx = multiprocessing.get_context("fork")
            with ctx.Pool(args.jobs) as pool:
                for text in pool.imap(gen_block, range(blocks), chunksize=1):
                    f.write(text)
        else:
            for b in range(blocks):
                f.write(gen_block(b))
    t_end = time.time()

    manifest = {
        "size": args.size, "name": name, "seed": args.seed, "fixes": fixes, "regions": n_regions,
        "users": users, "city_side_m": side, "order": args.order,
        "history_bytes": os.path.getsize(path),
        "seconds": {"regions": round(t_regions - t_start, 2), "history": round(t_end - t_regions, 2),
                    "total": round(t_end - t_start, 2)},
    }
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print("%s: %d fixes, %d users, %d regions -> %s (%.1f MB) in %.1f s"
          % (name, fixes, users, n_regions, out, manifest["history_bytes"] / 1e6, t_end - t_start),
          file=sys.stderr)


if __name__ == "__main__":
    main()
