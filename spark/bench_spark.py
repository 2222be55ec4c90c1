"""`make bench-spark`: the Spark job on the bench M city with 2, 4 and 8 partitions, in
local[2] on this machine, against one single-process `geocampaign evaluate`.

Prints one row per case: wall time (the fastest of --repeat runs), fixes per second, and for the
job the parts of its time that can be told apart:

- session: starting the SparkSession (JVM, once per spark-submit; not in the job's wall time);
- shuffle: the job without geocampaign (read the JSON Lines, read user and time, hash
  partition, sort within partitions; written to Spark's no-op sink);
- job: the whole job (the above, plus each partition through a geocampaign process, decisions
  written as JSON Lines, summaries collected);
- gc sum / gc max: geocampaign's own wall time per process, summed and the longest (from the
  summaries).

The decisions are checked against the single run (sorted lines) on every run.
"""

import argparse
import glob
import os
import platform
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import geocampaign_spark as job  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="M")
    ap.add_argument("--partitions", default="2 4 8")
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--dist", default=os.path.join(ROOT, "dist", f"geocampaign-linux-{platform.machine()}.tar.gz"))
    a = ap.parse_args()

    data = os.path.join(ROOT, "bench-data", a.size)
    if not os.path.exists(os.path.join(data, "manifest.json")):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/gen_bench.py"), "--size", a.size,
                        "--out", os.path.join(ROOT, "bench-data")], check=True)
    history, campaigns = os.path.join(data, "history.jsonl"), os.path.join(data, "campaigns")
    fixes = sum(1 for _ in open(history, "rb"))
    tmp = tempfile.mkdtemp(prefix="bench-spark-")
    with tarfile.open(a.dist) as t:
        t.extractall(tmp, filter="tar")
    binary = os.path.join(tmp, "geocampaign/bin/geocampaign")

    rows = []
    best, want = None, None
    for _ in range(max(a.repeat, 3)):
        out = os.path.join(tmp, "single.jsonl")
        t0 = time.perf_counter()
        subprocess.run([binary, "evaluate", "--include-suppressed", "--campaigns", campaigns, "--history", history,
                        "--output", out, "--quiet"], check=True)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    with open(out, encoding="utf-8") as f:
        want = sorted(f.read().splitlines())
    rows.append(("1 process, 2 threads", best, None, None, None, None))

    from pyspark.sql import SparkSession
    t0 = time.perf_counter()
    spark = (SparkSession.builder.master("local[2]").appName("geocampaign-bench")
             .config("spark.archives", f"{a.dist}#gc")
             .config("spark.pyspark.python", sys.executable)
             .config("spark.ui.enabled", "false")
             .config("spark.driver.memory", "2g")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    session = time.perf_counter() - t0
    try:
        for n in [int(x) for x in a.partitions.split()]:
            args = job.parse_args(["--input", history, "--output", os.path.join(tmp, f"out-{n}"), "--overwrite",
                                   "--partitions", str(n), "--campaigns", campaigns, "--include-suppressed"])
            shuffle = None
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                job.partitioned(job.build_rows(spark, args), n).write.format("noop").mode("overwrite").save()
                dt = time.perf_counter() - t0
                shuffle = dt if shuffle is None else min(shuffle, dt)
            wall, walls = None, None
            for _ in range(a.repeat):
                t0 = time.perf_counter()
                summary = job.run_job(spark, args)
                dt = time.perf_counter() - t0
                got = []
                for p in glob.glob(os.path.join(args.output, "part-*")):
                    with open(p, encoding="utf-8") as f:
                        got += f.read().splitlines()
                if sorted(got) != want:
                    sys.exit(f"bench-spark: the job's decisions with {n} partitions differ from the single run's")
                if wall is None or dt < wall:
                    wall, walls = dt, summary["process_wall_s"]
            rows.append((f"spark local[2], N={n}", wall, session, shuffle, sum(walls), max(walls)))
    finally:
        spark.stop()

    print(f"bench-spark: {a.size} city, {fixes:,} fixes, {len(want):,} decisions, {os.cpu_count()} cores, "
          f"fastest of {a.repeat} (single run: of {max(a.repeat, 3)})")
    print(f"{'case':<24}{'wall s':>8}{'M fixes/s':>11}{'vs 1 proc':>11}{'session s':>11}{'shuffle s':>11}"
          f"{'gc sum s':>10}{'gc max s':>10}")
    base = rows[0][1]
    for name, wall, session, shuffle, gsum, gmax in rows:
        def f(v):
            return f"{v:.2f}" if v is not None else "-"
        print(f"{name:<24}{wall:>8.2f}{fixes / wall / 1e6:>11.2f}{wall / base:>10.1f}x{f(session):>11}{f(shuffle):>11}"
              f"{f(gsum):>10}{f(gmax):>10}")


if __name__ == "__main__":
    main()
