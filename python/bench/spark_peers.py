#!/usr/bin/env python3
"""Time lshscope.spark and the Spark tools people use for near-duplicates on one corpus, the
same way: in local[2] on Spark's default memory (no spark.driver.memory), measuring the wall
time and the peak summed RSS of the JVM and the Python processes of the run.

    spark_peers.py subset CORPUS N OUT.parquet        the first N rows of a Parquet corpus
    spark_peers.py run lshscope CORPUS WORKDIR        python -m lshscope.spark, 20 x 5, t = 0.8
    spark_peers.py run mllib CORPUS WORKDIR           Spark MLlib's MinHashLSH similarity join
    spark_peers.py run text-dedup CORPUS WORKDIR --script minhash_spark.py --python VENV/bin/python
    spark_peers.py compare PAIRS_DIR REFERENCE_DIR    how many pairs of one run the other has
    spark_peers.py check-removed CORPUS KEPT_DIR PAIRS_DIR   text-dedup's removals against pairs

Each run writes WORKDIR/out (the tool's output), WORKDIR/log.txt (its stdout and stderr),
WORKDIR/timeline.txt (memory every half second) and WORKDIR/result.json, and prints one line.
See README.md beside this file for what each tool does differently.
"""

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHIM_DIR = HERE / "graphframes_shim"

#: The lead's lshscope.spark benchmarks match this; a run of ours waits while one is going.
BUSY_PATTERN = "lshscope.spark|timeline.py"
SAMPLE_SECONDS = 0.5
GIB = 2**30


# ---------------------------------------------------------------------------------------------
# Measuring a process tree


def _children_by_parent():
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                # The command name may hold spaces and parentheses: the fields after the
                # last ")" are fixed.
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry))
    return children


def process_tree(root):
    children = _children_by_parent()
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def _rss_bytes(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def sample_memory(root):
    """RSS of the tree under `root` split into the JVM, the Python driver and Spark's Python
    workers (forked from `pyspark.daemon`). Shared pages are counted once per process, as
    `ps` and the lead's timeline.py count them."""
    jvm = driver = workers = 0
    for pid in process_tree(root):
        command = _command_line(pid)
        program = os.path.basename(command.split(" ", 1)[0])
        rss = _rss_bytes(pid)
        if program == "java":
            jvm += rss
        elif program.startswith("python"):
            if "pyspark.daemon" in command or "pyspark.worker" in command:
                workers += rss
            else:
                driver += rss
    return jvm, driver, workers


def busy_runs():
    found = subprocess.run(["pgrep", "-af", BUSY_PATTERN], capture_output=True, text=True)
    own = set(process_tree(os.getpid()))
    return [
        line
        for line in found.stdout.splitlines()
        if line.strip() and int(line.split()[0]) not in own
    ]


def wait_until_quiet():
    """The machine is shared with the lead's lshscope.spark benchmarks: never overlap them."""
    while True:
        running = busy_runs()
        if not running:
            return
        print(f"waiting: another benchmark is running ({running[0][:100]})", file=sys.stderr)
        time.sleep(30)


def load_average():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])


def _stop_tree(process, last_tree):
    """Stop the run's process group, then any process of its last seen tree that left the
    group (all of them started by this run)."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        for pid in last_tree:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        try:
            process.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue


def measure(command, workdir, env=None, cwd=None, timeout=1200):
    """Run `command` with its output in workdir/log.txt, sampling memory into
    workdir/timeline.txt; stop it after `timeout` seconds."""
    log = open(workdir / "log.txt", "wb")
    timeline = open(workdir / "timeline.txt", "w")
    print("# seconds  total_gib  jvm_gib  driver_py_gib  workers_py_gib", file=timeline)
    started = time.monotonic()
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True
    )
    peak_total = peak_jvm_workers = peak_jvm = 0
    timed_out = False
    last_tree = []
    while process.poll() is None:
        elapsed = time.monotonic() - started
        if elapsed > timeout:
            timed_out = True
            _stop_tree(process, last_tree)
            break
        last_tree = process_tree(process.pid)
        jvm, driver, workers = sample_memory(process.pid)
        peak_total = max(peak_total, jvm + driver + workers)
        peak_jvm_workers = max(peak_jvm_workers, jvm + workers)
        peak_jvm = max(peak_jvm, jvm)
        print(
            f"{elapsed:7.1f} {(jvm + driver + workers) / GIB:6.2f} {jvm / GIB:6.2f} "
            f"{driver / GIB:6.2f} {workers / GIB:6.2f}",
            file=timeline,
            flush=True,
        )
        time.sleep(SAMPLE_SECONDS)
    wall = time.monotonic() - started
    log.close()
    timeline.close()
    return {
        "wall_s": round(wall, 1),
        "exit": process.returncode,
        "timed_out": timed_out,
        "peak_total_gib": round(peak_total / GIB, 2),
        "peak_jvm_workers_gib": round(peak_jvm_workers / GIB, 2),
        "peak_jvm_gib": round(peak_jvm / GIB, 2),
    }


_STAGE = re.compile(r"\[Stage \d+:[^\]\r\n]*\]|Stage \d+ \([^)]*\)")
_PHASE = re.compile(r"^phase: .*$", re.MULTILINE)


def where_it_was(log_path):
    """The last phase line of our own job and the last Spark stage in a run's log."""
    text = log_path.read_text(errors="replace")
    found = [matches[-1].strip() for matches in (_PHASE.findall(text), _STAGE.findall(text))
             if matches]
    # The console progress bar pads with spaces; its counts are what matter.
    return re.sub(r"[=>]*\s{2,}", " ", "; ".join(found)) if found else "no stage logged"


