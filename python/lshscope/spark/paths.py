"""Paths and URIs as Spark resolves them, and the corpus readers."""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

_FORMATS = ("parquet", "csv", "tsv", "jsonl")

# Suffixes Hadoop's codecs decompress on read without native libraries (CSV, TSV, JSON Lines).
_COMPRESSION_SUFFIXES = (".gz", ".bz2")

# Hadoop's rule (org.apache.hadoop.fs.Path): a scheme is what stands before a colon that
# comes before the first slash.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")

# Object stores and the Azure filesystems name a bucket or container in the authority; a
# URI without one is a typo Hadoop reports late and obscurely.
_NEEDS_AUTHORITY = {
    "s3a": "s3a://BUCKET/PATH",
    "gs": "gs://BUCKET/PATH",
    "abfs": "abfs://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH",
    "abfss": "abfss://CONTAINER@ACCOUNT.dfs.core.windows.net/PATH",
    "wasb": "wasb://CONTAINER@ACCOUNT.blob.core.windows.net/PATH",
    "wasbs": "wasbs://CONTAINER@ACCOUNT.blob.core.windows.net/PATH",
}

# The connector a Spark without it needs, named in the error when Hadoop has no filesystem
# class for the scheme (pip's pyspark ships none of them).
_CONNECTORS = {
    "s3a": "hadoop-aws (org.apache.hadoop:hadoop-aws, the version of Spark's Hadoop)",
    "gs": "the GCS connector (com.google.cloud.bigdataoss:gcs-connector)",
    "abfs": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "abfss": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "wasb": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
    "wasbs": "hadoop-azure (org.apache.hadoop:hadoop-azure)",
}


class Location(NamedTuple):
    """A path or URI as Spark resolves it: ``scheme`` is None for a bare path (Hadoop
    resolves it against ``fs.defaultFS``: the local disk in local mode, often HDFS on a
    cluster), ``authority`` the host, bucket or container (empty when there is none), ``path``
    the path inside that filesystem and ``name`` its last component."""

    uri: str
    scheme: Optional[str]
    authority: str
    path: str
    name: str

    @property
    def is_glob(self):
        """Whether Hadoop expands the path as a glob pattern (``*``, ``?``, ``[...]``,
        ``{a,b}``), as Spark's readers do."""
        return any(c in self.path for c in "*?[{")


def parse_location(uri):
    """The parts of ``uri`` (a path or a URI such as ``file:///data/a.parquet``,
    ``hdfs://namenode:8020/data``, ``s3a://bucket/key``, ``gs://bucket/key`` or
    ``abfss://container@account.dfs.core.windows.net/key``) that the job needs before Spark
    starts; raises ValueError for what cannot name a file. Network access: none."""
    if not uri or not uri.strip():
        raise ValueError("an empty path")
    match = _SCHEME.match(uri)
    scheme, rest = (match.group(1).lower(), uri[match.end() :]) if match else (None, uri)
    authority = ""
    if scheme is not None and rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        path = slash + path
    else:
        path = rest
    if scheme is not None and not path and not authority:
        raise ValueError(f"{uri}: no path")
    if scheme is not None and not path:
        path = "/"
    if scheme is not None and not path.startswith("/"):
        # Hadoop would read `s3a:bucket/key` as a relative path under a scheme: never meant.
        raise ValueError(f"{uri}: a URI needs `{scheme}://` and an absolute path")
    if scheme == "file" and authority not in ("", "localhost"):
        raise ValueError(
            f"{uri}: a file URI names no host (`{authority}`); write file:///absolute/path"
        )
    if scheme in _NEEDS_AUTHORITY:
        form = _NEEDS_AUTHORITY[scheme]
        if not authority or ("@" in form and "@" not in authority):
            raise ValueError(f"{uri}: name the {form.split('://')[1].split('/')[0]}: {form}")
    parts = [p for p in path.split("/") if p]
    return Location(uri, scheme, authority, path, parts[-1] if parts else "")


def _format_from_name(location):
    """The input format the name says (a compression suffix looked through), or None."""
    name = location.name.lower()
    for compression in _COMPRESSION_SUFFIXES:
        if name.endswith(compression):
            name = name[: -len(compression)]
            break
    for suffix, fmt in (
        (".parquet", "parquet"),
        (".csv", "csv"),
        (".tsv", "tsv"),
        (".tab", "tsv"),
        (".jsonl", "jsonl"),
        (".ndjson", "jsonl"),
        (".json", "jsonl"),
    ):
        if name.endswith(suffix):
            return fmt
    return None


