"""lshscope on Spark: the same candidate pairs and clusters as ``lshscope scan`` and
``lshscope dedup``, computed over a cluster.

The documents are hashed by the lshscope engine (Rust, through Arrow batches in
``mapInArrow``) into their band keys, the CLI's own. Banding is a Spark shuffle of one row per
(band, bucket key, document); the engine finds the buckets of two or more documents (the first
``max_bucket`` of a larger one) and sends each document's text once to each scoring partition
that owns one of its buckets. The engine there hashes those texts again and scores each pair
(exact Jaccard, MinHash estimate) once, in the first band where the CLI's banding emits it.
Nothing leaves the JVM as a Python object per row, no signature, shingle set or table of
pairs is shuffled, and no JVM package beyond Spark itself is needed.

>>> pairs = dedup(spark.read.parquet("corpus.parquet"), bands=20, rows=5)  # doctest: +SKIP
>>> clusters(pairs, threshold=0.8, documents=corpus)                       # doctest: +SKIP

As a job: ``python -m lshscope.spark INPUT OUTPUT_DIR [options]`` (or ``spark-submit``), with
``lshscope scan``'s options and defaults; ``python -m lshscope.spark --help`` lists them.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from typing import NamedTuple, Optional

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# Absolute imports: `spark-submit .../lshscope/spark.py` runs this file as a script.
from lshscope import PAIR_COLUMNS
from lshscope import _lshscope as _kernels

__all__ = ["dedup", "clusters", "read_corpus", "main", "CLUSTER_COLUMNS"]

#: The columns of a clusters table, as ``lshscope dedup`` writes them.
CLUSTER_COLUMNS = ("id", "cluster", "size", "keep", "jaccard")

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


class _Sketch(NamedTuple):
    """How documents are hashed and banded: ``lshscope scan``'s options."""

    num_perm: int
    seed: int
    shingle: Optional[str]
    profile: Optional[str]
    family: str
    bands: int
    rows: int

    def kernel_options(self):
        """The keyword arguments of the hashing kernels."""
        return self._asdict()


def _check_options(sketch, threshold, max_bucket):
    """Raises ValueError on the driver, before any job, for what the CLI would refuse."""
    empty = np.zeros(1, np.int64), np.zeros(0, np.uint8)
    _kernels.hash_texts(*empty, **sketch.kernel_options())
    if not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be in [0, 1], got {threshold}")
    if max_bucket is not None:
        _kernels.bucket_members(
            np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.int64),
            bands=sketch.bands, parts=np.zeros(1, np.int32), max_bucket=max_bucket,
        )


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
    family="classic",
):
    """The verified candidate pairs of ``df``'s documents: a DataFrame with the columns of
    ``lshscope scan`` (``id_a, id_b, jaccard, estimate, bands_hit``), one row per distinct
    pair, ``id_a`` before ``id_b`` in input order and rows in that order, pairs below
    ``threshold`` (exact Jaccard) left out.

    The options are scan's, with its defaults; ``shingle`` defaults to the profile's own
    (``profile``: ``"datatrove"``, ``"text-dedup"``, ``"nemo"``, ``"datasketch"``,
    ``"spark"``). Ids come from ``id_col`` (default: the column ``id`` if present, else the
    1-based row number). ``family`` is the sketch family of ``lshscope scan --family``
    (``"classic"``, ``"one-permutation"``, ``"c-minhash"``). Input order is the DataFrame's
    partition order, as Spark reads a file.
    The partitions of its shuffles are the session's ``spark.sql.shuffle.partitions``
    (``python -m lshscope.spark`` sizes them from the input). The documents' band keys and
    the scored pairs are persisted (on disk, and in memory where it is free, respectively).
    """
    sketch = _Sketch(num_perm, seed, shingle, profile, family, bands, rows)
    _check_options(sketch, threshold, max_bucket)
    hashed = _hash(df, text_col, id_col, sketch)
    scored = _score(hashed, sketch, threshold=threshold, max_bucket=max_bucket)
    return _in_order(_pairs_of(scored))