# ---------------------------------------------------------------------------------------------
# Outputs


def parquet_rows(path):
    import pyarrow.dataset as ds

    if not Path(path).exists():
        return None
    # pyarrow skips names starting with "_" by default, which would hide text-dedup's
    # partition directories (__pid__=N); only Spark's _SUCCESS marker is not data.
    dataset = ds.dataset(
        str(path), format="parquet", partitioning="hive", ignore_prefixes=[".", "_SUCCESS"]
    )
    return dataset.count_rows()


def short_for_text_dedup(corpus, column, min_length):
    """Documents text-dedup's job drops before hashing: its ngrams_length_check keeps a text
    when splitting it at each non-word character gives at least min_length pieces."""
    import pyarrow.parquet as pq

    non_word = re.compile(r"\W", re.UNICODE)
    short = 0
    for batch in pq.ParquetFile(corpus).iter_batches(columns=[column]):
        for text in batch.column(0).to_pylist():
            if text is None or len(non_word.split(text.lower())) < min_length:
                short += 1
    return short


# ---------------------------------------------------------------------------------------------
# The tools


def lshscope_command(args, out):
    return [
        args.python,
        "-m",
        "lshscope.spark",
        str(args.corpus),
        str(out),
        "-b",
        str(args.bands),
        "-r",
        str(args.rows),
        "-t",
        str(args.threshold),
        "--master",
        args.master,
    ]


def mllib_command(args, out):
    return [
        args.python,
        str(Path(__file__).resolve()),
        "mllib-job",
        str(args.corpus),
        str(out),
        "--tables",
        str(args.tables),
        "--shingle-chars",
        str(args.shingle_chars),
        "--features",
        str(args.features),
        "--threshold",
        str(args.threshold),
        "--master",
        args.master,
    ]


def spark_home_of(python):
    """The pyspark directory (with bin/spark-submit) of the Python that runs a job."""
    return Path(
        subprocess.run(
            [python, "-c", "import os, pyspark; print(os.path.dirname(pyspark.__file__))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )


def text_dedup_with_partitions(script, partitions, into):
    """A copy of text-dedup's job whose hard-coded 8192 shuffle partitions and 4096-way
    repartitions of the graph become `partitions` (its SparkConf in the code overrides
    spark-submit's --conf, so only an edited copy can change them)."""
    source = Path(script).read_text()
    edits = [
        ('.set("spark.sql.shuffle.partitions", "8192")',
         f'.set("spark.sql.shuffle.partitions", "{partitions}")'),
        (".repartition(4096)", f".repartition({partitions})"),
    ]
    for old, new in edits:
        if old not in source:
            sys.exit(f"error: {script}: no `{old}` to change (another version of text-dedup?)")
        source = source.replace(old, new)
    copy = into / "minhash_spark.py"
    copy.write_text(source)
    return copy


def text_dedup_command(args, out, workdir):
    if args.script is None:
        sys.exit("error: run text-dedup needs --script PATH/TO/minhash_spark.py (see README.md)")
    script = Path(args.script).resolve()
    if args.partitions is not None:
        script = text_dedup_with_partitions(script, args.partitions, workdir)
    command = [
        str(spark_home_of(args.python) / "bin" / "spark-submit"),
        "--master",
        args.master,
        str(script),
        "--input",
        str(args.corpus),
        "--output",
        str(out),
        "--column",
        args.text_column,
        "--threshold",
        str(args.threshold),
        "--ngram_size",
        str(args.ngram_size),
        "--min_length",
        str(args.min_length),
        "--num_perm",
        str(args.bands * args.rows),
        "--b",
        str(args.bands),
        "--r",
        str(args.rows),
    ]
    env = dict(os.environ)
    env["PYSPARK_PYTHON"] = args.python
    env["PYSPARK_DRIVER_PYTHON"] = args.python
    # Its `from graphframes import GraphFrame` (driver side only) finds graphframes_shim/.
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SHIM_DIR), env.get("PYTHONPATH")]))
    return command, env


