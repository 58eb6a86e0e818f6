"""lshscope.spark against the lshscope command line, in Spark local mode: the same pairs as
`lshscope scan`, value for value and in the same order, and the same clusters as
`lshscope dedup`, on the sample corpus and on a generated template-heavy one."""

import csv
import os
import re
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

import lshscope  # noqa: E402
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
    pairs = lspark.dedup(lspark.read_corpus(spark, str(SAMPLE)))
    # The documents' texts reach their scoring partitions through a sort-merge join: Spark
    # would broadcast them (the file is under its 10 MB threshold) and a 1 GB driver runs out
    # of heap building that table for 100,000 documents.
    plan = pairs._jdf.queryExecution().executedPlan().toString()
    assert "SortMergeJoin" in plan and "BroadcastHashJoin" not in plan, plan
    got = rows(pairs)
    assert len(got) > 1000
    assert got == expected


def test_each_scoring_partition_owner_has_a_partition_of_its_own(spark):
    """Buckets are scored in the partition their owner names; owners that shared a Spark
    partition would pile several partitions' work on one task."""
    from pyspark.sql import functions as F

    for partitions in (1, 7, 9, 64):
        values = lspark._partition_values(spark, partitions)
        df = spark.createDataFrame([(int(v),) for v in values], "v int")
        placed = dict(
            df.repartition(partitions, "v").select("v", F.spark_partition_id()).collect()
        )
        assert [placed[int(v)] for v in values] == list(range(partitions))


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


def test_pairs_equal_scan_in_another_sketch_family(spark, templated, tmp_path):
    args = ["-b", "16", "-r", "4", "-t", "0.3"]
    expected = cli_pairs(
        templated / "t.parquet", tmp_path / "cli.parquet", *args, "--family", "one-permutation"
    )
    df = spark.read.parquet(str(templated / "t.parquet"))
    got = rows(lspark.dedup(df, bands=16, rows=4, threshold=0.3, family="one-permutation"))
    assert len(got) > 500
    assert got == expected
    # Another family's rows make other candidates (the estimates differ at least).
    assert cli_pairs(templated / "t.parquet", tmp_path / "classic.parquet", *args) != expected


def test_pairs_equal_scan_with_more_bands_than_a_mask_word_holds(spark, templated, tmp_path):
    """A document's bands travel as masks of 64-bit words: at 80 bands the buckets of bands 64
    to 79 are rebuilt from a second word, and with a cap each pair's bands_hit counts the bands
    that emit it from both words."""
    args = ["-b", "80", "-r", "1", "-k", "80", "-t", "0.5"]
    df = spark.read.parquet(str(templated / "t.parquet"))
    for cap in (None, 8):
        expected = cli_pairs(
            templated / "t.parquet", tmp_path / f"cli{cap}.parquet", *args,
            *(["--max-bucket", str(cap)] if cap else []),
        )
        got = rows(lspark.dedup(df, bands=80, rows=1, num_perm=80, threshold=0.5, max_bucket=cap))
        assert len(got) > 500
        assert got == expected


