"""The Spark job gives the decisions of one single-process run (`make test-spark`).

Runs spark/geocampaign_spark.py in local[2] on the conformance example and on the bench S city,
from JSON Lines, Parquet and CSV, and compares its decisions with a single-process
`geocampaign evaluate --include-suppressed` on the same data, as sorted lists of lines (Parquet
output: as sorted canonical JSON), and its merged summary with the single run's. A negative
control that partitions by (user, time) must differ. Failures of a partition's process must
fail the job with that process's stderr.

Environment: GEOCAMPAIGN_DIST, the archive `make dist` writes (default: the one for this
machine under dist/). The binary is taken from that archive, shipped as Spark ships it
(spark.archives, alias gc), as on a cluster.
"""

import glob
import json
import os
import platform
import shutil
import subprocess
import sys
import tarfile

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import geocampaign_spark as job  # noqa: E402

DIST = os.environ.get("GEOCAMPAIGN_DIST",
                      os.path.join(ROOT, "dist", f"geocampaign-linux-{platform.machine()}.tar.gz"))


def conformance_dir():
    for d in (os.path.join(ROOT, "Tests/Data/conformance-1"), os.path.join(ROOT, "../shared/spec/examples/conformance-1")):
        if os.path.exists(os.path.join(d, "history.jsonl")):
            return d
    pytest.fail("no conformance-1 example (Tests/Data/conformance-1)")


@pytest.fixture(scope="session")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("spark")


@pytest.fixture(scope="session")
def binary(work):
    """The binary from the dist archive, unpacked for the single-process reference runs."""
    assert os.path.exists(DIST), f"{DIST} is missing: run `make dist` first"
    with tarfile.open(DIST) as t:
        t.extractall(work / "dist", filter="tar")
    b = str(work / "dist/geocampaign/bin/geocampaign")
    assert os.access(b, os.X_OK)
    return b


@pytest.fixture(scope="session")
def spark(work):
    from pyspark.sql import SparkSession
    s = (SparkSession.builder.master("local[2]").appName("geocampaign-test")
         .config("spark.archives", f"{DIST}#gc")
         .config("spark.pyspark.python", sys.executable)
         .config("spark.ui.enabled", "false")
         .config("spark.sql.shuffle.partitions", "4")
         .config("spark.driver.memory", "1g")
         .getOrCreate())
    s.sparkContext.setLogLevel("ERROR")
    yield s
    s.stop()


@pytest.fixture(scope="session")
def s_city():
    d = os.path.join(ROOT, "bench-data", "S")
    if not os.path.exists(os.path.join(d, "manifest.json")):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/gen_bench.py"), "--size", "S",
                        "--out", os.path.join(ROOT, "bench-data")], check=True, stdout=subprocess.DEVNULL)
    return d


CASES = {"conformance": lambda s_city: (os.path.join(conformance_dir(), "history.jsonl"),
                                         os.path.join(conformance_dir(), "campaigns")),
         "S": lambda s_city: (os.path.join(s_city, "history.jsonl"), os.path.join(s_city, "campaigns"))}


def reference(binary, campaigns, history, extra=()):
    """Decision lines (sorted) and parsed summary of one single-process run."""
    r = subprocess.run([binary, "evaluate", "--include-suppressed", "--campaigns", campaigns,
                        "--history", history, *extra], capture_output=True, check=True)
    return sorted(r.stdout.decode().splitlines()), job.parse_summary(r.stderr.decode())


def run(spark, work, name, history, campaigns, fmt="jsonl", out_fmt="jsonl", partitions=4, fields=(), by_time=False):
    out = str(work / f"out-{name}")
    argv = ["--input", history, "--input-format", fmt, "--output", out, "--output-format", out_fmt,
            "--partitions", str(partitions), "--campaigns", campaigns, "--include-suppressed", "--overwrite"]
    for f in fields:
        argv += ["--field", f]
    summary = job.run_job(spark, job.parse_args(argv), by_time=by_time)
    return read_decisions(out, out_fmt), summary


def read_decisions(out, out_fmt):
    if out_fmt == "jsonl":
        lines = []
        for p in sorted(glob.glob(os.path.join(out, "part-*"))):
            with open(p, encoding="utf-8") as f:
                lines += f.read().splitlines()
        return sorted(lines)
    return sorted(canonical(r) for r in pq.read_table(out).to_pylist())


