#!/usr/bin/env python3
"""The stateful case of make bench (issue 9): 30 daily batches of the M city through one state.

The M history covers one week; day d of the 30 (d = 0..29) is the M fixes of weekday d % 7,
moved d // 7 weeks later, so every batch holds the same 10k users' habits for one day. Each
batch is run twice: `evaluate --state` (all 30 on one state, in order) and a stateless
`evaluate` of the same batch. Printed: the wall time and peak memory of each stateful run, its
ratio to the stateless run, run 30 / run 2, and the state's bytes per user.

With `--against OLD_BIN`, the same 30 runs are made with both binaries, alternating them day
by day (old stateless, old stateful, new stateless, new stateful; the order swaps every other
day) on two states, since the shared machine's speed drifts; each day's stateful outputs of the
two binaries are compared (by their SHA-256), and both sets of figures are printed.

With `--repeat N`, each batch's stateless and stateful runs alternate N times (each stateful
run from a copy of the state before the batch) and the fastest of each are compared.

Usage: scripts/bench_state.py [--bin .build/release/geocampaign] [--days 30] [--against OLD_BIN] [--repeat N]
"""
import argparse, calendar, hashlib, json, os, re, shutil, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
ap.add_argument("--bin", default=os.path.join(root, ".build/release/geocampaign"))
ap.add_argument("--days", type=int, default=30)
ap.add_argument("--against", help="an older binary to alternate with --bin, outputs compared")
ap.add_argument("--repeat", type=int, default=1,
                help="runs per batch, stateless and stateful alternating, each stateful one from the state before the batch (the fastest of each are compared)")
a = ap.parse_args()

M = os.path.join(root, "bench-data", "M")
if not os.path.exists(os.path.join(M, "history.jsonl")):
    subprocess.run([sys.executable, os.path.join(here, "gen_bench.py"), "--size", "M", "--out", os.path.join(root, "bench-data")], check=True)
out_dir = os.path.join(root, "bench-data", "M-days")
os.makedirs(out_dir, exist_ok=True)
# The runs' own files (states, outputs) stay in this checkout, so checkouts can share bench-data/.
run_dir = os.path.join(root, ".build", "bench-out", "M-days")
os.makedirs(run_dir, exist_ok=True)

TS = re.compile(rb'"ts":\s*("([^"]*)"|[-0-9.eE]+)')


def epoch_ms(raw):
    if raw.startswith(b'"'):
        s = raw[1:-1].decode()
        off = 0
        if s.endswith("Z"):
            s = s[:-1]
        else:
            sign = 1 if s[-6] == "+" else -1
            off = sign * (int(s[-5:-3]) * 3600 + int(s[-2:]) * 60)
            s = s[:-6]
        frac = 0.0
        if "." in s:
            s, f = s.split(".")
            frac = float("0." + f)
        t = calendar.timegm(time.strptime(s, "%Y-%m-%dT%H:%M:%S")) - off
        return int(round((t + frac) * 1000))
    return int(round(float(raw) * 1000))


