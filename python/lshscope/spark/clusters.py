"""The clusters: connected components in Spark SQL, center clustering per component, as
``lshscope dedup`` writes them."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

from lshscope import _lshscope as _kernels
from lshscope.spark._arrow import _batches, _buffers, _whole_partition
from lshscope.spark.pairs import _documents, _row_numbers

#: The columns of a clusters table, as ``lshscope dedup`` writes them.
CLUSTER_COLUMNS = ("id", "cluster", "size", "keep", "jaccard")


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
    keep_by=None,
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
    ties in input order (``keep="longest"``, lengths in characters), or the highest value of
    the numeric column ``keep_by`` of ``documents`` first, ties in input order (as ``lshscope
    dedup --keep-by``; it overrides ``keep``), and rows come in input order; without it, the
    smallest id is first. ``threshold`` keeps only pairs with an exact
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
    if keep_by is not None:
        if documents is None:
            raise ValueError("keep_by reads a column of the documents: pass documents")
        if keep_by not in documents.columns:
            raise ValueError(
                f"no column `{keep_by}` to keep by (columns: {', '.join(documents.columns)})"
            )
        keep = "by"
    if threshold is not None:
        pairs = pairs.where(F.col("jaccard") >= threshold)
    with_texts = documents is not None and (clustering == "components" or keep == "longest")
    if documents is not None:
        extra = [_keep_by_value(keep_by, id_col)] if keep == "by" else []
        if with_texts:
            docs, _ = _documents(documents, text_col, id_col, extra)
        else:
            docs, _ = _documents(
                documents.withColumn("_no_text", F.lit("")), "_no_text", id_col, extra
            )
        if "_id" not in docs.columns:
            docs = docs.withColumn("_id", _row_numbers(docs))
        # The first occurrence of each id ranks it (the CLI warns about repeated ids and
        # keeps their first position for ordering). Keep order is ascending (key, rank).
        if keep == "by":
            order = _descending_keys(
                docs.groupBy(F.col("_id").alias("id")).agg(
                    F.min("_row").alias("rank"), F.min_by("_keep_by", "_row").alias("value")
                )
            )
        else:
            key = (
                -F.min_by(F.length("_text"), "_row")
                if keep == "longest"
                else F.lit(0).cast("long")
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


def _keep_by_value(column, id_col):
    """The column ``_keep_by``: ``column`` as a number, the job stopped with a message naming
    the row's id (or the column) when a value is missing or not a number."""
    from pyspark.sql import functions as F

    raw = F.trim(F.col(column).cast("string"))
    value = raw.try_cast("double")
    where = (
        F.concat(F.lit("the row of id "), F.col(id_col).cast("string"))
        if id_col is not None
        else F.lit("a row")
    )
    bad = value.isNull() | F.isnan(value) | (F.abs(value) == float("inf"))
    return F.when(
        bad,
        F.raise_error(
            F.concat(
                where,
                F.lit(f", column `{column}`: "),
                F.when(
                    F.coalesce(raw, F.lit("")) == "", F.lit("no value")
                ).otherwise(F.concat(F.lit("`"), raw, F.lit("` is not a number"))),
                F.lit("; keeping by a column needs a number on every row (a score where higher "
                      "is kept first): fill it in, or choose another column"),
            )
        ),
    ).otherwise(value).alias("_keep_by")


def _descending_keys(order):
    """``order`` (``id, rank, value``) with ``key``: a long that sorts the values highest
    first (the double's bits made order-preserving and reversed; -0 and 0 are one value, as
    the CLI's score keys)."""
    flip = np.int64(0x7FFF_FFFF_FFFF_FFFF)

    def keyed(batches):
        for batch in batches:
            value = batch.column("value").to_numpy(zero_copy_only=False).astype(np.float64)
            bits = np.where(value == 0.0, 0.0, value).view(np.int64)
            ascending = np.where(bits < 0, bits ^ flip, bits)
            yield pa.RecordBatch.from_arrays(
                [batch.column("id"), batch.column("rank"), pa.array(~ascending)],
                names=["id", "rank", "key"],
            )

    return order.mapInArrow(keyed, "id string, rank long, key long")


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
