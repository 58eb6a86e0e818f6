"""The pairs: hashing, banding and scoring on Spark, as ``lshscope scan`` finds them."""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np
import pyarrow as pa

# Absolute imports: `spark-submit .../lshscope/spark/__main__.py` runs a file as a script.
from lshscope import PAIR_COLUMNS
from lshscope import _lshscope as _kernels
from lshscope.spark._arrow import (
    _batches,
    _binary,
    _buffers,
    _mask_array,
    _mask_columns,
    _whole_partition,
)

# Spark keeps 64-bit unsigned values nowhere; positions and bucket keys are signed longs, and
# `monotonically_increasing_id` puts the partition index above bit 33.
_PARTITION_SHIFT = 33


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


def _documents(df, text_col, id_col, extra=()):
    """``_row`` (input order), ``id`` (a string) and the text of every row of ``df``, and the
    columns ``extra`` as they are.

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
        *extra,
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


def _partition_starts(hashed):
    """Per input partition (the bits of ``_row`` above :data:`_PARTITION_SHIFT`), the number
    of rows of ``hashed`` before it, in partition order: one small aggregate, collected on the
    driver."""
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
    return before


def _row_numbers(hashed):
    """A column expression: the 1-based input position of each row, from the partition
    sizes of the persisted ``hashed``."""
    from pyspark.sql import functions as F

    before = _partition_starts(hashed)
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


def _hash(df, text_col, id_col, sketch, lower=None):
    """``_row, _id, _text, keys, shingles``: every document of ``df`` with its band keys (a
    binary value of ``bands`` keys, empty without shingles) and its number of shingles,
    persisted on disk (banding, counting and scoring all read it). Nothing bigger than the
    keys is kept: a shingle set is about eight times its text, and the scoring partitions
    hash the few texts they need again. With ``lower`` (a :class:`_Sketch` of the same
    signatures under another banding: ``estimate-pairs``' lower strata level) a column
    ``lower_keys`` holds that banding's keys likewise, from the same hashing."""
    from pyspark import StorageLevel

    docs, id_col = _documents(df, text_col, id_col)
    lower_options = {} if lower is None else dict(lower_bands=lower.bands, lower_rows=lower.rows)
    lower_names = [] if lower is None else ["lower_keys"]

    def hash_batches(batches):
        for batch in batches:
            key_off, keys, shingles, lower_off, lower_keys = _kernels.hash_texts(
                *_buffers(batch.column("_text")), **sketch.kernel_options(), **lower_options
            )
            yield pa.RecordBatch.from_arrays(
                [
                    batch.column("_row"),
                    *([batch.column("_id")] if id_col else []),
                    batch.column("_text"),
                    _binary(key_off, keys),
                    pa.array(shingles),
                    *([_binary(lower_off, lower_keys)] if lower is not None else []),
                ],
                names=[
                    "_row", *(["_id"] if id_col else []), "_text", "keys", "shingles",
                    *lower_names,
                ],
            )

    id_schema = "_id string, " if id_col else ""
    lower_schema = ", lower_keys binary" if lower is not None else ""
    text_type = dict(docs.dtypes)["_text"]
    # On disk: an executor's heap caching a whole input split (one task for a Parquet file
    # of one row group) ran out of memory on Spark's default 1 GB.
    hashed = docs.mapInArrow(
        hash_batches,
        f"_row long, {id_schema}_text {text_type}, keys binary, shingles long{lower_schema}",
    ).persist(StorageLevel.DISK_ONLY)
    if not id_col:
        hashed = hashed.withColumn("_id", _row_numbers(hashed))
    return hashed


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


def _scoring_documents(hashed, sketch, *, max_bucket, partitions=None):
    """Steps 1 and 2 of :func:`_score`: the documents of ``hashed`` (``_row, _id, _text`` and
    the band masks) in the scoring partitions that own their buckets, with the names of the
    mask columns (owned bands, and with ``max_bucket`` the emitted ones)."""
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
    return documents.repartition(score_parts, "part"), owned_cols, emitted_cols


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

    documents, owned_cols, emitted_cols = _scoring_documents(
        hashed, sketch, max_bucket=max_bucket, partitions=partitions
    )

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

    scored = documents.mapInArrow(score_partition, _SCORED_SCHEMA)
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