def _format_of(location, given, files=None):
    """The input format at ``location``: ``given``, else its name's, else Parquet for a
    directory (asked of Spark's filesystem, ``files``)."""
    if given:
        return given
    fmt = _format_from_name(location)
    if fmt:
        return fmt
    found = files.sizes(location) if files is not None else None
    if found is not None and found[1]:
        return "parquet"
    raise ValueError(
        f"{location.uri}: cannot tell the format from the name; give --format "
        f"({', '.join(_FORMATS)})"
    )


class _Files:
    """Paths as Spark sees them: the JVM's Hadoop FileSystem of the session (``file://``,
    ``hdfs://``, ``s3a://``, ... whichever connectors the cluster has), not the driver's disk."""

    def __init__(self, spark):
        self._jvm = spark._jvm
        self._conf = spark._jsc.hadoopConfiguration()

    def _fs(self, location):
        from py4j.protocol import Py4JJavaError

        path = self._jvm.org.apache.hadoop.fs.Path(location.uri)
        try:
            return path, path.getFileSystem(self._conf)
        except Py4JJavaError as e:
            scheme = location.scheme or "the default filesystem"
            hint = _CONNECTORS.get(location.scheme)
            raise ValueError(
                f"{location.uri}: this Spark has no filesystem for {scheme}"
                + (f": add {hint} to the job's classpath (--packages or --jars)" if hint else "")
                + f" ({e.java_exception.toString()})"
            ) from None

    def sizes(self, location):
        """(bytes, is a directory) of what ``location`` names (a glob: all it matches, never
        a directory), or None when it names nothing."""
        path, fs = self._fs(location)
        if location.is_glob:
            matches = fs.globStatus(path)
            if not matches:
                return None
            # A file's length is in its status; only a matched directory needs a listing.
            return sum(
                m.getLen() if m.isFile() else fs.getContentSummary(m.getPath()).getLength()
                for m in matches
            ), False
        if not fs.exists(path):
            return None
        return fs.getContentSummary(path).getLength(), fs.getFileStatus(path).isDirectory()

    def is_local(self, location):
        """Whether ``location`` is on the local disk of the machine reading it (Hadoop's
        ``file`` scheme, also a bare path under a local default filesystem)."""
        _, fs = self._fs(location)
        return fs.getUri().getScheme() == "file"

    def exists(self, location):
        path, fs = self._fs(location)
        return bool(fs.exists(path))

    def delete(self, uri):
        """Removes ``uri`` and everything under it."""
        location = parse_location(uri)
        path, fs = self._fs(location)
        fs.delete(path, True)


def read_corpus(spark, path, fmt=None, headers=True):
    """A DataFrame of the corpus at ``path`` as Spark reads it, in file order.

    Parquet is read natively (a directory of part files too); CSV has RFC 4180 quoting
    (quoted fields may span lines); TSV has no quoting at all (a quote is an ordinary
    character, as in the CLI); JSON Lines is one object per line. CSV and TSV have a header
    row unless ``headers`` is False: then the columns are named ``_c0``, ``_c1``, ... (Spark's
    names; the job takes 1-based indexes, as the CLI). Malformed rows stop the job with
    Spark's error instead of becoming nulls.
    """
    fmt = _format_of(parse_location(path), fmt, _Files(spark))
    reader = spark.read
    if fmt == "parquet":
        return reader.parquet(path)
    if fmt == "jsonl":
        return reader.option("mode", "FAILFAST").json(path)
    return reader.options(**_delimited_options(fmt, headers)).csv(path)


def _delimited_options(fmt, headers):
    """Spark's CSV reader options for ``fmt`` ("csv" or "tsv") as the CLI reads it."""
    common = dict(header=headers, mode="FAILFAST", inferSchema=False, nullValue=None)
    if fmt == "csv":
        return dict(common, multiLine=True, quote='"', escape='"')
    # Spark turns quoting off with an empty quote character.
    return dict(common, sep="\t", quote="")


def first_row_not_a_header(spark, path, fmt):
    """Why the first row of the CSV/TSV file at ``path`` cannot be a header (the engine's
    rule, as ``lshscope`` sniffs it: a document of hundreds of characters, a sentence, a
    number before words, ...), or None when it reads as one."""
    from lshscope import _lshscope as kernels

    first = spark.read.options(**_delimited_options(fmt, False)).csv(path).limit(1).collect()
    if not first:
        return None
    return kernels.not_a_header(["" if v is None else v for v in first[0]])


