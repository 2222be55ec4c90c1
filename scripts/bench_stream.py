#!/usr/bin/env python3
"""Benchmarks of `geocampaign stream` (docs/stream.md, issue 11): throughput, latency, memory.

  throughput  the M history (bench-data/M) through a pipe (`cat history.jsonl | geocampaign stream`):
              wall time, fixes/s, CPU time, peak memory (medians of --repeat runs, and the best);
              with --against OLD_BIN, the two binaries alternate run by run. The load average
              is printed before and after: on a shared machine, read the figures with it.
  latency     lines paced into the stream's standard input at --rate fixes/s (default 20,000),
              `--commit-every 1s`, decisions read on its standard output. For each decision,
              the time from writing the line that settles it to reading the decision. The settling
              line is taken as the user's first line after the decision's time (no decision can be
              settled earlier, state.md 1.1), so the figures are upper bounds.
  memory      --users distinct users (default 1,000,000) with 5 fixes each in one stream through
              a pipe: 'spread' (one new user a minute of stream time, each user's fixes 5 minutes
              apart: idle users are written and dropped) and, with --concurrent, the same users
              all in the same hours (every user active at once) for comparison. Peak RSS.
              --idle-after is passed to the stream (default: its own, the campaigns' bound;
              'never' keeps every user in memory, for comparison).

Nothing here is a timed test: it prints figures. Needs `swift build -c release` and
`python3 scripts/gen_bench.py --size M --out bench-data`.
"""
import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ms_of(ts):
    if isinstance(ts, (int, float)):
        return int(ts * 1000) if ts < 1e11 else int(ts)
    return int(datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp() * 1000)


def peak_kb(cmd_prefix):
    return ["/usr/bin/time", "-f", "peak_kb %M cpu %U %S"] + cmd_prefix


def parse_peak(stderr):
    for line in stderr.splitlines()[::-1]:
        if line.startswith("peak_kb "):
            return int(line.split()[1])
    return None


def parse_cpu(stderr):
    """User plus system seconds from the /usr/bin/time line."""
    for line in stderr.splitlines()[::-1]:
        if line.startswith("peak_kb "):
            f = line.split()
            return float(f[3]) + float(f[4])
    return None


def load_average():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def throughput(args, tmp):
    """Runs `--bin` (and `--against`, alternating with it run by run, so that both see the same
    load) --repeat times each; prints every run and the medians."""
    history = os.path.join(args.data, "history.jsonl")
    n = sum(1 for _ in open(history, "rb"))
    bins = [args.bin] + ([args.against] if args.against else [])
    runs = {b: [] for b in bins}
    print(f"throughput: {load_average()} at start")
    for r in range(args.repeat):
        for k, b in enumerate(bins):
            state = os.path.join(tmp, f"tp-{r}-{k}.db")
            out = os.path.join(tmp, f"tp-{r}-{k}.jsonl")
            cmd = peak_kb([b, "stream", "--state", state, "--campaigns", os.path.join(args.data, "campaigns"),
                           "--output", out, "--quiet"])
            with open(history, "rb") as f:
                cat = subprocess.Popen(["cat"], stdin=f, stdout=subprocess.PIPE)
                t = time.perf_counter()
                p = subprocess.run(cmd, stdin=cat.stdout, capture_output=True, text=True)
                wall = time.perf_counter() - t
                cat.wait()
            if p.returncode != 0:
                sys.exit(f"stream failed: {p.stderr}")
            decisions = sum(1 for _ in open(out, "rb"))
            row = (wall, parse_cpu(p.stderr), parse_peak(p.stderr), decisions)
            runs[b].append(row)
            print(f"  run {r + 1} {b}: {wall:.2f} s, {n / wall / 1e6:.2f}M fixes/s, cpu {row[1]:.2f} s, "
                  f"peak {row[2] / 1024:.0f} MB, {decisions} decisions")
    print(f"throughput: {load_average()} at end, {os.cpu_count()} cores")
    for b in bins:
        wall = median([x[0] for x in runs[b]])
        best = min(x[0] for x in runs[b])
        cpu = median([x[1] for x in runs[b]])
        peak = max(x[2] for x in runs[b])
        print(f"throughput {b}: {n:,} lines from a pipe, median {wall:.2f} s = {n / wall / 1e6:.2f}M fixes/s "
              f"(best {best:.2f} s = {n / best / 1e6:.2f}M/s, {args.repeat} runs), median cpu {cpu:.2f} s, "
              f"peak {peak / 1024:.0f} MB, {runs[b][0][3]:,} decisions")


