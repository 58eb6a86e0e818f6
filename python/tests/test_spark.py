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
        .config("spark.sql.shuffle.partitions", "2")
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


def _partition(cluster_rows):
    groups = {}
    for doc, cluster, _, _ in cluster_rows:
        groups.setdefault(cluster, set()).add(doc)
    return sorted(tuple(sorted(g)) for g in groups.values())


def test_the_job_equals_scan_and_dedup_on_tsv(spark, templated, tmp_path):
    """The job of `python -m lshscope.spark` (run in this session: a new JVM per test is
    slow) on a TSV whose texts start with quotes (no quoting in TSV), row numbers as ids:
    its Parquet pairs equal `lshscope scan`'s and its clusters `lshscope dedup`'s."""
    with open(templated / "t.csv", newline="", encoding="utf-8") as f:
        source = [r["text"] for r in csv.DictReader(f)]
    tsv = tmp_path / "docs.tsv"
    tsv.write_text("text\n" + "".join(t.replace("\t", " ") + "\n" for t in source), "utf-8")
    assert any(t.startswith('"') for t in source)
    out, clusters_dir = tmp_path / "pairs", tmp_path / "clusters"
    banding = ["-b", "12", "-r", "6", "-t", "0.6"]
    assert lspark.main([str(tsv), str(out), *banding, "--clusters", str(clusters_dir)]) == 0
    got = [tuple(r.values()) for r in pq.read_table(out).to_pylist()]
    assert got == cli_pairs(tsv, tmp_path / "cli.parquet", *banding)
    subprocess.run(
        [cli(), "dedup", str(tsv), "-q", *banding, "-o", str(tmp_path / "cli-clusters.parquet")],
        check=True,
    )
    clustered = [tuple(r.values()) for r in pq.read_table(clusters_dir).to_pylist()]
    expected = [tuple(r.values()) for r in pq.read_table(tmp_path / "cli-clusters.parquet").to_pylist()]
    assert len(clustered) > 300 and max(size for _, _, size, _ in clustered) >= 60
    assert clustered == expected
    # Without the documents the kept one is the smallest id: the same clusters.
    by_id = rows(lspark.clusters(spark.read.parquet(str(out))))
    assert _partition(by_id) == _partition(clustered)


def test_the_entry_point_refuses_bad_options_before_starting_spark(tmp_path):
    def job(*args):
        return subprocess.run(
            [sys.executable, "-m", "lshscope.spark", *args], capture_output=True, text=True
        )

    assert "--max-bucket" in job("--help").stdout
    (tmp_path / "docs.csv").write_text("id,text\n1,a text\n")
    (tmp_path / "taken").mkdir()
    cases = [
        ([str(tmp_path / "docs.csv"), str(tmp_path / "out"), "-k", "0"], "num_perm"),
        ([str(tmp_path / "docs.csv"), str(tmp_path / "out"), "-b", "40"], "bands"),
        ([str(tmp_path / "docs.csv"), str(tmp_path / "taken")], "exists"),
        ([str(tmp_path / "missing.csv"), str(tmp_path / "out")], "no such file"),
        ([str(tmp_path / "docs.xyz"), str(tmp_path / "out")], "--format"),
    ]
    for args, message in cases:
        run = job(*args)
        assert run.returncode == 2 and message in run.stderr, (args, run.stderr)


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