def _hash(df, text_col, id_col, sketch):
    """``_row, _id, _text, keys, shingles``: every document of ``df`` with its band keys (a
    binary value of ``bands`` keys, empty without shingles) and its number of shingles,
    persisted on disk (banding, counting and scoring all read it). Nothing bigger than the
    keys is kept: a shingle set is about eight times its text, and the scoring partitions
    hash the few texts they need again."""
    from pyspark import StorageLevel

    docs, id_col = _documents(df, text_col, id_col)

    def hash_batches(batches):
        for batch in batches:
            key_off, keys, shingles = _kernels.hash_texts(
                *_buffers(batch.column("_text")), **sketch.kernel_options()
            )
            yield pa.RecordBatch.from_arrays(
                [
                    batch.column("_row"),
                    *([batch.column("_id")] if id_col else []),
                    batch.column("_text"),
                    _binary(key_off, keys),
                    pa.array(shingles),
                ],
                names=["_row", *(["_id"] if id_col else []), "_text", "keys", "shingles"],
            )

    id_schema = "_id string, " if id_col else ""
    text_type = dict(docs.dtypes)["_text"]
    # On disk: an executor's heap caching a whole input split (one task for a Parquet file
    # of one row group) ran out of memory on Spark's default 1 GB.
    hashed = docs.mapInArrow(
        hash_batches, f"_row long, {id_schema}_text {text_type}, keys binary, shingles long"
    ).persist(StorageLevel.DISK_ONLY)
    if not id_col:
        hashed = hashed.withColumn("_id", _row_numbers(hashed))
    return hashed


# Rows per Arrow batch handed back to Spark from a kernel's whole-partition result.
_BATCH_ROWS = 1 << 16


def _batches(columns, names):
    """``columns`` (equal-length Arrow arrays) as record batches of at most _BATCH_ROWS."""
    total = len(columns[0]) if columns else 0
    for start in range(0, total, _BATCH_ROWS):
        yield pa.RecordBatch.from_arrays(
            [c.slice(start, _BATCH_ROWS) for c in columns], names=names
        )


def _whole_partition(batches):
    """A partition's batches as one table (a kernel that groups needs all of it), or None
    when it is empty."""
    batches = [b for b in batches if b.num_rows]
    return pa.Table.from_batches(batches).combine_chunks() if batches else None