def latency(args, tmp):
    history = os.path.join(args.data, "history.jsonl")
    lines = []
    with open(history, "rb") as f:
        for i, raw in enumerate(f):
            if i >= args.lines:
                break
            lines.append(raw)
    users, times = [], []
    for raw in lines:
        o = json.loads(raw)
        users.append(str(o["user"]))
        times.append(ms_of(o["ts"]))
    # Per user: line indices in order, to find the first line after a decision's time.
    by_user = {}
    for i, u in enumerate(users):
        by_user.setdefault(u, []).append(i)

    state = os.path.join(tmp, "lat.db")
    cmd = [args.bin, "stream", "--state", state, "--campaigns", os.path.join(args.data, "campaigns"),
           "--commit-every", "1s", "--quiet"]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    written = [0.0] * len(lines)
    got = []

    def reader():
        buf = b""
        while True:
            chunk = p.stdout.read1(1 << 16) if hasattr(p.stdout, "read1") else os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            now = time.perf_counter()
            buf += chunk
            *done, buf = buf.split(b"\n")
            for d in done:
                if d:
                    got.append((now, d))

    t = threading.Thread(target=reader)
    t.start()
    fd = p.stdin.fileno()
    start = time.perf_counter()
    step = max(1, args.rate // 1000)  # lines per millisecond
    i = 0
    while i < len(lines):
        due = start + i / args.rate
        now = time.perf_counter()
        if now < due:
            time.sleep(max(0.0, due - now - 0.0002))
            while time.perf_counter() < due:
                pass
        chunk = b"".join(lines[i:i + step])
        os.write(fd, chunk)
        w = time.perf_counter()
        for k in range(i, min(i + step, len(lines))):
            written[k] = w
        i += step
    elapsed = time.perf_counter() - start
    p.stdin.close()
    t.join()
    p.wait()
    lat = []
    for now, d in got:
        o = json.loads(d)
        u, tm = str(o["user"]), ms_of(o["time"])
        settle = next((k for k in by_user.get(u, []) if times[k] > tm), None)
        if settle is None:
            continue  # printed at the end of input
        lat.append((now - written[settle]) * 1000)
    lat.sort()
    if not lat:
        sys.exit("no decisions measured")

    def q(x):
        return lat[min(len(lat) - 1, int(x * len(lat)))]
    print(f"latency: {len(lines):,} lines paced at {len(lines) / elapsed:,.0f} fixes/s, --commit-every 1s, "
          f"{len(lat):,} decisions: p50 {q(0.5):.2f} ms, p90 {q(0.9):.2f} ms, p99 {q(0.99):.2f} ms, max {lat[-1]:.2f} ms, "
          f"{load_average()}")


def memory_lines(users, spread, points):
    """5 fixes per user, in time order. spread: user i starts i minutes in, fixes 5 minutes apart;
    else every user within the same 2 hours."""
    t0 = 1_780_000_000_000
    rng = random.Random(7)
    if spread:
        # Time order: at minute m, user m starts and users m-5, m-10, m-15, m-20 go on.
        for m in range(users + 20):
            for k in range(4, -1, -1):
                u = m - 5 * k
                if 0 <= u < users:
                    lat, lon = points[(u * 5 + k) % len(points)]
                    ts = (t0 + m * 60_000) // 1000
                    yield f'{{"user":"m{u}","ts":{ts},"lat":{lat + rng.uniform(-2e-4, 2e-4):.6f},"lon":{lon:.6f}}}\n'.encode()
    else:
        for k in range(5):
            for u in range(users):
                lat, lon = points[(u * 5 + k) % len(points)]
                ts = (t0 + k * 1_200_000 + (u * 7) % 1_000_000) // 1000
                yield f'{{"user":"m{u}","ts":{ts},"lat":{lat:.6f},"lon":{lon:.6f}}}\n'.encode()


def rss_kb(time_pid):
    """The resident size of the stream under /usr/bin/time (its child), or None."""
    try:
        for task in os.listdir(f"/proc/{time_pid}/task"):
            for child in open(f"/proc/{time_pid}/task/{task}/children").read().split():
                for line in open(f"/proc/{child}/status"):
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
    except OSError:
        pass
    return None


def memory(args, tmp):
    points = []
    with open(os.path.join(args.data, "history.jsonl"), "rb") as f:
        for i, raw in enumerate(f):
            if i % 10 == 0:
                o = json.loads(raw)
                points.append((o["lat"], o["lon"]))
            if len(points) >= 100_000:
                break
    cases = [("spread", True)] + ([("concurrent", False)] if args.concurrent else [])
    for name, spread in cases:
        state = os.path.join(tmp, f"mem-{name}.db")
        out = os.path.join(tmp, f"mem-{name}.jsonl")
        cmd = peak_kb([args.bin, "stream", "--state", state, "--campaigns", os.path.join(args.data, "campaigns"),
                       "--output", out] + (["--idle-after", args.idle_after] if args.idle_after else []))
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        batch = []
        # The stream's RSS as each tenth of the input has been written: flat when memory is
        # bounded by the active users, growing when it is bounded by the users seen.
        total, written, marks = args.users * 5, 0, []
        for line in memory_lines(args.users, spread, points):
            batch.append(line)
            if len(batch) >= 10_000:
                p.stdin.write(b"".join(batch))
                written += len(batch)
                batch = []
                if written * 10 >= total * (len(marks) + 1):
                    marks.append(rss_kb(p.pid))
        p.stdin.write(b"".join(batch))
        p.stdin.close()
        err = p.stderr.read().decode()
        p.wait()
        wall = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit(f"stream failed: {err}")
        peak = parse_peak(err)
        size = os.path.getsize(state)
        idle = f", --idle-after {args.idle_after}" if args.idle_after else ""
        print(f"memory ({name}{idle}): {args.users:,} users x 5 fixes in {wall:.1f} s, peak {peak / 1024:.0f} MB, "
              f"state {size / 1e6:.0f} MB, {sum(1 for _ in open(out, 'rb')):,} decisions")
        print("  RSS (MB) after each tenth of the input: " + " ".join(f"{m / 1024:.0f}" if m else "?" for m in marks))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", nargs="*", default=["throughput", "latency", "memory"])
    ap.add_argument("--bin", default=os.path.join(ROOT, ".build/release/geocampaign"))
    ap.add_argument("--data", default=os.path.join(ROOT, "bench-data/M"))
    ap.add_argument("--against", help="throughput: another binary, run alternately with --bin (medians of both)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rate", type=int, default=20_000)
    ap.add_argument("--lines", type=int, default=200_000, help="lines paced in the latency run")
    ap.add_argument("--users", type=int, default=1_000_000)
    ap.add_argument("--concurrent", action="store_true", help="memory: also every user active at once")
    ap.add_argument("--idle-after", help="memory: the stream's --idle-after (default: the stream's own)")
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.data, "history.jsonl")):
        sys.exit(f"{args.data}: missing; run python3 scripts/gen_bench.py --size M --out bench-data")
    tmp = tempfile.mkdtemp(prefix="gc-bench-stream-")
    try:
        for w in args.what:
            {"throughput": throughput, "latency": latency, "memory": memory}[w](args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
