"""``estimate-pairs``: the pair sample of ``lshscope truth --estimate-pairs``, stratified by a
permissive banding, drawn on Spark.

The design is the CLI's (LSH-SS: Lee, Ng and Shim, PVLDB 2011): the pairs of the corpus fall
into the *candidates* of the permissive banding for the strata threshold T (the engine's
choice, the sharpest banding that finds a pair at that Jaccard with probability 0.999), the
*lower candidates* (the candidates of the permissive banding for a lower threshold T2 that
are not candidates of the first; by default T2 = T − 0.2 when T ≥ 0.7, the engine's rule,
else no such stratum) and the *others* (pairs in neither). The strata sizes are exact: the
candidates are counted as ``scan`` counts them (each distinct pair once, in the first band
that emits it), the lower candidates likewise under the lower banding, less the pairs that
share a bucket of the first, the others are all pairs less both. Each stratum is sampled on
its own, or taken whole, with the CLI's budgets: the whole corpus when it has at most M
pairs; else the candidates whole when they number at most M/2, otherwise M/2 of them; the
lower candidates whole when they fit a quarter of what is left (M/8), otherwise that many;
the others get the rest of M.

How the draws are made on Spark (the one difference from the CLI, see docs/spark.md):

- **Candidates** are walked where ``scan``'s scoring walks them, without a table of pairs:
  each scoring partition keeps the M/2 candidates of smallest pseudo-random priority (a hash
  of the seed and the two documents' positions) and the job keeps the M/2 smallest of those:
  a uniform sample *without* replacement (bottom-k), where the CLI draws with replacement.
  Only the kept pairs are scored. For the intervals ``tune`` computes this is the same design
  or better: without replacement a mean's variance is smaller by the finite-population
  factor, so the with-replacement interval still holds.
- **Lower candidates** are walked the same way under the lower banding, in a second pass
  whose partitions skip every pair that shares a bucket of the first banding (the same band
  keys, from the same signatures), with priorities of their own (another seed).
- **Others** are drawn as the CLI draws them: uniform pairs of the corpus, with replacement,
  kept when they share no bucket of either permissive banding, in draw order (NumPy's PCG64
  under the seed, on the driver; the two documents are joined to their band keys and texts).

When every stratum is taken whole the file equals the CLI's byte for byte; when the
candidates (and lower candidates) are, their rows do.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np
import pyarrow as pa

from lshscope import _lshscope as _kernels
from lshscope.spark._arrow import _batches, _buffers, _mask_array, _whole_partition
from lshscope.spark.pairs import (
    _PARTITION_SHIFT,
    _check_options,
    _hash,
    _partition_starts,
    _scoring_documents,
    _Sketch,
)

#: The default sample size, as the README's tuning step uses it.
DEFAULT_PAIRS = 100_000

# The CLI's limits (crates/lshscope-core/src/analysis/stratified.rs): draws rejected per kept
# pair before the others are listed instead, and the most pairs walked to list them.
_MAX_REJECTIONS_PER_DRAW = 1000
_MAX_PAIRS_WALKED = 500_000_000
_MAX_OTHERS_LISTED = 50_000_000

# Mixed into the seed for the candidates' priorities and the others' draws, so that the
# sample does not reuse the MinHash family's stream ("strata" in ASCII, as the CLI's).
_SAMPLE_SALT = 0x7374_7261_7461


class StratifiedSample(NamedTuple):
    """A pair sample stratified by a permissive banding, as ``truth --estimate-pairs`` writes
    it: the banding and its strata threshold; per stratum its exact size and the exact
    Jaccards of its sampled pairs (candidates in input order of their pairs; others in draw
    order, or in the CLI's walk order when taken whole)."""

    bands: int
    rows: int
    threshold: float
    documents: int
    candidate_pairs: int
    candidates: np.ndarray
    other_pairs: int
    others: np.ndarray
    # The sketch family that made the strata; None (unknown) keeps the count's top on the
    # draws alone, as for a file that does not say.
    family: Optional[str] = None
    # The lower level, None for two strata: its permissive banding and threshold, the exact
    # number of lower candidates and the Jaccards of the sampled ones (input order).
    lower_bands: Optional[int] = None
    lower_rows: Optional[int] = None
    lower_threshold: Optional[float] = None
    lower_candidate_pairs: int = 0
    lower_candidates: Optional[np.ndarray] = None

    def is_census(self, stratum):
        """Whether ``stratum`` ("candidates", "lower_candidates" or "others") was taken
        whole."""
        if stratum == "candidates":
            return len(self.candidates) == self.candidate_pairs
        if stratum == "lower_candidates":
            if self.lower_candidates is None:
                raise ValueError("the sample has two strata: no lower candidates")
            return len(self.lower_candidates) == self.lower_candidate_pairs
        return len(self.others) == self.other_pairs


def estimate_pairs(
    df,
    pairs=DEFAULT_PAIRS,
    text_col="text",
    id_col=None,
    *,
    threshold=None,
    lower_threshold=None,
    num_perm=128,
    seed=1,
    shingle=None,
    profile=None,
    family="classic",
    partitions=None,
):
    """The stratified pair sample of ``lshscope truth --estimate-pairs PAIRS`` for the
    documents of ``df`` (a :class:`StratifiedSample`; write it with :func:`write_sample`).

    ``threshold`` is the strata threshold (the CLI's ``-t``: the permissive banding finds
    pairs at that Jaccard with probability 0.999; the engine's default 0.5 when None).
    ``lower_threshold`` is the CLI's ``--lower-threshold``: a Jaccard below ``threshold``
    whose permissive banding's further candidates are a stratum of their own, ``"off"`` (or
    False) for two strata, or None for the engine's default (T − 0.2 when T ≥ 0.7, else
    off).
    ``num_perm``, ``seed``, ``shingle``, ``profile`` and ``family`` are ``truth``'s, with its
    defaults; the seed drives both the MinHash family and the draws. ``partitions`` is
    (bucket partitions, scoring partitions), the session's shuffle partitions by default.
    Raises ValueError when the others are too rare to draw and too many to list (as the
    CLI refuses).
    """
    from pyspark.sql import functions as F

    if pairs < 1:
        raise ValueError(f"the sample size must be at least 1, got {pairs}")
    (bands, rows, threshold), lower = _strata_levels(num_perm, threshold, lower_threshold)
    sketch = _Sketch(num_perm, seed, shingle, profile, family, bands, rows)
    lower_sketch = None if lower is None else sketch._replace(bands=lower[0], rows=lower[1])
    _check_options(sketch, 0.0, None)
    hashed = _hash(df, text_col, id_col, sketch, lower=lower_sketch)
    documents = hashed.count()
    population = documents * (documents - 1) // 2
    whole_corpus = population <= pairs
    candidate_budget = pairs if whole_corpus else pairs // 2
    candidate_count, candidate_sims = _sample_candidates(
        hashed, sketch, candidate_budget, seed ^ _SAMPLE_SALT, partitions
    )
    lower_count, lower_sims = 0, np.zeros(0, np.float64)
    if lower_sketch is not None:
        # A quarter of what is left (M/8 when the candidates are drawn), as the CLI's.
        left = pairs - len(candidate_sims)
        lower_budget = left if whole_corpus else left // 4
        lower_hashed = hashed.select("_row", "_id", "_text", F.col("lower_keys").alias("keys"))
        lower_count, lower_sims = _sample_candidates(
            lower_hashed,
            lower_sketch,
            lower_budget,
            seed ^ _SAMPLE_SALT ^ 1,
            partitions,
            exclude=sketch,
        )
    other_count = population - candidate_count - lower_count
    other_budget = pairs - len(candidate_sims) - len(lower_sims)
    rare = other_count * _MAX_REJECTIONS_PER_DRAW < population
    if other_count <= other_budget or rare:
        if other_count > _MAX_OTHERS_LISTED or population > _MAX_PAIRS_WALKED:
            also = (
                ""
                if lower_sketch is None
                else f" and the lower {lower_sketch.bands}x{lower_sketch.rows}"
            )
            raise ValueError(
                f"only {other_count:,} of the {population:,} pairs lie outside the candidates "
                f"of the permissive {bands}x{rows} banding{also}: too few to find by drawing "
                "pairs, and listing them would walk every pair of the corpus. Raise "
                "--threshold (a sharper banding has fewer candidates)"
            )
        other_sims = _list_others(hashed, sketch, lower_sketch)
    else:
        other_sims = _draw_others(
            hashed,
            sketch,
            lower_sketch,
            documents,
            population,
            other_count,
            other_budget,
            seed ^ _SAMPLE_SALT,
        )
    hashed.unpersist()
    return StratifiedSample(
        bands,
        rows,
        threshold,
        documents,
        candidate_count,
        candidate_sims,
        other_count,
        other_sims,
        family,
        *(
            (lower_sketch.bands, lower_sketch.rows, lower[2], lower_count, lower_sims)
            if lower_sketch is not None
            else ()
        ),
    )


def _strata_levels(num_perm, threshold, lower_threshold):
    """The engine's strata levels (:func:`estimate_pairs`' ``threshold`` and
    ``lower_threshold``): ``((bands, rows, T), (bands, rows, T2) or None)``."""
    if lower_threshold is False or (
        isinstance(lower_threshold, str) and lower_threshold.lower() == "off"
    ):
        return _kernels.strata_levels(num_perm, threshold, None, default_lower=False)
    if lower_threshold is None:
        return _kernels.strata_levels(num_perm, threshold)
    if isinstance(lower_threshold, (bool, str)) or not 0.0 < lower_threshold < 1.0:
        raise ValueError(
            "lower_threshold must be a Jaccard between 0 and 1 (below the strata threshold), "
            f'"off", or None for the default, got {lower_threshold!r}'
        )
    return _kernels.strata_levels(num_perm, threshold, float(lower_threshold))


def _sample_candidates(hashed, sketch, size, sample_seed, partitions, exclude=None):
    """(exact number of distinct candidates, Jaccards of a uniform sample of ``size`` of them
    without replacement, or of all of them when they are fewer, in input order of the pairs).
    With ``exclude`` (a :class:`_Sketch`: the first strata level, when ``sketch`` is the
    lower one's) the candidates that share a bucket of its banding are left out.
    """
    from pyspark.sql import functions as F

    documents, owned_cols, _ = _scoring_documents(
        hashed, sketch, max_bucket=None, partitions=partitions
    )
    names = ["a", "b", "jaccard", "priority", "candidates"]
    excluded = (
        {} if exclude is None else dict(exclude_bands=exclude.bands, exclude_rows=exclude.rows)
    )

    def sample_partition(batches):
        table = _whole_partition(batches)
        if table is None:
            return
        doc_row = table.column("_row").to_numpy()
        first, second, jaccard, priority, candidates = _kernels.sample_documents(
            doc_row,
            _buffers(table.column("_text")),
            _mask_array(table, owned_cols),
            size=size,
            sample_seed=sample_seed,
            **sketch.kernel_options(),
            **excluded,
        )
        yield from _batches(
            [
                pa.array(doc_row[first]),
                pa.array(doc_row[second]),
                pa.array(jaccard),
                pa.array(priority),
                pa.array(np.zeros(len(first), np.int64)),
            ],
            names,
        )
        # The partition's candidate count, on a row of its own (a = -1).
        yield pa.RecordBatch.from_arrays(
            [
                pa.array([-1], pa.int64()),
                pa.array([-1], pa.int64()),
                pa.array([0.0]),
                pa.array([0], pa.int64()),
                pa.array([candidates], pa.int64()),
            ],
            names,
        )

    from pyspark import StorageLevel

    sampled = documents.mapInArrow(
        sample_partition, "a long, b long, jaccard double, priority long, candidates long"
    ).persist(StorageLevel.MEMORY_AND_DISK)
    count = sampled.agg(F.sum("candidates")).first()[0] or 0
    kept = (
        sampled.where(F.col("a") >= 0)
        .orderBy("priority")
        .limit(size)
        .select("a", "b", "jaccard")
        .toArrow()
    )
    sampled.unpersist()
    # Input order of the pairs, as the CLI lists a stratum it takes whole.
    order = np.lexsort((kept.column("b").to_numpy(), kept.column("a").to_numpy()))
    return count, kept.column("jaccard").to_numpy()[order]


def _pair_jaccards(pairs, sketch, lower=None):
    """A mapInArrow of rows ``draw, a, b, keys_a, keys_b, text_a, text_b`` (and with
    ``lower``, the lower banding's sketch, ``lower_keys_a, lower_keys_b``) to ``draw, a, b,
    jaccard``: the rows whose two documents share no bucket of the banding, nor of the lower
    one (no equal band key; a document without shingles has no keys and shares none), with
    their exact Jaccard."""
    options = dict(num_perm=1, seed=1, shingle=sketch.shingle, profile=sketch.profile)
    keyed = [("", sketch.bands)] + ([("lower_", lower.bands)] if lower is not None else [])

    def keys_of(column, bands):
        offsets, data = _buffers(column)
        keys = np.zeros((len(offsets) - 1, bands), np.uint64)
        present = offsets[1:] > offsets[:-1]
        # Every present value is `bands` keys, and the values are contiguous.
        packed = np.frombuffer(data[offsets[0] : offsets[-1]].tobytes(), "<u8")
        keys[present] = packed.reshape(-1, bands)
        return keys, present

    def batches(parts):
        for batch in parts:
            if batch.num_rows == 0:
                continue
            collide = np.zeros(batch.num_rows, bool)
            for prefix, bands in keyed:
                keys_a, has_a = keys_of(batch.column(f"{prefix}keys_a"), bands)
                keys_b, has_b = keys_of(batch.column(f"{prefix}keys_b"), bands)
                collide |= has_a & has_b & (keys_a == keys_b).any(axis=1)
            keep = pa.array(np.flatnonzero(~collide))
            if len(keep) == 0:
                continue
            values = _kernels.text_jaccards(
                _buffers(batch.column("text_a").take(keep)),
                _buffers(batch.column("text_b").take(keep)),
                **options,
            )
            yield pa.RecordBatch.from_arrays(
                [*(batch.column(c).take(keep) for c in ("draw", "a", "b")), pa.array(values)],
                names=["draw", "a", "b", "jaccard"],
            )

    return pairs.mapInArrow(batches, "draw long, a long, b long, jaccard double")


def _with_documents(pairs, hashed, lower=False):
    """``pairs`` (``draw, a, b``: ``_row`` values) with both documents' keys and texts, and
    with ``lower`` their lower banding's keys."""
    from pyspark.sql import functions as F

    keys = ["keys", "lower_keys"] if lower else ["keys"]
    docs = hashed.select("_row", *keys, "_text")

    def side(name):
        return docs.select(
            F.col("_row").alias(name),
            *(F.col(k).alias(f"{k}_{name}") for k in keys),
            F.col("_text").alias(f"text_{name}"),
        )

    return (
        pairs.join(side("a"), "a")
        .join(side("b"), "b")
        .select(
            "draw", "a", "b", *(f"{k}_{s}" for k in keys for s in "ab"), "text_a", "text_b"
        )
    )


def _list_others(hashed, sketch, lower=None):
    """The Jaccards of every pair outside the candidates (of both levels with ``lower``), in
    the CLI's walk order (by the later document, then the earlier; ``_row`` is in input
    order): only for corpora whose pairs can all be walked."""
    from pyspark.sql import functions as F

    rows = hashed.select(F.col("_row").alias("a"))
    pairs = (
        rows.crossJoin(rows.select(F.col("a").alias("b")))
        .where(F.col("a") < F.col("b"))
        .withColumn("draw", F.lit(0).cast("long"))
    )
    found = (
        _pair_jaccards(_with_documents(pairs, hashed, lower is not None), sketch, lower)
        .orderBy("b", "a")
        .toArrow()
    )
    return found.column("jaccard").to_numpy()


def _draw_others(hashed, sketch, lower, documents, population, others, budget, sample_seed):
    """``budget`` Jaccards of uniform pairs outside the candidates (of both levels when
    ``lower`` is the lower level's sketch), drawn with replacement as the CLI draws them:
    uniform pairs of the corpus, the ones that share a bucket (of either banding) rejected,
    the first ``budget`` kept in draw order. Draws are made in rounds sized from the share of
    others among all pairs."""
    spark = hashed.sparkSession
    starts = sorted(_partition_starts(hashed).items(), key=lambda kv: kv[1])
    first_position = np.array([s for _, s in starts], np.int64)
    partition_of = np.array([p for p, _ in starts], np.int64)

    def row_of(position):
        k = np.searchsorted(first_position, position, side="right") - 1
        return (partition_of[k] << _PARTITION_SHIFT) + (position - first_position[k])

    rng = np.random.Generator(np.random.PCG64(sample_seed))
    share = others / population
    kept = np.zeros(0, np.float64)
    drawn = 0
    while len(kept) < budget:
        wanted = budget - len(kept)
        count = int(math.ceil(wanted / share * 1.1)) + 64
        a = rng.integers(0, documents, count)
        b = rng.integers(0, documents - 1, count)
        b = b + (b >= a)
        low, high = np.minimum(a, b), np.maximum(a, b)
        draws = pa.table(
            {
                "draw": pa.array(np.arange(drawn, drawn + count, dtype=np.int64)),
                "a": pa.array(row_of(low)),
                "b": pa.array(row_of(high)),
            }
        )
        drawn += count
        found = (
            _pair_jaccards(
                _with_documents(spark.createDataFrame(draws), hashed, lower is not None),
                sketch,
                lower,
            )
            .orderBy("draw")
            .toArrow()
        )
        kept = np.concatenate([kept, found.column("jaccard").to_numpy()[:wanted]])
    return kept


def write_sample(sample, uri, spark=None):
    """Writes ``sample`` to ``uri`` as ``lshscope truth --estimate-pairs -o`` writes its
    file: CSV or JSON Lines by the name, ``.gz``/``.zst``/``.bz2``/``.xz`` compressed, replaced
    atomically. A path or ``file://`` URI on the driver's disk is written by the engine; any
    other filesystem Spark knows (HDFS, object stores) gets the uncompressed bytes through
    Hadoop, written to a temporary name and renamed."""
    from lshscope.spark.paths import parse_location

    location = parse_location(uri)
    fields = dict(
        bands=sample.bands,
        rows=sample.rows,
        threshold=sample.threshold,
        candidates=np.ascontiguousarray(sample.candidates, np.float64),
        candidate_pairs=sample.candidate_pairs,
        others=np.ascontiguousarray(sample.others, np.float64),
        other_pairs=sample.other_pairs,
        family=sample.family,
    )
    if sample.lower_bands is not None:
        fields.update(
            lower_bands=sample.lower_bands,
            lower_rows=sample.lower_rows,
            lower_threshold=sample.lower_threshold,
            lower=np.ascontiguousarray(sample.lower_candidates, np.float64),
            lower_pairs=sample.lower_candidate_pairs,
        )
    from lshscope.spark.paths import _Files

    # A bare path is on Spark's default filesystem, which may be HDFS.
    local = location.scheme in (None, "file") if spark is None else _Files(spark).is_local(location)
    if local:
        _kernels.write_stratified_sample(location.path if location.scheme else uri, **fields)
        return
    name = location.name.lower()
    if name.endswith((".gz", ".zst", ".bz2", ".xz")):
        raise ValueError(
            f"{uri}: compressed samples are written on the driver's disk only; drop the "
            "compression suffix or write to a local path"
        )
    fmt = "jsonl" if name.endswith((".jsonl", ".ndjson")) else "csv"
    data = _kernels.write_stratified_sample(None, format=fmt, **fields)
    jvm = spark._jvm
    path = jvm.org.apache.hadoop.fs.Path(uri)
    fs = path.getFileSystem(spark._jsc.hadoopConfiguration())
    temporary = jvm.org.apache.hadoop.fs.Path(path.getParent(), "." + path.getName() + ".partial")
    stream = fs.create(temporary, True)
    try:
        stream.write(bytearray(data))
    finally:
        stream.close()
    if fs.exists(path):
        fs.delete(path, False)
    if not fs.rename(temporary, path):
        fs.delete(temporary, False)
        raise ValueError(f"{uri}: could not move the sample into place")