def _mask_columns(prefix, bands):
    """Names of the long columns of a mask with one bit per band."""
    return [f"{prefix}{w}" for w in range(-(-bands // 64))]


def _mask_array(table, columns):
    """The mask columns of ``table`` as one flat int64 array, a row's words together."""
    return np.ascontiguousarray(
        np.column_stack([table.column(c).to_numpy() for c in columns])
    ).ravel()


def _partition_values(spark, partitions):
    """One int per partition of ``repartition(partitions, column)`` that Spark's hash
    partitioning sends to that partition (``pmod(hash(v), partitions)``, Spark's Murmur3,
    computed by Spark): the scoring partitions' owners must not share partitions, and
    consecutive ints would (9 owners landed in 5 partitions, one with 5 times the work)."""
    from pyspark.sql import functions as F

    candidates = 64 * partitions
    while True:
        found = (
            spark.range(candidates)
            .select(F.col("id").cast("int").alias("v"))
            .groupBy(F.pmod(F.hash("v"), F.lit(partitions)).alias("p"))
            .agg(F.min("v").alias("v"))
            .collect()
        )
        if len(found) == partitions:
            values = np.zeros(partitions, np.int32)
            for row in found:
                values[row["p"]] = row["v"]
            return values
        candidates *= 4


def _score(hashed, sketch, *, threshold, max_bucket, partitions=None):
    """The scored candidate pairs of ``hashed`` (unsorted, persisted): ``a, b`` (input
    positions), ``id_a, id_b, jaccard, estimate, bands_hit``, below-threshold pairs left out,
    and one tally row per scored partition (``a`` = -1, ``candidates`` its candidate count;
    pair rows have 0) so that the job counts the candidates exactly, without a second pass.

    ``partitions`` is (bucket partitions, scoring partitions), the session's shuffle
    partitions by default. Pairs are scored inside their buckets, and no table of pairs is
    built, shuffled or joined:

    1. One row per (band, bucket key, document) goes to the bucket partition of its bucket;
       the engine there finds the buckets of two or more (capped as the CLI caps them) and
       names each one's owner, a scoring partition picked by its first member, so that a
       family of near copies, which shares a first member in most bands, meets in one.
    2. Each document goes once to each scoring partition that owns one of its buckets, with
       the mask of bands it is there for: its text, not its signature or shingle set.
    3. The engine there hashes the texts again, rebuilds the buckets it owns and scores each
       pair in the first band that emits it, decided from the two documents alone.
    """
    from pyspark import StorageLevel
    from pyspark.sql import functions as F

    if partitions is None:
        given = int(hashed.sparkSession.conf.get("spark.sql.shuffle.partitions"))
        partitions = (given, given)
    bucket_parts, score_parts = partitions
    owners = _partition_values(hashed.sparkSession, score_parts)
    bands = sketch.bands
    owned_cols = _mask_columns("m", bands)
    emitted_cols = _mask_columns("e", bands) if max_bucket is not None else []

    def band_batches(batches):
        for batch in batches:
            band, key, position = _kernels.band_rows(*_buffers(batch.column("keys")), bands=bands)
            row = batch.column("_row").to_numpy()[position]
            yield pa.RecordBatch.from_arrays(
                [pa.array(band), pa.array(key), pa.array(row)], names=["band", "key", "_row"]
            )

    def member_batches(batches):
        table = _whole_partition(batches)
        if table is None:
            return
        part, row, masks = _kernels.bucket_members(
            table.column("band").to_numpy(),
            table.column("key").to_numpy(),
            table.column("_row").to_numpy(),
            bands=bands,
            parts=owners,
            max_bucket=max_bucket,
        )
        masks = masks.reshape(-1, len(owned_cols))
        yield from _batches(
            [pa.array(part), pa.array(row), *(pa.array(masks[:, w]) for w in range(masks.shape[1]))],
            ["part", "_row", *owned_cols],
        )

    members = (
        hashed.select("_row", "keys")
        .mapInArrow(band_batches, "band int, key long, _row long")
        .repartition(bucket_parts, "band", "key")
        .mapInArrow(member_batches, ", ".join(["part int", "_row long", *(f"{c} long" for c in owned_cols)]))
    )
    # Partitioned by document from here on: the masks' aggregate and the join to the texts
    # need no other shuffle.
    owned = (
        members.repartition(score_parts, "_row")
        .groupBy("part", "_row")
        .agg(*(F.bit_or(c).alias(c) for c in owned_cols))
    )
    if emitted_cols:
        # A pair that shares a capped bucket may still be emitted by another band: each
        # document carries the bands in which it is among its bucket's first members,
        # whichever partition owns them.
        emitted = owned.groupBy("_row").agg(
            *(F.bit_or(m).alias(e) for m, e in zip(owned_cols, emitted_cols))
        )
        owned = owned.join(emitted, "_row")
    # A sort-merge join, whatever the size estimates say: Spark would otherwise broadcast the
    # documents (estimated from the input file's size, small) and a default 1 GB driver runs
    # out of heap building the table.
    documents = owned.join(hashed.select("_row", "_id", "_text").hint("merge"), "_row")

    def score_partition(batches):
        table = _whole_partition(batches)
        if table is None:
            return
        doc_row = table.column("_row").to_numpy()
        first, second, jaccard, estimate, hits, candidates = _kernels.score_documents(
            doc_row,
            _buffers(table.column("_text")),
            _mask_array(table, owned_cols),
            _mask_array(table, emitted_cols) if emitted_cols else None,
            threshold=threshold,
            **sketch.kernel_options(),
        )
        ids = table.column("_id").combine_chunks()
        yield from _batches(
            [
                pa.array(doc_row[first]),
                pa.array(doc_row[second]),
                ids.take(pa.array(first)),
                ids.take(pa.array(second)),
                pa.array(jaccard),
                pa.array(estimate),
                pa.array(hits),
                pa.array(np.zeros(len(first), np.int64)),
            ],
            _SCORED_COLUMNS,
        )
        yield _tally(candidates)

    scored = documents.repartition(score_parts, "part").mapInArrow(score_partition, _SCORED_SCHEMA)
    # Sorting samples its input in a job of its own: without the persist, every bucket would
    # be scored twice.
    return scored.persist(StorageLevel.MEMORY_AND_DISK)


_SCORED_COLUMNS = ["a", "b", "id_a", "id_b", "jaccard", "estimate", "bands_hit", "candidates"]
_SCORED_SCHEMA = (
    "a long, b long, id_a string, id_b string, jaccard double, estimate double, "
    "bands_hit int, candidates long"
)


def _tally(candidates):
    """The row that counts a scored batch's candidates (see :func:`_score`)."""
    return pa.RecordBatch.from_arrays(
        [
            pa.array([-1], pa.int64()),
            pa.array([-1], pa.int64()),
            pa.array([None], pa.string()),
            pa.array([None], pa.string()),
            pa.array([None], pa.float64()),
            pa.array([None], pa.float64()),
            pa.array([None], pa.int32()),
            pa.array([candidates], pa.int64()),
        ],
        names=_SCORED_COLUMNS,
    )


def _pairs_of(scored):
    """The pair rows of :func:`_score`'s output, tallies left out."""
    from pyspark.sql import functions as F

    return scored.where(F.col("a") >= 0)


def _in_order(pairs, partitions=None):
    """``pairs`` in input order with the columns of ``lshscope scan``; ``partitions``
    (files, when written) or the session's shuffle partitions."""
    if partitions is None:
        return pairs.orderBy("a", "b").select(*PAIR_COLUMNS)
    return (
        pairs.repartitionByRange(partitions, "a", "b")
        .sortWithinPartitions("a", "b")
        .select(*PAIR_COLUMNS)
    )


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


def _components(edges, checkpoint):
    """(node, root) for every node on an edge, root the smallest node of its connected
    component: large-star and small-star rounds until a round changes nothing. Each round's
    edges are cut from their lineage by ``checkpoint`` (see :func:`_checkpointer`)."""
    from pyspark.sql import functions as F

    def canonical(e):
        return e.select(F.greatest("u", "v").alias("u"), F.least("u", "v").alias("v"))

    current = checkpoint(canonical(edges).where(F.col("u") != F.col("v")).distinct())
    size = current.count()
    while True:
        following = checkpoint(canonical(_small_star(_large_star(current))).distinct())
        following_size = following.count()
        # Both are sets of edges: equal sizes and no new edge mean the same set.
        if following_size == size and following.exceptAll(current).isEmpty():
            break
        current, size = following, following_size
    # At the fixed point every edge joins a node to its component's smallest node.
    return following.select(F.col("u").alias("node"), F.col("v").alias("root"))


def _checkpointer(spark, checkpoint_dir):
    """How the components rounds cut their lineage: reliably (files in ``checkpoint_dir``,
    else in the context's checkpoint directory, ``spark.checkpoint.dir``, when it has one),
    which survives a lost executor; else ``localCheckpoint`` (executors' storage: faster, but
    a lost executor fails the job)."""
    sc = spark.sparkContext
    if checkpoint_dir is not None:
        sc.setCheckpointDir(checkpoint_dir)
    elif sc._jsc.sc().getCheckpointDir().isEmpty():
        return lambda df: df.localCheckpoint()
    return lambda df: df.checkpoint(eager=True)


_CLUSTERINGS = ("center", "components")
_KEEP_RULES = ("first", "longest")


def clusters(
    pairs,
    documents=None,
    *,
    id_col=None,
    text_col="text",
    threshold=None,
    checkpoint_dir=None,
    clustering="center",
    keep="first",
    shingle=None,
    profile=None,
):
    """The clusters of ``pairs`` (``id_a, id_b, jaccard``, as :func:`dedup` returns them), as
    ``lshscope dedup --clustering CLUSTERING --keep KEEP`` writes them: ``id, cluster, size,
    keep, jaccard``, one row per document in a cluster, ``cluster`` the id of the document
    the cluster keeps and ``jaccard`` each document's exact Jaccard with it.

    ``clustering="center"`` (the default, as the CLI's) takes documents in keep order and
    removes one only when a document already kept is a pair of it, assigning it to the most
    similar such document: every removal is a verified pair at the threshold. The greedy
    runs whole inside one task per connected component of the pairs (the result decomposes
    by component), so a component's pairs must fit in one Python worker (docs/spark.md).
    ``clustering="components"`` keeps one document per connected component; its ``jaccard``
    needs the texts (``documents``), and is null without them.

    With ``documents`` (the DataFrame given to :func:`dedup`, its ``id_col`` and
    ``text_col``) keep order is input order (``keep="first"``) or the longest text first,
    ties in input order (``keep="longest"``, lengths in characters), and rows come in input
    order; without it, the smallest id is first. ``threshold`` keeps only pairs with an exact
    Jaccard at least that (a :func:`dedup` run at a lower threshold can be clustered at
    several). ``shingle`` and ``profile`` are :func:`dedup`'s (the components' Jaccards are
    computed from the texts). Computed in Spark SQL (large-star / small-star rounds for the
    components), no JVM package needed.

    ``checkpoint_dir`` (a URI on storage every executor reaches, such as HDFS or an object
    store) makes the rounds' checkpoints reliable, so a lost executor costs a retry, not the
    job; it becomes the context's checkpoint directory. Without it the context's own
    (``spark.checkpoint.dir``) is used if set, else local checkpoints.
    """
    from pyspark.sql import Window
    from pyspark.sql import functions as F

    if clustering not in _CLUSTERINGS:
        raise ValueError(f'clustering must be "center" or "components", got {clustering!r}')
    if keep not in _KEEP_RULES:
        raise ValueError(f'keep must be "first" or "longest", got {keep!r}')
    if keep == "longest" and documents is None:
        raise ValueError('keep="longest" reads the texts: pass documents')
    if threshold is not None:
        pairs = pairs.where(F.col("jaccard") >= threshold)
    with_texts = documents is not None and (clustering == "components" or keep == "longest")
    if documents is not None:
        if with_texts:
            docs, _ = _documents(documents, text_col, id_col)
        else:
            docs, _ = _documents(documents.withColumn("_no_text", F.lit("")), "_no_text", id_col)
        if "_id" not in docs.columns:
            docs = docs.withColumn("_id", _row_numbers(docs))
        # The first occurrence of each id ranks it (the CLI warns about repeated ids and
        # keeps their first position for ordering). Keep order is ascending (key, rank).
        key = (
            -F.min_by(F.length("_text"), "_row") if keep == "longest" else F.lit(0).cast("long")
        )
        order = docs.groupBy(F.col("_id").alias("id")).agg(
            F.min("_row").alias("rank"), key.cast("long").alias("key")
        )
    else:
        ids = pairs.select(F.col("id_a").alias("id")).union(pairs.select(F.col("id_b").alias("id")))
        order = (
            ids.distinct()
            .withColumn("rank", F.dense_rank().over(Window.orderBy("id")))
            .withColumn("key", F.lit(0).cast("long"))
        )
    checkpoint = _checkpointer(pairs.sparkSession, checkpoint_dir)
    order = checkpoint(order)
    ranked = (
        pairs.join(
            order.select(F.col("id").alias("id_a"), F.col("rank").alias("u"), F.col("key").alias("u_key")),
            "id_a",
        )
        .join(
            order.select(F.col("id").alias("id_b"), F.col("rank").alias("v"), F.col("key").alias("v_key")),
            "id_b",
        )
        .select("u", "v", "u_key", "v_key", "jaccard")
    )
    linked = _components(ranked.select("u", "v"), checkpoint)
    roots = linked.select(F.col("root").alias("node"), F.col("root")).distinct()
    members = linked.union(roots).distinct()
    if clustering == "center":
        starred = _center_stars(ranked, members)
    else:
        keyed = members.join(order.select(F.col("rank").alias("node"), "key"), "node")
        first = keyed.groupBy("root").agg(F.min(F.struct("key", "node")).alias("first"))
        starred = keyed.join(first, "root").select(
            "node", F.col("first.node").alias("center")
        )
        if with_texts:
            starred = _jaccards_to_center(starred, docs, shingle, profile)
        else:
            starred = starred.withColumn(
                "jaccard",
                F.when(F.col("node") == F.col("center"), F.lit(1.0)).otherwise(
                    F.lit(None).cast("double")
                ),
            )
    sizes = starred.groupBy("center").agg(F.count(F.lit(1)).alias("size"))
    named = order.select(F.col("rank").alias("node"), F.col("id"))
    kept = order.select(F.col("rank").alias("center"), F.col("id").alias("cluster"))
    return (
        starred.join(sizes, "center")
        .join(named, "node")
        .join(kept, "center")
        .withColumn("keep", F.col("node") == F.col("center"))
        .orderBy("node")
        .select(*CLUSTER_COLUMNS)
    )


def _center_stars(ranked, members):
    """``node, center, jaccard`` of center clustering: the pairs ``ranked`` (``u, v, u_key,
    v_key, jaccard``) grouped by their connected component (``members``: node, root), one
    component whole in one task, where the engine's greedy decides it in keep order."""
    from pyspark.sql import functions as F

    by_component = ranked.join(
        members.select(F.col("node").alias("u"), F.col("root").alias("component")), "u"
    ).select("component", "u", "v", "u_key", "v_key", "jaccard")

    def star_batches(batches):
        table = _whole_partition(batches)
        if table is None:
            return
        node, center, jaccard = _kernels.center_components(
            *(table.column(c).to_numpy() for c in ("component", "u", "v", "u_key", "v_key")),
            table.column("jaccard").to_numpy(),
        )
        yield from _batches(
            [pa.array(node), pa.array(center), pa.array(jaccard)], ["node", "center", "jaccard"]
        )

    partitions = int(ranked.sparkSession.conf.get("spark.sql.shuffle.partitions"))
    return by_component.repartition(partitions, "component").mapInArrow(
        star_batches, "node long, center long, jaccard double"
    )


def _jaccards_to_center(starred, docs, shingle, profile):
    """``starred`` (``node, center``) with each node's exact Jaccard with its center, from
    the texts of ``docs`` (``_row, _text``): a component's kept document need not be a pair
    of its members, so the Jaccard is computed, as the CLI computes it."""
    from pyspark.sql import functions as F

    texts = docs.select("_row", "_text")
    joined = starred.join(
        texts.select(F.col("_row").alias("node"), F.col("_text").alias("node_text")), "node"
    ).join(texts.select(F.col("_row").alias("center"), F.col("_text").alias("center_text")), "center")
    # Shingle sets depend on neither the seed nor the sketch family, and one row of
    # signature is the least the index builds.
    sketch = dict(num_perm=1, seed=1, shingle=shingle, profile=profile)

    def jaccard_batches(batches):
        for batch in batches:
            values = _kernels.text_jaccards(
                _buffers(batch.column("node_text")), _buffers(batch.column("center_text")), **sketch
            )
            yield pa.RecordBatch.from_arrays(
                [batch.column("node"), batch.column("center"), pa.array(values)],
                names=["node", "center", "jaccard"],
            )

    return joined.select("node", "center", "node_text", "center_text").mapInArrow(
        jaccard_batches, "node long, center long, jaccard double"
    )


_FORMATS = ("parquet", "csv", "tsv", "jsonl")

# Suffixes Hadoop's codecs decompress on read without native libraries (CSV, TSV, JSON Lines).
_COMPRESSION_SUFFIXES = (".gz", ".bz2")

# Hadoop's rule (org.apache.hadoop.fs.Path): a scheme is what stands before a colon that
# comes before the first slash.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")

# Object stores and the Azure filesystems name a bucket or container in the authority; a
# URI without one is a typo Hadoop reports late and obscurely.
_NEEDS_AUTHORITY = {
    "s3a": "s3a://BUCKET/PATH",
    "gs": "gs://BUCKET/PATH",
    "abfs": "abfs://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH",
    "abfss": "abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH",
    "wasb": "wasb://CONTAINER@ACCOUNT.blob.core.windows.net/PATH",
    "wasbs": "wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/PATH",
}

# The connector a Spark without it needs, named in the error when Hadoop has no filesystem
# class for the scheme (pip's pyspark ships none of them).
_CONNECTORS = {
    "s3a": "hadoop-aws (org.apache.hadoop:hadoop-aws, the version of Spark's Hadoop)",
    "gs": "the GCS connector (com.google.cloud.bigdataoss:gcs-connector)",
    "abfs": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "abfss": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "wasb": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "wasbs": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
}


class Location(NamedTuple):
    """A path or URI as Spark resolves it: ``scheme`` is None for a bare path (Hadoop
    resolves it against ``fs.defaultFS``: the local disk in local mode, often HDFS on a
    cluster), ``authority`` the host, bucket or container (empty when there is none), ``path``
    the path inside that filesystem and ``name`` its last component."""

    uri: str
    scheme: Optional[str]
    authority: str
    path: str
    name: str

    @property
    def is_glob(self):
        """Whether Hadoop expands the path as a glob pattern (``*``, ``?``, ``[...]``,
        ``{a,b}``), as Spark's readers do."""
        return any(c in self.path for c in "*?[{")


def parse_location(uri):
    """The parts of ``uri`` (a path or a URI such as ``file:///data/a.parquet``,
    ``hdfs://namenode:8020/data``, ``s3a://bucket/key``, ``gs://bucket/key`` or
    ``abfss://container@account.dfs.core.windows.net/key``) that the job needs before Spark
    starts; raises ValueError for what cannot name a file. Network access: none."""
    if not uri or not uri.strip():
        raise ValueError("an empty path")
    match = _SCHEME.match(uri)
    scheme, rest = (match.group(1).lower(), uri[match.end() :]) if match else (None, uri)
    authority = ""
    if scheme is not None and rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        path = slash + path
    else:
        path = rest
    if scheme is not None and not path and not authority:
        raise ValueError(f"{uri}: no path")
    if scheme is not None and not path:
        path = "/"
    if scheme is not None and not path.startswith("/"):
        # Hadoop would read `s3a:bucket/key` as a relative path under a scheme: never meant.
        raise ValueError(f"{uri}: a URI needs `{scheme}://` and an absolute path")
    if scheme == "file" and authority not in ("", "localhost"):
        raise ValueError(
            f"{uri}: a file URI names no host (`{authority}`); write file:///absolute/path"
        )
    if scheme in _NEEDS_AUTHORITY:
        form = _NEEDS_AUTHORITY[scheme]
        if not authority or ("@" in form and "@" not in authority):
            raise ValueError(f"{uri}: name the {form.split('://')[1].split('/')[0]}: {form}")
    parts = [p for p in path.split("/") if p]
    return Location(uri, scheme, authority, path, parts[-1] if parts else "")


def _format_from_name(location):
    """The input format the name says (a compression suffix looked through), or None."""
    name = location.name.lower()
    for compression in _COMPRESSION_SUFFIXES:
        if name.endswith(compression):
            name = name[: -len(compression)]
            break
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
    return None


def _format_of(location, given, files=None):
    """The input format at ``location``: ``given``, else its name's, else Parquet for a
    directory (asked of Spark's filesystem, ``files``)."""
    if given:
        return given
    fmt = _format_from_name(location)
    if fmt:
        return fmt
    found = files.sizes(location) if files is not None else None
    if found is not None and found[1]:
        return "parquet"
    raise ValueError(
        f"{location.uri}: cannot tell the format from the name; give --format "
        f"({', '.join(_FORMATS)})"
    )


class _Files:
    """Paths as Spark sees them: the JVM's Hadoop FileSystem of the session (``file://``,
    ``hdfs://``, ``s3a://``, ... whichever connectors the cluster has), not the driver's disk."""

    def __init__(self, spark):
        self._jvm = spark._jvm
        self._conf = spark._jsc.hadoopConfiguration()

    def _fs(self, location):
        from py4j.protocol import Py4JJavaError

        path = self._jvm.org.apache.hadoop.fs.Path(location.uri)
        try:
            return path, path.getFileSystem(self._conf)
        except Py4JJavaError as e:
            scheme = location.scheme or "the default filesystem"
            hint = _CONNECTORS.get(location.scheme)
            raise ValueError(
                f"{location.uri}: this Spark has no filesystem for {scheme}"
                + (f": add {hint} to the job's classpath (--packages or --jars)" if hint else "")
                + f" ({e.java_exception.toString()})"
            ) from None

    def sizes(self, location):
        """(bytes, is a directory) of what ``location`` names (a glob: all it matches, never
        a directory), or None when it names nothing."""
        path, fs = self._fs(location)
        if location.is_glob:
            matches = fs.globStatus(path)
            if not matches:
                return None
            # A file's length is in its status; only a matched directory needs a listing.
            return sum(
                m.getLen() if m.isFile() else fs.getContentSummary(m.getPath()).getLength()
                for m in matches
            ), False
        if not fs.exists(path):
            return None
        return fs.getContentSummary(path).getLength(), fs.getFileStatus(path).isDirectory()

    def exists(self, location):
        path, fs = self._fs(location)
        return bool(fs.exists(path))

    def delete(self, uri):
        """Removes ``uri`` and everything under it."""
        location = parse_location(uri)
        path, fs = self._fs(location)
        fs.delete(path, True)


def read_corpus(spark, path, fmt=None):
    """A DataFrame of the corpus at ``path`` as Spark reads it, in file order.

    Parquet is read natively (a directory of part files too); CSV has a header row and RFC
    4180 quoting (quoted fields may span lines); TSV has a header row and no quoting at all
    (a quote is an ordinary character, as in the CLI); JSON Lines is one object per line.
    Malformed rows stop the job with Spark's error instead of becoming nulls.
    """
    fmt = _format_of(parse_location(path), fmt, _Files(spark))
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
    p.add_argument(
        "input",
        help="Parquet file or directory, CSV, TSV or JSON Lines (.gz, .bz2), a glob too: a path "
        "(Spark's default filesystem) or a URI (file://, hdfs://, s3a://, gs://, abfss://, ...)",
    )
    p.add_argument("output_dir", help="directory (path or URI) for the pairs (Parquet part files)")
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
    p.add_argument("--master", help="Spark master when not run by spark-submit [default: local[*]]")
    p.add_argument(
        "--shuffle-partitions",
        type=int,
        help="partitions of the bucket and scoring shuffles, and spark.sql.shuffle.partitions "
        "[default: from the hashed documents' size, at least one per core]",
    )
    p.add_argument(
        "--checkpoint-dir",
        metavar="URI",
        help="reliable checkpoints of the clusters' rounds, on storage every executor reaches "
        "[default: spark.checkpoint.dir, else OUTPUT_DIR/_checkpoints, removed at the end]",
    )
    p.add_argument("--overwrite", action="store_true", help="replace existing output directories")
    return p


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
    """``python -m lshscope.spark``: exit code 0 on success, 2 for bad input or options."""
    args = _parser().parse_args(argv)
    profile = None if args.profile in (None, "lshscope") else args.profile
    try:
        sketch = _Sketch(
            args.num_perm, args.seed, args.shingle, profile, args.family, args.bands, args.rows
        )
        _check_options(sketch, args.threshold, args.max_bucket)
        if args.shuffle_partitions is not None and args.shuffle_partitions < 1:
            raise ValueError(f"--shuffle-partitions must be at least 1, got {args.shuffle_partitions}")
        source = parse_location(args.input)
        outputs = [parse_location(out) for out in (args.output_dir, args.clusters) if out]
        if args.checkpoint_dir:
            parse_location(args.checkpoint_dir)
    except ValueError as e:
        _error(f"error: {e}")
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
        return _run(spark, args, sketch, source, outputs)
    except ValueError as e:
        _error(f"error: {e}", spark)
        return 2
    finally:
        if owned:
            spark.stop()
        else:
            spark.conf.set("spark.sql.shuffle.partitions", given_partitions)


def _run(spark, args, sketch, source, outputs):
    """The job in a running session: checks the paths through Spark's filesystems, then
    hashes, bands and scores, writes the pairs and the clusters, with a line per phase and
    the summary on standard error. Raises ValueError for what the user must fix."""
    from pyspark.sql import functions as F

    files = _Files(spark)
    found = files.sizes(source)
    if found is None:
        raise ValueError(f"{source.uri}: no such file or directory")
    input_bytes, _ = found
    fmt = _format_of(source, args.format, files)
    for out in outputs:
        if files.exists(out) and not args.overwrite:
            raise ValueError(f"{out.uri} exists; remove it or give --overwrite")
    mode = "overwrite" if args.overwrite else "errorifexists"
    parallelism = spark.sparkContext.defaultParallelism

    def partitions_for(shuffled_bytes):
        return args.shuffle_partitions or _shuffle_partitions(shuffled_bytes, parallelism)

    log = _Log(spark)
    log.phase("reading + shingling + MinHash signatures", f"{source.uri} ({fmt}, {input_bytes:,} bytes)")
    corpus = read_corpus(spark, source.uri, fmt)
    hashed = _hash(corpus, args.text_column, args.id_column, sketch)
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
        found_clusters = clusters(
            pairs.select(*PAIR_COLUMNS),
            corpus,
            id_col=args.id_column,
            text_col=args.text_column,
            checkpoint_dir=checkpoint_dir,
            clustering=args.clustering,
            keep=args.keep,
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
        if args.clustering == "center":
            order = "input order" if args.keep == "first" else "longest first"
            method = (
                f"center clustering in keep order ({order}): each removed document is a "
                f"verified pair at Jaccard ≥ {args.threshold:g} with the document kept for it"
            )
        else:
            method = f"connected components, one document kept per component (the {args.keep})"
        summary.append(
            f"{kept_docs:,} {'cluster holds' if kept_docs == 1 else 'clusters hold'} "
            f"{members:,} documents; {removed:,} removed "
            f"({_percent(removed, documents)} of {documents:,}); {method}"
        )
    for line in summary + log.timings():
        log.say(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