def canonical(d):
    """A decision as sorted-key JSON, `message` left out when null as the JSON Lines do."""
    if isinstance(d, str):
        d = json.loads(d)
    if d.get("message") is None:
        d.pop("message", None)
    # Parquet keeps `reason` as its JSON text (null for delivered decisions).
    if d.get("reason") is None:
        d.pop("reason", None)
    elif isinstance(d["reason"], str):
        d["reason"] = json.loads(d["reason"])
    return json.dumps(d, sort_keys=True, ensure_ascii=False)


def same_counts(a, b):
    """The summaries' counts, rejected lines by reason, decisions by status and by offer."""
    return ({k: a[k] for k in ("counts", "rejected_by_reason", "decisions", "by_offer")} ==
            {k: b[k] for k in ("counts", "rejected_by_reason", "decisions", "by_offer")})


# --- From JSON Lines ------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["conformance", "S"])
def test_jsonl_equals_single_run(spark, work, binary, s_city, case):
    history, campaigns = CASES[case](s_city)
    want, want_summary = reference(binary, campaigns, history)
    got, summary = run(spark, work, f"jsonl-{case}", history, campaigns)
    assert len(want) > 100
    assert got == want
    assert same_counts(summary, want_summary), (summary, want_summary)
    assert summary["partitions"] == 4


def test_negative_control_by_user_and_time_differs(spark, work, binary, s_city):
    """Hashing by (user, time) splits users over processes: the comparison must see it."""
    history, campaigns = CASES["S"](s_city)
    want, want_summary = reference(binary, campaigns, history)
    got, summary = run(spark, work, "control", history, campaigns, by_time=True)
    assert got != want
    assert summary["counts"]["users"] > want_summary["counts"]["users"]  # users counted in several processes


def test_conformance_users_and_rejects_are_counted_once(spark, work, binary, s_city):
    """Rejected lines (with no user Spark can read) reach exactly one process each."""
    history, campaigns = CASES["conformance"](s_city)
    _, want_summary = reference(binary, campaigns, history)
    _, summary = run(spark, work, "conf-8", history, campaigns, partitions=8)
    assert want_summary["counts"]["rejected"] == 101
    assert summary["rejected_by_reason"] == want_summary["rejected_by_reason"]
    assert summary["counts"]["users"] == want_summary["counts"]["users"] == 30


def test_field_mapping_jsonl(spark, work, binary, s_city):
    history, campaigns = CASES["S"](s_city)
    renamed = str(work / "renamed.jsonl")
    with open(history) as f, open(renamed, "w") as o:
        for line in f:
            o.write(line.replace('"user":', '"device_id":', 1).replace('"ts":', '"time":', 1))
    want, _ = reference(binary, campaigns, renamed, ["--field", "user=device_id", "--field", "ts=time"])
    got, _ = run(spark, work, "renamed", renamed, campaigns, fields=["user=device_id", "ts=time"])
    assert len(want) > 100
    assert got == want


# --- From Parquet and CSV (written here with pyarrow) ---------------------------------------


def typed_rows(history):
    """The history's well-formed lines as typed rows (ts as a UTC timestamp); lines Parquet
    cannot hold as typed columns (malformed ones) are left out."""
    from datetime import datetime, timezone, timedelta
    rows = []
    with open(history, "rb") as f:
        for raw in f:
            try:
                d = json.loads(raw, parse_constant=_no_constant)  # NaN is not JSON (RFC 8259)
                u, ts, lat, lon = d["user"], d["ts"], d["lat"], d["lon"]
                if isinstance(u, bool) or not isinstance(u, (str, int)) or u == "":
                    continue
                if isinstance(ts, bool) or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in (lat, lon)):
                    continue
                if isinstance(ts, (int, float)):
                    t = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=round(ts * 1e6))
                else:
                    t = datetime.fromisoformat(ts)
                    if t.tzinfo is None:
                        continue
                acc = d.get("accuracy")
                if acc is not None and (isinstance(acc, bool) or not isinstance(acc, (int, float))):
                    continue
                rows.append({"user": str(u), "ts": t.astimezone(timezone.utc), "lat": float(lat),
                             "lon": float(lon), "accuracy": None if acc is None else float(acc)})
            except (ValueError, KeyError, TypeError, OverflowError, UnicodeDecodeError):
                continue
    return rows


