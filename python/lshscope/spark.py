"""lshscope on Spark: the same candidate pairs and clusters as ``lshscope scan`` and
``lshscope dedup``, computed over a cluster.

The documents are hashed once by the lshscope engine (Rust, through Arrow batches in
``mapInArrow``): each gets its MinHash signature and its shingle set as binary columns. Banding
is a Spark group-by on (band, bucket key); each bucket is expanded into its pairs with the
CLI's bucket cap, a pair's bands are counted, and each distinct pair is scored by the engine
from the two documents' columns (exact Jaccard, MinHash estimate). Nothing leaves the JVM as a
Python object per row, and no JVM package beyond Spark itself is needed.

>>> pairs = dedup(spark.read.parquet("corpus.parquet"), bands=20, rows=5)  # doctest: +SKIP
>>> clusters(pairs, threshold=0.8, documents=corpus)                       # doctest: +SKIP

As a job: ``python -m lshscope.spark INPUT OUTPUT_DIR [options]`` (or ``spark-submit``), with
``lshscope scan``'s options and defaults; ``python -m lshscope.spark --help`` lists them.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# Absolute imports: `spark-submit .../lshscope/spark.py` runs this file as a script.
from lshscope import PAIR_COLUMNS
from lshscope import _lshscope as _kernels

__all__ = ["dedup", "clusters", "read_corpus", "main", "CLUSTER_COLUMNS"]

#: The columns of a clusters table, as ``lshscope dedup`` writes them.
CLUSTER_COLUMNS = ("id", "cluster", "size", "keep")

# Spark keeps 64-bit unsigned values nowhere; positions and bucket keys are signed longs, and
# `monotonically_increasing_id` puts the partition index above bit 33.
_PARTITION_SHIFT = 33


def _buffers(column):
    """(offsets as int64, bytes as uint8) of an Arrow string or binary column, zero-copy
    where Arrow allows; nulls read as empty values (a null text is an empty document, as in
    the CLI's readers)."""
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if column.null_count:
        empty = "" if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) else b""
        column = pc.fill_null(column, empty)
    if pa.types.is_string(column.type) or pa.types.is_binary(column.type):
        width = np.int32
    elif pa.types.is_large_string(column.type) or pa.types.is_large_binary(column.type):
        width = np.int64
    else:
        raise TypeError(f"expected a string or binary column, got {column.type}")
    _, offsets, data = column.buffers()
    offsets = np.frombuffer(offsets, dtype=width)[column.offset : column.offset + len(column) + 1]
    data = np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(0, np.uint8)
    return offsets.astype(np.int64, copy=False), data


def _binary(offsets, data):
    """An Arrow binary column from (int64 offsets, uint8 bytes)."""
    n = len(offsets) - 1
    if len(data) >= 2**31:
        return pa.Array.from_buffers(
            pa.large_binary(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
        ).cast(pa.binary())
    return pa.Array.from_buffers(
        pa.binary(), n, [None, pa.py_buffer(offsets.astype(np.int32)), pa.py_buffer(data)]
    )


def _check_options(num_perm, seed, shingle, profile, bands, rows, threshold, max_bucket):
    """Raises ValueError on the driver, before any job, for what the CLI would refuse."""
    empty = np.zeros(1, np.int64), np.zeros(0, np.uint8)
    _kernels.hash_documents(*empty, num_perm=num_perm, seed=seed, shingle=shingle, profile=profile)
    _kernels.band_rows(*empty, num_perm=num_perm, bands=bands, rows=rows)
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold}")
    if max_bucket is not None and max_bucket < 1:
        raise ValueError(f"max_bucket must be at least 1, got {max_bucket}")


