"""The Spark job's estimate-pairs, --keep-by and header-less inputs, against the command line
(`lshscope truth --estimate-pairs`, `dedup --keep-by`, `scan --no-headers`), in Spark local
mode."""

import csv
import os
import random
import re
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from test_lshscope import cli

try:
    import pyspark  # noqa: F401  (CI installs it: a missing pyspark is a failure there)
except ImportError:
    if os.environ.get("LSHSCOPE_REQUIRE_SPARK"):
        raise
    pytest.importorskip("pyspark")

from pyspark.sql import SparkSession  # noqa: E402

import lshscope.spark as lspark  # noqa: E402
from lshscope.spark.estimate import estimate_pairs, write_sample  # noqa: E402


@pytest.fixture(scope="module")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("lshscope-tests-jobs")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "700")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def generate(path, n, seed, *extra):
    subprocess.run(
        [cli(), "gen", "--templates", "-n", str(n), "--seed", str(seed), "-q", "-o", str(path),
         *extra],
        check=True,
    )
    return path


def job(*args):
    """The job, run in this session (a JVM per test is slow); (exit code, its lines)."""
    return lspark.main([str(a) for a in args])


def sample_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


# --- estimate-pairs -------------------------------------------------------------------------


def test_estimate_pairs_equals_truth_when_the_strata_are_taken_whole(spark, tmp_path, capsys):
    """A corpus of at most M pairs is taken whole by both: the files are equal, byte for byte
    (same rows, order, weights, strata sizes and bandings), with the options passed through:
    the default design on both sides (a lower level at -t 0.8, none at 0.5), and two strata
    with `--lower-threshold off`."""
    corpus = generate(tmp_path / "small.csv", 300, 5, "--identical-group", "20")
    two = {"candidates", "others"}
    three = {"candidates", "lower_candidates", "others"}
    for options, strata in (
        (["-t", "0.5"], two),
        (["-t", "0.8", "--seed", "4", "--profile", "datatrove"], three),
        (["-t", "0.8", "--seed", "4", "--lower-threshold", "off"], two),
        (["-t", "0.7", "--lower-threshold", "0.4"], three),
    ):
        ours, theirs = tmp_path / "spark.csv", tmp_path / "cli.csv"
        capsys.readouterr()
        assert job("estimate-pairs", corpus, ours, "--pairs", "100000", *options) == 0
        log = capsys.readouterr().err
        assert "candidates" in log and "all taken" in log, log
        subprocess.run([cli(), "truth", corpus, "--estimate-pairs", "100000", *options, "-q",
                        "-o", theirs], check=True)
        assert ours.read_bytes() == theirs.read_bytes(), options
        rows = sample_rows(ours)
        assert len(rows) == 300 * 299 // 2
        assert {r["stratum"] for r in rows} == strata, options
        if strata == three:
            lower = {(r["strata_banding"], r["strata_threshold"])
                     for r in rows if r["stratum"] == "lower_candidates"}
            first = {(r["strata_banding"], r["strata_threshold"])
                     for r in rows if r["stratum"] != "lower_candidates"}
            assert len(lower) == len(first) == 1 and lower != first, (lower, first)


def test_estimate_pairs_candidates_equal_the_clis_when_taken_whole(spark, tmp_path):
    """A larger corpus: the candidates of the permissive banding are counted exactly and,
    fewer than M/2, listed whole as the CLI lists them; the lower candidates (the default
    lower level at -t 0.8) are counted exactly and sampled as the CLI samples them, with the
    same stratum size and as many rows; the others are drawn (another draw than the CLI's,
    of the same design), with the same stratum size, and `tune` reads it. Likewise with two
    strata (`--lower-threshold off`)."""
    corpus = generate(tmp_path / "mid.csv", 2500, 7, "--identical-group", "60",
                      "--template-family", "250", "--max-family", "400")
    for lower in ([], ["--lower-threshold", "off"]):
        ours, theirs = tmp_path / "spark.csv", tmp_path / "cli.csv"
        options = ["--pairs", "300000", "-t", "0.8", *lower]
        assert job("estimate-pairs", corpus, ours, *options) == 0
        subprocess.run([cli(), "truth", corpus, "--estimate-pairs", *options[1:], "-q",
                        "-o", theirs], check=True)
        got, expected = sample_rows(ours), sample_rows(theirs)

        def stratum(rows, name):
            return [r for r in rows if r["stratum"] == name]

        candidates = stratum(got, "candidates")
        assert 1000 < len(candidates) <= 150000, len(candidates)
        assert candidates == stratum(expected, "candidates")
        lower_candidates = stratum(got, "lower_candidates")
        cli_lower = stratum(expected, "lower_candidates")
        assert len(lower_candidates) == len(cli_lower)
        assert ({r["stratum_pairs"] for r in lower_candidates}
                == {r["stratum_pairs"] for r in cli_lower})
        if lower:
            assert not cli_lower
        else:
            assert len(cli_lower) > 1000, len(cli_lower)
            assert ({(r["strata_banding"], r["strata_threshold"]) for r in lower_candidates}
                    == {(r["strata_banding"], r["strata_threshold"]) for r in cli_lower})
        others = stratum(got, "others")
        cli_others = stratum(expected, "others")
        taken = len(candidates) + len(lower_candidates)
        assert len(others) == len(cli_others) == 300000 - taken
        assert {r["stratum_pairs"] for r in others} == {r["stratum_pairs"] for r in cli_others}
        assert others != cli_others
        tune = subprocess.run([cli(), "tune", "--similarities", ours, "-t", "0.8"],
                              capture_output=True, text=True, check=True)
        assert "stratified sample" in tune.stdout + tune.stderr


