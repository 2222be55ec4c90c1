#!/usr/bin/env python3
"""make bench: generate the synthetic city (once per case), run `geocampaign evaluate` on it and
print a table: fixes/s end to end, the time of each stage, peak resident memory, core count.

Usage: scripts/bench.py [--sizes "S M L"] [--bin .build/release/geocampaign] [--threads N]
                        [--no-sorted] [--extra "M:100000"] [--overlap "S:10 S:100 S:1000"]
                        [--peer "poly o1 o10 o100 unvisited"] [--peer-size M] [--repeat N]
                        [--against OLD_BIN] [--only CASE,CASE]
The data goes to bench-data/ (git-ignored); it is made by scripts/gen_bench.py with a fixed seed.

Cases: the sizes; M with 100k regions (--extra); heavy overlap, every fix inside K regions more
(--overlap, gen_bench.py --overlap K); the peer cases (--peer, gen_bench.py --peer KIND on the
--peer-size history), each also run in DuckDB + spatial (Benchmarks/peers/duckdb_campaign.py,
installed from PyPI into bench-data/venv on first use) alternately with geocampaign, with the
ratio of the medians; L with --sorted.

Every case runs --repeat times and the median wall time is shown (and the fastest). With
--against OLD_BIN, each run of the binary alternates with one of OLD_BIN on the same case (the
machine's speed drifts from minute to minute, so alternating is the fair comparison), both
medians and their ratio are shown, and the decisions of both are compared byte for byte.
"""
import argparse, filecmp, os, re, statistics, subprocess, sys, time
from bench_common import scratch, timed

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)

ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--sizes", default="S M L")
ap.add_argument("--bin", default=os.path.join(root, ".build/release/geocampaign"))
ap.add_argument("--threads", type=int)
ap.add_argument("--extra", default="M:100000", help="SIZE:REGIONS runs besides the standard sizes (empty for none)")
ap.add_argument("--overlap", default="S:10 S:100 S:1000", help="SIZE:K runs where every fix lies inside K regions more (empty for none)")
ap.add_argument("--peer", default="poly o1 o10 o100 unvisited", help="peer cases run against DuckDB too (empty for none)")
ap.add_argument("--peer-size", default="M", help="the history of the peer cases")
ap.add_argument("--no-sorted", action="store_true", help="skip the run of L with --sorted on a user-grouped copy")
ap.add_argument("--repeat", type=int, default=3, help="runs of each case; the median is reported")
ap.add_argument("--against", help="an older geocampaign binary to alternate with and compare output against")
ap.add_argument("--only", help="comma-separated case names to run (as printed in the table)")
a = ap.parse_args()

venv = os.path.join(root, "bench-data", "venv")
venv_python = os.path.join(venv, "bin", "python")
peer_script = os.path.join(root, "Benchmarks", "peers", "duckdb_campaign.py")


def data_dir(size, *options):
    """The folder of a case made by gen_bench.py with `options` (generated on first use)."""
    name = size + "".join(options_suffix(options))
    d = os.path.join(root, "bench-data", name)
    if not os.path.exists(os.path.join(d, "manifest.json")):
        cmd = [sys.executable, os.path.join(here, "gen_bench.py"), "--size", size, "--out", os.path.dirname(d)] + list(options)
        t = time.time()
        print(f"generating {name} ...", file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
        print(f"  generated in {time.time() - t:.1f} s", file=sys.stderr, flush=True)
    return d


def options_suffix(options):
    """The folder name suffix gen_bench.py gives `options` (its --regions, --overlap, --peer)."""
    out = []
    it = iter(options)
    for o in it:
        v = next(it)
        out.append({"--regions": "-r%s", "--overlap": "-o%s", "--peer": "-peer-%s"}[o] % v)
    return out


def count_lines(path):
    n = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 24)
            if not b:
                return n
            n += b.count(b"\n")


