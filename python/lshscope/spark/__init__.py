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
``python -m lshscope.spark estimate-pairs INPUT FILE`` samples pair similarities as ``lshscope
truth --estimate-pairs`` does (:func:`estimate_pairs`).

The package's modules: :mod:`.pairs` (hashing, banding, scoring), :mod:`.clusters`,
:mod:`.estimate`, :mod:`.paths` (URIs and readers) and :mod:`.job` (the command line).
"""

from __future__ import annotations

from lshscope.spark._arrow import _buffers  # noqa: F401
from lshscope.spark.clusters import CLUSTER_COLUMNS, clusters
from lshscope.spark.estimate import StratifiedSample, estimate_pairs, write_sample
from lshscope.spark.job import _files_for, _shuffle_partitions, main  # noqa: F401
from lshscope.spark.pairs import _partition_values, dedup  # noqa: F401
from lshscope.spark.paths import (  # noqa: F401
    Location,
    _Files,
    _format_from_name,
    _format_of,
    parse_location,
    read_corpus,
)

__all__ = [
    "dedup",
    "clusters",
    "read_corpus",
    "estimate_pairs",
    "write_sample",
    "StratifiedSample",
    "main",
    "CLUSTER_COLUMNS",
]