def _documents(df, text_col, id_col):
    """``_row`` (input order), ``id`` (a string) and the text of every row of ``df``.

    Ids follow the CLI's rules: the column ``id_col`` (integers written in decimal), or when
    ``id_col`` is None the column ``id`` if there is one, else the 1-based row number. A null
    id is an error naming the row: substituting the row number could collide with a real id.
    """
    from pyspark.sql import functions as F

    if text_col not in df.columns:
        raise ValueError(
            f"no text column `{text_col}` (columns: {', '.join(df.columns)}); name it with text_col"
        )
    if id_col is not None and id_col not in df.columns:
        raise ValueError(
            f"no id column `{id_col}` (columns: {', '.join(df.columns)}); name it with id_col, "
            "or pass id_col=None to number the rows"
        )
    if id_col is None and "id" in df.columns:
        id_col = "id"
    docs = df.select(
        F.monotonically_increasing_id().alias("_row"),
        F.col(text_col).alias("_text"),
        *([F.col(id_col).alias("_id")] if id_col is not None else []),
    )
    if id_col is None:
        return docs, None
    row_in_partition = F.col("_row").bitwiseAND((1 << _PARTITION_SHIFT) - 1)
    checked = F.when(
        F.col("_id").isNull(),
        F.raise_error(
            F.concat(
                F.lit(f"the id column `{id_col}` is null in a row (partition "),
                F.shiftright(F.col("_row"), _PARTITION_SHIFT).cast("string"),
                F.lit(", row "),
                (row_in_partition + 1).cast("string"),
                F.lit("); fill in the ids, or number the rows with id_col=None"),
            )
        ),
    ).otherwise(F.col("_id").cast("string"))
    return docs.withColumn("_id", checked), id_col


def _row_numbers(hashed):
    """A column expression: the 1-based input position of each row, from the partition
    sizes of the persisted ``hashed`` (one small aggregate, collected on the driver)."""
    from pyspark.sql import functions as F

    sizes = (
        hashed.groupBy(F.shiftright("_row", _PARTITION_SHIFT).alias("p"))
        .count()
        .orderBy("p")
        .collect()
    )
    before, start = {}, 0
    for row in sizes:
        before[row["p"]] = start
        start += row["count"]
    first = F.create_map(*[x for p, s in before.items() for x in (F.lit(p), F.lit(s))])
    partition = F.shiftright(F.col("_row"), _PARTITION_SHIFT)
    in_partition = F.col("_row").bitwiseAND((1 << _PARTITION_SHIFT) - 1)
    return (first[partition] + in_partition + 1).cast("string")


def dedup(
    df,
    text_col="text",
    id_col=None,
    *,
    bands=20,
    rows=5,
    num_perm=128,
    seed=1,
    shingle=None,
    profile=None,
    threshold=0.0,
    max_bucket=None,
):
    """The verified candidate pairs of ``df``'s documents: a DataFrame with the columns of
    ``lshscope scan`` (``id_a, id_b, jaccard, estimate, bands_hit``), one row per distinct
    pair, ``id_a`` before ``id_b`` in input order and rows in that order, pairs below
    ``threshold`` (exact Jaccard) left out.

    The options are scan's, with its defaults; ``shingle`` defaults to the profile's own
    (``profile``: ``"datatrove"``, ``"text-dedup"``, ``"nemo"``, ``"datasketch"``,
    ``"spark"``). Ids come from ``id_col`` (default: the column ``id`` if present, else the
    1-based row number). Input order is the DataFrame's partition order, as Spark reads a file.
    """
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    _check_options(num_perm, seed, shingle, profile, bands, rows, threshold, max_bucket)
    docs, id_col = _documents(df, text_col, id_col)

    def hash_batches(batches):
        for batch in batches:
            sig, sets = _hash(batch)
            yield pa.RecordBatch.from_arrays(
                [batch.column("_row"), *([batch.column("_id")] if id_col else []), sig, sets],
                names=["_row", *(["_id"] if id_col else []), "sig", "shingles"],
            )

    def _hash(batch):
        offsets, data = _buffers(batch.column("_text"))
        sig_off, sig, set_off, sets = _kernels.hash_documents(
            offsets, data, num_perm=num_perm, seed=seed, shingle=shingle, profile=profile
        )
        return _binary(sig_off, sig), _binary(set_off, sets)

    id_schema = "_id string, " if id_col else ""
    hashed = docs.mapInArrow(
        hash_batches, f"_row long, {id_schema}sig binary, shingles binary"
    ).persist(StorageLevel.MEMORY_AND_DISK)
    if not id_col:
        hashed = hashed.withColumn("_id", _row_numbers(hashed))

    def band_batches(batches):
        for batch in batches:
            band, key, position = _kernels.band_rows(
                *_buffers(batch.column("sig")), num_perm=num_perm, bands=bands, rows=rows
            )
            row = batch.column("_row").to_numpy()[position]
            yield pa.RecordBatch.from_arrays(
                [pa.array(band), pa.array(key), pa.array(row)], names=["band", "key", "_row"]
            )

    def expand_buckets(batches):
        for batch in batches:
            members = batch.column("members")
            offsets = members.offsets.to_numpy().astype(np.int64)
            values = members.values.to_numpy()
            a, b = _kernels.bucket_pairs(offsets, values, cap=max_bucket)
            yield pa.RecordBatch.from_arrays([pa.array(a), pa.array(b)], names=["a", "b"])

    buckets = (
        hashed.select("_row", "sig")
        .mapInArrow(band_batches, "band int, key long, _row long")
        .groupBy("band", "key")
        .agg(F.collect_list("_row").alias("members"))
        .where(F.size("members") >= 2)
    )
    # A pair shares one bucket per band it collides in (a document is in one bucket per
    # band), so counting its bucket rows gives the CLI's bands_hit, bucket cap included.
    hits = (
        buckets.select("members")
        .mapInArrow(expand_buckets, "a long, b long")
        .groupBy("a", "b")
        .agg(F.count(F.lit(1)).cast("int").alias("bands_hit"))
    )
    side = {
        s: hashed.select(
            F.col("_row").alias(s),
            F.col("_id").alias(f"id_{s}"),
            F.col("sig").alias(f"sig_{s}"),
            F.col("shingles").alias(f"set_{s}"),
        )
        for s in ("a", "b")
    }
    joined = hits.join(side["a"], "a").join(side["b"], "b")

    def score_batches(batches):
        for batch in batches:
            jaccard, estimate = _kernels.score_pairs(
                *(_buffers(batch.column(c)) for c in ("sig_a", "sig_b", "set_a", "set_b")),
                num_perm=num_perm,
            )
            keep = pa.array(jaccard >= threshold)
            yield pa.RecordBatch.from_arrays(
                [
                    batch.column("a").filter(keep),
                    batch.column("b").filter(keep),
                    batch.column("id_a").filter(keep),
                    batch.column("id_b").filter(keep),
                    pa.array(jaccard).filter(keep),
                    pa.array(estimate).filter(keep),
                    batch.column("bands_hit").filter(keep),
                ],
                names=["a", "b", "id_a", "id_b", "jaccard", "estimate", "bands_hit"],
            )

    scored = joined.select(
        "a", "b", "id_a", "id_b", "sig_a", "sig_b", "set_a", "set_b", "bands_hit"
    ).mapInArrow(
        score_batches,
        "a long, b long, id_a string, id_b string, jaccard double, estimate double, bands_hit int",
    )
    # Sorting samples its input in a job of its own: without the persist, every pair would
    # be joined and scored twice.
    scored = scored.persist(StorageLevel.MEMORY_AND_DISK)
    return scored.orderBy("a", "b").select(*PAIR_COLUMNS)