def run(args):
    corpus = Path(args.corpus).resolve()
    args.corpus = corpus
    if not corpus.exists():
        sys.exit(f"error: {corpus}: no such file or directory")
    workdir = Path(args.workdir).resolve()
    if workdir.exists():
        if not args.overwrite:
            sys.exit(f"error: {workdir} exists (give --overwrite to replace its run)")
        subprocess.run(["rm", "-rf", "--", str(workdir)], check=True)
    workdir.mkdir(parents=True)
    out = workdir / "out"
    env, cwd = None, None
    if args.tool == "lshscope":
        command = lshscope_command(args, out)
        settings = (
            f"char {args.shingle_chars}-grams, K 128, {args.bands}x{args.rows}, "
            f"exact J >= {args.threshold}"
        )
    elif args.tool == "mllib":
        command = mllib_command(args, out)
        settings = (
            f"char {args.shingle_chars}-grams, HashingTF 2^{int(math.log2(args.features))}, "
            f"numHashTables {args.tables} (= {args.tables}x1 banding), exact J >= {args.threshold}"
        )
    else:
        command, env = text_dedup_command(args, out, workdir)
        # Its checkpoints go to ./checkpoints: keep them inside the run's directory.
        cwd = workdir
        settings = (
            f"word {args.ngram_size}-grams (min {args.min_length} tokens), "
            f"num_perm {args.bands * args.rows}, {args.bands}x{args.rows}, no verification"
        )
        if args.partitions is not None:
            settings += f", edited: {args.partitions} partitions instead of 8192/4096"
    if not args.no_wait:
        wait_until_quiet()
    load_before = load_average()
    started_utc = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    measured = measure(command, workdir, env=env, cwd=cwd, timeout=args.timeout)
    load_after = load_average()
    finished = measured["exit"] == 0 and not measured["timed_out"]

    import pyarrow.parquet as pq

    documents = pq.ParquetFile(corpus).metadata.num_rows if corpus.is_file() else None
    output = {}
    if finished and args.tool in ("lshscope", "mllib"):
        output["pairs"] = parquet_rows(out)
    elif finished:
        kept = parquet_rows(out)
        output["documents_kept"] = kept
        if documents is not None and kept is not None:
            short = short_for_text_dedup(corpus, args.text_column, args.min_length)
            output["documents_removed"] = documents - kept
            output["removed_as_too_short"] = short
            output["removed_as_duplicates"] = documents - kept - short
    result = {
        "tool": args.tool,
        "corpus": str(corpus),
        "documents": documents,
        "settings": settings,
        "master": args.master,
        "started_utc": started_utc,
        **measured,
        "finished": finished,
        "where": None if finished else where_it_was(workdir / "log.txt"),
        "load_before": load_before,
        "load_after": load_after,
        "output": output,
        "command": command,
    }
    (workdir / "result.json").write_text(json.dumps(result, indent=2) + "\n")
    state = "finished" if finished else (
        f"did not finish in {args.timeout / 60:g} min" if measured["timed_out"]
        else f"failed (exit {measured['exit']})"
    )
    print(
        f"{args.tool}: {state}; wall {measured['wall_s']} s; peak {measured['peak_total_gib']} GiB "
        f"(JVM + workers {measured['peak_jvm_workers_gib']}); output {output or result['where']}; "
        f"load {load_before} -> {load_after}"
    )
    return 0 if finished else 1


# ---------------------------------------------------------------------------------------------
# Spark MLlib's MinHashLSH, as people use it for near-duplicate documents