class CorpusColumns(NamedTuple):
    """The corpus as the job reads it: the DataFrame, the names of its text and id columns
    (id None: rows are numbered), the keep-by column's name (or None) and a note for the log
    when the first row was read as data."""

    frame: object
    text: str
    id: Optional[str]
    keep_by: Optional[str]
    note: Optional[str]


def _spec(text):
    """A column as the CLI takes it: a 1-based index (digits) or a name."""
    if text is None:
        return None
    if text.isdigit():
        if int(text) == 0:
            raise ValueError("column indexes start at 1")
        return int(text)
    if not text:
        raise ValueError("empty column name")
    return text


def _find(columns, wanted):
    """Exact match first, then ASCII case-insensitive (`Text` for `text`), as the CLI."""
    if wanted in columns:
        return wanted
    lowered = [c for c in columns if c.lower() == wanted.lower()]
    return lowered[0] if lowered else None


def _resolve(columns, spec, flag, headers):
    """The column ``spec`` (index or name) names among ``columns``, or ValueError in the
    CLI's words, naming ``flag``."""
    listing = ", ".join(f"`{c}`" for c in columns)
    if isinstance(spec, int):
        if 1 <= spec <= len(columns):
            return columns[spec - 1]
        raise ValueError(
            f"{flag} {spec} is out of range: the first row has {len(columns)} "
            f"{'column' if len(columns) == 1 else 'columns'} ({listing}); use an index from 1 "
            f"to {len(columns)}"
        )
    if not headers:
        raise ValueError(
            f"{flag} `{spec}` names a column, but with --no-headers columns have no names; "
            f"give a 1-based index (1 to {len(columns)})"
        )
    found = _find(columns, spec)
    if found is None:
        raise ValueError(
            f"no column named `{spec}`; columns are: {listing}; use {flag} with one of these "
            "names or a 1-based index"
        )
    return found


def read_job_corpus(spark, uri, fmt, *, no_headers, text_column, id_column, keep_by=None):
    """The corpus at ``uri`` (format ``fmt``) with the columns the job's flags name
    (``--no-headers``, ``--text-column``, ``--id-column``, ``--keep-by``: a name or a 1-based
    index), chosen as the CLI chooses them:

    - CSV/TSV have a header row unless ``no_headers``, or unless its first row cannot be one
      (the engine's rule: a field of hundreds of characters, a sentence, a number before
      words) while no column is named: then the row is data, and the note says so;
    - the text is the column `text`, else, without a header, the last column;
    - the id is the column `id` if there is one, else, without a header, the first of two
      columns; else rows are numbered.

    Raises ValueError naming the flags."""
    delimited = fmt in ("csv", "tsv")
    text_spec, id_spec, keep_spec = (_spec(c) for c in (text_column, id_column, keep_by))
    if no_headers and not delimited:
        raise ValueError(f"--no-headers is for CSV and TSV inputs; this input is read as {fmt}")
    headers, note = not no_headers, None
    names_a_column = any(isinstance(s, str) for s in (text_spec, id_spec, keep_spec))
    if delimited and headers and not names_a_column:
        reason = first_row_not_a_header(spark, uri, fmt)
        if reason is not None:
            headers = False
            note = (
                f"the first row does not look like a header ({reason}), so it is read as data "
                "and the file as having no header row; pass --no-headers to say so, or, if that "
                "row is a header, name the text column with --text-column NAME"
            )
    frame = read_corpus(spark, uri, fmt, headers=headers)
    columns = list(frame.columns)
    has_names = headers or not delimited
    if text_spec is not None:
        text = _resolve(columns, text_spec, "--text-column", has_names)
    elif has_names:
        text = _find(columns, "text")
        if text is None:
            hint = (
                "; if the file has no header row (its first row is a document), pass --no-headers"
                if delimited
                else ""
            )
            raise ValueError(
                f"no column named `text` (columns are: {', '.join(f'`{c}`' for c in columns)}); "
                f"choose one with --text-column{hint}"
            )
    else:
        text = columns[-1]
    if id_spec is not None:
        id_col = _resolve(columns, id_spec, "--id-column", has_names)
    elif has_names:
        id_col = _find(columns, "id")
    elif len(columns) == 2 and text == columns[1]:
        id_col = columns[0]
    else:
        id_col = None
    keep_col = None
    if keep_spec is not None:
        keep_col = _resolve(columns, keep_spec, "--keep-by", has_names)
    return CorpusColumns(frame, text, id_col, keep_col, note)