def interval_from_tune(path, t):
    """The 95 % interval `tune --similarities` gives for the pairs at or above t."""
    run = subprocess.run([cli(), "tune", "--similarities", str(path), "-t", str(t)],
                         capture_output=True, text=True, check=True)
    found = re.search(r"95 % interval ([\d,]+)–([\d,]+)", run.stdout)
    assert found, run.stdout
    return tuple(int(x.replace(",", "")) for x in found.groups())


def test_estimate_pairs_intervals_cover_the_exact_count(spark, tmp_path):
    """Both strata drawn (M small beside the candidates): over ten seeds, the interval `tune`
    computes from the job's sample for the pairs at or above t covers the exact count (from
    `truth -t`) at least 8 times; the runs are reproducible, so this cannot flake."""
    corpus = generate(tmp_path / "c.csv", 1000, 3)
    df = lspark.read_corpus(spark, str(corpus))
    t = 0.5
    exact = subprocess.run([cli(), "truth", corpus, "-t", str(t), "-q"], capture_output=True,
                           text=True, check=True).stdout.count("\n") - 1
    assert exact > 5000
    covered = 0
    for seed in range(1, 11):
        sample = estimate_pairs(df, 2000, threshold=t, seed=seed)
        assert not sample.is_census("candidates") and not sample.is_census("others")
        assert len(sample.candidates) == len(sample.others) == 1000
        path = tmp_path / f"s{seed}.csv"
        write_sample(sample, str(path), spark)
        low, high = interval_from_tune(path, t)
        covered += low <= exact <= high
    assert covered >= 8, covered
    # The same seed draws the same sample.
    again = estimate_pairs(df, 2000, threshold=t, seed=10)
    assert list(again.others) == list(sample.others)
    assert list(again.candidates) == list(sample.candidates)


def test_estimate_pairs_refuses_bad_options_with_flags(spark, tmp_path, capsys):
    corpus = generate(tmp_path / "c.csv", 50, 1)
    for args, message in [
        (["-t", "0"], "--threshold"),
        (["--pairs", "-1"], "--pairs"),
        (["-k", "2", "-t", "0.3"], "--num-perm"),
        (["-t", "0.8", "--lower-threshold", "0.8"], "--lower-threshold"),
        (["-t", "0.6", "--lower-threshold", "0.9"], "--lower-threshold"),
        (["--lower-threshold", "high"], "--lower-threshold"),
    ]:
        capsys.readouterr()
        assert job("estimate-pairs", corpus, tmp_path / "s.csv", *args) == 2, args
        err = capsys.readouterr().err
        assert message in err and "num_perm=" not in err, (args, err)