def mllib_job(args):
    from pyspark.ml.feature import HashingTF, MinHashLSH
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    started = time.monotonic()

    def phase(text):
        print(f"phase: {time.monotonic() - started:7.1f} s {text}", file=sys.stderr, flush=True)

    spark = SparkSession.builder.master(args.master).appName("mllib-minhashlsh").getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    k = args.shingle_chars
    # lshscope's normalization (lowercase, whitespace runs to one space, ends trimmed), so both
    # tools score the same shingle sets; (?U) makes \s match Unicode whitespace as Rust's does.
    normalized = F.trim(F.regexp_replace(F.lower(F.col(args.text_column)), r"(?U)\s+", " "))
    docs = (
        spark.read.parquet(str(args.corpus))
        .select(F.col(args.id_column).cast("string").alias("id"), normalized.alias("norm"))
        # MinHashLSH refuses an empty vector ("Must have at least 1 non zero entry").
        .where(F.length("norm") > 0)
    )
    # Character k-grams by a SQL expression (RegexTokenizer + NGram would make word n-grams);
    # a text shorter than k is one shingle, itself, as in lshscope.
    shingles = F.expr(
        f"array_distinct(IF(char_length(norm) <= {k}, array(norm), "
        f"transform(sequence(1, char_length(norm) - {k - 1}), i -> substring(norm, i, {k}))))"
    )
    hashing = HashingTF(
        inputCol="shingles", outputCol="features", numFeatures=args.features, binary=True
    )
    features = hashing.transform(docs.select("id", shingles.alias("shingles"))).select(
        "id", "features"
    )
    phase(f"fit MinHashLSH(numHashTables={args.tables})")
    model = MinHashLSH(
        inputCol="features", outputCol="hashes", numHashTables=args.tables, seed=args.seed
    ).fit(features)
    # approxSimilarityJoin keeps distance < threshold, strictly; J >= t is 1 - J <= 1 - t, so
    # the bound is the next double above 1 - t (1 - J and 1 - t round the same way).
    max_distance = math.nextafter(1.0 - args.threshold, 2.0)
    joined = model.approxSimilarityJoin(features, features, max_distance, distCol="distance")
    pairs = joined.where(F.col("datasetA.id") < F.col("datasetB.id")).select(
        F.col("datasetA.id").alias("id_a"),
        F.col("datasetB.id").alias("id_b"),
        (1.0 - F.col("distance")).alias("jaccard"),
    )
    phase("approxSimilarityJoin and write")
    pairs.write.parquet(str(args.output))
    phase("done")
    spark.stop()
    return 0


# ---------------------------------------------------------------------------------------------
# Small commands


def subset(args):
    import pyarrow.parquet as pq

    source = pq.ParquetFile(args.corpus)
    if args.rows > source.metadata.num_rows:
        sys.exit(
            f"error: {args.corpus} has {source.metadata.num_rows} rows, fewer than {args.rows}"
        )
    row_group_size = source.metadata.row_group(0).num_rows
    written = 0
    with pq.ParquetWriter(args.out, source.schema_arrow) as writer:
        for batch in source.iter_batches(batch_size=row_group_size):
            batch = batch.slice(0, args.rows - written)
            # Same row groups as the source, so Spark splits both alike.
            writer.write_batch(batch, row_group_size=row_group_size)
            written += batch.num_rows
            if written == args.rows:
                break
    print(f"{args.out}: the first {written} rows of {args.corpus}")
    return 0


def compare(args):
    import pyarrow.dataset as ds

    def pairs(path):
        return ds.dataset(path, format="parquet").to_table(columns=["id_a", "id_b"])

    found, reference = pairs(args.pairs), pairs(args.reference)
    common = found.join(reference, keys=["id_a", "id_b"], join_type="inner").num_rows
    print(
        f"{args.pairs}: {found.num_rows} pairs; {args.reference}: {reference.num_rows} pairs; "
        f"in both: {common} ({common / max(reference.num_rows, 1):.4%} of the reference)"
    )
    return 0


