#!/usr/bin/env python3
"""The peer campaign of `scripts/gen_bench.py --peer` done in DuckDB + spatial, the way a data
engineer would write it: parse the history, cut each user's fixes into segments at gaps, join
fixes to polygons (ST_Intersects: the boundary counts, as at `hysteresis: 0m`), make visits from
runs of consecutive fixes inside a polygon (gaps and islands), then find the instants where the
distinct places entered in the last 24 hours reach 3 (a distinct-count window).

    python3 duckdb_campaign.py DIR [--threads N] [--out FILE]

DIR holds history.jsonl and regions.csv (id, WKT). Prints one line: decisions, seconds. It needs
`duckdb` and `duckdb-extension-spatial` from PyPI (scripts/bench.py installs them into the git-
ignored bench-data/venv); the extension is loaded from the wheel's file, with no network.
Semantics as peer.yaml says: used fixes have accuracy absent or <= 100 m; segments break where
consecutive used fixes are more than 30 min apart; confirm 0s; a visit enters at its first fix;
`visited: {at_least: 3, distinct: true, within: 1d}` triggers where the count of distinct regions
entered in (t - 24h, t] becomes >= 3 (no cap, holdout or limit, so every trigger is a decision).
"""
import argparse, os, sys, time

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("dir")
ap.add_argument("--threads", type=int)
ap.add_argument("--out", help="write the decisions (user, time in epoch ms) as CSV here")
a = ap.parse_args()

t0 = time.time()
import duckdb  # noqa: E402
import duckdb_extension_spatial  # noqa: E402

ext = os.path.join(os.path.dirname(duckdb_extension_spatial.__file__), "extensions", "v" + duckdb.__version__,
                   "spatial.duckdb_extension")
con = duckdb.connect()
con.execute(f"LOAD '{ext}'")
if a.threads:
    con.execute(f"SET threads = {a.threads}")
history = os.path.join(a.dir, "history.jsonl")
regions = os.path.join(a.dir, "regions.csv")

con.execute(f"""
CREATE TEMP TABLE regions AS
SELECT id, ST_GeomFromText(wkt) AS geom
FROM read_csv('{regions}', header = true, columns = {{'id': 'VARCHAR', 'wkt': 'VARCHAR'}})
""")

con.execute(f"""
CREATE TEMP TABLE used AS
WITH raw AS (
    SELECT "user" AS user_id, ts, lat, lon, accuracy, row_number() OVER () AS line
    FROM read_json('{history}', format = 'newline_delimited',
                   columns = {{'user': 'VARCHAR', 'ts': 'VARCHAR', 'lat': 'DOUBLE', 'lon': 'DOUBLE', 'accuracy': 'DOUBLE'}})
), fixes AS (
    SELECT user_id, line, lat, lon,
           CASE WHEN ts LIKE '%-%' THEN epoch_ms(ts::TIMESTAMPTZ)
                ELSE CAST(round(ts::DOUBLE * 1000) AS BIGINT) END AS t
    FROM raw
    WHERE accuracy IS NULL OR accuracy <= 100
), ordered AS (
    SELECT *, row_number() OVER w AS seq, t - lag(t) OVER w AS dt
    FROM fixes
    WINDOW w AS (PARTITION BY user_id ORDER BY t, line)
)
SELECT user_id, seq, t, ST_Point(lon, lat) AS pt,
       sum(CASE WHEN dt > 1800000 THEN 1 ELSE 0 END) OVER (PARTITION BY user_id ORDER BY seq ROWS UNBOUNDED PRECEDING) AS seg
FROM ordered
""")

con.execute("""
CREATE TEMP TABLE hits AS
SELECT u.user_id, r.id AS region, u.seq, u.seg, u.t
FROM used u JOIN regions r ON ST_Intersects(r.geom, u.pt)
""")

# Gaps and islands: consecutive used fixes of one user inside one region, within one segment.
con.execute("""
CREATE TEMP TABLE visits AS
SELECT user_id, region, min(t) AS enter
FROM (SELECT *, seq - row_number() OVER (PARTITION BY user_id, region, seg ORDER BY seq) AS island FROM hits)
GROUP BY user_id, region, seg, island
""")

# Distinct-count windows: distinct regions entered in (t - 24h, t], at t and just before t.
decisions = con.execute("""
CREATE TEMP TABLE decisions AS
SELECT DISTINCT user_id, enter AS t
FROM (
    SELECT user_id, enter,
           count(DISTINCT region) OVER (PARTITION BY user_id ORDER BY enter
                                        RANGE BETWEEN 86399999 PRECEDING AND CURRENT ROW) AS now_count,
           count(DISTINCT region) OVER (PARTITION BY user_id ORDER BY enter
                                        RANGE BETWEEN 86400000 PRECEDING AND 1 PRECEDING) AS before_count
    FROM visits
)
WHERE now_count >= 3 AND coalesce(before_count, 0) < 3
""")
n = con.execute("SELECT count(*) FROM decisions").fetchone()[0]
if a.out:
    con.execute(f"COPY (SELECT * FROM decisions ORDER BY user_id, t) TO '{a.out}' (HEADER)")
print(f"duckdb {duckdb.__version__}: {n} decisions, {time.time() - t0:.3f} s")
