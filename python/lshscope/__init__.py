"""lshscope for Python: MinHash signatures, LSH scans and an online index.

Every number comes from the lshscope Rust engine, so it equals what the ``lshscope`` command
line computes with the same options (``num_perm``, ``seed``, ``shingle``).

>>> import lshscope
>>> a = lshscope.MinHash("the quick brown fox jumps over the lazy dog")
>>> b = lshscope.MinHash("the quick brown fox jumped over the lazy dog")
>>> 0.4 < a.jaccard(b) < 0.9
True
>>> pairs = lshscope.scan(["one text here", "one text here!", "another"], bands=16, rows=8)
>>> [(p[0], p[1]) for p in pairs]
[('1', '2')]
>>> index = lshscope.LSHIndex(bands=16, rows=8)
>>> index.insert("doc-1", "one text here")
>>> [key for key, *_ in index.query("one text here!")]
['doc-1']
"""

from ._lshscope import LSHIndex, MinHash, signatures
from ._lshscope import dedup as _dedup
from ._lshscope import scan as _scan

__all__ = [
    "MinHash",
    "LSHIndex",
    "signatures",
    "scan",
    "dedup",
    "PAIR_COLUMNS",
    "CLUSTER_COLUMNS",
]

#: The columns of a pair, as ``lshscope scan`` writes them.
PAIR_COLUMNS = ("id_a", "id_b", "jaccard", "estimate", "bands_hit")

#: The columns of a clusters row, as ``lshscope dedup`` writes them.
CLUSTER_COLUMNS = ("id", "cluster", "size", "keep", "jaccard")


def scan(
    texts,
    ids=None,
    *,
    bands=20,
    rows=5,
    threshold=0.0,
    num_perm=128,
    seed=1,
    shingle=None,
    profile=None,
    max_bucket=None,
    arrow=False,
    family="classic",
):
    """The candidate pairs ``lshscope scan`` finds among ``texts``, verified.

    Returns a list of ``(id_a, id_b, jaccard, estimate, bands_hit)`` tuples sorted by document
    (ids default to the 1-based positions, as the command line numbers rows), or with
    ``arrow=True`` a ``pyarrow.Table`` with those columns. Pairs below ``threshold`` (exact
    Jaccard) are dropped. ``profile`` (``"datatrove"``, ``"text-dedup"``, ``"nemo"``,
    ``"datasketch"``, ``"spark"``) normalizes and shingles as that tool does, as
    ``lshscope scan --profile`` does; ``shingle`` then defaults to the tool's own.
    ``family`` is the sketch family of ``lshscope scan --family``: ``"classic"`` (the
    default), ``"one-permutation"`` or ``"c-minhash"``.
    """
    if arrow:
        # Before the work: without pyarrow the whole scan would run only to fail at the end.
        try:
            import pyarrow as pa
        except ImportError as e:
            raise ImportError(
                "scan(..., arrow=True) returns a pyarrow.Table and needs pyarrow: "
                "pip install 'lshscope[arrow]' (or pyarrow), or pass arrow=False for a list of "
                "tuples"
            ) from e
    # texts go to the engine as given: it takes any iterable of str and refuses a bare str.
    ids = None if ids is None else [str(i) for i in ids]
    found = _scan(
        texts,
        ids,
        bands=bands,
        rows=rows,
        threshold=threshold,
        num_perm=num_perm,
        seed=seed,
        shingle=shingle,
        profile=profile,
        max_bucket=max_bucket,
        family=family,
        columns=arrow,
    )
    if not arrow:
        return found

    # Columns straight from the engine: no Python object per pair.
    a, b, jaccard, estimate, bands_hit = found
    if ids is not None:
        names = pa.array(ids, pa.string())
        id_a, id_b = names.take(pa.array(a)), names.take(pa.array(b))
    else:
        import pyarrow.compute as pc

        # The 1-based positions, as the command line numbers rows.
        id_a, id_b = (pc.cast(pc.add(pa.array(x), 1), pa.string()) for x in (a, b))
    return pa.table(
        {
            "id_a": id_a,
            "id_b": id_b,
            "jaccard": pa.array(jaccard),
            "estimate": pa.array(estimate),
            "bands_hit": pa.array(bands_hit),
        }
    )


def dedup(
    texts,
    ids=None,
    *,
    threshold,
    bands=20,
    rows=5,
    num_perm=128,
    seed=1,
    shingle=None,
    profile=None,
    max_bucket=None,
    family="classic",
    clustering="center",
    keep="first",
    unverified=False,
):
    """The clusters ``lshscope dedup`` finds among ``texts``, value for value.

    Returns a list of ``(id, cluster, size, keep, jaccard)`` tuples, one per document in a
    cluster, in input order: the document's id (ids default to the 1-based positions), the id
    of the document kept for its cluster, the cluster's size, whether this is the kept
    document, and its exact Jaccard with the kept document. The ids to remove are those whose
    ``keep`` is false.

    ``clustering="center"`` (the default) takes documents in keep order and removes one only
    when a document already kept is a verified pair at ``threshold`` or above with it,
    assigning it to the most similar one: every removal is a near-copy of what is kept.
    ``clustering="components"`` keeps one document per connected component of the verified
    pairs, as text-dedup, datatrove and NeMo Curator do; a chain of pairs can then remove
    documents below ``threshold`` against the kept one. ``unverified=True`` joins every
    candidate (components only).

    ``keep`` is ``"first"`` (input order), ``"longest"`` (the longest text, the first of equal
    lengths), or a sequence of numbers, one per text (a quality score: the highest is kept
    first, ties in input order), as ``lshscope dedup --keep-by COLUMN`` reads a column.
    """
    ids = None if ids is None else [str(i) for i in ids]
    if isinstance(keep, str):
        rule, scores = keep, None
    else:
        rule, scores = "highest", [float(s) for s in keep]
    return _dedup(
        texts,
        ids,
        threshold=threshold,
        bands=bands,
        rows=rows,
        num_perm=num_perm,
        seed=seed,
        shingle=shingle,
        profile=profile,
        max_bucket=max_bucket,
        family=family,
        clustering=clustering,
        keep=rule,
        scores=scores,
        unverified=unverified,
    )