def test_a_pair_cut_by_the_cap_is_scored_in_the_next_band_that_emits_it(spark, templated, tmp_path):
    """With --max-bucket a pair can be cut from its bucket in one band (both documents share
    it, one is past the cap) and emitted by a later band: the job scores it there, once, with
    the bands that emit it as its bands_hit, exactly as `lshscope scan` counts them."""
    bands, rows_, cap = 12, 3, 6
    table = pq.read_table(templated / "t.parquet").slice(0, 800)
    pq.write_table(table, tmp_path / "docs.parquet")
    # The premise, from the CLI's rules (buckets of equal band values, members in input order,
    # the first `cap` emit pairs): pairs of both kinds, in buckets over the cap.
    signatures = lshscope.signatures(table.column("text").to_pylist())
    agreeing, emitting, largest = {}, {}, 0
    for band in range(bands):
        buckets = {}
        for doc, sig in enumerate(signatures):
            buckets.setdefault(sig[band * rows_ : (band + 1) * rows_].tobytes(), []).append(doc)
        for members in buckets.values():
            largest = max(largest, len(members))
            for i, a in enumerate(members):
                for j, b in enumerate(members[i + 1 :], i + 1):
                    agreeing.setdefault((a, b), []).append(band)
                    if j < cap:
                        emitting.setdefault((a, b), []).append(band)
    assert largest > 3 * cap
    later = [p for p, e in emitting.items() if agreeing[p][0] < e[0]]
    assert len(later) > 20 and any(len(emitting[p]) > 1 for p in later)

    expected = cli_pairs(
        tmp_path / "docs.parquet", tmp_path / "cli.parquet", "-b", str(bands), "-r", str(rows_),
        "--max-bucket", str(cap),
    )
    got = rows(lspark.dedup(spark.read.parquet(str(tmp_path / "docs.parquet")), bands=bands,
                            rows=rows_, max_bucket=cap))
    assert got == expected
    assert len(got) == len(emitting)
    ids = table.column("id").to_pylist()
    hits = {(ids[a], ids[b]): len(e) for (a, b), e in emitting.items()}
    assert all(hits[(a, b)] == bands_hit for a, b, _, _, bands_hit in got)


def _partition(cluster_rows):
    groups = {}
    for doc, cluster, *_ in cluster_rows:
        groups.setdefault(cluster, set()).add(doc)
    return sorted(tuple(sorted(g)) for g in groups.values())


def summary_line(stderr, marker):
    """The line of a CLI or job summary that holds ``marker``, without the job's prefix."""
    lines = [line.removeprefix("lshscope.spark: ") for line in stderr.splitlines()]
    found = [line for line in lines if marker in line]
    assert len(found) == 1, stderr
    return found[0]


def test_the_job_equals_scan_and_dedup_on_tsv(spark, templated, tmp_path, capsys):
    """The job of `python -m lshscope.spark` (run in this session: a new JVM per test is
    slow) on a TSV whose texts start with quotes (no quoting in TSV), row numbers as ids, paths
    given as file:// URIs: its Parquet pairs equal `lshscope scan`'s and its clusters
    `lshscope dedup`'s, and its summary says what theirs say."""
    with open(templated / "t.csv", newline="", encoding="utf-8") as f:
        source = [r["text"] for r in csv.DictReader(f)]
    tsv = tmp_path / "docs.tsv"
    tsv.write_text("text\n" + "".join(t.replace("\t", " ") + "\n" for t in source), "utf-8")
    assert any(t.startswith('"') for t in source)
    out, clusters_dir = tmp_path / "pairs", tmp_path / "clusters"
    banding = ["-b", "12", "-r", "6", "-t", "0.6"]
    job = [tsv.as_uri(), out.as_uri(), *banding, "--clusters", clusters_dir.as_uri()]
    capsys.readouterr()
    assert lspark.main(job) == 0
    log = capsys.readouterr().err
    got = [tuple(r.values()) for r in pq.read_table(out).to_pylist()]
    assert got == cli_pairs(tsv, tmp_path / "cli.parquet", *banding)
    dedup = subprocess.run(
        [cli(), "dedup", str(tsv), *banding, "-o", str(tmp_path / "cli-clusters.parquet")],
        check=True, capture_output=True, text=True,
    )
    clustered = [tuple(r.values()) for r in pq.read_table(clusters_dir).to_pylist()]
    expected = [tuple(r.values()) for r in pq.read_table(tmp_path / "cli-clusters.parquet").to_pylist()]
    assert len(clustered) > 300 and max(size for _, _, size, *_ in clustered) >= 60
    assert clustered == expected

    # The summary: the CLI's counts, in the CLI's words.
    scan = subprocess.run([cli(), "scan", str(tsv), *banding, "-o", str(tmp_path / "s.parquet")],
                          check=True, capture_output=True, text=True)
    for marker in ("candidate pairs", "shingles, K ="):
        assert summary_line(log, marker) == summary_line(scan.stderr, marker)
    assert summary_line(log, "clusters hold") == summary_line(dedup.stderr, "clusters hold")
    phases = ("reading + shingling + MinHash signatures", "banding + verifying candidates",
              "writing pairs", "clusters", "writing clusters")
    for phase in phases:
        # A progress line when it starts, and its time in the summary.
        assert f"lshscope.spark: {phase} " in log, log
        assert re.search(rf"lshscope.spark:   {re.escape(phase)} +[0-9.]+ s", log), log
    # Partitions from the input: a few thousand documents make one file, not Spark's 200,
    # and the clusters' checkpoints (reliable, under the output) are gone at the end.
    assert len(list(out.glob("part-*"))) == 1
    assert len(list(clusters_dir.glob("part-*"))) == 1
    assert not (out / "_checkpoints").exists()