def check_removed(args):
    """Judge a run that removes documents (text-dedup) by verified pairs (lshscope's, J >= t):
    the clusters of the pairs say which documents a verified dedup could remove."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    ids = pq.read_table(args.corpus, columns=[args.id_column]).column(0).to_pylist()
    kept_table = ds.dataset(
        args.kept, format="parquet", partitioning="hive", ignore_prefixes=[".", "_SUCCESS"]
    ).to_table(columns=[args.id_column])
    kept = set(kept_table.column(0).to_pylist())
    pairs = ds.dataset(args.pairs, format="parquet").to_table(columns=["id_a", "id_b"])

    parent = {}

    def root(x):
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in zip(pairs.column(0).to_pylist(), pairs.column(1).to_pylist()):
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    clustered = set(parent)
    clusters = {root(x) for x in clustered}
    removed = [doc for doc in ids if doc not in kept]
    unpaired = sum(doc not in clustered for doc in removed)
    kept_per_cluster = {}
    for doc in clustered:
        if doc in kept:
            kept_per_cluster[root(doc)] = kept_per_cluster.get(root(doc), 0) + 1
    print(
        f"pairs: {len(clustered)} documents in {len(clusters)} clusters, "
        f"{len(clustered) - len(clusters)} removable keeping one per cluster\n"
        f"run: {len(removed)} removed, {len(removed) - unpaired} of them with a verified "
        f"partner, {unpaired} without one\n"
        f"clusters of which the run kept 2 or more documents: "
        f"{sum(count > 1 for count in kept_per_cluster.values())}; "
        f"of which it kept none: {len(clusters) - len(kept_per_cluster)}"
    )
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    p = commands.add_parser("subset", help="the first N rows of a Parquet corpus")
    p.add_argument("corpus")
    p.add_argument("rows", type=int)
    p.add_argument("out")
    p.set_defaults(func=subset)

    p = commands.add_parser("run", help="run and measure one tool")
    p.add_argument("tool", choices=["lshscope", "mllib", "text-dedup"])
    p.add_argument("corpus", help="Parquet file with the id and text columns")
    p.add_argument("workdir", help="new directory for the output, log, timeline and result")
    p.add_argument("--python", default=sys.executable,
                   help="Python with pyspark (and lshscope, or text-dedup's dependencies) "
                        "[default: this one]")
    p.add_argument("--master", default="local[2]")
    p.add_argument("-b", "--bands", type=int, default=20)
    p.add_argument("-r", "--rows", type=int, default=5)
    p.add_argument("-t", "--threshold", type=float, default=0.8)
    p.add_argument(
        "--shingle-chars", type=int, default=5, help="character k-grams (lshscope, mllib)"
    )
    p.add_argument("--tables", type=int, default=20, help="mllib: numHashTables")
    p.add_argument("--features", type=int, default=1 << 24, help="mllib: HashingTF numFeatures")
    p.add_argument("--script", help="text-dedup: path of its minhash_spark.py")
    p.add_argument("--ngram-size", type=int, default=5, help="text-dedup: word n-grams")
    p.add_argument("--min-length", type=int, default=5, help="text-dedup: fewest tokens kept")
    p.add_argument(
        "--partitions",
        type=int,
        help="text-dedup: run a copy with N shuffle partitions instead of its 8192 and 4096",
    )
    p.add_argument("--text-column", default="text")
    p.add_argument("--timeout", type=float, default=1200, help="seconds [default: 20 min]")
    p.add_argument("--no-wait", action="store_true", help="do not wait for other benchmarks")
    p.add_argument("--overwrite", action="store_true", help="replace an existing WORKDIR")
    p.set_defaults(func=run)

    p = commands.add_parser("mllib-job", help="the MLlib job itself (run measures it)")
    p.add_argument("corpus")
    p.add_argument("output")
    p.add_argument("--master", default="local[2]")
    p.add_argument("--tables", type=int, default=20)
    p.add_argument("--shingle-chars", type=int, default=5)
    p.add_argument("--features", type=int, default=1 << 24)
    p.add_argument("--threshold", type=float, default=0.8)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--text-column", default="text")
    p.add_argument("--id-column", default="id")
    p.set_defaults(func=mllib_job)

    p = commands.add_parser("compare", help="pairs of one run found in another's")
    p.add_argument("pairs")
    p.add_argument("reference")
    p.set_defaults(func=compare)

    p = commands.add_parser(
        "check-removed", help="documents a run removed, judged by another run's verified pairs"
    )
    p.add_argument("corpus")
    p.add_argument("kept", help="the run's output: the documents it kept (Parquet)")
    p.add_argument("pairs", help="verified pairs (id_a, id_b), e.g. lshscope's")
    p.add_argument("--id-column", default="id")
    p.set_defaults(func=check_removed)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
