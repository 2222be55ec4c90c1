#!/usr/bin/env python3
"""TEST TOOL, not part of the product: an independent reading of /work/shared/spec
(semantics.md, formats.md) in plain Python, used by scripts/difftest.py as the oracle of the
differential test. Needs PyYAML (`python3 -c 'import yaml'`). Slow (~30 s per 20k fixes).

Usage: JSONOUT=1 EVENTSOUT=ev.jsonl [REJECTSOUT=rej.jsonl] python3 scripts/spec_reference.py CAMPAIGN_DIR HISTORY.jsonl --quiet
  JSONOUT=1     print decisions (all statuses) as JSON Lines on stdout
  EVENTSOUT=F   write enter/exit events to F
  REJECTSOUT=F  write rejected history lines ({"line","reason"}) to F
  UNTIL=INSTANT --until: fixes after this RFC 3339 instant are not used at all
  REJECTS=F     (legacy) skip the lines listed in F instead of validating lines itself
Only the subset of the formats that difftest.py generates is read (no GPX, no --until)."""
import sys, os, json, math, re, glob, datetime, zoneinfo, decimal
from decimal import Decimal, ROUND_HALF_UP
import yaml

R = 6371008.8
INF = float("inf")


def dur(s):
    s = str(s)
    m = re.fullmatch(r"((\d+)w)?((\d+)d)?((\d+)h)?((\d+)m)?((\d+)s)?", s)
    assert m and s, s
    w, d, h, mi, se = (int(m.group(i) or 0) for i in (2, 4, 6, 8, 10))
    return ((((w * 7 + d) * 24 + h) * 60 + mi) * 60 + se) * 1000


def dist(s):
    s = str(s).strip()
    m = re.fullmatch(r"([0-9.]+)\s*(m|km|ft|mi)?", s)
    v = float(m.group(1)); u = m.group(2) or "m"
    return v * {"m": 1, "km": 1000, "ft": 0.3048, "mi": 1609.344}[u]


def coord(c):
    if isinstance(c, dict):
        return float(c["lat"]), float(c["lon"])
    a, b = str(c).split(",")
    return float(a), float(b)


def hav(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1; dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(a)))


def poly_depth(rings, lat, lon):
    inside = False
    best = INF
    c = math.cos(math.radians(lat))
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (la1, lo1), (la2, lo2) = ring[i], ring[(i + 1) % n]
            if (la1 > lat) != (la2 > lat):
                xint = lo1 + (lat - la1) * (lo2 - lo1) / (la2 - la1)
                if lon < xint:
                    inside = not inside
            x1 = R * math.radians(lo1 - lon) * c; y1 = R * math.radians(la1 - lat)
            x2 = R * math.radians(lo2 - lon) * c; y2 = R * math.radians(la2 - lat)
            dx, dy = x2 - x1, y2 - y1
            L2 = dx * dx + dy * dy
            t = 0 if L2 == 0 else max(0, min(1, -(x1 * dx + y1 * dy) / L2))
            best = min(best, math.hypot(x1 + t * dx, y1 + t * dy))
    return best if inside else -best


class TextLoader(yaml.SafeLoader):
    """Every plain scalar is text; only the merge key `<<` keeps its meaning."""


TextLoader.yaml_implicit_resolvers = {
    "<": [(tag, rx) for tag, rx in yaml.SafeLoader.yaml_implicit_resolvers.get("<", []) if tag == "tag:yaml.org,2002:merge"]}


