#!/usr/bin/env python3
"""TEST TOOL, not part of the product: a seeded differential test of `geocampaign events` and
`geocampaign evaluate --include-suppressed` against scripts/spec_reference.py (an independent
Python reading of the spec). Needs PyYAML (`python3 -c 'import yaml'`).

Each seed generates a small campaign folder (circles, polygons with holes, GeoJSON imports with
Polygon/MultiPolygon/Point features, tracking overrides, settings with a per-user limit, rules
with every condition kind nested, active windows, holdouts, caps, priorities) and a JSON Lines
history for a few users (tracks in and out of regions, boundary jitter, equal timestamps, gaps,
poor accuracy, out-of-order lines, epoch and RFC 3339 timestamps with offsets and sub-millisecond
fractions, malformed lines), runs both implementations and compares events (exactly), decisions
(user, time, campaign, rule, offer, status, message; evidence as a set) and rejects (line, reason).

Usage:
  python3 scripts/difftest.py [--seeds 0:100] [--bin .build/debug/geocampaign] [--keep DIR]
  python3 scripts/difftest.py --seed 17 --show      # print the first differences of one seed
  python3 scripts/difftest.py --seeds 0:20 --big 200 # metamorphic: big multi-block input vs the small case
  python3 scripts/difftest.py --seeds 0:20 --gpx     # metamorphic: GPX tracks vs the same JSON Lines fixes
  python3 scripts/difftest.py --seeds 0:20 --state   # 2-6 batches through --state runs vs the one-shot run
  python3 scripts/difftest.py --seeds 0:20 --stream  # through `stream --state` vs the one-shot run
  python3 scripts/difftest.py --seeds 0:20 --change  # every campaign changed between two --state runs
  python3 scripts/difftest.py --seeds 0:20 --sorted  # grouped by user: --sorted against the file read whole
  python3 scripts/difftest.py --seeds 0:20 --csv     # the accepted lines as CSV against them as JSON Lines
  python3 scripts/difftest.py --seeds 0:20 --report  # report --format json (goals added) against the reference
  DIFFTEST_SCALE=10|100, DIFFTEST_ZONE=<IANA name>  # force large regions / the time zone near whose DST days tracks start
Failing cases are saved under --keep (default: a fresh temp dir) as seed-N/ with campaigns/,
history.jsonl, our outputs (ours-*.jsonl), the reference's (ref-*.jsonl) and diff.txt.
Fixes closer than 2 cm to any region's +-hysteresis threshold are nudged away (the spec's 1 cm
promise), so depth approximations cannot cause differences.
"""
import argparse, datetime, json, math, os, random, re, shutil, subprocess, sys, tempfile, time, zoneinfo

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import spec_reference as ref  # noqa: E402

R = 6371008.8
ZONES = ["UTC", "America/Los_Angeles", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "America/Santiago",
         "America/Havana"]
DST_DAYS = {"America/Los_Angeles": ["2026-03-08", "2026-11-01"], "Europe/Berlin": ["2026-03-29", "2026-10-25"],
            "Australia/Lord_Howe": ["2026-04-05", "2026-10-04"],
            # transitions at local midnight: the day itself has no 00:00 (or two 23:00s before it)
            "America/Santiago": ["2026-04-05", "2026-09-06", "2026-04-04", "2026-09-05"],
            "America/Havana": ["2026-03-08", "2026-11-01", "2026-03-07"]}
