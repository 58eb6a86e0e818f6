"""How lshscope.spark reads the paths and URIs it is given, before any Spark or network
access: each filesystem scheme the job accepts, and the mistakes it refuses early."""

import pytest

from lshscope.spark import _format_from_name, _files_for, _shuffle_partitions, parse_location


@pytest.mark.parametrize(
    "uri, scheme, authority, path, name, fmt",
    [
        ("corpus.parquet", None, "", "corpus.parquet", "corpus.parquet", "parquet"),
        ("/data/docs.csv", None, "", "/data/docs.csv", "docs.csv", "csv"),
        ("file:///data/docs.tsv", "file", "", "/data/docs.tsv", "docs.tsv", "tsv"),
        ("file:/data/docs.jsonl.gz", "file", "", "/data/docs.jsonl.gz", "docs.jsonl.gz", "jsonl"),
        ("file://localhost/d/x.tab", "file", "localhost", "/d/x.tab", "x.tab", "tsv"),
        ("hdfs://nn.example:8020/corpus/", "hdfs", "nn.example:8020", "/corpus/", "corpus", None),
        ("hdfs:///user/me/docs.ndjson", "hdfs", "", "/user/me/docs.ndjson", "docs.ndjson", "jsonl"),
        ("s3a://bucket/dumps/part-*.parquet", "s3a", "bucket", "/dumps/part-*.parquet",
         "part-*.parquet", "parquet"),
        ("S3A://Bucket/a.csv.bz2", "s3a", "Bucket", "/a.csv.bz2", "a.csv.bz2", "csv"),
        ("gs://bucket/x/docs.json", "gs", "bucket", "/x/docs.json", "docs.json", "jsonl"),
        ("abfss://data@acct.dfs.core.windows.net/c/docs.parquet", "abfss",
         "data@acct.dfs.core.windows.net", "/c/docs.parquet", "docs.parquet", "parquet"),
        ("viewfs://cluster/corpus", "viewfs", "cluster", "/corpus", "corpus", None),
        ("hdfs://nn:8020", "hdfs", "nn:8020", "/", "", None),
    ],
)
def test_each_scheme_parses_into_its_parts_and_format(uri, scheme, authority, path, name, fmt):
    location = parse_location(uri)
    assert (location.scheme, location.authority, location.path, location.name) == (
        scheme, authority, path, name,
    )
    assert location.uri == uri
    assert _format_from_name(location) == fmt


def test_globs_are_told_apart():
    assert parse_location("s3a://b/part-*.parquet").is_glob
    assert parse_location("hdfs:///d/{a,b}.csv").is_glob
    assert not parse_location("gs://b/d/docs.csv").is_glob


@pytest.mark.parametrize(
    "uri, message",
    [
        ("", "empty"),
        ("s3a:bucket/key.parquet", "needs `s3a://`"),
        ("file://host/data.csv", "names no host"),
        ("s3a:///key.parquet", "BUCKET"),
        ("gs:///key.parquet", "BUCKET"),
        ("abfss://acct.dfs.core.windows.net/key.parquet", "CONTAINER@ACCOUNT"),
        ("hdfs://", "no path"),
    ],
)
def test_uris_that_cannot_name_a_file_are_refused(uri, message):
    with pytest.raises(ValueError, match=message):
        parse_location(uri)


def test_partitions_follow_the_input_and_files_the_output():
    gib = 1 << 30
    # Small inputs: one partition per core, not Spark's 200.
    assert _shuffle_partitions(5 << 20, 2) == 2
    # Large ones: ~128 MB each.
    assert _shuffle_partitions(10 * gib, 2) == 80
    assert _files_for(0) == 1
    assert _files_for(1_000_000) == 1
    # A handful of files per GB of output.
    assert 3 <= _files_for(gib // 64) <= 5