def _large_star(edges):
    """One large-star round (Kiveris et al., "Connected Components in MapReduce and Beyond",
    SoCC 2014): every node links its larger neighbours to the smallest node it sees."""
    from pyspark.sql import functions as F

    both = edges.union(edges.select(F.col("v").alias("u"), F.col("u").alias("v")))
    smallest = both.groupBy("u").agg(F.least(F.min("v"), F.col("u")).alias("m"))
    return (
        both.join(smallest, "u")
        .where(F.col("v") > F.col("u"))
        .select(F.col("v").alias("u"), F.col("m").alias("v"))
        .distinct()
    )


def _small_star(edges):
    """One small-star round (same paper): every node links itself and its smaller neighbours
    to the smallest of them."""
    from pyspark.sql import functions as F

    down = edges.select(
        F.greatest("u", "v").alias("u"), F.least("u", "v").alias("v")
    ).where(F.col("u") != F.col("v"))
    smallest = down.groupBy("u").agg(F.min("v").alias("m"))
    linked = down.join(smallest, "u")
    return (
        linked.select(F.col("v").alias("u"), F.col("m").alias("v"))
        .where(F.col("u") != F.col("v"))
        .union(smallest.select("u", F.col("m").alias("v")))
        .distinct()
    )


def _components(edges):
    """(node, root) for every node on an edge, root the smallest node of its connected
    component: large-star and small-star rounds until a round changes nothing."""
    from pyspark.sql import functions as F

    def canonical(e):
        return e.select(F.greatest("u", "v").alias("u"), F.least("u", "v").alias("v"))

    current = canonical(edges).where(F.col("u") != F.col("v")).distinct().localCheckpoint()
    size = current.count()
    while True:
        following = canonical(_small_star(_large_star(current))).distinct().localCheckpoint()
        following_size = following.count()
        # Both are sets of edges: equal sizes and no new edge mean the same set.
        if following_size == size and following.exceptAll(current).isEmpty():
            break
        current, size = following, following_size
    # At the fixed point every edge joins a node to its component's smallest node.
    return following.select(F.col("u").alias("node"), F.col("v").alias("root"))