def load(cdir):
    camps = []; settings = {}
    for f in sorted(glob.glob(os.path.join(cdir, "*.yaml")) + glob.glob(os.path.join(cdir, "*.yml"))):
        # formats 1.6: a scalar is read as the type its key expects, whatever its quoting, so
        # every scalar is loaded as text and converted where it is used.
        d = yaml.load(open(f), Loader=TextLoader)
        if "settings" in d:
            settings = d["settings"]; continue
        c = {"id": d["campaign"], "tracking": d.get("tracking", {}), "regions": [], "rules": d["rules"],
             "offers": {o["id"]: o for o in d["offers"]}, "holdout": Decimal(str(d.get("holdout", "0%")).rstrip("%").strip()),
             "active": d.get("active")}
        for r in d["regions"]:
            if "import" in r:
                gj = json.load(open(os.path.join(os.path.dirname(f), r["import"])))
                for ft in gj["features"]:
                    props = ft.get("properties") or {}
                    idp = r.get("id_property")
                    rid = str(props[idp]) if idp else str(ft["id"] if "id" in ft else props["id"])
                    tags = list(r.get("tags", [])) + list(props.get("tags", []))
                    g = ft["geometry"]
                    reg = {"id": rid, "tags": tags, "h": r.get("hysteresis"), "confirm": r.get("confirm")}
                    if g["type"] == "Point":
                        reg["circle"] = (g["coordinates"][1], g["coordinates"][0], dist(r["radius"]))
                    elif g["type"] == "Polygon":
                        reg["rings"] = [[(p[1], p[0]) for p in ring[:-1]] for ring in g["coordinates"]]
                    else:
                        reg["rings"] = [[(p[1], p[0]) for p in ring[:-1]] for poly in g["coordinates"] for ring in poly]
                    c["regions"].append(reg)
            else:
                reg = {"id": r["id"], "tags": r.get("tags", []), "h": r.get("hysteresis"), "confirm": r.get("confirm")}
                if "circle" in r:
                    la, lo = coord(r["circle"]["center"]); reg["circle"] = (la, lo, dist(r["circle"]["radius"]))
                else:
                    reg["rings"] = [[coord(p) for p in r["polygon"]]] + [[coord(p) for p in h] for h in r.get("holes", [])]
                    for ring in reg["rings"]:
                        if ring[0] == ring[-1]:
                            ring.pop()
                c["regions"].append(reg)
        camps.append(c)
    st = settings.get("tracking", {})
    for c in camps:
        t = c["tracking"]
        def g(k, default):
            return t.get(k, st.get(k, default))
        c["max_acc"] = dist(g("max_accuracy", "100m")); c["max_gap"] = dur(g("max_gap", "30m"))
        for reg in c["regions"]:
            reg["h"] = dist(reg["h"] if reg["h"] is not None else g("hysteresis", "20m"))
            reg["confirm"] = dur(reg["confirm"] if reg["confirm"] is not None else g("confirm", "20s"))
    return camps, settings


def depth(reg, lat, lon):
    if "circle" in reg:
        la, lo, r = reg["circle"]; return r - hav(la, lo, lat, lon)
    return poly_depth(reg["rings"], lat, lon)