def base_rss_mb(binary, d):
    """Peak memory of the same run on a one-line history: the process plus the loaded regions."""
    one = scratch(d, "one-line.jsonl")
    with open(os.path.join(d, "history.jsonl"), "rb") as f, open(one, "wb") as o:
        o.write(f.readline())
    p = subprocess.Popen([binary, "evaluate", "--campaigns", os.path.join(d, "campaigns"), "--history", one,
                          "--output", os.devnull, "--quiet"], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_maxrss / 1024


def run(binary, d, out, extra=(), history="history.jsonl"):
    cmd = [binary, "evaluate", "--campaigns", os.path.join(d, "campaigns"), "--history",
           os.path.join(d, history), "--output", out, "--include-suppressed"] + list(extra)
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    wall, err, ru = timed(cmd)
    fixes = int(re.search(r"fixes accepted: (\d+)", err).group(1))
    stages = dict((k, float(v)) for k, v in re.findall(r"([\w+]+) ([\d.]+) s", err.split("stages:")[-1]))
    return {"wall": wall, "fixes": fixes, "rss_mb": ru.ru_maxrss / 1024, "stages": stages}


def run_peer(d):
    ensure_venv()
    cmd = [venv_python, peer_script, d, "--out", scratch(d, "duckdb-decisions.csv")]
    if a.threads:
        cmd += ["--threads", str(a.threads)]
    errors = scratch(d, "duckdb-stderr.txt")
    with open(errors, "wb") as e:
        wall, out, ru = timed(cmd, stdout=subprocess.PIPE, stderr=e, errors=errors)
    n = int(re.search(r"(\d+) decisions", out).group(1))
    return {"wall": wall, "decisions": n, "rss_mb": ru.ru_maxrss / 1024}


def ensure_venv():
    if os.path.exists(venv_python):
        r = subprocess.run([venv_python, "-c", "import duckdb, duckdb_extension_spatial"], capture_output=True)
        if r.returncode == 0:
            return
    print("installing duckdb and duckdb-extension-spatial into bench-data/venv ...", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    # The spatial wheel is built for one DuckDB version: let pip pick the matching duckdb.
    subprocess.run([venv_python, "-m", "pip", "install", "-q", "duckdb-extension-spatial", "duckdb"], check=True)


def measure(name, d, extra=(), history="history.jsonl", peer=False):
    """Runs the case `a.repeat` times (alternating with --against and with DuckDB when asked)."""
    new_out = scratch(d, "decisions.jsonl")
    old_out = scratch(d, "decisions.against.jsonl")
    runs, old_runs, peer_runs = [], [], []
    for i in range(max(1, a.repeat)):
        # Alternate the order too, so that neither side always runs first.
        order = ["new", "old", "peer"] if i % 2 == 0 else ["peer", "old", "new"]
        for who in order:
            if who == "new":
                runs.append(run(a.bin, d, new_out, extra, history))
            elif who == "old" and a.against:
                old_runs.append(run(a.against, d, old_out, extra, history))
            elif who == "peer" and peer:
                peer_runs.append(run_peer(d))
    walls = [r["wall"] for r in runs]
    best = dict(runs[walls.index(min(walls))])
    best.update(name=name, median=statistics.median(walls), fastest=min(walls),
                rss_mb=max(r["rss_mb"] for r in runs), base_mb=base_rss_mb(a.bin, d),
                decisions=count_lines(new_out))
    if old_runs:
        best["old_median"] = statistics.median(r["wall"] for r in old_runs)
        best["identical"] = filecmp.cmp(new_out, old_out, shallow=False)
    if peer_runs:
        best["peer_median"] = statistics.median(r["wall"] for r in peer_runs)
        best["peer_decisions"] = peer_runs[-1]["decisions"]
        best["peer_rss_mb"] = max(r["rss_mb"] for r in peer_runs)
    line = f"{name}: median {best['median']:.2f} s ({best['fixes'] / best['median'] / 1e6:.2f} M fixes/s), peak {best['rss_mb']:.0f} MB"
    if old_runs:
        line += f"; against: {best['old_median']:.2f} s, {'identical' if best['identical'] else 'DIFFERENT'} decisions"
    if peer_runs:
        line += f"; duckdb {best['peer_median']:.2f} s ({best['peer_median'] / best['median']:.1f}x)"
    print(line, file=sys.stderr, flush=True)
    return best


only = set(a.only.split(",")) if a.only else None
rows = []
sizes = a.sizes.split()
plan = [(s, s, ()) for s in sizes]
for e in a.extra.split():
    s, r = e.split(":")
    if s in sizes:
        plan.append((f"{s} ({int(r) // 1000}k regions)", s, ("--regions", r)))
for e in a.overlap.split():
    s, k = e.split(":")
    plan.append((f"{s} overlap {k}", s, ("--overlap", k)))
for kind in a.peer.split():
    plan.append((f"peer {kind}", a.peer_size, ("--peer", kind)))
for name, size, options in plan:
    if only and name not in only:
        continue
    rows.append(measure(name, data_dir(size, *options), peer=options[:1] == ("--peer",)))
if not a.no_sorted and "L" in sizes and (not only or "L --sorted" in only):
    d = data_dir("L")
    sorted_path = os.path.join(d, "history.sorted.jsonl")
    if not os.path.exists(sorted_path):
        subprocess.run([sys.executable, os.path.join(here, "group_by_user.py"), os.path.join(d, "history.jsonl"), sorted_path], check=True)
    rows.append(measure("L --sorted", d, ["--sorted"], history="history.sorted.jsonl"))

cores = os.cpu_count()
print(f"\ngeocampaign evaluate, {cores} cores, threads: {a.threads or 'all'}, median of {a.repeat} runs")
head = f"{'case':<22}{'fixes':>12}{'wall s':>9}{'fastest':>9}{'M fixes/s':>11}{'campaigns s':>13}{'read s':>9}{'replay s':>10}{'peak MB':>9}{'base MB':>9}{'B/fix':>7}{'decisions':>11}"
if any("old_median" in r for r in rows):
    head += f"{'before s':>10}{'speed-up':>10}{'output':>11}"
if any("peer_median" in r for r in rows):
    head += f"{'duckdb s':>10}{'ratio':>7}{'duck MB':>9}{'same n':>8}"
print(head)
for r in rows:
    st = r["stages"]
    if "read+replay" in st:
        st = dict(st, read=st["read+replay"], replay=0.0)
    line = (f"{r['name']:<22}{r['fixes']:>12,}{r['median']:>9.2f}{r['fastest']:>9.2f}{r['fixes'] / r['median'] / 1e6:>11.2f}"
            f"{st.get('campaigns', 0):>13.2f}{st.get('read', 0):>9.2f}{st.get('replay', 0):>10.2f}"
            f"{r['rss_mb']:>9.0f}{r['base_mb']:>9.0f}{(r['rss_mb'] - r['base_mb']) * 1048576 / max(1, r['fixes']):>7.0f}{r['decisions']:>11,}")
    if "old_median" in r:
        line += f"{r['old_median']:>10.2f}{r['old_median'] / r['median']:>9.2f}x{'identical' if r['identical'] else 'DIFFERENT':>11}"
    elif any("old_median" in x for x in rows):
        line += " " * 31
    if "peer_median" in r:
        line += f"{r['peer_median']:>10.2f}{r['peer_median'] / r['median']:>6.1f}x{r['peer_rss_mb']:>9.0f}{'yes' if r['peer_decisions'] == r['decisions'] else 'NO':>8}"
    print(line)
print(f"wall: the median of {a.repeat} runs of each case (fastest: the fastest; stages and peak MB: of the fastest run, peak the highest);")
print("peak MB: peak resident memory of the run; base MB: the same run on a one-line history (process and regions);")
print("B/fix: (peak - base) per fix. Stages: campaigns = loading YAML and imports, read = history, replay = crossing, rules, decisions, writing.")
if any("old_median" in r for r in rows):
    print(f"before: {a.against}, run alternately with this binary; output: its decisions compared byte for byte.")
if any("peer_median" in r for r in rows):
    print("duckdb: the same campaign in DuckDB + spatial (Benchmarks/peers/duckdb_campaign.py), run alternately, whole process;")
    print("ratio: duckdb median / geocampaign median; duck MB: its peak memory; same n: the same number of decisions.")

# The stateful case (issue 9): 30 daily batches of M through one state.
if "M" in a.sizes.split():
    sys.stdout.flush()
    # With the same repeats as the other cases (a stateless day takes 0.06-0.24 s, so one run of
    # each is noise), and alternating with the older build when there is one.
    cmd = [sys.executable, os.path.join(here, "bench_state.py"), "--bin", a.bin, "--repeat", str(a.repeat)]
    if a.against:
        cmd += ["--against", a.against]
    subprocess.run(cmd, check=True)
