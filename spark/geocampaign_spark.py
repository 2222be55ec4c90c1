#!/usr/bin/env python3
"""geocampaign on Apache Spark: the decisions of one `geocampaign evaluate` run, from a cluster.

    spark-submit --master local[2] \\
        --archives dist/geocampaign-linux-x86_64.tar.gz#gc \\
        spark/geocampaign_spark.py \\
        --input histories/ --output decisions/ --partitions 8 --include-suppressed

Every rule, cap and limit of the contract is per user, so a history split by user gives, user by
user, the decisions of one run over all of it. The job:

1. reads the histories (`--input-format jsonl|csv|parquet`, any path Spark reads: local,
   `hdfs://`, `s3a://`, globs, folders) and keeps each row's input order
   (`monotonically_increasing_id`, taken before any shuffle);
2. repartitions by a hash of the user id into `--partitions N` partitions (all of one user's rows
   in one partition, so in one process) and sorts within each partition by (user, time, input
   order);
3. streams each partition through `geocampaign evaluate --sorted --history -` (the binary and the
   campaigns shipped with `--archives`/`--files`, found under `SparkFiles.getRootDirectory()`);
   `--sorted` makes the process check that each user's lines come together and fail naming the
   line otherwise;
4. writes the decisions (`--output-format jsonl|parquet`) and prints the summary merged over the
   partitions (lines, fixes, rejected lines by reason, users, decisions by status and by offer).

JSON Lines are handed to the binary byte for byte (Spark only reads the user and time of each line
to place it), so rejected lines and their reasons are the binary's own. CSV and Parquet rows are
turned into JSON Lines with the canonical keys. A partition whose process fails fails the job,
with the process's exit status and stderr in the error.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

STATUSES = ["delivered", "held_out", "capped", "lower_priority", "limited"]
CANONICAL = ["user", "ts", "lat", "lon", "accuracy"]
DEFAULT_BIN = "gc/geocampaign/bin/geocampaign"
DEFAULT_CAMPAIGNS = "gc/geocampaign/campaigns"
# A partition key for a line whose user Spark cannot read (it is rejected by the binary; the job
# checks that it is): spread such lines by input order, apart from any real user id.
NO_USER_PREFIX = "\u0000no-user:"


class PartitionFailed(RuntimeError):
    """A partition's geocampaign process failed, or broke the job's promise about users."""


def parse_args(argv):
    ap = argparse.ArgumentParser(prog="geocampaign_spark.py",
                                 description="Replay location histories through geocampaign on Spark.")
    ap.add_argument("--input", action="append", required=True, metavar="PATH",
                    help="a history file, folder or glob Spark can read; repeatable")
    ap.add_argument("--input-format", choices=["jsonl", "csv", "parquet"], default="jsonl")
    ap.add_argument("--output", required=True, metavar="PATH", help="folder the decisions are written to")
    ap.add_argument("--output-format", choices=["jsonl", "parquet"], default="jsonl")
    ap.add_argument("--overwrite", action="store_true", help="replace --output if it exists")
    ap.add_argument("--partitions", type=int, metavar="N",
                    help="partitions, one geocampaign process each (default: spark.default.parallelism)")
    ap.add_argument("--field", action="append", default=[], metavar="NAME=SOURCE",
                    help="read a canonical field (user, ts, lat, lon, accuracy) from another key or column")
    ap.add_argument("--bin", default=DEFAULT_BIN, metavar="PATH",
                    help="the geocampaign binary; a relative path is looked up under SparkFiles first "
                         f"(default: {DEFAULT_BIN}, from --archives geocampaign-linux-x86_64.tar.gz#gc)")
    ap.add_argument("--campaigns", action="append", metavar="PATH",
                    help=f"campaign folder or file, resolved as --bin; repeatable (default: {DEFAULT_CAMPAIGNS})")
    ap.add_argument("--include-suppressed", action="store_true",
                    help="write every decision status, not only delivered")
    ap.add_argument("--until", metavar="INSTANT", help="passed to geocampaign evaluate")
    ap.add_argument("--threads", type=int, metavar="N",
                    help="threads of each geocampaign process (default: spark.task.cpus)")
    ap.add_argument("--summary-json", metavar="FILE", help="also write the merged summary there (driver side)")
    a = ap.parse_args(argv)
    a.campaigns = a.campaigns or [DEFAULT_CAMPAIGNS]
    fields = {}
    for f in a.field:
        name, sep, source = f.partition("=")
        if not sep or not source or name not in CANONICAL:
            ap.error(f"--field '{f}': expected NAME=SOURCE with NAME one of {', '.join(CANONICAL)}")
        fields[name] = source
    a.fields = fields
    if a.partitions is not None and a.partitions < 1:
        ap.error("--partitions: expected a whole number >= 1")
    return a


# ---------------------------------------------------------------------------------------------
# Reading: every row becomes (line: the JSON Lines text for geocampaign, ukey, tkey, order)


def build_rows(spark, args):
    """The input as a DataFrame of (line binary, ukey string, tkey long, order long)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T
    src = {name: args.fields.get(name, name) for name in CANONICAL}
    if args.input_format == "jsonl":
        # Byte for byte: only `\n` ends a line (geocampaign strips a `\r` before it itself).
        df = spark.read.option("lineSep", "\n").text(args.input)
        df = df.withColumn("order", F.monotonically_increasing_id())
        schema = T.StructType([T.StructField(src["user"], T.StringType()), T.StructField(src["ts"], T.StringType())])
        parsed = F.from_json(F.col("value"), schema)
        df = df.select(
            F.concat(F.col("value").cast("binary"), F.lit(b"\n")).alias("line"),
            parsed.getField(src["user"]).alias("user"),
            parsed.getField(src["ts"]).alias("ts"),
            "order")
        ts_seconds = F.when(F.col("ts").rlike(r"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$"),
                            F.expr("try_cast(ts as double)")) \
                      .otherwise(F.expr("unix_micros(try_to_timestamp(ts)) / 1e6"))
        df = df.withColumn("tsec", ts_seconds)
    else:
        if args.input_format == "csv":
            df = spark.read.option("header", "true").option("inferSchema", "false").csv(args.input)
        else:
            df = spark.read.parquet(*args.input)
        missing = [s for s in src.values() if s not in df.columns and s != src["accuracy"]]
        if missing:
            raise SystemExit(f"geocampaign_spark: the input has no column {', '.join(missing)} "
                             f"(columns: {', '.join(df.columns)}; map one with --field NAME=SOURCE)")
        df = df.withColumn("order", F.monotonically_increasing_id())
        types = dict(df.dtypes)
        frag = {}
        u = F.col(f"`{src['user']}`").cast("string")
        frag["user"] = _jstr(F, u)
        tcol = F.col(f"`{src['ts']}`")
        ttype = types[src["ts"]]
        if ttype.startswith("timestamp") or ttype == "date":
            t_text = F.date_format(tcol.cast("timestamp"), "yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            frag["ts"] = _jstr(F, t_text)
            ts_seconds = F.expr(f"unix_micros(cast(`{src['ts']}` as timestamp)) / 1e6")
        elif ttype == "string":
            numeric = tcol.rlike(r"^-?[0-9]+(\.[0-9]+)?$")
            frag["ts"] = F.when(numeric, tcol).otherwise(_jstr(F, tcol))
            ts_seconds = F.when(numeric, F.expr(f"try_cast(`{src['ts']}` as double)")) \
                          .otherwise(F.expr(f"unix_micros(try_to_timestamp(`{src['ts']}`)) / 1e6"))
        else:  # a number: epoch seconds, written in plain decimal
            frag["ts"] = tcol.cast("decimal(38,9)").cast("string")
            ts_seconds = tcol.cast("double")
        for name in ["lat", "lon", "accuracy"]:
            if src[name] not in df.columns:
                frag[name] = F.lit(None).cast("string")
                continue
            c = F.col(f"`{src[name]}`")
            if types[src[name]] == "string":
                d = F.expr(f"try_cast(`{src[name]}` as double)")
                frag[name] = F.when(F.trim(c) == "", None) \
                              .when(d.isNotNull(), _jnum(F, d)).otherwise(_jstr(F, c))
            else:
                frag[name] = _jnum(F, c.cast("double"))
        pieces = [F.when(frag[n].isNotNull(), F.concat(F.lit(json.dumps(n) + ":"), frag[n])) for n in CANONICAL]
        line = F.concat(F.lit("{"), F.concat_ws(",", *pieces), F.lit("}\n"))
        df = df.select(line.cast("binary").alias("line"), u.alias("user"), ts_seconds.alias("tsec"), "order")
    # The time key only orders each user's lines before they reach geocampaign, which sorts each
    # user's fixes by time again, stably. Whole seconds are enough, and safe: a coarser key keeps
    # input order wherever geocampaign's own times tie.
    return df.select("line", _ukey(F), F.floor(F.col("tsec")).alias("tkey"), "order")


def _jstr(F, c):
    """A string column as a JSON string literal (null stays null)."""
    j = F.to_json(F.array(c))
    return F.when(c.isNotNull(), F.regexp_extract(j, r"^\[(.*)\]$", 1))


def _jnum(F, d):
    """A double column as JSON number text (null, NaN and infinities stay null)."""
    j = F.to_json(F.array(d))
    ok = d.isNotNull() & ~F.isnan(d) & (F.abs(d) != float("inf"))
    return F.when(ok, F.regexp_extract(j, r"^\[(.*)\]$", 1))


def _ukey(F):
    """The partition and sort key: the user id as Spark reads it. Spark reads the integer literal
    -0 as "0" where geocampaign keeps "-0" (the same user as the string "-0"), so "-0" is keyed
    "0": never two processes for one user (ids 0 and -0 both in one history then interleave in one
    partition, which --sorted refuses loudly). A line without a readable user is keyed by its
    input order."""
    u = F.when(F.col("user") == "-0", F.lit("0")).otherwise(F.col("user"))
    return F.coalesce(u, F.concat(F.lit(NO_USER_PREFIX), F.col("order").cast("string"))).alias("ukey")


# ---------------------------------------------------------------------------------------------
# One partition through one geocampaign process


def resolve_shipped(path):
    """A relative path is looked up under SparkFiles' root (where --files and --archives land),
    then taken as given."""
    if os.path.isabs(path):
        return path
    try:
        from pyspark import SparkFiles
        root = SparkFiles.getRootDirectory()
        candidate = os.path.join(root, path)
        if os.path.exists(candidate):
            return candidate
    except Exception:
        pass
    return os.path.abspath(path)


def evaluate_command(binary, campaigns, fields, include_suppressed, until, threads, rejects):
    cmd = [binary, "evaluate", "--sorted", "--history", "-", "--rejects", rejects]
    for c in campaigns:
        cmd += ["--campaigns", c]
    for name, source in sorted(fields.items()):
        cmd += ["--field", f"{name}={source}"]
    if include_suppressed:
        cmd.append("--include-suppressed")
    if until:
        cmd += ["--until", until]
    if threads:
        cmd += ["--threads", str(threads)]
    return cmd


def make_partition_runner(bin_path, campaigns, fields, include_suppressed, until, threads, batch_lines=4096):
    """The function given to mapInArrow: Arrow batches of (line, nokey) in, batches of
    (kind, text) out: kind 'd' a decision line, kind 's' the process's summary (its stderr)."""

    def run(batches):
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyspark import TaskContext
        ctx = TaskContext.get()
        part = ctx.partitionId() if ctx else -1
        binary = resolve_shipped(bin_path)
        if not os.access(binary, os.X_OK) and os.path.exists(binary):
            os.chmod(binary, 0o755)
        camp = [resolve_shipped(c) for c in campaigns]
        work = tempfile.mkdtemp(prefix=f"geocampaign-p{part}-")
        rejects = os.path.join(work, "rejects.jsonl")
        err_path = os.path.join(work, "stderr")
        cmd = evaluate_command(binary, camp, fields, include_suppressed, until, threads, rejects)
        no_user_lines = []
        feed_error = []
        schema = pa.schema([("kind", pa.string()), ("text", pa.string())])
        proc = None

        try:
            with open(err_path, "wb") as err:
                try:
                    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
                except OSError as e:
                    raise PartitionFailed(f"partition {part}: cannot start {binary}: {e}") from None

                def feed():
                    line_no = 0
                    try:
                        for batch in batches:
                            arr = batch.column(0)
                            n = len(arr)
                            if n == 0:
                                continue
                            nokey = batch.column(1)
                            if pc.any(nokey).as_py():
                                for i in pc.indices_nonzero(nokey).to_pylist():
                                    no_user_lines.append(line_no + i + 1)
                            # The lines end in '\n' already: write the batch's value bytes in one go.
                            _, offsets, data = arr.buffers()
                            offs = memoryview(offsets).cast("i")  # int32 offsets of Arrow's binary type
                            start, end = offs[arr.offset], offs[arr.offset + n]
                            proc.stdin.write(memoryview(data)[start:end])
                            line_no += n
                    except BrokenPipeError:
                        pass  # the process ended early; its status and stderr say why
                    except BaseException as e:  # noqa: BLE001 - reported on the task's thread
                        feed_error.append(e)
                    finally:
                        try:
                            proc.stdin.close()
                        except BrokenPipeError:
                            pass

                feeder = threading.Thread(target=feed, name=f"geocampaign-feed-{part}", daemon=True)
                feeder.start()
                pending = []
                for raw in proc.stdout:
                    pending.append(raw.rstrip(b"\n").decode("utf-8"))
                    if len(pending) >= batch_lines:
                        yield pa.RecordBatch.from_arrays([pa.array(["d"] * len(pending)), pa.array(pending)], schema=schema)
                        pending = []
                status = proc.wait()
                feeder.join()
            with open(err_path, "rb") as f:
                stderr = f.read().decode("utf-8", "replace")
            if feed_error:
                raise PartitionFailed(f"partition {part}: reading the partition failed: {feed_error[0]!r}")
            if status != 0:
                raise PartitionFailed(f"partition {part}: geocampaign exited with status {status}\n"
                                      f"command: {' '.join(cmd)}\nstderr:\n{stderr}")
            if no_user_lines:
                rejected = set()
                with open(rejects, "rb") as f:
                    for r in f:
                        rejected.add(json.loads(r)["line"])
                accepted = [n for n in no_user_lines if n not in rejected]
                if accepted:
                    raise PartitionFailed(
                        f"partition {part}: geocampaign accepted line {accepted[0]} of its input whose user "
                        f"Spark could not read, so that user's lines may be in two processes; "
                        f"{len(accepted)} such line(s)")
            if pending:
                yield pa.RecordBatch.from_arrays([pa.array(["d"] * len(pending)), pa.array(pending)], schema=schema)
            yield pa.RecordBatch.from_arrays([pa.array(["s"]), pa.array([stderr])], schema=schema)
        finally:
            if proc is not None and proc.poll() is None:  # the task was stopped early
                proc.kill()
                proc.wait()
            shutil.rmtree(work, ignore_errors=True)

    return run


# ---------------------------------------------------------------------------------------------
# The summary


_OFFER = re.compile(r"^  [^ :]+/[^ :]+: [a-z_]+ \d+(, [a-z_]+ \d+)*$")
_COUNT = re.compile(r"([a-z][a-z ]*?|fixes after --until): (\d+)")


def parse_summary(text):
    """The counts of geocampaign's stderr summary (docs/cli.md, "The summary"); wall time and any
    other line (warnings) are skipped."""
    s = {"counts": {}, "rejected_by_reason": {}, "decisions": {}, "by_offer": {}, "wall_s": None}
    for line in text.splitlines():
        if line.startswith("wall time: "):
            s["wall_s"] = float(line.split()[2])
        elif line.startswith("lines read:") or line.startswith("users:"):
            head, _, reasons = line.partition(" (")
            for k, v in _COUNT.findall(head):
                s["counts"][k.strip()] = int(v)
            for item in reasons.rstrip(")").split(", ") if reasons else []:
                reason, _, n = item.rpartition(" ")
                s["rejected_by_reason"][reason] = int(n)
        elif line.startswith("decisions: "):
            for item in line[len("decisions: "):].split(", "):
                st, _, n = item.rpartition(" ")
                s["decisions"][st] = int(n)
        elif s["decisions"] and _OFFER.match(line):
            key, _, rest = line.strip().partition(": ")
            s["by_offer"][key] = {st: int(n) for st, _, n in (i.rpartition(" ") for i in rest.split(", "))}
    return s


def merge_summaries(parts):
    m = {"partitions": len(parts), "counts": {}, "rejected_by_reason": {}, "decisions": {}, "by_offer": {},
         "process_wall_s": sorted((p["wall_s"] for p in parts if p.get("wall_s") is not None), reverse=True)}
    for p in parts:
        for section in ("counts", "rejected_by_reason", "decisions"):
            for k, v in p[section].items():
                m[section][k] = m[section].get(k, 0) + v
        for key, c in p["by_offer"].items():
            d = m["by_offer"].setdefault(key, {})
            for st, v in c.items():
                d[st] = d.get(st, 0) + v
    m["by_offer"] = dict(sorted(m["by_offer"].items()))
    m["rejected_by_reason"] = dict(sorted(m["rejected_by_reason"].items()))
    return m


def format_summary(m):
    c = m["counts"]
    out = [f"lines read: {c.get('lines read', 0)}, fixes accepted: {c.get('fixes accepted', 0)}, "
           f"fixes used: {c.get('fixes used', 0)}, rejected: {c.get('rejected', 0)}"
           + (" (" + ", ".join(f"{k} {v}" for k, v in m["rejected_by_reason"].items()) + ")"
              if m["rejected_by_reason"] else ""),
           f"users: {c.get('users', 0)}, visits: {c.get('visits', 0)}, events: {c.get('events', 0)}, "
           f"triggers: {c.get('triggers', 0)}",
           "decisions: " + ", ".join(f"{st} {m['decisions'].get(st, 0)}" for st in STATUSES)]
    for key, d in m["by_offer"].items():
        out.append(f"  {key}: " + ", ".join(f"{st} {d[st]}" for st in STATUSES if st in d))
    walls = m.get("process_wall_s") or []
    out.append(f"partitions: {m['partitions']}" + (f" (geocampaign wall time per process: longest {walls[0]:.3f} s, "
                                                   f"total {sum(walls):.3f} s)" if walls else ""))
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# The job


def partitioned(rows, n, by_time=False):
    """Rows hashed by user into n partitions, sorted within each by (user, time, input order).
    by_time=True hashes by (user, time) instead: wrong on purpose, the tests' negative control."""
    from pyspark.sql import functions as F
    keys = [F.col("ukey"), F.col("tkey")] if by_time else [F.col("ukey")]
    return rows.repartition(n, *keys).sortWithinPartitions("ukey", "tkey", "order")


def decisions_frame(spark, args, by_time=False):
    """(kind, text) rows: the decision lines of every partition and one summary per partition."""
    from pyspark.sql import functions as F
    if __name__ != "__main__":
        # Imported as a module (tests, notebooks): the workers unpickle the runner by reference
        # to this module, so they need the file too. (spark-submit ships __main__ by value.)
        _ship_self(spark)
    n = args.partitions or spark.sparkContext.defaultParallelism
    threads = args.threads or int(spark.conf.get("spark.task.cpus", "1"))
    rows = partitioned(build_rows(spark, args), n, by_time=by_time)
    # A line with no readable user must be one geocampaign rejects (checked per partition);
    # blank lines (spaces and tabs) are neither accepted nor rejected, just counted.
    blank = F.col("line").cast("string").rlike("^[ \t]*\r?\n$")
    rows = rows.select("line", (F.col("ukey").startswith(NO_USER_PREFIX) & ~blank).alias("nokey"))
    runner = make_partition_runner(args.bin, args.campaigns, args.fields if args.input_format == "jsonl" else {},
                                   args.include_suppressed, args.until, threads)
    return rows.mapInArrow(runner, "kind string, text string")


_SHIPPED = set()


def _ship_self(spark):
    sc = spark.sparkContext
    if id(sc) not in _SHIPPED:
        sc.addPyFile(os.path.abspath(__file__))
        _SHIPPED.add(id(sc))


# `reason` (suppressed decisions with --include-suppressed, docs/cli.md) varies in shape: kept
# in Parquet as its JSON text, null for delivered decisions.
DECISION_SCHEMA = ("user string, time string, campaign string, rule string, offer string, status string, "
                   "message string, evidence array<struct<region: string, enter: string, exit: string>>, "
                   "reason string")


def run_job(spark, args, by_time=False):
    """Runs the job; returns the merged summary. Raises PartitionFailed when a partition fails."""
    from pyspark import StorageLevel
    from pyspark.sql import functions as F
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    out = decisions_frame(spark, args, by_time=by_time).persist(StorageLevel.MEMORY_AND_DISK)
    try:
        try:
            decisions = out.filter(F.col("kind") == "d").select("text")
            mode = "overwrite" if args.overwrite else "errorifexists"
            if args.output_format == "jsonl":
                decisions.write.mode(mode).text(args.output)
            else:
                decisions.select(F.from_json("text", DECISION_SCHEMA).alias("d")).select("d.*") \
                         .write.mode(mode).parquet(args.output)
            summaries = [r.text for r in out.filter(F.col("kind") == "s").collect()]
        except Exception as e:  # noqa: BLE001 - find the partition's own message in Spark's error
            failure = partition_failure(e)
            if failure:
                raise PartitionFailed(failure) from None
            raise
    finally:
        out.unpersist()
    n = args.partitions or spark.sparkContext.defaultParallelism
    if len(summaries) != n:
        raise PartitionFailed(f"{len(summaries)} partition summaries for {n} partitions")
    return merge_summaries([parse_summary(s) for s in summaries])


def partition_failure(e):
    """The PartitionFailed message inside a Spark error, if any."""
    text = str(e)
    i = text.find("PartitionFailed: ")
    if i < 0:
        return None
    msg = text[i + len("PartitionFailed: "):]
    # Spark appends the JVM stack after the Python traceback.
    for end in ("\n\tat ", "\n\n\tat ", "\nJVM stacktrace", "\n\nDriver stacktrace", "\n SQLSTATE:"):
        j = msg.find(end)
        if j >= 0:
            msg = msg[:j]
    return msg.rstrip()


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from pyspark.sql import SparkSession
    spark = SparkSession.builder.appName("geocampaign").getOrCreate()
    spark.sparkContext.setLogLevel(os.environ.get("GEOCAMPAIGN_SPARK_LOG_LEVEL", "WARN"))
    try:
        summary = run_job(spark, args)
    except PartitionFailed as e:
        print(f"geocampaign_spark: error: {e}", file=sys.stderr)
        return 1
    finally:
        spark.stop()
    print(format_summary(summary), file=sys.stderr)
    if args.summary_json:
        with open(args.summary_json, "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