def _no_constant(name):
    raise ValueError(name)


def write_typed(rows, work, name, names):
    """Writes the rows as Parquet and CSV with column names `names`, and as the JSON Lines the
    single-process reference reads."""
    table = pa.table({names[k]: [r[k] for r in rows] for k in job.CANONICAL},
                     schema=pa.schema([(names["user"], pa.string()), (names["ts"], pa.timestamp("us", tz="UTC")),
                                       (names["lat"], pa.float64()), (names["lon"], pa.float64()),
                                       (names["accuracy"], pa.float64())]))
    parquet = str(work / f"{name}.parquet")
    pq.write_table(table, parquet, row_group_size=20_000)
    csv = str(work / f"{name}.csv")
    csv_table = table.set_column(1, names["ts"], pa.array([r["ts"].strftime("%Y-%m-%dT%H:%M:%S.%fZ") for r in rows]))
    pacsv.write_csv(csv_table, csv)
    jsonl = str(work / f"{name}.jsonl")
    with open(jsonl, "w") as f:
        for r in rows:
            d = {"user": r["user"], "ts": r["ts"].strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "lat": r["lat"], "lon": r["lon"]}
            if r["accuracy"] is not None:
                d["accuracy"] = r["accuracy"]
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    return parquet, csv, jsonl


CANON_NAMES = {k: k for k in job.CANONICAL}
LAKE_NAMES = {"user": "device_id", "ts": "event_time", "lat": "latitude", "lon": "longitude", "accuracy": "h_acc"}


@pytest.mark.parametrize("case", ["conformance", "S"])
def test_parquet_equals_single_run(spark, work, binary, s_city, case):
    history, campaigns = CASES[case](s_city)
    rows = typed_rows(history)
    names = LAKE_NAMES if case == "S" else CANON_NAMES
    parquet, _, jsonl = write_typed(rows, work, f"typed-{case}", names)
    want, want_summary = reference(binary, campaigns, jsonl)
    fields = [f"{k}={v}" for k, v in names.items() if k != v]
    got, summary = run(spark, work, f"parquet-{case}", parquet, campaigns, fmt="parquet", fields=fields)
    assert len(want) > 100
    assert got == want
    assert same_counts(summary, want_summary)


def test_csv_in_parquet_out_equals_single_run(spark, work, binary, s_city):
    history, campaigns = CASES["S"](s_city)
    rows = typed_rows(history)
    _, csv, jsonl = write_typed(rows, work, "typed-S", LAKE_NAMES)
    want, _ = reference(binary, campaigns, jsonl)
    fields = [f"{k}={v}" for k, v in LAKE_NAMES.items()]
    got, _ = run(spark, work, "csv-S", csv, campaigns, fmt="csv", out_fmt="parquet", fields=fields)
    assert got == sorted(canonical(w) for w in want)


# --- Failures are loud ------------------------------------------------------------------------


def test_a_failing_process_fails_the_job_with_its_stderr(spark, work, s_city):
    history, campaigns = CASES["conformance"](s_city)
    broken = work / "broken-campaigns"
    shutil.copytree(os.path.join(conformance_dir(), "campaigns"), broken / "campaigns")
    shutil.copytree(os.path.join(conformance_dir(), "regions"), broken / "regions")
    with open(broken / "campaigns/auto-insurance.yml", "a") as f:
        f.write("bogus_key: 1\n")
    with pytest.raises(job.PartitionFailed) as e:
        run(spark, work, "broken", history, str(broken / "campaigns"))
    msg = str(e.value)
    assert "geocampaign exited with status 65" in msg
    assert "auto-insurance.yml:" in msg and "bogus_key" in msg