RFC3339 = re.compile(r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z")


def ms_round(x):
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def parse_ts(s):
    """Returns Unix ms, or None if not a valid timestamp (years 0001-9999)."""
    if isinstance(s, bool):
        return None
    if isinstance(s, (int, Decimal)):
        ms = ms_round(Decimal(s) * 1000)
        if not (-62135596800000 <= ms <= 253402300799999):
            return None
        return ms
    if isinstance(s, float):
        return parse_ts(Decimal(repr(s)))
    m = RFC3339.match(s)
    if not m:
        return None
    y, mo, d, hh, mi, ss = (int(m.group(i)) for i in range(1, 7))
    if y < 1 or not (1 <= mo <= 12) or hh > 23 or mi > 59 or ss > 59:
        return None
    try:
        base = datetime.datetime(y, mo, d, hh, mi, ss, tzinfo=datetime.timezone.utc)
    except ValueError:
        return None
    off = 0
    if m.group(8) not in ("Z", "z"):
        sign = 1 if m.group(8)[0] == "+" else -1
        oh, om = int(m.group(8)[1:3]), int(m.group(8)[4:6])
        if oh > 23 or om > 59:
            return None
        off = sign * (oh * 60 + om) * 60000
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    ms = (base - epoch) // datetime.timedelta(milliseconds=1)
    frac = Decimal("0" + m.group(7)) if m.group(7) else Decimal(0)
    # years 0001-9999 of the instant in UTC (an offset can move a written 0001 or 9999 out)
    return parse_ts(Decimal(ms + ms_round(frac * 1000) - off) / 1000)


def crossing(c, reg, fixes, tend):
    """fixes: list of (t, lat, lon, acc) sorted. Returns visits (enter, exit|None, reason, last_seen)."""
    used = [f for f in fixes if f[3] is None or f[3] <= c["max_acc"]]
    h, conf, gap = reg["h"], reg["confirm"], c["max_gap"]
    visits = []
    segs = []
    for f in used:
        if segs and f[0] - segs[-1][-1][0] <= gap:
            segs[-1].append(f)
        else:
            segs.append([f])
    for si, seg in enumerate(segs):
        inside = False; cand = None; last_ib = None; enter = None
        for (t, la, lo, _) in seg:
            d = depth(reg, la, lo)
            cls = "IN" if d >= h else ("OUT" if d <= -h else "BAND")
            if not inside:
                if cand is None:
                    if cls == "IN":
                        cand = t
                        if conf == 0:
                            inside, enter, cand, last_ib = True, t, None, t
                else:
                    if cls == "OUT":
                        cand = None
                    elif t >= cand + conf:
                        inside, enter, last_ib = True, cand, t
                        cand = None
            else:
                if cls != "OUT":
                    last_ib = t
                if cand is None:
                    if cls == "OUT":
                        cand = t
                        if conf == 0:
                            visits.append((enter, t, "left", None)); inside = False; cand = None
                else:
                    if cls == "IN":
                        cand = None
                    elif t >= cand + conf:
                        visits.append((enter, cand, "left", None)); inside = False; cand = None
        if inside:
            end = cand if cand is not None else last_ib
            last = si == len(segs) - 1
            if not last or tend - seg[-1][0] > gap:
                visits.append((enter, end, "gap", None))
            else:
                visits.append((enter, None, None, end))
    return visits


def norm(iv):
    iv = sorted((a, b) for a, b in iv if b > a)
    out = []
    for a, b in iv:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def inter(x, y):
    out = []; i = j = 0
    while i < len(x) and j < len(y):
        a = max(x[i][0], y[j][0]); b = min(x[i][1], y[j][1])
        if a < b:
            out.append((a, b))
        if x[i][1] < y[j][1]:
            i += 1
        else:
            j += 1
    return out


def compl(x, lo, hi):
    out = []; cur = lo
    for a, b in x:
        if a > cur:
            out.append((cur, min(a, hi)))
        cur = max(cur, b)
    if cur < hi:
        out.append((cur, hi))
    return norm(out)


def matching(c, sel):
    ids = set(sel.get("regions", [])); tags = set(sel.get("tags", []))
    return {r["id"] for r in c["regions"] if r["id"] in ids or tags & set(r["tags"])}


def dur_of(v):
    e, x, _, ls = v
    return (x if x is not None else ls) - e


def holds(iv, t):
    return any(a <= t < b for a, b in iv)


def cond(c, node, visits, T0, T1, campaign_tz):
    """visits: dict region -> list of visits. Returns intervals; EVID[id(result)] = evidence fn."""
    iv, ev = cond2(c, node, visits, T0, T1, campaign_tz)
    return iv, ev


def cond2(c, node, visits, T0, T1, campaign_tz):
    (k, v), = node.items()
    if k in ("inside", "dwelled"):
        over = dur(v["over"]) if k == "dwelled" else 0
        iv = []
        items = []
        for rid in matching(c, v):
            for vis in visits.get(rid, []):
                if k == "dwelled" and not dur_of(vis) > over:
                    continue
                a, b = vis[0] + over, vis[1] if vis[1] is not None else INF
                iv.append((a, b)); items.append((a, b, rid, vis))
        return norm(iv), (lambda t: [(rid, vis) for a, b, rid, vis in items if a <= t < b])
    if k == "visited":
        md = dur(v.get("min_dwell", "0s")); w = dur(v["within"]) if "within" in v else None
        al = int(v.get("at_least", 1)); distinct = str(v.get("distinct", "false")) == "true"
        occ = []
        for rid in matching(c, v):
            for vis in visits.get(rid, []):
                if dur_of(vis) >= md:
                    q = vis[0] + md
                    occ.append((q, q + w if w is not None else INF, rid, vis))
        pts = sorted({p for o in occ for p in o[:2] if p != INF})
        iv = []
        for i, p in enumerate(pts):
            cov = [o for o in occ if o[0] <= p < o[1]]
            n = len({o[2] for o in cov}) if distinct else len(cov)
            if n >= al:
                iv.append((p, pts[i + 1] if i + 1 < len(pts) else INF))
        return norm(iv), (lambda t: [(o[2], o[3]) for o in occ if o[0] <= t < o[1]])
    if k == "during":
        tz = zoneinfo.ZoneInfo(v.get("timezone", campaign_tz))
        days = v.get("days", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
        names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        hs = v.get("hours", "00:00-24:00")
        a, b = hs.split("-")
        ah, am = map(int, a.split(":")); bh, bm = map(int, b.split(":"))
        start = datetime.datetime.fromtimestamp(T0 / 1000, tz).date()
        start = start - datetime.timedelta(days=2) if start.year > 1 else datetime.date(1, 1, 1)
        end = datetime.datetime.fromtimestamp(T1 / 1000, tz).date()
        end = end + datetime.timedelta(days=1) if end.year < 9999 else datetime.date(9999, 12, 31)
        iv = []
        d = start
        while d <= end:
            if names[d.weekday()] in days:
                mid = datetime.datetime(d.year, d.month, d.day)
                ws = mid + datetime.timedelta(hours=ah, minutes=am)
                we = mid + datetime.timedelta(hours=bh, minutes=bm)
                if (bh, bm) <= (ah, am):
                    we += datetime.timedelta(days=1)
                iv.append((local_to_ms(ws, tz), local_to_ms(we, tz)))
            d += datetime.timedelta(days=1)
        return norm(iv), (lambda t: [])
    if k in ("all", "any"):
        parts = [cond2(c, sub, visits, T0, T1, campaign_tz) for sub in v]
        if k == "all":
            r = [(-INF, INF)]
            for piv, _ in parts:
                r = inter(r, piv)
        else:
            r = norm([x for piv, _ in parts for x in piv])
        return r, (lambda t: [e for piv, pev in parts if holds(piv, t) for e in pev(t)])
    if k == "not":
        siv, _ = cond2(c, v, visits, T0, T1, campaign_tz)
        return compl(siv, T0, T1 + 1), (lambda t: [])
    if k == "sequence":
        import itertools
        w = dur(v["within"])
        steps = []
        for stp in v["steps"]:
            md = dur(stp.get("min_dwell", "0s"))
            occ = []
            for rid in matching(c, stp):
                for vis in visits.get(rid, []):
                    if dur_of(vis) >= md:
                        occ.append((vis[0] + md, vis[0], (rid, vis[0]), vis))
            steps.append(occ)
        iv = []
        matches = []
        for combo in itertools.product(*steps):
            if len({o[2] for o in combo}) < len(combo):
                continue
            if any(combo[i][1] >= combo[i + 1][1] for i in range(len(combo) - 1)):
                continue
            qmax = max(o[0] for o in combo)
            iv.append((qmax, combo[0][0] + w))
            matches.append((qmax, combo[0][0] + w, [(o[2][0], o[3]) for o in combo]))
        def sev(t):
            # The spec does not say which match when several cover t; like our engine, take the
            # latest-entering first step, then the earliest-entering visit of each later step.
            cover = [m for m in matches if m[0] <= t < m[1]]
            if not cover:
                return []
            # (ties of equal enter times: the later region of the campaign for the first step, the
            # earlier one for the others, as the engine's visit order (enter, region index) gives)
            ridx = {reg["id"]: i for i, reg in enumerate(c["regions"])}
            best = min(cover, key=lambda m: [(-m[2][0][1][0], -ridx[m[2][0][0]])] + [(vis[0], ridx[rid]) for rid, vis in m[2][1:]])
            return best[2]
        return norm(iv), sev
    raise SystemExit("unsupported condition " + k)


def local_to_ms(wall, tz):
    """Semantics 3.5: a missing local time is the instant the clocks jump to; a repeated one its
    first occurrence."""
    cands = []
    for fold in (0, 1):
        t = wall.replace(tzinfo=tz, fold=fold).timestamp()
        if datetime.datetime.fromtimestamp(t, tz).replace(tzinfo=None) == wall:
            cands.append(t)
    if cands:
        return int(round(min(cands) * 1000))
    lo = int(wall.replace(tzinfo=tz, fold=1).timestamp())
    hi = int(wall.replace(tzinfo=tz, fold=0).timestamp())
    lo, hi = min(lo, hi), max(lo, hi)
    off_hi = datetime.datetime.fromtimestamp(hi, tz).utcoffset()
    while lo < hi:
        mid = (lo + hi) // 2
        if datetime.datetime.fromtimestamp(mid, tz).utcoffset() == off_hi:
            hi = mid
        else:
            lo = mid + 1
    return lo * 1000


class _BadConst(Exception):
    pass


def _raise_const(x):
    raise _BadConst(x)


def validate(raw):
    """formats 2.1: returns (reason, None) or (None, (user, ts_ms, lat, lon, acc)) or (None, None) for blank."""
    if raw.endswith(b"\n"):
        raw = raw[:-1]
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > 1 << 20:
        return "too_long", None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "bad_encoding", None
    if text.strip(" \t") == "":
        return None, None
    try:
        o = json.loads(text, parse_float=Decimal, parse_int=lambda x: ("INT", x), parse_constant=_raise_const)
    except (ValueError, _BadConst, RecursionError):
        return "invalid_json", None
    if not isinstance(o, dict):
        return "not_object", None
    def num(x):
        if isinstance(x, tuple):
            return Decimal(x[1])
        if isinstance(x, Decimal):
            return x
        return None
    u = o.get("user")
    if "user" not in o or u == "":
        return "missing_field", None
    if isinstance(u, tuple):
        u = u[1]
    elif not isinstance(u, str):
        return "bad_type", None
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in u):
        return "bad_encoding", None
    if "ts" not in o:
        return "missing_field", None
    ts = o["ts"]
    if isinstance(ts, str):
        t = parse_ts(ts)
    elif num(ts) is not None:
        t = parse_ts(num(ts))
    else:
        return "bad_type", None
    if t is None:
        return "bad_timestamp", None
    vals = []
    for k, lim in (("lat", 90), ("lon", 180)):
        if k not in o:
            return "missing_field", None
        x = num(o[k])
        if x is None:
            return "bad_type", None
        # range checked on the number as a double (90.0000000000000001 is 90.0), as JSON readers see it
        if not (-lim <= float(x) <= lim):
            return "out_of_range", None
        vals.append(float(x))
    acc = None
    if o.get("accuracy") is not None:
        x = num(o["accuracy"])
        if x is None:
            return "bad_type", None
        if x < 0:
            return "out_of_range", None
        acc = float(x)
    return None, (u, t, vals[0], vals[1], acc)


def fnv(s):
    h = 0xcbf29ce484222325
    for b in s.encode():
        h ^= b; h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def parse_cap(s):
    s = str(s)
    if "per" in s:
        n, p = s.split("per"); return int(n), dur(p.strip())
    return int(s), None


def iso(ms):
    x = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=ms - ms % 1000)
    s = "%04d-%s" % (x.year, x.strftime("%m-%dT%H:%M:%S"))
    return s + ("" if ms % 1000 == 0 else ".%03d" % (ms % 1000)) + "Z"


