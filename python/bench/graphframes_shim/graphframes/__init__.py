"""The one piece of GraphFrames that text-dedup's Spark job calls, for machines where the
GraphFrames JVM package cannot be installed: its jar is published only to a Maven repository,
and the pip packages named graphframes carry no jar for Spark 4.

``GraphFrame(vertices, edges).connectedComponents()`` is GraphFrames 0.8.2's default
algorithm (the release text-dedup's instructions name), followed step for step with the same
DataFrame operations: ``org.graphframes.lib.ConnectedComponents`` at tag v0.8.2 (commit
1cd7abb0), alternating large-star and small-star rounds (Kiveris et al., "Connected Components
in MapReduce and Beyond", SoCC 2014) with its defaults: intermediate results persisted
MEMORY_AND_DISK, a Parquet checkpoint every 2 rounds in the context's checkpoint directory,
vertices of more than 1,000,000 neighbours joined by broadcast, and the rounds stopping when
the sum of the edges' source ids stops changing. Ids must be integral (text-dedup's are longs).
It returns the vertices' columns and ``component``, the smallest id of the vertex's component.
"""

import uuid

from pyspark import StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import functions as F
from pyspark.sql.types import DecimalType

BROADCAST_THRESHOLD = 1_000_000
CHECKPOINT_INTERVAL = 2
STORAGE = StorageLevel.MEMORY_AND_DISK


def _symmetrize(edges):
    both = F.explode(
        F.array(
            F.struct(F.col("src"), F.col("dst")),
            F.struct(F.col("dst").alias("src"), F.col("src").alias("dst")),
        )
    ).alias("_edge")
    return edges.select(both).select(
        F.col("_edge.src").alias("src"), F.col("_edge.dst").alias("dst")
    )


def _min_value(x, y):
    return F.when(x < y, x).otherwise(y)


def _max_value(x, y):
    return F.when(x > y, x).otherwise(y)


def _min_neighbours(edges):
    """Each vertex's smallest id among itself and its neighbours, and its neighbour count."""
    grouped = _symmetrize(edges).groupBy("src").agg(
        F.min("dst").alias("min_nbr"), F.count("*").alias("cnt")
    )
    return grouped.withColumn("min_nbr", _min_value(F.col("src"), F.col("min_nbr")))


def _skewed_join(edges, min_nbrs):
    """A plain join on `src`, with vertices above the broadcast threshold joined by broadcast."""
    hubs = min_nbrs.where(F.col("cnt") > BROADCAST_THRESHOLD).select("src").collect()
    hubs = [row.src for row in hubs]
    if not hubs:
        return edges.join(min_nbrs, "src")
    is_hub = F.col("src").isin(hubs)
    hashed = edges.where(~is_hub).join(min_nbrs.where(~is_hub), "src")
    broadcast = edges.where(is_hub).join(F.broadcast(min_nbrs.where(is_hub)), "src")
    return hashed.unionAll(broadcast)


class GraphFrame:
    def __init__(self, vertices: DataFrame, edges: DataFrame):
        self.vertices = vertices
        self.edges = edges

    def connectedComponents(self) -> DataFrame:  # noqa: N802 (GraphFrames' name)
        session = self.edges.sparkSession
        context = session.sparkContext
        checkpoint_root = context.getCheckpointDir()
        if checkpoint_root is None:
            raise OSError(
                "Checkpoint directory is not set. Please set it first using sc.setCheckpointDir()."
            )
        checkpoint_dir = f"{checkpoint_root}/connected-components-{uuid.uuid4().hex[-8:]}"
        jvm = context._jvm
        hadoop_conf = context._jsc.hadoopConfiguration()

        attributes = self.vertices.columns
        vertices = self.vertices.select(
            F.col("id").cast("long").alias("id"), F.struct(*attributes).alias("attr")
        )
        edges = (
            self.edges.select(F.col("src").cast("long"), F.col("dst").cast("long"))
            .where(F.col("src") != F.col("dst"))
            .select(
                _min_value(F.col("src"), F.col("dst")).alias("src"),
                _max_value(F.col("src"), F.col("dst")).alias("dst"),
            )
            .distinct()
            .persist(STORAGE)
        )
        edges.count()

        iteration, previous_sum = 1, None
        while True:
            # Large star: every strictly larger neighbour goes to the smallest one (self too).
            min_nbrs1 = _min_neighbours(edges).persist(STORAGE)
            edges = (
                _skewed_join(edges, min_nbrs1)
                .select(F.col("dst").alias("src"), F.col("min_nbr").alias("dst"))
                .distinct()
                .persist(STORAGE)
            )
            # Small star: every smaller neighbour goes to the smallest one, and so does the vertex.
            min_nbrs2 = (
                edges.groupBy("src")
                .agg(F.min("dst").alias("min_nbr"), F.count("*").alias("cnt"))
                .persist(STORAGE)
            )
            edges = (
                _skewed_join(edges, min_nbrs2)
                .select(F.col("min_nbr").alias("src"), F.col("dst"))
                .where(F.col("src") != F.col("dst"))
            )
            edges = edges.union(
                min_nbrs2.select(F.col("min_nbr").alias("src"), F.col("src").alias("dst"))
            ).distinct()
            if iteration % CHECKPOINT_INTERVAL == 0:
                out = f"{checkpoint_dir}/{iteration}"
                edges.write.parquet(out)
                edges = session.read.parquet(out)
                if iteration > CHECKPOINT_INTERVAL:
                    old = jvm.org.apache.hadoop.fs.Path(
                        f"{checkpoint_dir}/{iteration - CHECKPOINT_INTERVAL}"
                    )
                    old.getFileSystem(hadoop_conf).delete(old, True)
                jvm.System.gc()
            edges.persist(STORAGE)
            # Converged when the sum of source ids (as a 30-digit decimal) stops changing.
            current_sum = edges.select(F.sum(F.col("src").cast(DecimalType(20, 0)))).first()[0]
            if current_sum == previous_sum:
                break
            previous_sum = current_sum
            iteration += 1

        joined = vertices.join(edges, vertices["id"] == edges["dst"], "left_outer")
        component = F.when(edges["src"].isNull(), vertices["id"]).otherwise(edges["src"])
        return joined.select(vertices["attr"], component.alias("component")).select(
            "attr.*", "component"
        )