def clusters(pairs, documents=None, *, id_col=None, threshold=None):
    """Connected components of ``pairs`` (``id_a``, ``id_b``, as :func:`dedup` returns them),
    as ``lshscope dedup`` writes them: ``id, cluster, size, keep``, one row per document in a
    cluster, ``cluster`` the id of the document each cluster keeps.

    With ``documents`` (the DataFrame given to :func:`dedup`, and its ``id_col``) the kept
    document is the first in input order, as ``lshscope dedup --keep first`` keeps, and rows
    come in input order; without it, the smallest id. ``threshold`` keeps only pairs with an
    exact Jaccard at least that (a :func:`dedup` run at a lower threshold can be clustered at
    several). Computed in Spark SQL (large-star / small-star rounds), no JVM package needed.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if threshold is not None:
        pairs = pairs.where(F.col("jaccard") >= threshold)
    if documents is not None:
        docs, _ = _documents(
            documents.withColumn("_no_text", F.lit("")), "_no_text", id_col
        )
        if "_id" not in docs.columns:
            docs = docs.withColumn("_id", _row_numbers(docs))
        # The first occurrence of each id ranks it (the CLI warns about repeated ids and
        # keeps their first position for ordering).
        order = docs.groupBy(F.col("_id").alias("id")).agg(F.min("_row").alias("rank"))
    else:
        ids = pairs.select(F.col("id_a").alias("id")).union(pairs.select(F.col("id_b").alias("id")))
        order = ids.distinct().withColumn("rank", F.dense_rank().over(Window.orderBy("id")))
    order = order.localCheckpoint()
    ranked = (
        pairs.join(order.select(F.col("id").alias("id_a"), F.col("rank").alias("u")), "id_a")
        .join(order.select(F.col("id").alias("id_b"), F.col("rank").alias("v")), "id_b")
        .select("u", "v")
    )
    linked = _components(ranked)
    roots = linked.select(F.col("root").alias("node"), F.col("root")).distinct()
    members = linked.union(roots).distinct()
    sizes = members.groupBy("root").agg(F.count(F.lit(1)).alias("size"))
    named = order.select(F.col("rank").alias("node"), F.col("id"))
    kept = order.select(F.col("rank").alias("root"), F.col("id").alias("cluster"))
    return (
        members.join(sizes, "root")
        .join(named, "node")
        .join(kept, "root")
        .withColumn("keep", F.col("node") == F.col("root"))
        .orderBy("node")
        .select(*CLUSTER_COLUMNS)
    )


_FORMATS = ("parquet", "csv", "tsv", "jsonl")


def _format_of(path, given):
    if given:
        return given
    name = os.path.basename(os.path.normpath(path)).lower()
    for suffix, fmt in (
        (".parquet", "parquet"),
        (".csv", "csv"),
        (".tsv", "tsv"),
        (".tab", "tsv"),
        (".jsonl", "jsonl"),
        (".ndjson", "jsonl"),
        (".json", "jsonl"),
    ):
        if name.endswith(suffix):
            return fmt
    if os.path.isdir(path):
        return "parquet"
    raise ValueError(
        f"{path}: cannot tell the format from the name; give --format ({', '.join(_FORMATS)})"
    )


def read_corpus(spark, path, fmt=None):
    """A DataFrame of the corpus at ``path`` as Spark reads it, in file order.

    Parquet is read natively (a directory of part files too); CSV has a header row and RFC
    4180 quoting (quoted fields may span lines); TSV has a header row and no quoting at all
    (a quote is an ordinary character, as in the CLI); JSON Lines is one object per line.
    Malformed rows stop the job with Spark's error instead of becoming nulls.
    """
    fmt = _format_of(path, fmt)
    reader = spark.read
    if fmt == "parquet":
        return reader.parquet(path)
    if fmt == "jsonl":
        return reader.option("mode", "FAILFAST").json(path)
    common = dict(header=True, mode="FAILFAST", inferSchema=False, nullValue=None)
    if fmt == "csv":
        return reader.options(**common, multiLine=True, quote='"', escape='"').csv(path)
    # Spark turns quoting off with an empty quote character.
    return reader.options(**common, sep="\t", quote="").csv(path)


def _parser():
    p = argparse.ArgumentParser(
        prog="python -m lshscope.spark",
        description="Find near-duplicate documents on Spark exactly as `lshscope scan` does, "
        "and write the verified pairs as Parquet (audit them with "
        "`lshscope explore INPUT --pairs OUTPUT_DIR`).",
    )
    p.add_argument("input", help="Parquet file or directory, CSV, TSV or JSON Lines")
    p.add_argument("output_dir", help="directory for the pairs (Parquet part files)")
    p.add_argument("--format", choices=_FORMATS, help="input format [default: from the name]")
    p.add_argument("--text-column", default="text", help="column of the text [default: text]")
    p.add_argument(
        "--id-column",
        help="column of the id [default: `id` if present, else the 1-based row number]",
    )
    p.add_argument("-b", "--bands", type=int, default=20, help="bands [default: 20]")
    p.add_argument("-r", "--rows", type=int, default=5, help="rows per band [default: 5]")
    p.add_argument(
        "-k", "--num-perm", type=int, default=128, help="signature length K [default: 128]"
    )
    p.add_argument("--seed", type=int, default=1, help="hash family seed [default: 1]")
    p.add_argument(
        "--shingle", help='shingles, "char:K" or "word:N" [default: the profile\'s own]'
    )
    p.add_argument(
        "--profile",
        choices=("lshscope", "datatrove", "text-dedup", "nemo", "datasketch", "spark"),
        help="normalize and shingle as this tool does [default: lshscope]",
    )
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
        help="also write the clusters (`id,cluster,size,keep`, as `lshscope dedup`) to DIR",
    )
    p.add_argument("--master", help="Spark master when not run by spark-submit [default: local[*]]")
    p.add_argument(
        "--shuffle-partitions",
        type=int,
        help="spark.sql.shuffle.partitions [default: Spark's, or 4 per core in local mode]",
    )
    p.add_argument("--overwrite", action="store_true", help="replace existing output directories")
    return p


def main(argv=None):
    """``python -m lshscope.spark``: exit code 0 on success, 2 for bad input or options."""
    args = _parser().parse_args(argv)
    profile = None if args.profile in (None, "lshscope") else args.profile
    try:
        _check_options(
            args.num_perm,
            args.seed,
            args.shingle,
            profile,
            args.bands,
            args.rows,
            args.threshold,
            args.max_bucket,
        )
        fmt = _format_of(args.input, args.format)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if not os.path.exists(args.input):
        print(f"error: {args.input}: no such file or directory", file=sys.stderr)
        return 2
    for out in filter(None, (args.output_dir, args.clusters)):
        if os.path.exists(out) and not args.overwrite:
            print(f"error: {out} exists; remove it or give --overwrite", file=sys.stderr)
            return 2

    from pyspark.sql import SparkSession

    # Local workers run this interpreter, which has lshscope installed (a cluster's
    # spark-submit sets its own).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    # A session that already runs (a notebook, spark-submit, a test) is used and left running.
    spark = SparkSession.getActiveSession()
    owned = spark is None
    if owned:
        builder = SparkSession.builder.appName("lshscope")
        master = args.master or ("local[*]" if not os.environ.get("SPARK_ENV_LOADED") else None)
        if master:
            builder = builder.master(master)
        partitions = args.shuffle_partitions
        if partitions is None and master and master.startswith("local"):
            # Spark's default of 200 shuffle partitions is for clusters; on one machine it
            # mostly schedules empty tasks.
            partitions = 4 * (os.cpu_count() or 1)
        if partitions:
            builder = builder.config("spark.sql.shuffle.partitions", str(partitions))
        spark = builder.getOrCreate()
    elif args.shuffle_partitions:
        spark.conf.set("spark.sql.shuffle.partitions", str(args.shuffle_partitions))
    try:
        corpus = read_corpus(spark, args.input, fmt)
        try:
            pairs = dedup(
                corpus,
                args.text_column,
                args.id_column,
                bands=args.bands,
                rows=args.rows,
                num_perm=args.num_perm,
                seed=args.seed,
                shingle=args.shingle,
                profile=profile,
                threshold=args.threshold,
                max_bucket=args.max_bucket,
            )
        except ValueError as e:
            print(f"error: {args.input}: {e}", file=sys.stderr)
            return 2
        mode = "overwrite" if args.overwrite else "errorifexists"
        pairs = pairs.persist()
        pairs.write.mode(mode).parquet(args.output_dir)
        print(f"wrote {pairs.count()} pairs to {args.output_dir}", file=sys.stderr)
        if args.clusters:
            found = clusters(pairs, corpus, id_col=args.id_column)
            found.write.mode(mode).parquet(args.clusters)
            print(f"wrote the clusters to {args.clusters}", file=sys.stderr)
    finally:
        if owned:
            spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