VERBOSE = "--quiet" not in sys.argv
EVENTS = []
DECS = []
def main():
    camps, settings = load(sys.argv[1])
    users = {}
    rej = set()
    if os.environ.get("REJECTS"):
        rej = {json.loads(l)["line"] for l in open(os.environ["REJECTS"])}
    rejects = []
    for ln, line in enumerate(open(sys.argv[2], "rb"), 1):
        if os.environ.get("REJECTS"):
            if not line.strip() or ln in rej:
                continue
            o = json.loads(line)
            users.setdefault(str(o["user"]), []).append((parse_ts(o["ts"]), o["lat"], o["lon"], o.get("accuracy")))
            continue
        reason, fx = validate(line)
        if reason:
            rejects.append({"line": ln, "reason": reason})
        elif fx and (not os.environ.get("UNTIL") or fx[1] <= parse_ts(os.environ["UNTIL"])):
            users.setdefault(fx[0], []).append(fx[1:])
    if os.environ.get("REJECTSOUT"):
        with open(os.environ["REJECTSOUT"], "w") as f:
            for r in rejects:
                f.write(json.dumps(r) + "\n")
    limit = parse_cap(settings.get("limits", {}).get("per_user")) if settings.get("limits", {}).get("per_user") else None
    for u in sorted(users, key=lambda x: x.encode()):
        if os.environ.get("SKIP_ZX") and u.startswith("z") and u.endswith("x"):
            continue
        fx = sorted(users[u], key=lambda f: f[0])
        T0, T1 = fx[0][0], fx[-1][0]
        triggers = []
        for c in camps:
            vis = {}
            for reg in c["regions"]:
                vs = crossing(c, reg, fx, T1)
                if vs:
                    vis[reg["id"]] = vs
                    for v in vs:
                        EVENTS.append((u.encode(), v[0], 1, c["id"].encode(), reg["id"].encode(),
                                       {"type": "enter", "user": u, "campaign": c["id"], "region": reg["id"], "time": iso(v[0])}))
                        if v[1] is not None:
                            ds = (v[1] - v[0]) / 1000
                            EVENTS.append((u.encode(), v[1], 0, c["id"].encode(), reg["id"].encode(),
                                           {"type": "exit", "user": u, "campaign": c["id"], "region": reg["id"], "time": iso(v[1]),
                                            "enter": iso(v[0]), "duration_s": int(ds) if ds == int(ds) else ds, "reason": v[2]}))
                    for v in vs:
                        if VERBOSE: print("  visit %-6s %-16s %-22s %s -> %s %s (%.1f min)" % (u, c["id"], reg["id"], iso(v[0]),
                              iso(v[1]) if v[1] is not None else "open", v[2] or "", dur_of(v) / 60000))
            act = c.get("active")
            tz = (act or {}).get("timezone", "UTC")
            actv = [(-INF, INF)]
            if act:
                def inst(x):
                    if isinstance(x, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", x.strip()):
                        x = datetime.date.fromisoformat(x.strip())
                    if isinstance(x, datetime.date) and not isinstance(x, datetime.datetime):
                        return local_to_ms(datetime.datetime(x.year, x.month, x.day), zoneinfo.ZoneInfo(tz))
                    if isinstance(x, datetime.datetime):
                        if x.tzinfo is None:
                            x = x.replace(tzinfo=datetime.timezone.utc)
                        return ms_round(Decimal(x.timestamp()) * 1000)
                    return parse_ts(str(x).strip())
                actv = [(inst(act["from"]) if "from" in act else -INF, inst(act["until"]) if "until" in act else INF)]
            for rule in c["rules"]:
                civ, cev = cond(c, rule["when"], vis, T0, T1, tz)
                iv = inter(inter(civ, actv), [(T0, T1 + 1)])
                for a, b in iv:
                    triggers.append((a, c, rule, cev(a)))
        triggers.sort(key=lambda t: (t[0], -int(t[1]["offers"][t[2]["offer"]].get("priority", 0)), t[1]["id"].encode(), t[2]["id"].encode()))
        hist = []  # (t, campaign, offer, status)
        for t, c, rule, evid in triggers:
            off = c["offers"][rule["offer"]]
            st = "delivered"
            cap = parse_cap(off["cap"]) if "cap" in off else None
            if cap:
                n = sum(1 for h in hist if h[1] == c["id"] and h[2] == off["id"] and h[3] in ("delivered", "held_out")
                        and (cap[1] is None or t - cap[1] < h[0] <= t))
                if n >= cap[0]:
                    st = "capped"
            if st == "delivered" and fnv(c["id"] + ":" + u) % 10000 < c["holdout"] * 100:
                st = "held_out"
            if st == "delivered" and any(h[0] == t and h[3] == "delivered" for h in hist):
                st = "lower_priority"
            if st == "delivered" and limit:
                n = sum(1 for h in hist if h[3] == "delivered" and t - limit[1] < h[0] <= t)
                if n >= limit[0]:
                    st = "limited"
            hist.append((t, c["id"], off["id"], st))
            if os.environ.get("JSONOUT"):
                d = {"user": u, "time": iso(t), "campaign": c["id"], "rule": rule["id"], "offer": off["id"], "status": st}
                if off.get("message") is not None:
                    d["message"] = str(off["message"])
                seen = []
                for rid, vis in sorted(evid, key=lambda e: (e[1][0], e[0].encode())):
                    e = {"region": rid, "enter": iso(vis[0]), "exit": iso(vis[1]) if vis[1] is not None else None}
                    if e not in seen:
                        seen.append(e)
                d["evidence"] = seen
                DECS.append(d)
                continue
            lt = datetime.datetime.fromtimestamp(t / 1000, zoneinfo.ZoneInfo("America/Los_Angeles"))
            print("DECISION %-6s %s (%s local) %s/%s/%s %s" % (u, iso(t), lt.strftime("%a %H:%M:%S"), c["id"], rule["id"], off["id"], st))



if __name__ == "__main__":
    main()
    if os.environ.get("EVENTSOUT"):
        with open(os.environ["EVENTSOUT"], "w") as f:
            for e in sorted(EVENTS, key=lambda e: e[:5]):
                f.write(json.dumps(e[5], separators=(",", ":"), ensure_ascii=False) + "\n")
    if os.environ.get("JSONOUT"):
        for d in DECS:
            print(json.dumps(d, separators=(",", ":"), ensure_ascii=False))
