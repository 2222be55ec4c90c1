#!/usr/bin/env python3
"""make bench (report case, issue 13): `geocampaign report` (HTML, the default, and JSON; every
campaign given a goal) on the M city against `evaluate --include-suppressed` on it, run
alternately so that a busy moment of the shared machine weighs on all alike. Target: report
within 1.3x evaluate.

Usage: scripts/bench_report.py [--bin .build/release/geocampaign] [--size M] [--repeat N] [--threads N]
The data is bench-data/SIZE, made by scripts/gen_bench.py with a fixed seed (as scripts/bench.py does).
"""
import argparse, os, re, shutil, subprocess, sys
from bench_common import scratch, timed

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--bin", default=os.path.join(root, ".build/release/geocampaign"))
ap.add_argument("--size", default="M")
ap.add_argument("--repeat", type=int, default=3)
ap.add_argument("--threads", type=int)
a = ap.parse_args()

d = os.path.join(root, "bench-data", a.size)
if not os.path.exists(os.path.join(d, "history.jsonl")):
    print(f"generating {a.size} ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, os.path.join(here, "gen_bench.py"), "--size", a.size, "--out", os.path.dirname(d)], check=True)


def goal_campaigns():
    """A copy of the city's campaigns with a goal in each (its first tag, within 1 day), so that
    the report computes a lift for every campaign; the decisions are the same as without. Made
    afresh each time in this checkout's scratch folder, never in the (maybe shared) data folder."""
    src, dst = os.path.join(d, "campaigns"), scratch(d, "campaigns-goals")
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    for name in os.listdir(dst):
        path = os.path.join(dst, name)
        text = open(path).read() if name.endswith(".yaml") else ""
        tag = re.search(r"tags: \[([\w-]+)", text)
        if tag and (text.startswith("campaign:") or "\ncampaign:" in text):
            with open(path, "a") as f:
                f.write(f"\ngoal: {{ tags: [{tag.group(1)}], within: 1d, min_dwell: 5m }}\n")
    return dst


def run(command, campaigns, extra=()):
    out = scratch(d, "decisions.jsonl" if command == "evaluate" else "report.out")
    cmd = [a.bin, command, "--campaigns", campaigns, "--history", os.path.join(d, "history.jsonl"), "--output", out]
    cmd += (["--include-suppressed"] if command == "evaluate" else []) + list(extra)
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    wall, _, ru = timed(cmd)
    return {"wall": wall, "rss_mb": ru.ru_maxrss / 1024, "bytes": os.path.getsize(out)}


goals = goal_campaigns()
cases = [("evaluate", "evaluate", os.path.join(d, "campaigns"), ()),
         ("report", "report", goals, ()),
         ("report json", "report", goals, ("--format", "json"))]
runs = {name: [] for name, *_ in cases}
for _ in range(max(1, a.repeat)):
    for name, command, campaigns, extra in cases:
        runs[name].append(run(command, campaigns, extra))
rows = []
for name, rs in runs.items():
    best = min(rs, key=lambda r: r["wall"])
    rows.append(dict(best, name=name, rss_mb=max(r["rss_mb"] for r in rs)))
base = rows[0]["wall"]
print(f"\nreport against evaluate on {a.size}, {os.cpu_count()} cores (the fastest of {a.repeat} alternating runs each)")
print(f"{'command':<14}{'wall s':>9}{'x evaluate':>12}{'peak MB':>9}{'output MB':>11}")
for r in rows:
    print(f"{r['name']:<14}{r['wall']:>9.2f}{r['wall'] / base:>12.2f}{r['rss_mb']:>9.0f}{r['bytes'] / 1e6:>11.2f}")
worst = max(r["wall"] for r in rows[1:]) / base
print(f"target: report within 1.3x evaluate: {'met' if worst <= 1.3 else 'NOT met'} ({worst:.2f}x)")