TAGS = ["food", "shop", "car", "gym", "no", "on", "Yes", "010", "1e3"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        r = self.r
        self.lat0 = r.uniform(-80, 80)
        self.lon0 = r.uniform(-170, 170)
        self.scale = r.choice([1, 1, 1, 1, 1, 1, 10, 10, 100])
        if os.environ.get("DIFFTEST_SCALE"):  # force a scale (and high latitudes for scale > 1)
            self.scale = int(os.environ["DIFFTEST_SCALE"])
            if self.scale > 1:
                self.lat0 = r.choice([-1, 1]) * r.uniform(55, 75)
        self.circles_only = False
        k = r.random()
        if k < 0.06:  # circles across the antimeridian
            self.lon0, self.scale, self.circles_only = r.choice([179.995, -179.995]), 1, True
        elif k < 0.1:  # circles around a pole
            self.lat0, self.scale, self.circles_only = r.choice([89.9, -89.9]), 1, True
        self.zone = os.environ.get("DIFFTEST_ZONE") or r.choice(ZONES)
        if self.zone in DST_DAYS and r.random() < 0.7:
            day = datetime.date.fromisoformat(r.choice(DST_DAYS[self.zone]))
        else:
            day = datetime.date(2026, 1, 1) + datetime.timedelta(days=r.randrange(0, 365))
        mid = ref.local_to_ms(datetime.datetime(day.year, day.month, day.day), zoneinfo.ZoneInfo(self.zone))
        self.t0 = mid + r.randrange(-6 * 3600, 2 * 3600) * 1000
        self.day = day

    # geometry helpers -------------------------------------------------------------
    def ll(self, x, y, lat0=None, lon0=None):
        lat0 = self.lat0 if lat0 is None else lat0
        lon0 = self.lon0 if lon0 is None else lon0
        lon = lon0 + math.degrees(x / (R * math.cos(math.radians(lat0))))
        lon = (lon + 180.0) % 360.0 - 180.0
        return max(-90.0, min(90.0, lat0 + math.degrees(y / R))), lon

    def coord_text(self, lat, lon):
        k = self.r.random()
        if k < 0.4:
            return "\"%.7f, %.7f\"" % (lat, lon)
        if k < 0.6:
            return "\"%.7f,%.7f\"" % (lat, lon)
        return "{lat: %.7f, lon: %.7f}" % (lat, lon)

    def star(self, cx, cy, rad, n=None, jitter=0.5):
        r = self.r
        n = n or r.randint(3, 7)
        pts = []
        for i in range(n):
            a = 2 * math.pi * (i + r.uniform(-0.25, 0.25)) / n
            rr = rad * r.uniform(1 - jitter, 1)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts

    def dist_text(self, m):
        k = self.r.random()
        if k < 0.6:
            return "%gm" % m
        if k < 0.7:
            return "%g m" % m
        if k < 0.8:
            return "%g" % m
        if k < 0.9:
            return "%gkm" % (m / 1000)
        if k < 0.95:
            return "%gft" % round(m / 0.3048, 1)
        return "%gmi" % round(m / 1609.344, 4)

    # campaigns ---------------------------------------------------------------------
    def region_entries(self, cdir, cid):
        r = self.r
        S = self.scale
        out = []  # yaml lines
        regions = []  # (id, tags, center_xy)
        n = r.randint(1, 4)
        for i in range(n):
            cx, cy = S * r.uniform(-1200, 1200), S * r.uniform(-1200, 1200)
            tags = r.sample(TAGS, r.randint(0, 2))
            over = []
            if r.random() < 0.3:
                over.append("    hysteresis: %s" % self.dist_text(r.choice([0, 5, 10, 25, 40, 150, 600])))
            if r.random() < 0.3:
                over.append("    confirm: %s" % r.choice(["0s", "5s", "20s", "1m", "1m30s"]))
            kind = r.random() * (0.35 if self.circles_only else 1)
            rid = "%s-%d" % (r.choice(["r", "R", "reg", "z"]), i) if r.random() < 0.9 else ["off", "0x1F", "1.50", "~x"][i]
            if tags and kind < 0.7:
                over.append("    tags: [%s]" % ", ".join(tags))
            if kind < 0.35:
                rad = S * r.uniform(60, 400)
                la, lo = self.ll(cx, cy)
                out.append("  - id: %s" % rid)
                out.append("    circle: { center: %s, radius: %s }" % (self.coord_text(la, lo), self.dist_text(round(rad, 1))))
                regions.append((rid, tags, (cx, cy)))
            elif kind < 0.7:
                rad = S * r.uniform(120, 450)
                nv = r.randint(3, 8)
                outer = self.star(cx, cy, rad, n=nv, jitter=0.4)
                out.append("  - id: %s" % rid)
                out.append("    polygon:")
                ring = [self.ll(x, y) for x, y in outer]
                if r.random() < 0.5:
                    ring.append(ring[0])
                for la, lo in ring:
                    out.append("      - %s" % self.coord_text(la, lo))
                if nv >= 5 and r.random() < 0.6:
                    out.append("    holes:")
                    for hc in range(r.randint(1, 2)):
                        off = (rad * 0.2 * (1 if hc else -1), 0)
                        hole = self.star(cx + off[0], cy + off[1], rad * 0.12, n=r.randint(3, 5), jitter=0.3)
                        out.append("      -")
                        for x, y in hole:
                            out.append("        - %s" % self.coord_text(*self.ll(x, y)))
                regions.append((rid, tags, (cx, cy)))
            else:
                feats = []
                fname = "%s-%d.geojson" % (cid, i)
                has_point = False
                idp = r.choice([None, None, "code"])
                many = r.random() < 0.15  # an import of many features, as official data sets are
                for j in range(r.randint(20, 60) if many else r.randint(1, 3)):
                    spread = 1500 if many else 500
                    fcx, fcy = cx + S * r.uniform(-spread, spread), cy + S * r.uniform(-spread, spread)
                    fid = "%s-f%d" % (rid, j)
                    k = r.random()
                    def lonlat(pts):
                        ring = [[round(self.ll(x, y)[1], 7), round(self.ll(x, y)[0], 7)] for x, y in pts]
                        return ring + [ring[0]]
                    if k < 0.35 or self.circles_only:
                        geom = {"type": "Point", "coordinates": [round(self.ll(fcx, fcy)[1], 7), round(self.ll(fcx, fcy)[0], 7)]}
                        has_point = True
                    elif k < 0.65:
                        rings = [lonlat(self.star(fcx, fcy, S * r.uniform(120, 350), jitter=0.3))]
                        if r.random() < 0.4:
                            rings.append(lonlat(self.star(fcx, fcy, S * 25, n=4, jitter=0.2)))
                        geom = {"type": "Polygon", "coordinates": rings}
                    else:
                        parts = []
                        for q in range(2):
                            px = fcx + (q * S * r.uniform(150, 500))
                            parts.append([lonlat(self.star(px, fcy, S * r.uniform(100, 260), jitter=0.3))])
                        geom = {"type": "MultiPolygon", "coordinates": parts}
                    props = {"name": "F %d" % j}
                    ftags = r.sample(TAGS, r.randint(0, 1))
                    if ftags:
                        props["tags"] = ftags
                    feat = {"type": "Feature", "geometry": geom, "properties": props}
                    if idp:
                        fid = 9000 + 100 * i + j if r.random() < 0.5 else "k%d%d" % (i, j)
                        props[idp] = fid
                        fid = str(fid)
                        feat["id"] = "ignored-%d" % j
                    elif r.random() < 0.4:
                        feat["id"] = fid
                    elif r.random() < 0.5:
                        fid = 7000 + 100 * i + j
                        feat["id"] = fid
                        fid = str(fid)
                    else:
                        props["id"] = fid
                    feats.append(feat)
                    regions.append((fid, tags + ftags, (fcx, fcy)))
                with open(os.path.join(cdir, fname), "w") as f:
                    json.dump({"type": "FeatureCollection", "features": feats}, f)
                out.append("  - import: %s" % fname)
                if idp:
                    out.append("    id_property: %s" % idp)
                if tags:
                    out.append("    tags: [%s]" % ", ".join(tags))
                if has_point or r.random() < 0.2:
                    out.append("    radius: %s" % self.dist_text(round(S * r.uniform(60, 300), 1)))
            out.extend(over)
        return out, regions

    def selector(self, regions):
        r = self.r
        ids = [x[0] for x in regions]
        tags = sorted({t for x in regions for t in x[1]})
        parts = []
        if not tags or r.random() < 0.6:
            parts.append("regions: [%s]" % ", ".join(r.sample(ids, r.randint(1, min(3, len(ids))))))
        if tags and (not parts or r.random() < 0.3):
            parts.append("tags: [%s]" % ", ".join(r.sample(tags, r.randint(1, min(2, len(tags))))))
        return parts

    def cond(self, regions, depth):
        r = self.r
        kinds = ["inside", "visited", "dwelled", "sequence", "during"]
        if depth < 2:
            kinds += ["all", "any", "not", "all"]
        k = r.choice(kinds)
        if k == "inside":
            return {"inside": self.selector(regions)}
        if k == "visited":
            f = self.selector(regions)
            if r.random() < 0.6:
                f.append("at_least: %d" % r.randint(1, 3))
            if r.random() < 0.4:
                f.append("distinct: %s" % r.choice(["true", "false"]))
            if r.random() < 0.6:
                f.append("within: %s" % r.choice(["5m", "30m", "1h", "2h30m", "1d"]))
            if r.random() < 0.5:
                f.append("min_dwell: %s" % r.choice(["0s", "30s", "2m", "10m"]))
            return {"visited": f}
        if k == "dwelled":
            return {"dwelled": self.selector(regions) + ["over: %s" % r.choice(["0s", "1m", "5m", "20m"])]}
        if k == "sequence":
            steps = []
            for _ in range(r.randint(2, 3)):
                s = self.selector(regions)
                if r.random() < 0.4:
                    s.append("min_dwell: %s" % r.choice(["0s", "1m", "5m"]))
                steps.append("{ %s }" % ", ".join(s))
            return {"sequence": ["steps: [%s]" % ", ".join(steps), "within: %s" % r.choice(["10m", "1h", "3h"])]}
        if k == "during":
            f = []
            if r.random() < 0.5:
                f.append("days: [%s]" % ", ".join(r.sample(DAYS, r.randint(1, 6))))
            if r.random() < 0.8:
                f.append("hours: \"%s\"" % r.choice(["%02d:00-%02d:00" % (r.randrange(24), r.randrange(25))] * 3 + ["09:00-17:00", "22:00-02:00", "01:30-03:00", "02:15-02:45",
                                                    "00:00-24:00", "18:00-24:00", "23:00-23:00", "02:00-02:30",
                                                    "03:00-01:00", "%02d:%02d-%02d:%02d" % (r.randrange(24), r.choice([0, 15, 30]), r.randrange(25), 0)]))
            if r.random() < 0.6:
                f.append("timezone: %s" % (self.zone if r.random() < 0.5 else r.choice(ZONES)))
            return {"during": f}
        if k == "not":
            return {"not": self.cond(regions, depth + 1)}
        return {k: [self.cond(regions, depth + 1) for _ in range(r.randint(2, 3))]}

    def cond_yaml(self, c, ind):
        (k, v), = c.items()
        pad = " " * ind
        if k in ("all", "any"):
            lines = [pad + k + ":"]
            for sub in v:
                sl = self.cond_yaml(sub, ind + 4)
                lines.append(pad + "  - " + sl[0].lstrip())
                lines += sl[1:]
            return lines
        if k == "not":
            return [pad + "not:"] + self.cond_yaml(v, ind + 2)
        return [pad + "%s: { %s }" % (k, ", ".join(v))]

    def instant_text(self, ms):
        r = self.r
        dt = datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc)
        if r.random() < 0.5:
            off = r.choice([0, 60, -480, 330, 120])
            dt = dt.astimezone(datetime.timezone(datetime.timedelta(minutes=off)))
        s = dt.isoformat(timespec="milliseconds" if ms % 1000 else "seconds")
        return s.replace("+00:00", "Z") if r.random() < 0.5 else s

    def campaign(self, cdir, ci, span_ms):
        r = self.r
        cid = r.choice(["camp", "Camp", "c.x", "c_y", "promo"]) + "-%d" % ci
        lines = ["campaign: %s" % cid]
        tz = None
        if r.random() < 0.4:
            lines.append("active:")
            if r.random() < 0.5:
                tz = self.zone if r.random() < 0.5 else r.choice(ZONES)
                lines.append("  timezone: %s" % tz)
            ztz = zoneinfo.ZoneInfo(tz or "UTC")
            a = self.t0 + r.randrange(-span_ms // 2, span_ms)
            b = a + r.randrange(600000, 2 * span_ms)
            for key, ms in (("from", a), ("until", b)):
                if key == "until" and r.random() < 0.2:
                    continue
                if key == "from" and r.random() < 0.2:
                    continue
                if r.random() < 0.4:
                    d = datetime.datetime.fromtimestamp(ms / 1000, ztz).date()
                    if key == "until":
                        d += datetime.timedelta(days=1)
                    lines.append("  %s: %s" % (key, d.isoformat()))
                else:
                    txt = self.instant_text(ms)
                    lines.append("  %s: %s" % (key, txt if r.random() < 0.5 else '"%s"' % txt))
            if lines[-1] == "active:" or lines[-1].startswith("  timezone"):
                lines.append("  from: 2000-01-01")
        if r.random() < 0.5:
            lines.append("holdout: %s" % r.choice(["0%", "10%", "12.5%", "33.33%", "50%", "49.99%", "5%", "25%"]))
        if r.random() < 0.5:
            tr = []
            for k, vals in (("hysteresis", ["0m", "10m", "20m", "30m", "0.2km", "1000ft"]), ("confirm", ["0s", "10s", "20s", "1m"]),
                            ("max_accuracy", ["30m", "50m", "100m"]), ("max_gap", ["2m", "5m", "10m", "30m", "1h"])):
                if r.random() < 0.5:
                    tr.append("  %s: %s" % (k, r.choice(vals)))
            if tr:
                lines += ["tracking:"] + tr
        reg_lines, regions = self.region_entries(cdir, cid)
        lines.append("regions:")
        lines += reg_lines
        offers = ["o%d" % i for i in range(r.randint(1, 3))]
        lines.append("rules:")
        for ri in range(r.randint(1, 4)):
            c = self.cond(regions, 0)
            lines.append("  - id: %s" % (r.choice(["rule", "Rule", "r", "a"]) + "-%d" % ri if r.random() < 0.9 else ["yes", "007", "true", "on"][ri]))
            lines.append("    when:")
            lines += self.cond_yaml(c, 6)
            lines.append("    offer: %s" % r.choice(offers))
        lines.append("offers:")
        anchored = r.random() < 0.25  # YAML anchors and merge keys (formats 1.6)
        for oi, o in enumerate(offers):
            if anchored and oi == 0:
                lines.append("  - &base")
                lines.append("    id: %s" % o)
            elif anchored:
                lines.append("  - <<: *base")
                lines.append("    id: %s" % o)
            else:
                lines.append("  - id: %s" % o)
            if r.random() < 0.7:
                p = r.choice([0, 0, 1, 1, 5, 10, -1])
                lines.append("    priority: %s" % (p if r.random() < 0.8 else '"%d"' % p))
            if r.random() < 0.6:
                lines.append("    cap: %s" % r.choice(["1", "2", "1 per 10m", "2 per 1h", "1 per 1d", "3 per 30m"]))
            if r.random() < 0.5:
                lines.append("    message: \"Offer %s of %s\"" % (o, cid))
        with open(os.path.join(cdir, "%s.%s" % (cid, r.choice(["yaml", "yaml", "yml"]))), "w") as f:
            f.write("\n".join(lines) + "\n")
        return cid, regions

    def settings(self, cdir):
        r = self.r
        if r.random() < 0.3:
            return
        lines = ["settings:"]
        if r.random() < 0.7:
            lines.append("  limits:")
            lines.append("    per_user: %s" % r.choice(["1 per 30m", "2 per 1h", "3 per 1d", "1 per 5m", "2 per 10m"]))
        if r.random() < 0.6:
            lines.append("  tracking: { %s }" % ", ".join(
                "%s: %s" % (k, r.choice(v)) for k, v in (("hysteresis", ["5m", "15m", "20m"]), ("confirm", ["0s", "15s", "30s"]),
                                                         ("max_accuracy", ["40m", "80m"]), ("max_gap", ["3m", "15m", "45m"]))
                if r.random() < 0.5))
        if len(lines) == 1:
            return
        with open(os.path.join(cdir, "settings.yaml"), "w") as f:
            f.write("\n".join(lines) + "\n")

    # history -------------------------------------------------------------------------
    def ts_text(self, ms):
        r = self.r
        k = r.random()
        sub = ""
        if r.random() < 0.15:
            sub = r.choice(["5", "4999", "5001", "1", "9", "50"])
        if k < 0.3:
            if ms % 1000 == 0 and not sub and r.random() < 0.5:
                return "%d" % (ms // 1000)
            s = "%d.%03d%s" % (ms // 1000, ms % 1000, sub)
            if r.random() < 0.05:
                return "%de-3" % ms
            return s
        dt = datetime.datetime.fromtimestamp(ms // 1000, datetime.timezone.utc)
        off = r.choice([0, 0, 0, 60, -480, 330, -90, 765])
        dt = dt.astimezone(datetime.timezone(datetime.timedelta(minutes=off)))
        frac = ""
        if ms % 1000 or sub or r.random() < 0.2:
            digits = "%03d%s" % (ms % 1000, sub)
            if not sub and r.random() < 0.5:
                digits = digits.rstrip("0") or "0"
            frac = "." + digits
        z = dt.strftime("%Y-%m-%dT%H:%M:%S") + frac
        if off == 0 and r.random() < 0.7:
            return '"%sZ"' % z
        return '"%s%s"' % (z, dt.strftime("%z")[:3] + ":" + dt.strftime("%z")[3:])

    def edge_point(self, region):
        """A point on the region's boundary (depth 0), found along a random bearing from its center."""
        r = self.r
        cx, cy = region[2]
        refs = self.ref_regions.get(region[0], [])
        if not refs:
            return None
        reg = r.choice(refs)
        a = r.uniform(0, 2 * math.pi)
        def dep(s):
            return ref.depth(reg, *self.ll(cx + s * math.cos(a), cy + s * math.sin(a)))
        prev, d0 = 0.0, dep(0.0)
        for k in range(1, 160):
            s = k * 10.0 * self.scale
            d1 = dep(s)
            if (d0 > 0) != (d1 > 0):
                lo, hi = prev, s
                for _ in range(30):
                    mid = (lo + hi) / 2
                    if (dep(mid) > 0) == (d0 > 0):
                        lo = mid
                    else:
                        hi = mid
                return cx + lo * math.cos(a), cy + lo * math.sin(a)
            prev, d0 = s, d1
        return None

    def sessions(self, all_regions):
        """One track, or (multi-day mode) a few tracks on different days."""
        r = self.r
        if r.random() < 0.7:
            return self.track(all_regions, self.t0 + r.randrange(0, 1800) * 1000, r.randrange(1, 6))
        out = []
        for day in sorted(r.sample(range(0, 9), r.randint(2, 4))):
            start = self.t0 + day * 86400000 + r.randrange(-3 * 3600, 3 * 3600) * 1000
            if out and start <= out[-1][0]:
                continue
            out += self.track(all_regions, start, r.randrange(1, 3))
        return out

    def track(self, all_regions, t, hours):
        r = self.r
        S = self.scale
        end = t + hours * 3600 * 1000
        x, y = S * r.uniform(-1500, 1500), S * r.uniform(-1500, 1500)
        fixes = []
        boundary = r.random() < self.boundary_bias
        while t < end:
            tgt = r.choice(all_regions)[2] if r.random() < 0.8 else (S * r.uniform(-1500, 1500), S * r.uniform(-1500, 1500))
            tx, ty = tgt[0] + S * r.uniform(-250, 250), tgt[1] + S * r.uniform(-250, 250)
            edge = boundary and r.random() < 0.7 and self.edge_point(r.choice(all_regions))
            if edge:
                tx, ty = edge
            speed = S * r.uniform(1, 12)
            step = r.choice([5, 10, 20, 30, 60])
            while t < end and math.hypot(tx - x, ty - y) > speed * step:
                dd = math.hypot(tx - x, ty - y)
                x += (tx - x) / dd * speed * step
                y += (ty - y) / dd * speed * step
                t += step * 1000 + r.randrange(-400, 400)
                fixes.append([t, x + r.gauss(0, 5), y + r.gauss(0, 5)])
            dwell = r.randrange(0, 25 * 60)
            stop = t + dwell * 1000
            spread = r.choice([3, 15, 40])
            pace = r.choice([[5, 10, 15, 30, 45], [1, 2, 3, 5], [10, 20, 30], [60, 120, 180, 300, 600]])
            while t < min(stop, end):
                t += r.choice(pace) * 1000 + r.choice([0, r.randrange(0, 1000)])
                if r.random() < 0.03:
                    t += r.randrange(1, 70) * 60000
                fixes.append([t, tx + r.gauss(0, spread), ty + r.gauss(0, spread)])
            if r.random() < 0.1:
                t += r.randrange(1, 90) * 60000
        return fixes


def generate(seed, cdir, hist):
    g = Gen(seed)
    r = g.r
    os.makedirs(cdir)
    all_regions = []
    for ci in range(r.randint(1, 3)):
        _, regions = g.campaign(cdir, ci, 4 * 3600 * 1000)
        all_regions += regions
    g.settings(cdir)
    camps, _ = ref.load(cdir)
    g.ref_regions = {}
    for c in camps:
        for reg in c["regions"]:
            g.ref_regions.setdefault(reg["id"], []).append(reg)
    g.boundary_bias = r.choice([0.0, 0.5, 1.0])
    users = r.sample(["u1", "U2", "u-3", 17, "\u00fc4", "42", "b", "a b", "q\"x", "t\tab", "\U0001F600", "e\u0301", "\u00e9", "\u2028", "/"], r.randint(1, 4))
    lines = []
    for u in users:
        for t, x, y in g.sessions(all_regions):
            la, lo = g.ll(x, y)
            for _ in range(20):
                close = False
                for c in camps:
                    for reg in c["regions"]:
                        d = ref.depth(reg, la, lo)
                        if abs(d - reg["h"]) < 0.02 or abs(d + reg["h"]) < 0.02:
                            close = True
                if not close:
                    break
                la += r.uniform(-1, 1) * 1e-6
            lines.append((t, u, la, lo))
    lines.sort(key=lambda l: l[0])
    blind = set(r.sample(users, 1)) if r.random() < 0.1 else set()  # a user with no used fix at all
    if r.random() < 0.15:  # a user with a single fix
        lines.append((g.t0 + r.randrange(0, 3600000), "solo", *g.ll(*r.choice(all_regions)[2])))
    lines.sort(key=lambda l: l[0])
    out = []
    prev_t = None
    for t, u, la, lo in lines:
        if prev_t is not None and r.random() < 0.03:
            t = prev_t
        prev_t = t
        o = ['"user": %s' % json.dumps(u, ensure_ascii=r.random() < 0.5), '"ts": %s' % g.ts_text(t),
             '"lat": %.7f' % la, '"lon": %.7f' % lo]
        k = r.random()
        if k < 0.05 or u in blind:
            o.append('"accuracy": %g' % r.uniform(120, 600))
        elif k < 0.1:
            o.append('"accuracy": null')
        elif k < 0.15:
            o.append('"accuracy": %s' % r.choice(["30", "40", "50", "80", "100", "100.0", "0", "1e2", "50.000001"]))
        elif k < 0.8:
            o.append('"accuracy": %g' % round(r.uniform(3, 45), 1))
        if r.random() < 0.05:
            o.append('"speed": 1.5')
        r.shuffle(o)
        out.append("{" + ", ".join(o) + "}")
        if r.random() < 0.012:
            out.append(r.choice([
                '{"user": "u1", "ts": "2026-01-01T00:00:00Z", "lat": 1.0',
                '[1, 2, 3]', '42', '"text"', '{"ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": "", "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": null, "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": 1.5, "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": "u1", "ts": "yesterday", "lat": 1, "lon": 2}',
                '{"user": "u1", "ts": "10000-01-01T00:00:00Z", "lat": 1, "lon": 2}',
                '{"user": "u1", "ts": true, "lat": 1, "lon": 2}',
                '{"user": "u1", "ts": 1772323200, "lat": 91, "lon": 2}',
                '{"user": "u1", "ts": 1772323200, "lat": "1", "lon": 2}',
                '{"user": "u1", "ts": 1772323200, "lat": 1}',
                '{"user": "u1", "ts": 1772323200, "lat": 1, "lon": -180.5}',
                '{"user": "u1", "ts": 1772323200, "lat": 1, "lon": 2, "accuracy": -1}',
                '{"user": "u1", "ts": 1772323200, "lat": 1, "lon": 2, "accuracy": "5"}',
                '{"user": "u1", "ts": NaN, "lat": 1, "lon": 2}',
                '{"user": "u1", "ts": 1772323200, "lat": 1, "lon": 2,}',
                '   ', '', '\t \t',
                '{"user": -5, "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": 12345678901234567890123, "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": 1e3, "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": "z", "ts": "2026-03-01t10:00:00.5z", "lat": -90, "lon": 180}',
                '{"user": "z", "ts": "2026-03-01T10:00:00-00:00", "lat": 90, "lon": -180, "accuracy": 0}',
                '{"user": "z", "ts": 1.7723232001235E9, "lat": 1e1, "lon": -1.5e-3}',
                '{"user": "z", "ts": "2026-02-30T10:00:00Z", "lat": 1, "lon": 2}',
                '{"user": "z", "ts": "2026-03-01T24:00:00Z", "lat": 1, "lon": 2}',
                '{"user": "z", "ts": "2026-03-01T10:00:00", "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": "0001-01-01T00:00:00Z", "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": "9999-12-31T23:59:59.9994Z", "lat": 1, "lon": 2}',
                '{"user": "z", "ts": -1.5, "lat": 1, "lon": 2}',
                '{"user": "z", "ts": -0.0005, "lat": 1, "lon": 2}',
                '{"user": "z", "ts": 0.000500000000000000001, "lat": 1, "lon": 2}',
                '{"user": "z", "ts": "1969-12-31T23:59:59.9995Z", "lat": 1, "lon": 2}',
                '{"user": "z", "ts": 5e-4, "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": "0001-01-01T00:30:00+01:00", "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": "9999-12-31T23:30:00-01:00", "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": -62135596800.0005, "lat": 1, "lon": 2}',
                '{"user": "zx", "ts": 253402300799.9995, "lat": 1, "lon": 2}',
                '{"user": "z", "ts": 1772323200, "lat": 90.0000000000000001, "lon": 1e-400}',
                '{"user": "z", "ts": 1772323200, "lat": 1e400, "lon": 2}',
                '{"user": "z", "ts": 1772323200, "lat": 1, "lon": 2, "accuracy": true}',
                '{"user": "z", "ts": 1772323200, "lat": null, "lon": 2}',
                '{"user": "z", "ts": null, "lat": 1, "lon": 2}',
                '{"user": ["z"], "ts": 1772323200, "lat": 1, "lon": 2}',
                '{"user": "z", "user": "y", "ts": 1772323200, "lat": 1, "lon": 2}',
            ]).replace('"user": "z', '"user": "z%d' % len(out)))
    # a few out-of-order lines
    for _ in range(r.randint(0, 4)):
        i, j = r.randrange(len(out)), r.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    if r.random() < 0.25:  # replay as the history stood at some instant (--until)
        ts = sorted(l[0] for l in lines)
        cut = ts[r.randrange(len(ts))] + r.choice([0, 0, -1, 1, 250])
        with open(os.path.join(os.path.dirname(hist), "until.txt"), "w") as f:
            f.write(g.instant_text(cut))
    with open(hist, "w", encoding="utf-8") as f:
        for l in out:
            f.write(l + ("\r\n" if r.random() < 0.02 else "\n"))


def until_arg(d):
    p = os.path.join(d, "until.txt")
    return ["--until", open(p).read().strip()] if os.path.exists(p) else []


def run_ours(binary, cdir, hist, d):
    u = until_arg(d)
    ev = subprocess.run([binary, "events", "--campaigns", cdir, "--history", hist, "--quiet"] + u, capture_output=True, text=True)
    dec = subprocess.run([binary, "evaluate", "--include-suppressed", "--campaigns", cdir, "--history", hist, "--quiet",
                          "--rejects", os.path.join(d, "ours-rejects.jsonl")] + u, capture_output=True, text=True)
    one = subprocess.run([binary, "evaluate", "--include-suppressed", "--campaigns", cdir, "--history", hist, "--quiet",
                          "--threads", "1"] + u, capture_output=True, text=True)
    if one.stdout != dec.stdout:
        open(os.path.join(d, "ours-decisions-threads1.jsonl"), "w").write(one.stdout)
        dec.returncode = dec.returncode or 99
        dec.stderr += "\n--threads 1 prints other decisions than the default (ours-decisions-threads1.jsonl)\n"
    open(os.path.join(d, "ours-events.jsonl"), "w").write(ev.stdout)
    open(os.path.join(d, "ours-decisions.jsonl"), "w").write(dec.stdout)
    return ev, dec


def run_ref(cdir, hist, d):
    env = dict(os.environ, JSONOUT="1", SKIP_ZX="1", EVENTSOUT=os.path.join(d, "ref-events.jsonl"),
               REJECTSOUT=os.path.join(d, "ref-rejects.jsonl"))
    env.pop("REJECTS", None)
    env.pop("UNTIL", None)
    if until_arg(d):
        env["UNTIL"] = until_arg(d)[1]
    p = subprocess.run([sys.executable, os.path.join(HERE, "spec_reference.py"), cdir, hist, "--quiet"],
                       capture_output=True, text=True, env=env)
    open(os.path.join(d, "ref-decisions.jsonl"), "w").write(p.stdout)
    return p


def jl(path):
    """Reads JSON Lines, leaving out users named z<N>x (extreme years, only their rejects are compared)."""
    if not os.path.exists(path):
        return []
    rows = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    return [x for x in rows if not (str(x.get("user", "")).startswith("z") and str(x.get("user", "")).endswith("x"))]


def dec_key(x):
    return (x["user"], x["time"], x["campaign"], x["rule"], x["offer"], x["status"], x.get("message"))


def ev_set(x):
    return sorted((e["region"], e["enter"], e["exit"] or "") for e in x.get("evidence", []))


def at(xs, i):
    """xs[i], or None past the end."""
    return xs[i] if i < len(xs) else None


def first_difference(a, b, same=lambda x, y: x == y):
    """The first index where `a` and `b` differ (an item past the end of one is None), or None."""
    return next((i for i in range(max(len(a), len(b))) if not same(at(a, i), at(b, i))), None)


def compare(d):
    diffs = []
    a, b = jl(os.path.join(d, "ours-events.jsonl")), jl(os.path.join(d, "ref-events.jsonl"))
    i = first_difference(a, b)
    if i is not None:
        diffs.append("EVENT #%d\n  ours: %s\n  ref:  %s" % (i, json.dumps(at(a, i)), json.dumps(at(b, i))))
    a, b = jl(os.path.join(d, "ours-decisions.jsonl")), jl(os.path.join(d, "ref-decisions.jsonl"))
    i = first_difference(a, b, lambda x, y: x is not None and y is not None and dec_key(x) == dec_key(y))
    if i is not None:
        diffs.append("DECISION #%d\n  ours: %s\n  ref:  %s" % (i, json.dumps(at(a, i)), json.dumps(at(b, i))))
    for i in range(min(len(a), len(b))):
        if dec_key(a[i]) == dec_key(b[i]) and ev_set(a[i]) != ev_set(b[i]):
            diffs.append("EVIDENCE #%d\n  ours: %s\n  ref:  %s" % (i, json.dumps(a[i]), json.dumps(b[i])))
            break
    ra = [(x["line"], x["reason"]) for x in jl(os.path.join(d, "ours-rejects.jsonl"))]
    rb = [(x["line"], x["reason"]) for x in jl(os.path.join(d, "ref-rejects.jsonl"))]
    if ra != rb:
        diffs.append("REJECTS\n  ours-only: %s\n  ref-only:  %s" % (sorted(set(ra) - set(rb)), sorted(set(rb) - set(ra))))
    return diffs


def case_folder(keep, kind, seed):
    """The folder of one case, KIND-SEED under `keep` (made afresh), where the seed's campaigns
    and history are generated: (folder, campaigns, history, None), or with a list holding the
    generator's failure (a generator bug, not a difference) last."""
    d = os.path.join(keep, "%s-%d" % (kind, seed))
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    cdir, hist = os.path.join(d, "campaigns"), os.path.join(d, "history.jsonl")
    try:
        generate(seed, cdir, hist)
    except Exception as e:
        return d, cdir, hist, ["GENERATOR FAILED %r" % e]
    return d, cdir, hist, None


def zx_user(x):
    """Whether a line is of a user named z<N>x (extreme years: the reference skips them)."""
    u = str(x.get("user", ""))
    return u.startswith("z") and u.endswith("x")


def state_key(x):
    """A decision's one-shot key with its evidence as a sorted list of (region, enter): a
    decision printed by a stateful run while its visit was open has a null exit."""
    return (dec_key(x), sorted((e["region"], e["enter"]) for e in x.get("evidence", [])))


def stateful_case(keep, kind, seed):
    """`case_folder` for the modes that run with a state (where --until cannot be given): the
    folder, campaigns, history, its lines (without the last empty one) and the failure list."""
    d, cdir, hist, failed = case_folder(keep, kind, seed)
    if failed:
        return d, cdir, hist, [], failed
    if os.path.exists(os.path.join(d, "until.txt")):  # --until cannot be combined with --state
        os.remove(os.path.join(d, "until.txt"))
    lines = open(hist, "rb").read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return d, cdir, hist, lines, None


def stream_late(lines, start=0):
    """The numbers (counted from `start`) of the lines a stream takes as `late`: a fix earlier
    than its user's latest fix read before it."""
    late, latest = set(), {}
    for i, line in enumerate(lines, start):
        why, fx = ref.validate(line)
        if fx is None:
            continue
        if fx[1] < latest.get(fx[0], fx[1]):
            late.add(i)
        else:
            latest[fx[0]] = fx[1]
    return late


def settle(d, diffs):
    """Keeps a case's folder with the differences in its diff.txt, or removes it when there are
    none; returns `diffs`."""
    if diffs:
        open(os.path.join(d, "diff.txt"), "w").write("\n".join(diffs) + "\n")
    else:
        shutil.rmtree(d)
    return diffs


def run_seed(seed, binary, keep):
    d, cdir, hist, failed = case_folder(keep, "seed", seed)
    if failed:
        return failed
    ev, dec = run_ours(binary, cdir, hist, d)
    if ev.returncode != 0 or dec.returncode != 0:
        diffs = ["OURS FAILED rc=%d/%d\n%s%s" % (ev.returncode, dec.returncode, ev.stderr[-2000:], dec.stderr[-2000:])]
    else:
        p = run_ref(cdir, hist, d)
        if p.returncode != 0:
            diffs = ["REFERENCE FAILED\n" + p.stderr[-2000:]]
        else:
            diffs = compare(d)
    return settle(d, diffs)


USER_TOKEN = re.compile(r'"user": ("(?:[^"\\]|\\.)*"|-?\d+(?=\s*[,}]))')


def big_seed(seed, binary, keep, copies):
    """Metamorphic test of a large input (several 4 MiB read blocks, many users, all threads):
    the seed's history repeated `copies` times with each copy's users renamed `<id>~<k>` must give,
    per renamed user, exactly the small case's events and decisions, and the same rejects shifted
    by the copy's line offset. No reference run is needed, so the input can be big."""
    d, cdir, hist, failed = case_folder(keep, "big", seed)
    if failed:
        return failed
    if os.path.exists(os.path.join(d, "until.txt")):
        os.remove(os.path.join(d, "until.txt"))
    for name in os.listdir(cdir):  # holdout hashes the user id, which renaming changes
        if name.endswith((".yaml", ".yml")):
            path = os.path.join(cdir, name)
            kept = [l for l in open(path).read().split("\n") if not l.startswith("holdout:")]
            open(path, "w").write("\n".join(kept))
    run_ours(binary, cdir, hist, d)
    small = open(hist, "rb").read().split(b"\n")
    if small and small[-1] == b"":
        small.pop()
    n = len(small)
    def rename(u, k):
        return "%s~%03d" % (u, k)
    big = os.path.join(d, "big.jsonl")
    with open(big, "wb") as f:
        for k in range(copies):
            for line in small:
                text = line.decode("utf-8", "surrogateescape")
                def sub(m):
                    v = m.group(1)
                    if v == '""':  # an empty user stays empty (missing_field)
                        return m.group(0)
                    if v.startswith('"'):
                        return '"user": %s~%03d"' % (v[:-1], k)
                    return '"user": "%s~%03d"' % (v, k)
                f.write(USER_TOKEN.sub(sub, text).encode("utf-8", "surrogateescape") + b"\n")
    out = {}
    for cmd in ("events", "evaluate"):
        extra = ["--include-suppressed", "--rejects", os.path.join(d, "big-rejects.jsonl")] if cmd == "evaluate" else []
        p = subprocess.run([binary, cmd, "--campaigns", cdir, "--history", big, "--quiet"] + extra, capture_output=True, text=True)
        if p.returncode != 0:
            return ["OURS FAILED on the big input rc=%d\n%s" % (p.returncode, p.stderr[-2000:])]
        out[cmd] = [json.loads(l) for l in p.stdout.split("\n") if l.strip()]  # not splitlines(): U+2028 may be raw
    diffs = []
    for cmd, small_file in (("events", "ours-events.jsonl"), ("evaluate", "ours-decisions.jsonl")):
        rows = [json.loads(l) for l in open(os.path.join(d, small_file), encoding="utf-8") if l.strip()]
        expect = []
        for k in range(copies):
            for x in rows:
                y = dict(x)
                y["user"] = rename(x["user"], k)
                expect.append(y)
        # users in byte order, each user's rows in the small case's order
        expect.sort(key=lambda y: y["user"].encode())
        i = first_difference(out[cmd], expect)
        if i is not None:
            diffs.append("BIG %s #%d\n  big:      %s\n  expected: %s" % (cmd, i, json.dumps(at(out[cmd], i)), json.dumps(at(expect, i))))
    rs = [(x["line"], x["reason"]) for x in jl(os.path.join(d, "ours-rejects.jsonl"))]
    expect = [(l + k * n, why) for k in range(copies) for l, why in rs]
    got = [(x["line"], x["reason"]) for x in jl(os.path.join(d, "big-rejects.jsonl"))]
    if got != expect:
        diffs.append("BIG REJECTS\n  missing: %s\n  extra: %s" % (sorted(set(expect) - set(got))[:5], sorted(set(got) - set(expect))[:5]))
    return settle(d, diffs)


def run_variants(binary, cdir, d, variants):
    """`events` and `evaluate --include-suppressed` (with `--rejects`, and the case's --until) of
    each (name, history, extra options) in `variants`: {(command, name): (exit status, stdout,
    rejects lines, stderr)}."""
    u = until_arg(d)
    outs = {}
    for name, path, extra in variants:
        for cmd in ("events", "evaluate"):
            rj = os.path.join(d, "rejects-%s-%s.jsonl" % (cmd, name))
            args = [binary, cmd, "--campaigns", cdir, "--history", path, "--quiet", "--rejects", rj] + extra + u
            if cmd == "evaluate":
                args.append("--include-suppressed")
            p = subprocess.run(args, capture_output=True, text=True)
            rejects = [l for l in open(rj).read().split("\n") if l] if os.path.exists(rj) else []
            outs[(cmd, name)] = (p.returncode, p.stdout, rejects, p.stderr)
    return outs


def sorted_seed(seed, binary, keep):
    """Metamorphic test of `--sorted` (docs/cli.md): the seed's history grouped by user (each
    user's lines together in their order, the groups in the order of the users' first lines; a
    line that is not a JSON object with a user stays after the line before it) must give, read
    with `--sorted` (streamed user by user, one and two threads), the events, decisions (with
    `--include-suppressed`) and rejects that the same file gives read whole, as multisets of
    lines (`--sorted` prints users in the input's order)."""
    d, cdir, hist, failed = case_folder(keep, "sorted", seed)
    if failed:
        return failed
    groups, order, last = {}, [], None
    for line in open(hist, "rb").read().split(b"\n"):
        if not line:
            continue
        key = last
        try:
            x = json.loads(line)
            if isinstance(x, dict) and "user" in x:
                key = json.dumps(x["user"], sort_keys=True)
        except Exception:
            pass
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(line)
        last = key
    grouped = os.path.join(d, "grouped.jsonl")
    with open(grouped, "wb") as f:
        f.write(b"".join(l + b"\n" for k in order for l in groups[k]))
    # As multisets: `--sorted` prints users in the input's order.
    outs = {k: (rc, sorted(out.split("\n")), sorted(rejects), err) for k, (rc, out, rejects, err) in
            run_variants(binary, cdir, d, (("whole", grouped, []), ("sorted", grouped, ["--sorted"]),
                                           ("sorted-1", grouped, ["--sorted", "--threads", "1"]))).items()}
    diffs = []
    for cmd in ("events", "evaluate"):
        base = outs[(cmd, "whole")]
        for mode in ("sorted", "sorted-1"):
            o = outs[(cmd, mode)]
            if o[0] != base[0]:
                diffs.append("SORTED %s %s exit %d, whole %d\n%s" % (cmd, mode, o[0], base[0], o[3][-1500:]))
            elif o[1] != base[1]:
                a, b = [x for x in o[1] if x not in base[1]], [x for x in base[1] if x not in o[1]]
                diffs.append("SORTED %s %s\n  sorted-only: %s\n  whole-only:  %s" % (cmd, mode, a[:2], b[:2]))
            elif o[2] != base[2]:
                diffs.append("SORTED %s %s REJECTS\n  sorted-only: %s\n  whole-only:  %s"
                             % (cmd, mode, sorted(set(o[2]) - set(base[2]))[:3], sorted(set(base[2]) - set(o[2]))[:3]))
    return settle(d, diffs)


def csv_seed(seed, binary, keep):
    """Metamorphic test of the CSV reader (docs/history-format.md): the seed's lines that the JSON
    Lines reader accepts, written as CSV by scripts/jsonl_to_csv.py (every value as its JSON
    text), must give the events and decisions (with `--include-suppressed`) of the same lines as
    JSON Lines, on one and two threads, and no rejects."""
    d, cdir, hist, failed = case_folder(keep, "csv", seed)
    if failed:
        return failed
    valid = [l for l in open(hist, "rb").read().split(b"\n") if l and ref.validate(l)[1]]
    jp, cp = os.path.join(d, "valid.jsonl"), os.path.join(d, "valid.csv")
    with open(jp, "wb") as f:
        f.write(b"".join(l + b"\n" for l in valid))
    subprocess.run([sys.executable, os.path.join(HERE, "jsonl_to_csv.py"), jp, cp], check=True)
    outs = run_variants(binary, cdir, d, (("jsonl", jp, []), ("csv", cp, []), ("csv-1", cp, ["--threads", "1"])))
    diffs = []
    for cmd in ("events", "evaluate"):
        base = outs[(cmd, "jsonl")]
        for name in ("csv", "csv-1"):
            o = outs[(cmd, name)]
            if o[0] != base[0] or o[2] or base[2]:
                diffs.append("CSV %s %s exit %d (JSON Lines %d), rejects %s / %s\n%s" % (cmd, name, o[0], base[0], o[2][:2], base[2][:2], o[3][-1500:]))
            elif o[1] != base[1]:
                a, b = o[1].split("\n"), base[1].split("\n")
                k = first_difference(a, b)
                diffs.append("CSV %s %s #%d\n  csv:   %s\n  jsonl: %s" % (cmd, name, k, at(a, k), at(b, k)))
    return settle(d, diffs)


def report_seed(seed, binary, keep):
    """`report --format json` (measurement.md) against figures computed here from the reference:
    the seed's campaigns, most given a goal (regions or tags of the campaign, `within`, sometimes
    `min_dwell`), and its history less the extreme-year users. Reach (lines, fixes, users,
    period; per campaign its users with a visit, per rule the users triggered and the triggers,
    per offer the users reached and the decisions by status) from the reference's decisions and
    visits; lift (per arm the measurable users and the converted, the pending users, the rates,
    the absolute lift, enough_data) from its decisions (exposure: a user's first decision of
    the campaign), holdout hash and visits to the goal's regions (x < enter <= x + within,
    duration so far for an open visit)."""
    d, cdir, hist, all_lines, failed = stateful_case(keep, "report", seed)  # no --until either
    if failed:
        return failed
    r = random.Random(seed * 31337 + 5)
    # The extreme-year users (z<N>x) are left out: the reference skips them.
    lines = []
    for line in all_lines:
        if not line:
            continue
        try:
            x = json.loads(line)
            if isinstance(x, dict) and isinstance(x.get("user"), str) and zx_user(x):
                continue
        except Exception:
            pass
        lines.append(line)
    with open(hist, "wb") as f:
        f.write(b"".join(l + b"\n" for l in lines))
    # Goals.
    goals = {}
    for name in sorted(os.listdir(cdir)):
        path = os.path.join(cdir, name)
        if not name.endswith((".yaml", ".yml")) or name == "settings.yaml" or not os.path.isfile(path):
            continue
        doc = ref.yaml.load(open(path), Loader=ref.TextLoader)
        ids = [e["id"] for e in doc["regions"] if "id" in e and "import" not in e]
        tags = sorted({t for e in doc["regions"] for t in (e.get("tags") or [])})
        if r.random() < 0.2 or not (ids or tags):
            continue
        sel = {}
        if ids and (not tags or r.random() < 0.6):
            sel["regions"] = r.sample(ids, r.randint(1, min(2, len(ids))))
        if tags and (not sel or r.random() < 0.3):
            sel["tags"] = r.sample(tags, r.randint(1, min(2, len(tags))))
        within = r.choice(["10m", "30m", "2h", "1d"])
        dwell = r.choice([None, "0s", "30s", "2m", "10m"])
        text = "goal:\n" + "".join("  %s: [%s]\n" % (k, ", ".join(v)) for k, v in sel.items()) + "  within: %s\n" % within
        if dwell:
            text += "  min_dwell: %s\n" % dwell
        with open(path, "a") as f:
            f.write("\n" + text)
        goals[doc["campaign"]] = (sel, ref.dur(within), ref.dur(dwell) if dwell else 0)
    out = os.path.join(d, "ours-report.json")
    p = subprocess.run([binary, "report", "--format", "json", "--campaigns", cdir, "--history", hist, "--output", out, "--quiet"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return settle(d, ["OURS FAILED rc=%d\n%s" % (p.returncode, p.stderr[-2000:])])
    ours = json.load(open(out))
    p = run_ref(cdir, hist, d)
    if p.returncode != 0:
        return settle(d, ["REFERENCE FAILED\n" + p.stderr[-2000:]])
    decisions = jl(os.path.join(d, "ref-decisions.jsonl"))
    camps, _ = ref.load(cdir)
    users = {}
    for line in lines:
        why, fx = ref.validate(line)
        if fx:
            users.setdefault(fx[0], []).append(fx[1:])
    times = [f[0] for fx in users.values() for f in fx]
    t_data = max(times) if times else None
    # Visits per (user, campaign): (region id, enter, duration so far).
    visits = {}
    for u, fx in users.items():
        fx = sorted(fx, key=lambda f: f[0])
        for c in camps:
            for reg in c["regions"]:
                for v in ref.crossing(c, reg, fx, fx[-1][0]):
                    visits.setdefault((u, c["id"]), []).append((reg["id"], v[0], ref.dur_of(v)))
    diffs = []
    def check(what, a, b):
        if a != b:
            diffs.append("REPORT %s\n  ours: %s\n  ref:  %s" % (what, json.dumps(a)[:600], json.dumps(b)[:600]))
    check("fixes", ours.get("fixes"), len(times))
    check("users", ours.get("users"), len(users))
    if times:
        check("period", [ours["period"].get("from"), ours["period"].get("to")], [ref.iso(min(times)), ref.iso(t_data)])
    by_id = {c["id"]: c for c in camps}
    check("campaigns", sorted(x["campaign"] for x in ours["campaigns"]), sorted(by_id))
    for oc in ours["campaigns"]:
        c = by_id.get(oc["campaign"])
        if c is None:
            continue
        cid = c["id"]
        mine = [x for x in decisions if x["campaign"] == cid]
        check("%s users" % cid, oc["users"], len({u for (u, k) in visits if k == cid}))
        check("%s rules" % cid, [(x["rule"], x["triggered"], x["triggers"]) for x in oc["rules"]],
              [(str(rule["id"]), len({x["user"] for x in mine if x["rule"] == str(rule["id"])}), sum(1 for x in mine if x["rule"] == str(rule["id"])))
               for rule in c["rules"]])
        statuses = ["delivered", "limited", "lower_priority", "held_out", "capped"]
        check("%s offers" % cid, [(x["offer"], x["reached"], [x["decisions"].get(s, 0) for s in statuses]) for x in oc["offers"]],
              [(o, len({x["user"] for x in mine if x["offer"] == o and x["status"] == "delivered"}),
                [sum(1 for x in mine if x["offer"] == o and x["status"] == s) for s in statuses]) for o in c["offers"]])
        if cid not in goals:
            check("%s lift" % cid, oc.get("lift"), None)
            continue
        sel, within, dwell = goals[cid]
        goal_regions = ref.matching(c, sel)
        exposed = {}
        for x in mine:
            t = ref.parse_ts(x["time"])
            exposed[x["user"]] = min(exposed.get(x["user"], t), t)
        arms = {"treated": [0, 0], "holdout": [0, 0]}
        pending = 0
        for u, xt in exposed.items():
            if xt + within > t_data:
                pending += 1
                continue
            arm = "holdout" if ref.fnv(cid + ":" + u) % 10000 < c["holdout"] * 100 else "treated"
            arms[arm][0] += 1
            if any(rid in goal_regions and xt < e <= xt + within and du >= dwell for rid, e, du in visits.get((u, cid), [])):
                arms[arm][1] += 1
        lift = oc.get("lift") or {}
        check("%s lift counts" % cid, [(lift.get(a) or {}).get(k) for a in ("treated", "holdout") for k in ("n", "converted")] + [lift.get("pending")],
              [arms[a][i] for a in ("treated", "holdout") for i in (0, 1)] + [pending])
        (nt, ct), (nh, ch) = arms["treated"], arms["holdout"]
        check("%s enough_data" % cid, lift.get("enough_data"), nt >= 100 and nh >= 100 and ct >= 25 and ch >= 25)
        if nt and nh:
            al = ct / nt - ch / nh
            got = lift.get("absolute_lift")
            if got is None or abs(got - al) > 1e-9:
                check("%s absolute_lift" % cid, got, al)
    return settle(d, diffs)


def gpx_seed(seed, binary, keep):
    """Metamorphic test of the GPX reader: each user's accepted fixes written as a GPX track (times
    in UTC with milliseconds, some as rtept/wpt) must give the same events as the same fixes in
    JSON Lines without accuracy."""
    d, cdir, hist, failed = case_folder(keep, "gpx", seed)
    if failed:
        return failed
    users = {}
    for line in open(hist, "rb"):
        why, fx = ref.validate(line)
        if fx:
            users.setdefault(fx[0], []).append(fx[1:])
    diffs = []
    r = random.Random(seed)
    for i, (u, fixes) in enumerate(sorted(users.items())):
        fixes.sort(key=lambda f: f[0])
        name = "user%d" % i
        jp, gp = os.path.join(d, name + ".jsonl"), os.path.join(d, name + ".gpx")
        with open(jp, "w") as f:
            for t, la, lo, _ in fixes:
                f.write(json.dumps({"user": name, "ts": t / 1000, "lat": la, "lon": lo}) + "\n")
        with open(gp, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="difftest" '
                    'xmlns="http://www.topografix.com/GPX/1/1">\n<trk><name>x</name><trkseg>\n')
            for t, la, lo, _ in fixes:
                tag = "trkpt"
                f.write('<%s lat="%r" lon="%r"><ele>1</ele><time>%s</time></%s>\n' % (tag, la, lo, ref.iso(t), tag))
            f.write("</trkseg></trk>\n</gpx>\n")
        outs = []
        for h in (jp, gp):
            p = subprocess.run([binary, "events", "--campaigns", cdir, "--history", h, "--quiet"], capture_output=True, text=True)
            if p.returncode != 0:
                return ["OURS FAILED on %s rc=%d\n%s" % (h, p.returncode, p.stderr[-1500:])]
            outs.append(p.stdout)
        if outs[0] != outs[1]:
            a, b = outs[0].split("\n"), outs[1].split("\n")
            k = first_difference(a, b)
            diffs.append("GPX %s #%d\n  jsonl: %s\n  gpx:   %s" % (name, k, at(a, k), at(b, k)))
            break
    return settle(d, diffs)


def state_seed(seed, binary, keep):
    """The stateful runs against the reference (state.md 1.1, 1.2): the seed's history cut into
    2-6 batches at per-user times (so each batch holds every user's fixes of one stretch of time),
    with a few lines moved to a later batch than their time, where they are `late` when an earlier
    batch already holds a later fix of the user. `evaluate --state` and `events --state` run the
    batches in order, the last with `--final`; together they must print exactly the reference's
    one-shot decisions and events of the concatenated batches less the late lines (decisions by
    the same key as the one-shot comparison, evidence as a set of (region, enter): a printed
    decision's exit is null when its visit was open at that run), and the rejects of all runs,
    renumbered into the concatenation, must be the reference's plus the late lines."""
    d, cdir, hist, lines, failed = stateful_case(keep, "state", seed)
    if failed:
        return failed
    r = random.Random(seed * 7919 + 1)
    k = r.randint(2, 6)
    parsed = [ref.validate(l) for l in lines]
    times = {}
    for why, fx in parsed:
        if fx:
            times.setdefault(fx[0], set()).add(fx[1])
    cuts = {u: sorted(r.sample(sorted(ts), min(k - 1, len(ts)))) for u, ts in times.items()}
    batches = [[] for _ in range(k)]
    for line, (why, fx) in zip(lines, parsed):
        if fx is None:
            b = r.randrange(k)
        else:
            b = sum(1 for c in cuts[fx[0]] if c <= fx[1])
            if b < k - 1 and r.random() < 0.04:
                b = r.randint(b + 1, k - 1)  # moved later: late if an earlier batch has a later fix
        batches[b].append((line, fx))
    # A batch of lines none of which is accepted is an error (exit 65, docs/cli.md; issue 10), so
    # such a batch's lines join a batch with accepted lines.
    useful = [b for b in range(k) if any(fx for _, fx in batches[b])]
    for b in range(k):
        if batches[b] and b not in useful and useful:
            batches[useful[-1]] += batches[b]
            batches[b] = []
    # The whole history is the batches in run order; a fix is late when an earlier batch holds an
    # accepted fix of its user at a later time (Tend_u of the state, which only grows).
    whole, late, tend = [], set(), {}
    for b, batch in enumerate(batches):
        for line, fx in batch:
            whole.append(line)
            if fx is not None and fx[1] < tend.get(fx[0], fx[1]):
                late.add(len(whole))
        for line, fx in batch:
            if fx is not None:
                tend[fx[0]] = max(tend.get(fx[0], fx[1]), fx[1])
    kept = os.path.join(d, "history.jsonl")
    with open(kept, "wb") as f:
        f.write(b"".join(l + b"\n" for i, l in enumerate(whole, 1) if i not in late))
    diffs = []
    out = {"events": [], "evaluate": []}
    rejects, offset = [], 0
    for cmd in ("events", "evaluate"):
        state = os.path.join(d, "state-%s.db" % cmd)
        offset = 0
        for b, batch in enumerate(batches):
            bp = os.path.join(d, "batch-%d.jsonl" % b)
            with open(bp, "wb") as f:
                f.write(b"".join(l + b"\n" for l, _ in batch))
            rj = os.path.join(d, "rejects-%d.jsonl" % b)
            extra = (["--include-suppressed", "--rejects", rj] if cmd == "evaluate" else [])
            extra += ["--final"] if b == k - 1 else []
            p = subprocess.run([binary, cmd, "--state", state, "--campaigns", cdir, "--history", bp, "--quiet"] + extra,
                               capture_output=True, text=True)
            if p.returncode != 0:
                return settle(d, ["OURS FAILED in batch %d of %d (%s) rc=%d\n%s" % (b + 1, k, cmd, p.returncode, p.stderr[-2000:])])
            out[cmd] += [json.loads(l) for l in p.stdout.split("\n") if l.strip()]
            if cmd == "evaluate":
                rejects += [(x["line"] + offset, x["reason"]) for x in jl(rj)]
            offset += len(batch)
    open(os.path.join(d, "ours-events.jsonl"), "w").write("".join(json.dumps(x) + "\n" for x in out["events"]))
    open(os.path.join(d, "ours-decisions.jsonl"), "w").write("".join(json.dumps(x) + "\n" for x in out["evaluate"]))
    p = run_ref(cdir, kept, d)
    if p.returncode != 0:
        return settle(d, ["REFERENCE FAILED\n" + p.stderr[-2000:]])
    # The reference numbers the kept lines; map them back into the concatenation.
    numbers = [i for i in range(1, len(whole) + 1) if i not in late]
    ref_rejects = sorted([(numbers[x["line"] - 1], x["reason"]) for x in jl(os.path.join(d, "ref-rejects.jsonl"))]
                         + [(i, "late") for i in late])
    a = sorted(json.dumps(e, sort_keys=True) for e in out["events"] if not zx_user(e))
    b = sorted(json.dumps(e, sort_keys=True) for e in jl(os.path.join(d, "ref-events.jsonl")))
    if a != b:
        diffs.append("STATE EVENTS (%d batches)\n  ours-only: %s\n  ref-only:  %s"
                     % (k, sorted(set(a) - set(b))[:3], sorted(set(b) - set(a))[:3]))
    a = sorted(state_key(x) for x in out["evaluate"] if not zx_user(x))
    b = sorted(state_key(x) for x in jl(os.path.join(d, "ref-decisions.jsonl")))
    if a != b:
        diffs.append("STATE DECISIONS (%d batches)\n  ours-only: %s\n  ref-only:  %s"
                     % (k, [x for x in a if x not in b][:3], [x for x in b if x not in a][:3]))
    if sorted(rejects) != ref_rejects:
        diffs.append("STATE REJECTS\n  ours-only: %s\n  ref-only:  %s"
                     % (sorted(set(rejects) - set(ref_rejects))[:5], sorted(set(ref_rejects) - set(rejects))[:5]))
    return settle(d, diffs)


def change_seed(seed, binary, keep):
    """Campaign changes between stateful runs (state.md 1.3): the seed's history cut in two at
    per-user times; `evaluate --state` and `events --state` run the first part with the seed's
    campaigns, then the second part with `--final` and every campaign changed (each offer
    renamed `<id>-v2`, and the settings' `limits` dropped, which changes the settings when they
    had any). Every campaign then starts afresh: its timeline for a user starts at the user's
    first fix of the second part, the first run's held decisions and visits are dropped, and no
    earlier delivery counts (the renamed offers have no deliveries, and no limit is left). So
    the second runs must print exactly the reference's one-shot decisions and events of the
    second part alone with the changed campaigns (decisions by the one-shot key, evidence as a
    set of (region, enter)), and warn about every campaign. Half the seeds take the decisions
    through two streams and a final run instead (their late lines left out of the expected)."""
    d, cdir, hist, lines, failed = stateful_case(keep, "change", seed)
    if failed:
        return failed
    r = random.Random(seed * 104729 + 3)
    parsed = [ref.validate(l) for l in lines]
    times = {}
    for why, fx in parsed:
        if fx:
            times.setdefault(fx[0], set()).add(fx[1])
    cut = {u: r.choice(sorted(ts)) for u, ts in times.items()}
    parts = [[], []]
    for line, (why, fx) in zip(lines, parsed):
        parts[r.randrange(2) if fx is None else (1 if fx[1] >= cut[fx[0]] else 0)].append(line)
    if not all(any(fx for _, fx in map(ref.validate, part)) for part in parts):
        return []  # a part without an accepted fix is an error of its own (exit 65): nothing to compare
    changed = os.path.join(d, "campaigns-changed")
    shutil.copytree(cdir, changed)
    names = []
    for name in sorted(os.listdir(changed)):
        path = os.path.join(changed, name)
        if name.endswith((".yaml", ".yml")) and name != "settings.yaml" and os.path.isfile(path):
            text = open(path, encoding="utf-8").read()
            text = re.sub(r"(?m)^(\s*(?:- )?id: |\s*offer: )(o\d+)$", r"\1\2-v2", text)
            open(path, "w", encoding="utf-8").write(text)
            m = re.search(r"(?m)^campaign: (\S+)$", text)
            names.append(m.group(1) if m else name)
    settings = os.path.join(changed, "settings.yaml")
    if os.path.exists(settings):
        kept = [l for l in open(settings, encoding="utf-8").read().split("\n") if not l.startswith(("  limits:", "    per_user:"))]
        open(settings, "w", encoding="utf-8").write("\n".join(kept) + "\n" if len(kept) > 2 or any(l.strip() for l in kept[1:]) else "")
        if not open(settings, encoding="utf-8").read().strip():
            os.remove(settings)
    second = os.path.join(d, "second.jsonl")
    with open(second, "wb") as f:
        f.write(b"".join(l + b"\n" for l in parts[1]))
    # Half the seeds take the decisions through `stream --state` instead (each part a stream of
    # its own, then `evaluate --state --final` on an empty batch): a line of the second part
    # earlier than its user's latest line before it is then `late`, and left out of the expected.
    streamed = r.random() < 0.5
    if streamed:
        late = stream_late(parts[1])
        with open(second, "wb") as f:
            f.write(b"".join(l + b"\n" for i, l in enumerate(parts[1]) if i not in late))
    out = {}
    for cmd in ("events", "evaluate"):
        state = os.path.join(d, "state-%s.db" % cmd)
        out[cmd] = []
        for b, folder in ((0, cdir), (1, changed)):
            bp = os.path.join(d, "part-%d.jsonl" % b)
            with open(bp, "wb") as f:
                f.write(b"".join(l + b"\n" for l in parts[b]))
            extra = (["--include-suppressed"] if cmd == "evaluate" else []) + (["--final"] if b == 1 else [])
            if cmd == "evaluate" and streamed:
                args = [binary, "stream", "--state", state, "--campaigns", folder, "--history", bp, "--quiet", "--include-suppressed"]
            else:
                args = [binary, cmd, "--state", state, "--campaigns", folder, "--history", bp, "--quiet"] + extra
            p = subprocess.run(args, capture_output=True, text=True)
            if p.returncode != 0:
                return settle(d, ["OURS FAILED in part %d (%s%s) rc=%d\n%s" % (b + 1, cmd, " streamed" if streamed else "", p.returncode, p.stderr[-2000:])])
            if b == 1:
                out[cmd] += [json.loads(l) for l in p.stdout.split("\n") if l.strip()]
                missing = [n for n in names if "campaign %s is changed" % n not in p.stderr and "campaign '%s' is changed" % n not in p.stderr]
                if missing:
                    return settle(d, ["NO CHANGE WARNING for %s (%s%s)\n%s" % (missing, cmd, " streamed" if streamed else "", p.stderr[-2000:])])
        if cmd == "evaluate" and streamed:
            empty = os.path.join(d, "empty.jsonl")
            open(empty, "wb").close()
            p = subprocess.run([binary, "evaluate", "--state", state, "--campaigns", changed, "--history", empty, "--final",
                                "--include-suppressed", "--quiet"], capture_output=True, text=True)
            if p.returncode != 0:
                return settle(d, ["OURS FAILED in the final run after the streams rc=%d\n%s" % (p.returncode, p.stderr[-2000:])])
            if "warning: campaign" in p.stderr:
                return settle(d, ["A WARNING in the final run after the streams (the campaigns did not change)\n" + p.stderr[-2000:]])
            out[cmd] += [json.loads(l) for l in p.stdout.split("\n") if l.strip()]
    open(os.path.join(d, "ours-events.jsonl"), "w").write("".join(json.dumps(x) + "\n" for x in out["events"]))
    open(os.path.join(d, "ours-decisions.jsonl"), "w").write("".join(json.dumps(x) + "\n" for x in out["evaluate"]))
    diffs = []
    # The events (batch runs only) against the whole second part.
    p = run_ref(changed, os.path.join(d, "part-1.jsonl"), d)
    if p.returncode != 0:
        return settle(d, ["REFERENCE FAILED\n" + p.stderr[-2000:]])
    a = sorted(json.dumps(e, sort_keys=True) for e in out["events"] if not zx_user(e))
    b = sorted(json.dumps(e, sort_keys=True) for e in jl(os.path.join(d, "ref-events.jsonl")))
    if a != b:
        diffs.append("CHANGE EVENTS\n  ours-only: %s\n  ref-only:  %s" % (sorted(set(a) - set(b))[:3], sorted(set(b) - set(a))[:3]))
    # The decisions against the second part less a stream's late lines.
    p = run_ref(changed, second, d)
    if p.returncode != 0:
        return settle(d, ["REFERENCE FAILED\n" + p.stderr[-2000:]])
    a = sorted(state_key(x) for x in out["evaluate"] if not zx_user(x))
    b = sorted(state_key(x) for x in jl(os.path.join(d, "ref-decisions.jsonl")))
    if a != b:
        diffs.append("CHANGE DECISIONS\n  ours-only: %s\n  ref-only:  %s" % ([x for x in a if x not in b][:3], [x for x in b if x not in a][:3]))
    return settle(d, diffs)


def stream_seed(seed, binary, keep):
    """The stream against the reference (state.md 2): the seed's history through `stream
    --state` (from the file, or from a pipe in random pieces; users dropped as idle at once, by
    default, or never), then `evaluate --state --final` on an empty batch, which prints what the
    stream held. A stream takes its lines in read order, each as a batch of its own, so a fix
    earlier than its user's latest accepted fix read before it is `late`. Together the two runs
    must print exactly the reference's one-shot decisions over the history less those late lines
    (compared as in the stateful mode), and the stream's rejects must be the reference's plus
    the late lines."""
    d, cdir, hist, lines, failed = stateful_case(keep, "stream", seed)
    if failed:
        return failed
    r = random.Random(seed * 104729 + 3)
    data = open(hist, "rb").read()
    late = stream_late(lines, start=1)
    kept = os.path.join(d, "kept.jsonl")
    with open(kept, "wb") as f:
        f.write(b"".join(l + b"\n" for i, l in enumerate(lines, 1) if i not in late))
    state, rj = os.path.join(d, "state.db"), os.path.join(d, "stream-rejects.jsonl")
    idle = r.choice([[], ["--idle-after", "0s"], ["--idle-after", "never"]])
    cmd = [binary, "stream", "--state", state, "--campaigns", cdir, "--include-suppressed", "--rejects", rj, "--quiet"] + idle
    if r.random() < 0.5:
        p = subprocess.run(cmd + ["--history", hist], capture_output=True)
        out, err, rc = p.stdout, p.stderr, p.returncode
    else:
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        import threading
        got = {}
        def drain(name, stream):
            got[name] = stream.read()
        ts = [threading.Thread(target=drain, args=(n, s)) for n, s in (("out", p.stdout), ("err", p.stderr))]
        for t in ts:
            t.start()
        at = 0
        while at < len(data):
            n = r.choice([1, 7, 100, 1000, 4096, 65536])
            p.stdin.write(data[at:at + n])
            p.stdin.flush()
            at += n
            if r.random() < 0.05:
                time.sleep(0.02)
        p.stdin.close()
        rc = p.wait()
        for t in ts:
            t.join()
        out, err = got["out"], got["err"]
        idle.append("(from a pipe)")
    if rc != 0:
        return settle(d, ["OURS FAILED in the stream %s rc=%d\n%s" % (" ".join(idle), rc, err.decode(errors="replace")[-2000:])])
    empty = os.path.join(d, "empty.jsonl")
    open(empty, "wb").close()
    p = subprocess.run([binary, "evaluate", "--state", state, "--campaigns", cdir, "--history", empty, "--final",
                        "--include-suppressed", "--quiet"], capture_output=True)
    if p.returncode != 0:
        return settle(d, ["OURS FAILED in the final run rc=%d\n%s" % (p.returncode, p.stderr.decode(errors="replace")[-2000:])])
    ours = [json.loads(l) for l in (out + p.stdout).decode().split("\n") if l.strip()]
    open(os.path.join(d, "ours-decisions.jsonl"), "w").write("".join(json.dumps(x) + "\n" for x in ours))
    p = run_ref(cdir, kept, d)
    if p.returncode != 0:
        return settle(d, ["REFERENCE FAILED\n" + p.stderr[-2000:]])
    numbers = [i for i in range(1, len(lines) + 1) if i not in late]
    ref_rejects = sorted([(numbers[x["line"] - 1], x["reason"]) for x in jl(os.path.join(d, "ref-rejects.jsonl"))]
                         + [(i, "late") for i in late])
    rejects = sorted((x["line"], x["reason"]) for x in jl(rj))
    diffs = []
    a = sorted(state_key(x) for x in ours if not zx_user(x))
    b = sorted(state_key(x) for x in jl(os.path.join(d, "ref-decisions.jsonl")))
    if a != b:
        diffs.append("STREAM DECISIONS %s\n  ours-only: %s\n  ref-only:  %s"
                     % (" ".join(idle), [x for x in a if x not in b][:3], [x for x in b if x not in a][:3]))
    if rejects != ref_rejects:
        diffs.append("STREAM REJECTS %s\n  ours-only: %s\n  ref-only:  %s"
                     % (" ".join(idle), sorted(set(rejects) - set(ref_rejects))[:5], sorted(set(ref_rejects) - set(rejects))[:5]))
    return settle(d, diffs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", default="0:50")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(HERE), ".build/debug/geocampaign"))
    ap.add_argument("--keep")
    ap.add_argument("--show", action="store_true")
    ap.add_argument("--gpx", action="store_true", help="metamorphic mode: GPX tracks against the same fixes in JSON Lines")
    ap.add_argument("--big", type=int, metavar="COPIES",
                    help="metamorphic mode: repeat each seed's history COPIES times (renamed users) and check ours against ours")
    ap.add_argument("--state", action="store_true",
                    help="stateful mode: the history in 2-6 batches through --state runs (the last --final) against the reference's one-shot run")
    ap.add_argument("--report", action="store_true",
                    help="report --format json (goals added) against reach and lift computed from the reference's decisions and visits")
    ap.add_argument("--csv", action="store_true",
                    help="metamorphic mode: the accepted lines as CSV against the same lines as JSON Lines")
    ap.add_argument("--sorted", action="store_true",
                    help="metamorphic mode: the history grouped by user, read with --sorted (one and two threads) and whole")
    ap.add_argument("--change", action="store_true",
                    help="campaign-change mode: two --state runs, every campaign changed before the second (--final), against the reference's one-shot run of the second part")
    ap.add_argument("--stream", action="store_true",
                    help="stream mode: the history through `stream --state` (file or pipe), then a --final run, against the reference's one-shot run")
    a = ap.parse_args()
    keep = a.keep or tempfile.mkdtemp(prefix="difftest-")
    os.makedirs(keep, exist_ok=True)
    seeds = [a.seed] if a.seed is not None else range(*map(int, a.seeds.split(":")))
    failed = []
    t0 = time.time()
    binary = os.path.abspath(a.bin)
    # The kind names the case folders (case_folder); the first mode given is run.
    modes = (("gpx", gpx_seed), ("stream", stream_seed), ("state", state_seed), ("report", report_seed), ("csv", csv_seed),
             ("sorted", sorted_seed), ("change", change_seed))
    kind, run = next(((k, f) for k, f in modes if getattr(a, k)), ("seed", run_seed))
    if a.big and kind == "seed":
        kind, check = "big", lambda s: big_seed(s, binary, keep, a.big)
    else:
        check = lambda s: run(s, binary, keep)
    for s in seeds:
        diffs = check(s)
        if diffs:
            failed.append(s)
            first = diffs[0].split("\n")[0]
            print("seed %d: DIFF %s (%s)" % (s, first, os.path.join(keep, "%s-%d" % (kind, s))), flush=True)
            if a.show:
                print("\n".join(diffs))
        else:
            print("seed %d: ok" % s, flush=True)
    n = len(list(seeds))
    print("%d/%d seeds pass (%.0f s); failing cases under %s%s" % (n - len(failed), n, time.time() - t0, keep,
                                                                   (": " + " ".join(map(str, failed))) if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