# --- --keep-by ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """Template families and copies with a quality score per document: ties, negative
    values and both zeros, so that the order among equal scores is input order."""
    d = tmp_path_factory.mktemp("scored")
    plain = generate(d / "plain.csv", 2000, 11, "--identical-group", "40",
                     "--template-family", "200")
    rng = random.Random(5)
    with open(plain, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    path = d / "scored.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow(["id", "text", "score"])
        for r in rows:
            score = rng.choice(["0", "-0", "1.5", "-2", "3", "0.25", str(rng.randint(-5, 9))])
            out.writerow([r["id"], r["text"], score])
    return path


def summary_line(stderr, marker):
    lines = [line.removeprefix("lshscope.spark: ") for line in stderr.splitlines()]
    found = [line for line in lines if marker in line]
    assert len(found) == 1, stderr
    return found[0]


def test_keep_by_equals_dedup_for_both_clusterings(spark, scored, tmp_path, capsys):
    banding = ["-b", "12", "-r", "6", "-t", "0.6"]
    for clustering in ("center", "components"):
        for column in ("score", "3"):
            clusters = tmp_path / f"{clustering}-{column}"
            capsys.readouterr()
            assert job(scored.as_uri(), (tmp_path / f"pairs-{clustering}-{column}").as_uri(),
                       *banding, "--clusters", clusters.as_uri(), "--clustering", clustering,
                       "--keep-by", column) == 0
            log = capsys.readouterr().err
            expected = tmp_path / f"cli-{clustering}-{column}.parquet"
            dedup = subprocess.run([cli(), "dedup", scored, *banding, "--clustering", clustering,
                                    "--keep-by", column, "-o", expected],
                                   check=True, capture_output=True, text=True)
            got = [tuple(r.values()) for r in pq.read_table(clusters).to_pylist()]
            want = [tuple(r.values()) for r in pq.read_table(expected).to_pylist()]
            assert len(got) > 300
            assert got == want, (clustering, column)
            assert summary_line(log, "clusters hold") == summary_line(dedup.stderr, "clusters hold")
    # The rule matters here: keeping the first gives other clusters.
    first = tmp_path / "cli-first.parquet"
    subprocess.run([cli(), "dedup", scored, *banding, "-q", "-o", first], check=True)
    assert [tuple(r.values()) for r in pq.read_table(first).to_pylist()] != want


def test_keep_by_refuses_a_value_that_is_not_a_number(spark, tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("id,text,score\na,the same text here,1\nb,the same text here,high\n")
    with pytest.raises(Exception, match="row of id b, column `score`: `high` is not a number"):
        job(path, tmp_path / "pairs", "-t", "0.5", "--clusters", tmp_path / "c",
            "--keep-by", "score")
    capsys.readouterr()
    assert job(path, tmp_path / "pairs2", "--keep-by", "rating", "--clusters", tmp_path / "c2") == 2
    assert "--keep-by" in capsys.readouterr().err


# --- header-less TSV, column indexes, header sniffing ---------------------------------------


@pytest.fixture(scope="module")
def headerless(tmp_path_factory):
    """`id<TAB>text` without a header row, the most common dump, and the same with three
    columns (text in the middle)."""
    d = tmp_path_factory.mktemp("headerless")
    plain = generate(d / "plain.csv", 1200, 13, "--identical-group", "30")
    with open(plain, newline="", encoding="utf-8") as f:
        rows = [(r["id"], " ".join(r["text"].split())) for r in csv.DictReader(f)]
    two = d / "two.tsv"
    two.write_text("".join(f"doc-{i}\t{t}\n" for i, t in rows), "utf-8")
    three = d / "three.tsv"
    three.write_text("".join(f"doc-{i}\t{t}\t{len(t)}\n" for i, t in rows), "utf-8")
    return d


def pairs_of(path):
    return [tuple(r.values()) for r in pq.read_table(path).to_pylist()]


def test_headerless_tsv_equals_scan(spark, headerless, tmp_path):
    banding = ["-b", "16", "-r", "4", "-t", "0.5"]
    cases = [
        # Sniffed: the first row is a document (a number or id before a sentence), as the CLI
        # decides; two columns are the id and the text.
        (headerless / "two.tsv", []),
        (headerless / "two.tsv", ["--no-headers"]),
        (headerless / "two.tsv", ["--no-headers", "--id-column", "1", "--text-column", "2"]),
        (headerless / "three.tsv", ["--no-headers", "--id-column", "1", "--text-column", "2"]),
    ]
    for k, (path, options) in enumerate(cases):
        out = tmp_path / f"pairs-{k}"
        assert job(path, out, *banding, *options) == 0, options
        expected = tmp_path / f"cli-{k}.parquet"
        subprocess.run([cli(), "scan", path, *banding, *options, "-q", "-o", expected],
                       check=True)
        got = pairs_of(out)
        assert len(got) > 100
        assert got == pairs_of(expected), options
        assert got[0][0].startswith("doc-")


def test_column_errors_name_the_jobs_flags(spark, headerless, tmp_path, capsys):
    path = headerless / "three.tsv"
    for options, message in [
        (["--no-headers", "--text-column", "body"], "with --no-headers columns have no names"),
        (["--no-headers", "--text-column", "4"], "--text-column 4 is out of range"),
        (["--text-column", "body"], "no column named `body`"),
        (["--format", "parquet", "--no-headers"], "--no-headers is for CSV and TSV"),
    ]:
        capsys.readouterr()
        assert job(path, tmp_path / "out", *options) == 2, options
        err = capsys.readouterr().err
        assert message in err and "text_col" not in err, (options, err)