def _chained_csv(templated, folder, links=240):
    """The template corpus with an edit chain appended: each text of the chain replaces one
    more of 60 words of the first, so that neighbours are near copies and the ends share
    nothing, one link after the other in input (keep) order."""
    with open(templated / "t.csv", newline="", encoding="utf-8") as f:
        rows = [(r["id"], r["text"]) for r in csv.DictReader(f)]
    syllables = ["ka", "lo", "mi", "ner", "sta", "ru", "vel", "tor", "que", "dal", "fen", "gor"]
    words = [syllables[i % 12] + syllables[(i * 5) % 12] + syllables[(i * 7 + 3) % 12] + str(i)
             for i in range(60)]
    for link in range(links):
        rows.append((f"chain-{link}", " ".join(words)))
        words[link % 60] = f"edit{link}{syllables[link % 12]}"
    path = folder / "chained.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["id", "text"])
        out.writerows(rows)
    return path


def test_clusters_equal_dedup_for_both_methods_with_a_long_chain(spark, templated, tmp_path):
    """`clusters(..., clustering=, keep=)` equals `lshscope dedup --clustering --keep` value
    for value (ids, kept document, size, Jaccard to the kept one), on the template corpus
    with an edit chain of 240 links: components chain it into one cluster, center keeps a
    document every few links, decided in one task of its component."""
    path = _chained_csv(templated, tmp_path)
    banding = ["-b", "20", "-r", "5", "-t", "0.6"]
    corpus = lspark.read_corpus(spark, str(path))
    pairs = lspark.dedup(corpus, bands=20, rows=5, threshold=0.6).persist()
    found = {}
    for clustering, keep in [("center", "first"), ("components", "first"), ("center", "longest"),
                             ("components", "longest")]:
        out = tmp_path / f"{clustering}-{keep}.parquet"
        subprocess.run(
            [cli(), "dedup", str(path), *banding, "--clustering", clustering, "--keep", keep,
             "-q", "-o", str(out)],
            check=True,
        )
        expected = [tuple(r.values()) for r in pq.read_table(out).to_pylist()]
        got = rows(lspark.clusters(pairs, corpus, clustering=clustering, keep=keep))
        assert got == expected, (clustering, keep)
        found[clustering, keep] = got
    center, components = found["center", "first"], found["components", "first"]
    chain = [r for r in components if r[0].startswith("chain-")]
    assert len(chain) == 240 and {r[1] for r in chain} == {"chain-0"}
    assert min(r[4] for r in chain) < 0.3  # the far end shares little with the kept one
    centers = {r[1] for r in center if r[0].startswith("chain-")}
    assert len(centers) > 8  # one kept about every 18 links at t = 0.6
    assert all(r[4] >= 0.6 for r in center if not r[3])
    assert sum(not r[3] for r in center) < sum(not r[3] for r in components)
    # Without the documents the kept one is the smallest id: the same components.
    by_id = rows(lspark.clusters(pairs, clustering="components"))
    assert _partition(by_id) == _partition(components)
    pairs.unpersist()


