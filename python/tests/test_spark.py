"""lshscope.spark against the lshscope command line, in Spark local mode: the same pairs as
`lshscope scan`, value for value and in the same order, and the same clusters as
`lshscope dedup`, on the sample corpus and on a generated template-heavy one."""

import csv
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from test_lshscope import SAMPLE, cli

if os.environ.get("LSHSCOPE_REQUIRE_SPARK"):
    import pyspark  # noqa: F401  (CI installs it: a missing pyspark is a failure there)
else:
    pytest.importorskip("pyspark")

from pyspark.sql import SparkSession  # noqa: E402

import lshscope.spark as lspark  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    # Workers run this interpreter, the one with lshscope installed.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("lshscope-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "3")
        # Small batches, so a partition's documents arrive in several Arrow batches.
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "700")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="module")
def templated(tmp_path_factory):
    """A generated corpus shaped like real dumps (template families, verbatim copies, quotes,
    non-ASCII), as CSV and as Parquet written in several row groups."""
    d = tmp_path_factory.mktemp("templated")
    path = d / "t.csv"
    subprocess.run(
        [cli(), "gen", "--templates", "-n", "2500", "--seed", "7", "--identical-group", "60",
         "--template-family", "250", "--max-family", "400", "-q", "-o", str(path)],
        check=True,
    )
    table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(
        column_types={"id": pa.string(), "text": pa.string()}))
    pq.write_table(table, d / "t.parquet", row_group_size=600)
    return d


def cli_pairs(input_path, out, *args):
    subprocess.run([cli(), "scan", str(input_path), "-q", "-o", str(out), *args], check=True)
    return [tuple(r.values()) for r in pq.read_table(out).to_pylist()]


def rows(df):
    return [tuple(r) for r in df.collect()]


def test_pairs_equal_scan_on_the_sample(spark, tmp_path):
    expected = cli_pairs(SAMPLE, tmp_path / "cli.parquet")
    got = rows(lspark.dedup(lspark.read_corpus(spark, str(SAMPLE))))
    assert len(got) > 1000
    assert got == expected


def test_pairs_equal_scan_with_cap_profile_and_threshold(spark, templated, tmp_path):
    options = dict(bands=16, rows=4, num_perm=96, seed=3, threshold=0.3, max_bucket=40)
    expected = cli_pairs(
        templated / "t.parquet", tmp_path / "cli.parquet", "-b", "16", "-r", "4", "-k", "96",
        "--seed", "3", "-t", "0.3", "--max-bucket", "40", "--profile", "datatrove",
    )
    df = spark.read.parquet(str(templated / "t.parquet"))
    got = rows(lspark.dedup(df, profile="datatrove", **options))
    assert len(got) > 500
    assert got == expected
    # The cap binds: the same banding without it finds more pairs.
    uncapped = lspark.dedup(df, profile="datatrove", **{**options, "max_bucket": None})
    assert uncapped.count() > len(got)


def test_clusters_equal_dedup(spark, templated, tmp_path):
    out = tmp_path / "clusters.parquet"
    subprocess.run(
        [cli(), "dedup", str(templated / "t.csv"), "-q", "-b", "12", "-r", "6", "-t", "0.6",
         "-o", str(out)],
        check=True,
    )
    expected = [tuple(r.values()) for r in pq.read_table(out).to_pylist()]
    corpus = lspark.read_corpus(spark, str(templated / "t.csv"))
    pairs = lspark.dedup(corpus, bands=12, rows=6, threshold=0.6)
    got = rows(lspark.clusters(pairs, corpus))
    assert len(got) > 300 and max(size for _, _, size, _ in got) >= 60
    assert got == expected
    # Without the documents the kept one is the smallest id: the same clusters.
    by_id = rows(lspark.clusters(pairs))
    assert sorted(_partition(by_id)) == sorted(_partition(got))


def _partition(cluster_rows):
    groups = {}
    for doc, cluster, _, _ in cluster_rows:
        groups.setdefault(cluster, set()).add(doc)
    return [tuple(sorted(g)) for g in groups.values()]


def test_the_job_reads_tsv_as_the_cli_does(templated, tmp_path):
    """`python -m lshscope.spark` end to end: a TSV whose texts start with quotes (no quoting
    in TSV), row numbers as ids, pairs and clusters written as Parquet part files."""
    source = [r["text"] for r in csv.DictReader(open(templated / "t.csv", encoding="utf-8"))]
    tsv = tmp_path / "docs.tsv"
    tsv.write_text(
        "text\n" + "".join(t.replace("\t", " ") + "\n" for t in source[:1500]), encoding="utf-8"
    )
    assert any(t.startswith('"') for t in source[:1500])
    out, clusters_dir = tmp_path / "pairs", tmp_path / "clusters"
    job = subprocess.run(
        [sys.executable, "-m", "lshscope.spark", str(tsv), str(out), "-b", "10", "-r", "5",
         "-t", "0.5", "--clusters", str(clusters_dir), "--master", "local[2]"],
        capture_output=True, text=True,
    )
    assert job.returncode == 0, job.stderr
    got = [tuple(r.values()) for r in pq.read_table(out).to_pylist()]
    assert got == cli_pairs(tsv, tmp_path / "cli.parquet", "-b", "10", "-r", "5", "-t", "0.5")
    subprocess.run(
        [cli(), "dedup", str(tsv), "-q", "-b", "10", "-r", "5", "-t", "0.5",
         "-o", str(tmp_path / "cli-clusters.parquet")],
        check=True,
    )
    clustered = [tuple(r.values()) for r in pq.read_table(clusters_dir).to_pylist()]
    expected = pq.read_table(tmp_path / "cli-clusters.parquet").to_pylist()
    assert clustered == [tuple(r.values()) for r in expected]
    # Existing output is never overwritten without --overwrite.
    again = subprocess.run(
        [sys.executable, "-m", "lshscope.spark", str(tsv), str(out)],
        capture_output=True, text=True,
    )
    assert again.returncode == 2 and "exists" in again.stderr


def test_bad_input_is_refused_with_its_reason(spark):
    df = spark.createDataFrame([("a", "one text"), (None, "another text")], "id string, text string")
    with pytest.raises(Exception, match="id column `id` is null"):
        lspark.dedup(df).collect()
    with pytest.raises(ValueError, match="no text column `body`"):
        lspark.dedup(df, text_col="body")
    with pytest.raises(ValueError, match="num_perm"):
        lspark.dedup(df, num_perm=0)
    with pytest.raises(ValueError):
        lspark.dedup(df, bands=40, rows=5)