def make_days():
    """bench-data/M-days/day-NN.jsonl, ts rewritten as epoch milliseconds / 1000 (seconds with 3 decimals)."""
    if os.path.exists(os.path.join(out_dir, "day-%02d.jsonl" % (a.days - 1))):
        return
    print("splitting M into daily batches ...", file=sys.stderr, flush=True)
    by_day = {}
    first = None
    with open(os.path.join(M, "history.jsonl"), "rb") as f:
        for line in f:
            m = TS.search(line)
            ms = epoch_ms(m.group(1))
            day = ms // 86_400_000
            first = day if first is None else min(first, day)
            by_day.setdefault(day, []).append((line, m.start(1), m.end(1), ms))
    days = sorted(by_day)
    week = [d for d in days if d < first + 7]
    for d in range(a.days):
        src = by_day.get(week[d % 7], [])
        shift = (d // 7) * 7 * 86_400_000
        with open(os.path.join(out_dir, "day-%02d.jsonl" % d), "wb") as o:
            for line, s, e, ms in src:
                o.write(line[:s] + ("%d.%03d" % divmod(ms + shift, 1000)).encode() + line[e:])


# The peak memory of a run is its own high-water mark, taken by /usr/bin/time (GNU time, %M),
# which forks and then runs the command. The rusage of a child of this script is not: on Linux
# a child started by vfork and exec (Python's subprocess) inherits, as its ru_maxrss, the
# high-water mark of this script's own memory at the time (exec keeps the larger of the old and
# the new image's), so every run reported this script's own peak instead of its own: 266 MB
# for every run after the script had split M into days (it holds the week in memory), and the
# days' outputs that it kept for the comparison made it grow with the runs. Without /usr/bin/time the script lowers its own mark to its
# current size before each run (/proc/self/clear_refs), which then only bounds a run's peak
# from below by this script's size (about 15 MB).
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
PEAK = os.path.join(run_dir, "peak.txt")


def run(cmd):
    if TIME:
        cmd = [TIME, "-f", "%M", "-o", PEAK] + cmd
    else:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
        except OSError:
            pass
    t = time.time()
    p = subprocess.Popen(cmd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.time() - t
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed ({status}):\n{err}")
    if TIME:
        with open(PEAK) as f:
            kib = int(f.read().split()[-1])
    else:
        kib = ru.ru_maxrss
    return wall, kib / 1024, err


def copy_state(src, dst):
    """Copies a state with its write-ahead log (`-wal`, which holds the last run's changes
    until the next run copies them into the database); a stale `-shm` index beside the copy is
    removed (SQLite rebuilds it from the log). The copies are synced before the timed run: a
    state left by a nightly run is on disk already, and its run's first sync should not pay for
    writing out a copy the benchmark has just made."""
    shutil.copyfile(src, dst)
    for ext in ("-wal", "-shm"):
        if os.path.exists(dst + ext):
            os.remove(dst + ext)
    if os.path.exists(src + "-wal"):
        shutil.copyfile(src + "-wal", dst + "-wal")
    # The whole file system, not only the two copies: their directory entries and the
    # journal's pending metadata too, which the timed run's first sync would otherwise write.
    os.sync()


def remove_state(path):
    for ext in ("", "-journal", "-wal", "-shm", "-lock"):
        if os.path.exists(path + ext):
            os.remove(path + ext)


make_days()
campaigns = os.path.join(M, "campaigns")
bins = [("new", a.bin)] + ([("old", a.against)] if a.against else [])
rows = {tag: [] for tag, _ in bins}
for tag, _ in bins:
    for f in ("state-%s.db" % tag, "state-%s.db.before" % tag):
        remove_state(os.path.join(run_dir, f))
differ = 0
for d in range(a.days):
    batch = os.path.join(out_dir, "day-%02d.jsonl" % d)
    for tag, binary in (bins if d % 2 == 0 else bins[::-1]):
        state = os.path.join(run_dir, "state-%s.db" % tag)
        out = os.path.join(run_dir, "out-%s.jsonl" % tag)
        base = [binary, "evaluate", "--campaigns", campaigns, "--history", batch, "--include-suppressed", "--output", out]
        # With --repeat N, stateless and stateful runs alternate N times; each stateful one
        # starts from a copy of the state before the day, and the fastest of each is compared.
        before = state + ".before"
        remove_state(before)
        if a.repeat > 1 and os.path.exists(state):
            copy_state(state, before)
        w0s, w1s, rss, rss0 = [], [], 0, 0
        for k in range(a.repeat):
            # The state is put back before the stateless run, not between it and the stateful
            # one, so that the timed stateful run does not start right after a 10 MB copy and
            # its sync (a nightly run's state has been on disk for a day). On this machine's
            # virtual disk the loops gave about the same spread either way (2026-12-07: median
            # 1.34-1.38x, max 1.48-1.64x with 5 and 15 repeats); two paired loops of 25 runs of
            # run 10 alone gave 1.19x and 1.57x at the minimum, 1.36x and 1.38x at the median.
            if k > 0 and os.path.exists(before):
                copy_state(before, state)
            elif k > 0:
                remove_state(state)
            w, r, _ = run(base)
            w0s.append(w)
            rss0 = max(rss0, r)
            w, r, err = run(base + ["--state", state])
            w1s.append(w)
            rss = max(rss, r)
        w0, w1 = min(w0s), min(w1s)
        info = subprocess.run([binary, "evaluate", "--state", state, "--state-info"], capture_output=True, text=True).stdout
        size = int(re.search(r"size: (\d+) bytes", info).group(1))
        users = int(re.search(r"users: (\d+)", info).group(1))
        held = int(re.search(r"held decisions: (\d+)", info).group(1))
        fixes = int(re.search(r"fixes accepted: (\d+)", err).group(1))
        # A digest, not the bytes: this script's own memory stays small (see `run`).
        with open(out, "rb") as f:
            output = hashlib.sha256(f.read()).hexdigest()
        # The write-ahead log beside the state (WAL mode): the last run's pages, on disk too.
        wal = os.path.getsize(state + "-wal") if os.path.exists(state + "-wal") else 0
        rows[tag].append((d + 1, fixes, w0, w1, rss, size, users, held, output, wal, rss0))
        print(f"{tag} run {d + 1}: {fixes} fixes, stateless {w0:.3f} s, stateful {w1:.3f} s ({w1 / w0:.2f}x), peak {rss:.0f} MB (stateless {rss0:.0f} MB), state {size / max(1, users):.0f} B/user",
              file=sys.stderr, flush=True)
    if a.against and rows["new"][-1][8] != rows["old"][-1][8]:
        differ += 1
        print(f"run {d + 1}: the outputs of the two binaries differ", file=sys.stderr, flush=True)

for tag, binary in bins:
    rs = rows[tag]
    print(f"\nstateful evaluate ({binary}), {a.days} daily batches of M through one state, {os.cpu_count()} cores")
    print(f"{'run':>4}{'fixes':>10}{'stateless s':>13}{'stateful s':>12}{'ratio':>7}{'peak MB':>9}{'(stateless)':>12}{'state MB':>10}{'B/user':>8}{'users':>8}{'held':>7}{'wal MB':>8}")
    for r in rs:
        print(f"{r[0]:>4}{r[1]:>10,}{r[2]:>13.3f}{r[3]:>12.3f}{r[3] / r[2]:>7.2f}{r[4]:>9.0f}{r[10]:>12.0f}{r[5] / 1048576:>10.1f}{r[5] / max(1, r[6]):>8.0f}{r[6]:>8,}{r[7]:>7,}{r[9] / 1048576:>8.1f}")
    ratios = sorted(r[3] / r[2] for r in rs)
    over = sum(1 for x in ratios if x > 1.5)
    print(f"stateful/stateless: min {ratios[0]:.2f}x, median {ratios[len(ratios) // 2]:.2f}x, max {ratios[-1]:.2f}x; "
          f"{over} of {len(ratios)} runs over 1.5x; peak {min(r[4] for r in rs):.0f}-{max(r[4] for r in rs):.0f} MB"
          f" (stateless {min(r[10] for r in rs):.0f}-{max(r[10] for r in rs):.0f} MB{'' if TIME else ', bounded below by this script'})")
    print(f"all {len(rs)} runs: stateless {sum(r[2] for r in rs):.1f} s, stateful {sum(r[3] for r in rs):.1f} s")
    print(f"write-ahead log beside the state: {min(r[9] for r in rs) / 1048576:.1f}-{max(r[9] for r in rs) / 1048576:.1f} MB")
    if len(rs) >= 30:
        print(f"run 30 / run 2: {rs[29][3] / rs[1][3]:.2f}x")
if a.against:
    print(f"\noutputs of the {a.days} stateful runs: {'identical' if differ == 0 else f'{differ} differ'} between the two binaries")
    sys.exit(1 if differ else 0)
