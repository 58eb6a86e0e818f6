"""``python -m lshscope.spark``: the job (pairs, clusters) with its options, log and summary."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time

from lshscope import PAIR_COLUMNS
from lshscope.spark.clusters import _CLUSTERINGS, _KEEP_RULES, clusters
from lshscope.spark.pairs import _check_options, _hash, _in_order, _pairs_of, _score, _Sketch
from lshscope.spark.estimate import DEFAULT_PAIRS, _strata_levels, estimate_pairs, write_sample
from lshscope.spark.paths import _FORMATS, _Files, _format_of, parse_location, read_job_corpus


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m lshscope.spark",
        description="Find near-duplicate documents on Spark exactly as `lshscope scan` does, "
        "and write the verified pairs as Parquet (audit them with "
        "`lshscope explore INPUT --pairs OUTPUT_DIR`).",
    )
    p.add_argument(
        "input",
        help="Parquet file or directory, CSV, TSV or JSON Lines (.gz, .bz2), a glob too: a path "
        "(Spark's default filesystem) or a URI (file://, hdfs://, s3a://, gs://, abfss://, ...)",
    )
    p.add_argument("output_dir", help="directory (path or URI) for the pairs (Parquet part files)")
    _input_arguments(p)
    p.add_argument("-b", "--bands", type=int, default=20, help="bands [default: 20]")
    p.add_argument("-r", "--rows", type=int, default=5, help="rows per band [default: 5]")
    _sketch_arguments(p)
    p.add_argument(
        "-t",
        "--threshold",
        type=float,
        default=0.0,
        help="keep pairs with exact Jaccard at least T [default: 0]",
    )
    p.add_argument(
        "--max-bucket", type=int, help="use only the first N documents of a larger bucket"
    )
    p.add_argument(
        "--clusters",
        metavar="DIR",
        help="also write the clusters (`id,cluster,size,keep,jaccard`, as `lshscope dedup`) "
        "to DIR",
    )
    p.add_argument(
        "--clustering",
        choices=_CLUSTERINGS,
        default="center",
        help="center: remove a document only for a verified pair with a kept one, as "
        "`lshscope dedup` does by default; components: keep one per connected component "
        "[default: center]",
    )
    p.add_argument(
        "--keep",
        choices=_KEEP_RULES,
        default="first",
        help="which document a cluster keeps: the first in input order, or the longest text "
        "(ties in input order) [default: first]",
    )
    p.add_argument(
        "--keep-by",
        metavar="COLUMN",
        help="keep the document with the highest value of this numeric column of the input (a "
        "name or a 1-based index; ties in input order), as `lshscope dedup --keep-by`; "
        "overrides --keep",
    )
    _session_arguments(p)
    p.add_argument(
        "--checkpoint-dir",
        metavar="URI",
        help="reliable checkpoints of the clusters' rounds, on storage every executor reaches "
        "[default: spark.checkpoint.dir, else OUTPUT_DIR/_checkpoints, removed at the end]",
    )
    p.add_argument("--overwrite", action="store_true", help="replace existing output directories")
    return p


def _estimate_parser():
    p = argparse.ArgumentParser(
        prog="python -m lshscope.spark estimate-pairs",
        description="Sample pair similarities on Spark as `lshscope truth --estimate-pairs M` "
        "does (strata of permissive bandings: the candidate pairs, the lower candidates, and "
        "the others; each row with its weight), for `lshscope tune --similarities FILE`.",
    )
    p.add_argument("input", help="the corpus, as the job reads it (path or URI)")
    p.add_argument(
        "output",
        help="the sample file: CSV or JSON Lines by the name (.csv, .jsonl; .gz or .zst on the "
        "driver's disk), replaced atomically",
    )
    p.add_argument(
        "-m",
        "--pairs",
        type=int,
        default=DEFAULT_PAIRS,
        metavar="M",
        help=f"pairs to sample, as truth --estimate-pairs M [default: {DEFAULT_PAIRS:,}]",
    )
    p.add_argument(
        "-t",
        "--threshold",
        type=float,
        help="the lowest Jaccard of interest: the permissive banding finds pairs at it with "
        "probability 0.999 [default: 0.5]",
    )
    p.add_argument(
        "--lower-threshold",
        metavar="T2",
        help="a lower strata threshold T2 (below -t), whose permissive banding's further "
        "candidates are sampled as a stratum of their own, which keeps the expected "
        "candidates of sharp bandings narrow; `off` for two strata [default: -t minus 0.2 "
        "when -t is 0.7 or more, else off]",
    )
    _input_arguments(p)
    _sketch_arguments(p)
    _session_arguments(p)
    return p


def _input_arguments(p):
    """The input's options, shared by the job and estimate-pairs (the CLI's names)."""
    p.add_argument("--format", choices=_FORMATS, help="input format [default: from the name]")
    p.add_argument(
        "--no-headers",
        action="store_true",
        help="CSV/TSV: the first row is data, not a header (columns are then named by 1-based "
        "index)",
    )
    p.add_argument(
        "--text-column",
        metavar="NAME|INDEX",
        help="column of the text: a name or a 1-based index [default: `text`; the last column "
        "without a header]",
    )
    p.add_argument(
        "--id-column",
        metavar="NAME|INDEX",
        help="column of the id: a name or a 1-based index [default: `id` if present (without a "
        "header: the first of two columns), else the 1-based row number]",
    )


def _sketch_arguments(p):
    """How documents are hashed: `lshscope scan`'s options after -b/-r."""
    p.add_argument(
        "-k", "--num-perm", type=int, default=128, help="signature length K [default: 128]"
    )
    p.add_argument("--seed", type=int, default=1, help="hash family seed [default: 1]")
    p.add_argument(
        "--family",
        choices=("classic", "one-permutation", "c-minhash"),
        default="classic",
        help="sketch family of the K rows, as `lshscope scan --family` [default: classic]",
    )
    p.add_argument(
        "--shingle", help='shingles, "char:K" or "word:N" [default: the profile\'s own]'
    )
    p.add_argument(
        "--profile",
        choices=("lshscope", "datatrove", "text-dedup", "nemo", "datasketch", "spark"),
        help="normalize and shingle as this tool does [default: lshscope]",
    )