def test_unsorted_partition_is_refused_naming_the_line(spark, work, s_city, monkeypatch):
    """--sorted is always on: a partition whose users are not together is an error (here the
    job is made to skip its sort; the conformance history interleaves users)."""
    history, campaigns = CASES["conformance"](s_city)
    monkeypatch.setattr(job, "partitioned", lambda rows, n, by_time=False: rows.coalesce(1))
    with pytest.raises(job.PartitionFailed) as e:
        run(spark, work, "unsorted", history, campaigns, partitions=1)
    assert "appears again after other users; --sorted needs each user's lines together" in str(e.value)
    assert "-:" in str(e.value)  # stdin, with the line number


# --- As submitted: spark-submit, the binary and the campaigns shipped as archives -------------


def test_spark_submit_with_shipped_campaigns(work, binary):
    conf = conformance_dir()
    camp_archive = str(work / "conformance-campaigns.tar.gz")
    with tarfile.open(camp_archive, "w:gz") as t:
        t.add(os.path.join(conf, "campaigns"), arcname="campaigns")
        t.add(os.path.join(conf, "regions"), arcname="regions")
    out, summary_json = str(work / "out-submit"), str(work / "summary.json")
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    r = subprocess.run([submit, "--master", "local[2]", "--conf", "spark.ui.enabled=false",
                        "--archives", f"{DIST}#gc,{camp_archive}#conf",
                        os.path.join(HERE, "geocampaign_spark.py"),
                        "--input", os.path.join(conf, "history.jsonl"), "--output", out, "--partitions", "3",
                        "--campaigns", "conf/campaigns", "--include-suppressed", "--summary-json", summary_json],
                       capture_output=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr.decode()[-4000:]
    want, want_summary = reference(binary, os.path.join(conf, "campaigns"), os.path.join(conf, "history.jsonl"))
    assert read_decisions(out, "jsonl") == want
    with open(summary_json) as f:
        assert same_counts(json.load(f), want_summary)
    # spark-submit passes the Python driver's stdout and stderr on as its stdout.
    said = r.stdout.decode()
    assert "decisions: delivered" in said and "partitions: 3" in said


def test_spark_submit_failure_exits_nonzero_with_the_message(work):
    out = str(work / "out-submit-fail")
    submit = os.path.join(os.path.dirname(sys.executable), "spark-submit")
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    r = subprocess.run([submit, "--master", "local[1]", "--conf", "spark.ui.enabled=false",
                        "--archives", f"{DIST}#gc", os.path.join(HERE, "geocampaign_spark.py"),
                        "--input", os.path.join(conformance_dir(), "history.jsonl"), "--output", out,
                        "--partitions", "1", "--campaigns", "no-such-campaigns"],
                       capture_output=True, env=env, timeout=600)
    err = r.stdout.decode() + r.stderr.decode()
    assert r.returncode == 1, err[-4000:]
    assert "geocampaign_spark: error: partition 0: geocampaign exited with status 66" in err
    assert "no-such-campaigns" in err


# --- The summary parser ------------------------------------------------------------------------


def test_parse_and_merge_summaries():
    a = ("warning: something\nlines read: 10, fixes accepted: 8, fixes used: 8, rejected: 2 (invalid_json 1, bad_type 1)\n"
         "users: 2, visits: 3, events: 5, triggers: 4\n"
         "decisions: delivered 2, held_out 1, capped 0, lower_priority 1, limited 0\n"
         "  c/o: delivered 2, held_out 1\nwall time: 0.1 s (stages: read 0.0 s)\n")
    b = ("lines read: 5, fixes accepted: 5, fixes used: 5, rejected: 0\nusers: 1, visits: 1, events: 1, triggers: 1\n"
         "decisions: delivered 1, held_out 0, capped 0, lower_priority 0, limited 0\n  c/o: delivered 1\n")
    m = job.merge_summaries([job.parse_summary(a), job.parse_summary(b)])
    assert m["counts"] == {"lines read": 15, "fixes accepted": 13, "fixes used": 13, "rejected": 2,
                           "users": 3, "visits": 4, "events": 6, "triggers": 5}
    assert m["rejected_by_reason"] == {"bad_type": 1, "invalid_json": 1}
    assert m["decisions"]["delivered"] == 3 and m["by_offer"] == {"c/o": {"delivered": 3, "held_out": 1}}
    assert "rejected: 2 (bad_type 1, invalid_json 1)" in job.format_summary(m)