def test_clusters_refuse_what_they_cannot_compute(spark):
    pairs = spark.createDataFrame([("a", "b", 0.9)], "id_a string, id_b string, jaccard double")
    with pytest.raises(ValueError, match="clustering must be"):
        lspark.clusters(pairs, clustering="greedy")
    with pytest.raises(ValueError, match="keep must be"):
        lspark.clusters(pairs, keep="shortest")
    with pytest.raises(ValueError, match="pass documents"):
        lspark.clusters(pairs, keep="longest")


def test_the_job_checks_paths_through_sparks_filesystems(spark, tmp_path, capsys):
    """Input and output URIs are checked by the session's Hadoop filesystems (the driver's
    disk may not hold them): errors say which path and what to do, with exit code 2."""
    docs = tmp_path / "docs.xyz"
    docs.write_text("id,text\n1,a text\n")
    (tmp_path / "taken").mkdir()
    cases = [
        ([(tmp_path / "missing.csv").as_uri(), str(tmp_path / "out")], "no such file"),
        ([f"{tmp_path.as_uri()}/nothing-*.csv", str(tmp_path / "out")], "no such file"),
        ([docs.as_uri(), str(tmp_path / "out")], "--format"),
        ([docs.as_uri(), (tmp_path / "taken").as_uri(), "--format", "csv"], "exists"),
        (["s3a://bucket/corpus.parquet", str(tmp_path / "out")], "hadoop-aws"),
        (["nosuchfs://host/corpus.parquet", str(tmp_path / "out")], "no filesystem for nosuchfs"),
    ]
    for args, message in cases:
        capsys.readouterr()
        assert lspark.main(args) == 2, args
        assert message in capsys.readouterr().err, (args, message)
    # A directory without a suffix is Parquet part files; a glob's matches are summed.
    parts = tmp_path / "corpus"
    parts.mkdir()
    pq.write_table(pa.table({"text": ["one", "two"]}), parts / "part-0.parquet")
    files = lspark._Files(spark)
    assert lspark._format_of(lspark.parse_location(parts.as_uri()), None, files) == "parquet"
    size = (parts / "part-0.parquet").stat().st_size
    assert files.sizes(lspark.parse_location(f"{parts.as_uri()}/part-*")) == (size, False)
    assert files.sizes(lspark.parse_location(str(parts)))[1] is True


def test_the_entry_point_refuses_bad_options_before_starting_spark(tmp_path):
    def job(*args):
        return subprocess.run(
            [sys.executable, "-m", "lshscope.spark", *args], capture_output=True, text=True
        )

    assert "--max-bucket" in job("--help").stdout
    (tmp_path / "docs.csv").write_text("id,text\n1,a text\n")
    docs, out = str(tmp_path / "docs.csv"), str(tmp_path / "out")
    cases = [
        ([docs, out, "-k", "0"], "num_perm"),
        ([docs, out, "-b", "40"], "bands"),
        ([docs, out, "--shuffle-partitions", "0"], "--shuffle-partitions"),
        ([docs, out, "--family", "oph"], "--family"),
        ([docs, out, "--max-bucket", "1"], "would keep no pair"),
        (["s3a:bucket/docs.csv", out], "needs `s3a://`"),
        ([docs, "gs:///out"], "BUCKET"),
        ([docs, out, "--checkpoint-dir", "file://host/tmp"], "names no host"),
    ]
    for args, message in cases:
        run = job(*args)
        assert run.returncode == 2 and message in run.stderr, (args, run.stderr)
        # Refused before a JVM started: Spark's logging never began.
        assert "log4j" not in run.stderr


def test_bad_input_is_refused_with_its_reason(spark):
    df = spark.createDataFrame([("a", "one text"), (None, "another text")], "id string, text string")
    with pytest.raises(Exception, match="id column `id` is null"):
        lspark.dedup(df).collect()
    with pytest.raises(ValueError, match="no text column `body`"):
        lspark.dedup(df, text_col="body")
    with pytest.raises(ValueError, match="num_perm"):
        lspark.dedup(df, num_perm=0)
    with pytest.raises(ValueError, match="unknown sketch family"):
        lspark.dedup(df, family="oph")
    with pytest.raises(ValueError):
        lspark.dedup(df, bands=40, rows=5)