def _session_arguments(p):
    p.add_argument("--master", help="Spark master when not run by spark-submit [default: local[*]]")
    p.add_argument(
        "--shuffle-partitions",
        type=int,
        help="partitions of the bucket and scoring shuffles, and spark.sql.shuffle.partitions "
        "[default: from the hashed documents' size, at least one per core]",
    )


# Shuffle data per partition, and output per file ("a handful of files per GB").
_PARTITION_BYTES = 128 << 20
_FILE_BYTES = 256 << 20
# What a document's row costs in the banding shuffle (band, key, position and row overhead),
# a pair's row in the output (two ids, two doubles, a count, before compression), and a
# shingle in the sets a scoring partition builds (one 8-byte hash).
_BAND_ROW_BYTES = 24
_PAIR_ROW_BYTES = 64
_SET_BYTES_PER_SHINGLE = 8


def _shuffle_partitions(shuffled_bytes, parallelism):
    """Partitions for ``shuffled_bytes`` of shuffle data: ~128 MB each, and never fewer
    than the cores (Spark's default of 200 is mostly empty tasks on small inputs)."""
    return max(parallelism, 1, -(-shuffled_bytes // _PARTITION_BYTES))


def _files_for(rows, row_bytes=_PAIR_ROW_BYTES):
    """Output part files for ``rows`` rows: one per ~256 MB."""
    return max(1, -(-rows * row_bytes // _FILE_BYTES))


def _under_spark_submit():
    """spark-submit (and pyspark's shell) set this in the Python driver's environment."""
    return bool(os.environ.get("PYSPARK_GATEWAY_PORT") or os.environ.get("SPARK_ENV_LOADED"))


def _stderr_of(spark):
    """Where the job's lines go: the driver JVM's standard error under spark-submit, since
    spark-submit's PythonRunner merges the Python driver's stderr into its stdout (a job's
    lines read as its output); this process's stderr otherwise."""
    if not _under_spark_submit():
        return None
    if spark is None:
        # Before the session: spark-submit's JVM is already there, behind the gateway that
        # pyspark connects to (connecting starts nothing).
        from pyspark import SparkContext

        SparkContext._ensure_initialized()
        return SparkContext._jvm.java.lang.System.err
    return spark._jvm.java.lang.System.err


def _error(message, spark=None):
    """An error line for the user, on standard error (see :func:`_stderr_of`)."""
    err = _stderr_of(spark)
    if err is None:
        print(message, file=sys.stderr, flush=True)
    else:
        err.println(message)
        err.flush()


class _Log:
    """The job's progress lines and summary, on standard error: the driver's log under
    spark-submit (client or cluster deploy mode)."""

    def __init__(self, spark=None):
        self.started = time.monotonic()
        self.phases = []
        self._phase_start = None
        self._spark = spark

    def say(self, message):
        _error(f"lshscope.spark: {message}", self._spark)

    def phase(self, name, detail=""):
        """Starts phase ``name`` (ending the one before) and says so, with ``detail``."""
        self.end_phase()
        self._phase_start = (name, time.monotonic())
        self.say(f"{name}{' ' + detail if detail else ''} ...")

    def end_phase(self):
        if self._phase_start is not None:
            name, start = self._phase_start
            self.phases.append((name, time.monotonic() - start))
            self._phase_start = None

    def timings(self):
        self.end_phase()
        width = max(len(name) for name, _ in self.phases)
        lines = [f"  {name:<{width}}  {seconds:8.3f} s" for name, seconds in self.phases]
        total = time.monotonic() - self.started
        return lines + [f"  {'total':<{width}}  {total:8.3f} s"]


def _percent(part, whole):
    return f"{100 * part / whole:.2f} %" if whole else "0 %"


def main(argv=None):
    """``python -m lshscope.spark [estimate-pairs] ...``: exit code 0 on success, 2 for bad
    input or options."""
    argv = list(sys.argv[1:] if argv is None else argv)
    estimate = argv[:1] == ["estimate-pairs"]
    if estimate:
        args = _estimate_parser().parse_args(argv[1:])
    else:
        args = _parser().parse_args(argv)
    profile = None if args.profile in (None, "lshscope") else args.profile
    try:
        if estimate:
            if args.pairs < 1:
                raise ValueError(f"--pairs must be at least 1, got {args.pairs}")
            if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
                raise ValueError(f"--threshold must be in (0, 1], got {args.threshold:g}")
            args.lower_threshold = _lower_threshold(args.lower_threshold)
            (bands, rows, _), _ = _strata_levels(
                args.num_perm, args.threshold, args.lower_threshold
            )
            sketch = _Sketch(
                args.num_perm, args.seed, args.shingle, profile, args.family, bands, rows
            )
            _check_options(sketch, 0.0, None)
            outputs = [parse_location(args.output)]
        else:
            sketch = _Sketch(
                args.num_perm, args.seed, args.shingle, profile, args.family, args.bands, args.rows
            )
            _check_options(sketch, args.threshold, args.max_bucket)
            outputs = [parse_location(out) for out in (args.output_dir, args.clusters) if out]
            if args.checkpoint_dir:
                parse_location(args.checkpoint_dir)
        if args.shuffle_partitions is not None and args.shuffle_partitions < 1:
            raise ValueError(
                f"--shuffle-partitions must be at least 1, got {args.shuffle_partitions}"
            )
        source = parse_location(args.input)
    except ValueError as e:
        _error(f"error: {_flag_names(str(e))}")
        return 2

    from pyspark.sql import SparkSession

    if not _under_spark_submit():
        # Local workers run this interpreter, which has lshscope installed (spark-submit
        # takes the executors' Python from spark.pyspark.python or PYSPARK_PYTHON).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # A session that already runs (a notebook, spark-submit, a test) is used and left running.
    spark = SparkSession.getActiveSession()
    owned = spark is None
    if owned:
        # The job says what it is doing in its own lines: no console progress bars between them.
        builder = SparkSession.builder.appName("lshscope").config(
            "spark.ui.showConsoleProgress", "false"
        )
        master = args.master or (None if _under_spark_submit() else "local[*]")
        if master:
            builder = builder.master(master)
        spark = builder.getOrCreate()
    given_partitions = spark.conf.get("spark.sql.shuffle.partitions")
    try:
        if estimate:
            return _run_estimate(spark, args, sketch, source, outputs[0])
        return _run(spark, args, sketch, source, outputs)
    except ValueError as e:
        _error(f"error: {_flag_names(str(e))}", spark)
        return 2
    finally:
        if owned:
            spark.stop()
        else:
            spark.conf.set("spark.sql.shuffle.partitions", given_partitions)


def _lower_threshold(text):
    """``--lower-threshold T2|off`` as :func:`estimate_pairs` takes it: None (the default),
    "off", or a Jaccard in (0, 1); whether it is below -t is checked with -t."""
    if text is None or text.lower() == "off":
        return text and "off"
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0.0 < value < 1.0:
        raise ValueError(
            "--lower-threshold expects a Jaccard threshold between 0 and 1 (below -t), or "
            f"`off`, got `{text}`"
        )
    return value


# The engine's messages name settings as Python's keyword arguments (``threshold=``); the job's
# user typed flags.
_FLAGS = {
    "num_perm": "--num-perm",
    "max_bucket": "--max-bucket",
    "lower_threshold": "--lower-threshold",
    "threshold": "--threshold",
    "shingle": "--shingle",
    "profile": "--profile",
    "family": "--family",
    "bands": "--bands",
    "rows": "--rows",
    "text_column": "--text-column",
    "id_column": "--id-column",
    "format": "--format",
}


def _flag_names(message):
    """``message`` with the keyword arguments it names (``threshold=``) written as the job's
    flags; the uniform sample, which the job does not draw, as the CLI's."""
    message = message.replace(
        "uniform=True", "a uniform sample (`lshscope truth --estimate-pairs M --uniform`)"
    )
    message = message.replace("has_headers=False", "--no-headers")
    return re.sub(
        r"(?<![\w-])(" + "|".join(_FLAGS) + r")=",
        lambda m: _FLAGS[m.group(1)],
        message,
    )


def _open_corpus(spark, args, files):
    """(source size in bytes, format, :class:`CorpusColumns`) of the job's input, or
    ValueError naming what is wrong."""
    source = parse_location(args.input)
    found = files.sizes(source)
    if found is None:
        raise ValueError(f"{source.uri}: no such file or directory")
    fmt = _format_of(source, args.format, files)
    corpus = read_job_corpus(
        spark,
        source.uri,
        fmt,
        no_headers=args.no_headers,
        text_column=args.text_column,
        id_column=args.id_column,
        keep_by=getattr(args, "keep_by", None),
    )
    return found[0], fmt, corpus


def _run_estimate(spark, args, sketch, source, output):
    """``estimate-pairs``: the stratified pair sample of ``lshscope truth --estimate-pairs``,
    written to one file, with a line per phase and the summary on standard error."""
    files = _Files(spark)
    input_bytes, fmt, corpus = _open_corpus(spark, args, files)
    parallelism = spark.sparkContext.defaultParallelism
    log = _Log(spark)
    if corpus.note:
        log.say(f"note: {source.uri}: {corpus.note}")
    log.phase(
        "reading + shingling + sampling pairs",
        f"{source.uri} ({fmt}, {input_bytes:,} bytes), strata of the permissive "
        f"{sketch.bands} × {sketch.rows} banding",
    )
    partitions = None
    if args.shuffle_partitions:
        partitions = (args.shuffle_partitions, args.shuffle_partitions)
    else:
        # Sized as the job sizes its shuffles, from the input (before hashing: one pass).
        guess = _shuffle_partitions(input_bytes * 8, parallelism)
        partitions = (guess, guess)
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions[1]))
    sample = estimate_pairs(
        corpus.frame,
        args.pairs,
        corpus.text,
        corpus.id,
        threshold=args.threshold,
        lower_threshold=args.lower_threshold,
        num_perm=args.num_perm,
        seed=args.seed,
        shingle=sketch.shingle,
        profile=sketch.profile,
        family=sketch.family,
        partitions=partitions,
    )
    log.phase("writing the sample", f"to {output.uri}")
    write_sample(sample, output.uri, spark)
    log.end_phase()
    lines = [
        f"read {sample.documents:,} documents from {source.uri}",
        f"strata of the permissive {sample.bands} × {sample.rows} banding (P ≥ 0.999 at "
        f"Jaccard {sample.threshold:g}):",
    ]
    strata = [("candidates", sample.candidate_pairs, sample.candidates)]
    if sample.lower_bands is not None:
        lines.append(
            f"  and of the lower {sample.lower_bands} × {sample.lower_rows} banding (P ≥ 0.999 "
            f"at Jaccard {sample.lower_threshold:g}), less the candidates:"
        )
        strata.append(
            ("lower candidates", sample.lower_candidate_pairs, sample.lower_candidates)
        )
    strata.append(("others", sample.other_pairs, sample.others))
    for name, size, values in strata:
        taken = (
            "all taken"
            if len(values) == size
            else f"{len(values):,} drawn (each stands for {size / len(values):,.1f})"
        )
        lines.append(f"  {name:<16} {size:>15,} pairs, {taken}")
    lines.append(
        f"wrote {sum(len(values) for _, _, values in strata):,} sampled pairs to {output.uri}; "
        f"read it with `lshscope tune --similarities FILE`"
    )
    for line in lines + log.timings():
        log.say(line)
    return 0


def _run(spark, args, sketch, source, outputs):
    """The job in a running session: checks the paths through Spark's filesystems, then
    hashes, bands and scores, writes the pairs and the clusters, with a line per phase and
    the summary on standard error. Raises ValueError for what the user must fix."""
    from pyspark.sql import functions as F

    files = _Files(spark)
    input_bytes, fmt, read = _open_corpus(spark, args, files)
    for out in outputs:
        if files.exists(out) and not args.overwrite:
            raise ValueError(f"{out.uri} exists; remove it or give --overwrite")
    mode = "overwrite" if args.overwrite else "errorifexists"
    parallelism = spark.sparkContext.defaultParallelism

    def partitions_for(shuffled_bytes):
        return args.shuffle_partitions or _shuffle_partitions(shuffled_bytes, parallelism)

    log = _Log(spark)
    if read.note:
        log.say(f"note: {source.uri}: {read.note}")
    log.phase("reading + shingling + MinHash signatures", f"{source.uri} ({fmt}, {input_bytes:,} bytes)")
    corpus = read.frame
    hashed = _hash(corpus, read.text, read.id, sketch)
    counts = hashed.agg(
        F.count(F.lit(1)).alias("documents"), F.sum("shingles").alias("shingles")
    ).first()
    documents, shingles = counts["documents"], counts["shingles"] or 0
    # Sized from what the documents became: their band rows, and the shingle sets a scoring
    # partition builds from their texts.
    partitions = (
        partitions_for(documents * args.bands * _BAND_ROW_BYTES),
        partitions_for(shingles * _SET_BYTES_PER_SHINGLE),
    )
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions[1]))
    log.say(
        f"{documents:,} documents, {shingles:,} shingles; {partitions[0]} bucket and "
        f"{partitions[1]} scoring partitions for {parallelism} cores"
    )

    log.phase("banding + verifying candidates")
    scored = _score(
        hashed,
        sketch,
        threshold=args.threshold,
        max_bucket=args.max_bucket,
        partitions=partitions,
    )
    tallies = scored.agg(
        F.sum("candidates").alias("candidates"),
        F.count(F.when(F.col("a") >= 0, 1)).alias("pairs"),
    ).first()
    candidates, kept = tallies["candidates"] or 0, tallies["pairs"]

    log.phase("writing pairs", f"({kept:,}) to {args.output_dir}")
    pairs = _pairs_of(scored)
    _in_order(pairs, _files_for(kept)).write.mode(mode).parquet(args.output_dir)

    cluster_rows = None
    if args.clusters:
        log.phase("clusters")
        context = spark.sparkContext._jsc.sc()
        given_dir = context.getCheckpointDir()
        checkpoint_dir = args.checkpoint_dir
        if checkpoint_dir is None and given_dir.isEmpty():
            checkpoint_dir = args.output_dir.rstrip("/") + "/_checkpoints"
            on_local_disk = files.is_local(parse_location(checkpoint_dir))
            if on_local_disk and not spark.sparkContext.master.startswith("local"):
                log.say(
                    f"checkpoints in {checkpoint_dir}, on the nodes' local disks: every executor "
                    "must see this directory (one machine, or a shared mount); otherwise give "
                    "--checkpoint-dir on HDFS or an object store"
                )
        found_clusters = clusters(
            pairs.select(*PAIR_COLUMNS),
            corpus,
            id_col=read.id,
            text_col=read.text,
            checkpoint_dir=checkpoint_dir,
            clustering=args.clustering,
            keep=args.keep,
            keep_by=read.keep_by,
            shingle=sketch.shingle,
            profile=sketch.profile,
        )
        log.phase("writing clusters", f"to {args.clusters}")
        # The rounds ran above; what is left plans its last shuffles now: as many partitions
        # (files) as the rows need, at most one row per document in the input.
        spark.conf.set("spark.sql.shuffle.partitions", str(_files_for(documents)))
        found_clusters.write.mode(mode).parquet(args.clusters)
        sizes = (
            spark.read.parquet(args.clusters)
            .agg(F.count(F.lit(1)).alias("members"), F.count(F.when(F.col("keep"), 1)).alias("kept"))
            .first()
        )
        cluster_rows = (sizes["members"], sizes["kept"])
        if checkpoint_dir is not None:
            # The checkpoints this job made: the directory of its own under the one given
            # (Spark makes one per setCheckpointDir), or the default one it chose, whole.
            made = context.getCheckpointDir().get()
            files.delete(made if args.checkpoint_dir else checkpoint_dir)
            # A session that was running before the job keeps the checkpoint directory it
            # had (Scala's setter of SparkContext.checkpointDir; there is no public unset).
            getattr(context, "checkpointDir_$eq")(given_dir)
    log.end_phase()

    summary = [
        f"read {documents:,} documents from {source.uri}",
        f"{shingles:,} shingles, K = {args.num_perm}"
        f"{'' if args.family == 'classic' else f', {args.family} sketches'}, "
        f"{args.bands} bands × {args.rows} rows "
        f"({args.bands * args.rows} of {args.num_perm} hashes used)",
        f"{candidates:,} candidate pairs, {kept:,} kept at Jaccard ≥ {args.threshold:g}",
    ]
    if cluster_rows is not None:
        members, kept_docs = cluster_rows
        removed = members - kept_docs
        keep_name = f"the highest {args.keep_by}" if args.keep_by else f"the {args.keep}"
        if args.clustering == "center":
            order = (
                f"highest {args.keep_by} first"
                if args.keep_by
                else "input order" if args.keep == "first" else "longest first"
            )
            method = (
                f"center clustering in keep order ({order}): each removed document is a "
                f"verified pair at Jaccard ≥ {args.threshold:g} with the document kept for it"
            )
        else:
            method = f"connected components, one document kept per component ({keep_name})"
        summary.append(
            f"{kept_docs:,} {'cluster holds' if kept_docs == 1 else 'clusters hold'} "
            f"{members:,} documents; {removed:,} removed "
            f"({_percent(removed, documents)} of {documents:,}); {method}"
        )
    for line in summary + log.timings():
        log.say(line)
    return 0
