//! Corpus readers: text lines, CSV/TSV, JSON Lines and directories, each optionally gzip- or
//! zstd-compressed, with `--limit`, `--sample` and `--skip-bad` applied while reading.
//!
//! Every reader parses into reusable buffers and appends straight into the [`Corpus`] arenas,
//! so the main path makes no heap allocation per document. The format readers live in sibling
//! modules (`delimited`, `jsonl`, `dir`); this module holds the options, the dispatch and the
//! [`Sink`] that applies limit, sample and skip rules uniformly to all of them.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::Corpus;
use super::sample::Reservoir;
use super::source::{self, Compression};
use crate::jobs::{Phase, Progress};
use crate::{Error, Result};

/// How documents are laid out in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// Decide from the extension (after `.gz` / `.zst`); a directory is `Dir`; stdin is `Text`.
    #[default]
    Auto,
    /// One document per line; id = line number from 1.
    Text,
    Csv,
    Tsv,
    Jsonl,
    /// Every regular file below a directory is one document; id = its relative path.
    Dir,
    /// Apache Parquet, read natively (only the text and id columns, row group by row group).
    Parquet,
}

/// A CSV/TSV column: a header name, or a 1-based index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnSpec {
    Name(String),
    Index(usize),
}

impl std::str::FromStr for ColumnSpec {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s.parse::<usize>() {
            Ok(0) => Err("column indexes start at 1".into()),
            Ok(i) => Ok(ColumnSpec::Index(i)),
            Err(_) if s.is_empty() => Err("empty column name".into()),
            Err(_) => Ok(ColumnSpec::Name(s.to_string())),
        }
    }
}

/// Options for [`read_corpus`].
#[derive(Debug, Clone)]
pub struct ReadOptions {
    pub format: InputFormat,
    /// CSV/TSV: the first row is a header.
    pub has_headers: bool,
    /// CSV/TSV text column; default: a column named `text`, else the last one.
    pub text_column: Option<ColumnSpec>,
    /// CSV/TSV id column; default: a column named `id`, else the row number.
    pub id_column: Option<ColumnSpec>,
    /// JSON Lines field holding the text (default `text`).
    pub text_field: Option<String>,
    /// JSON Lines field holding the id (default `id`; line number when absent).
    pub id_field: Option<String>,
    /// Keep only the first N documents.
    pub limit: Option<usize>,
    /// Keep a uniform reservoir sample of N documents (reproducible with `seed`).
    pub sample: Option<usize>,
    pub seed: u64,
    /// Skip malformed rows instead of failing.
    pub skip_bad: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: InputFormat::Auto,
            has_headers: true,
            text_column: None,
            id_column: None,
            text_field: None,
            id_field: None,
            limit: None,
            sample: None,
            seed: 1,
            skip_bad: false,
        }
    }
}

/// What reading found, for the summary.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ReadReport {
    pub format: InputFormat,
    /// Documents kept.
    pub documents: usize,
    /// Malformed rows skipped under `skip_bad`.
    pub skipped: usize,
    /// Line numbers of the first few skipped rows.
    pub skipped_lines: Vec<u64>,
    /// Documents whose bytes were not valid UTF-8 and were decoded lossily.
    pub lossy_utf8: usize,
    /// Documents whose text is empty (kept, never collide).
    pub empty: usize,
    /// Input bytes read (after decompression).
    pub bytes: u64,
    /// Documents read from the input before `sample` chose among them (equals `documents`
    /// without sampling; counts rows up to `limit` when both are given).
    pub rows_read: usize,
    /// `gzip` or `zstd` when the input was decompressed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<&'static str>,
    /// Directory input under `skip_bad`: the first few files that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_files: Vec<String>,
}

/// How many skipped line numbers (and file names) the report keeps.
pub const SKIPPED_LINES_KEPT: usize = 10;

/// Rows between two cancellation checks.
pub(super) const CHECK_EVERY: u64 = 4096;

/// Reads a corpus from `path`: a file, a directory, or `-` for stdin.
///
/// The format comes from `opts.format`, or for `Auto` from the path (see [`detect_format`]).
/// Errors name the file and line and say what to do; all are [`Error::Input`] (exit code 2)
/// except cancellation.
pub fn read_corpus(
    path: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    progress.begin(Phase::Reading, 0);
    check_options(opts)?;
    let is_stdin = path == Path::new("-");
    let is_dir = if is_stdin {
        false
    } else {
        std::fs::metadata(path)
            .map_err(|e| source::cannot_open(path, e))?
            .is_dir()
    };
    let format = match opts.format {
        InputFormat::Auto if is_dir => InputFormat::Dir,
        InputFormat::Auto if is_stdin => InputFormat::Text,
        InputFormat::Auto => detect_format(path),
        InputFormat::Dir if is_stdin => {
            return Err(Error::usage(
                "--format dir needs a directory path, not `-` (stdin)",
            ));
        }
        InputFormat::Dir if !is_dir => {
            return Err(Error::input(
                path,
                0,
                "not a directory, but --format dir was given; pass a directory or another --format",
            ));
        }
        f if is_dir => {
            return Err(Error::input(
                path,
                0,
                format!(
                    "is a directory, but --format {} was given; use --format dir (or auto) to read \
                     every file in it as one document",
                    f.name()
                ),
            ));
        }
        f => f,
    };
    if format == InputFormat::Dir {
        return super::dir::read_dir_corpus(path, opts, progress);
    }
    if format == InputFormat::Parquet {
        // Parquet's footer sits at the end of the file: it needs random access, so a file is
        // read from its path and stdin is read into memory first.
        if !is_stdin {
            return super::parquet::read_file(path, opts, progress);
        }
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin().lock(), &mut bytes)
            .map_err(|e| source::cannot_open(Path::new("<stdin>"), e))?;
        return super::parquet::read_parquet_bytes(bytes, Path::new("<stdin>"), opts, progress);
    }
    let source = source::open(path, progress)?;
    let name = if is_stdin { Path::new("<stdin>") } else { path };
    if let Some(total) = source.disk_bytes {
        progress.set_total(total);
    }
    read_stream(source, name, format, opts, progress)
}

/// Reads documents from any buffered reader (gzip / zstd recognised by their magic bytes);
/// `name` is used in messages and, for `Auto`, to pick the format (text when it says nothing).
pub fn read_corpus_from(
    reader: impl BufRead,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    check_options(opts)?;
    let format = match opts.format {
        InputFormat::Auto => detect_format(name),
        InputFormat::Dir => {
            return Err(Error::usage(
                "--format dir reads a directory path, not a stream",
            ));
        }
        f => f,
    };
    if format == InputFormat::Parquet {
        let mut reader = reader;
        let mut bytes = Vec::new();
        reader
            .read_to_end(&mut bytes)
            .map_err(|e| source::cannot_open(name, e))?;
        return super::parquet::read_parquet_bytes(bytes, name, opts, progress);
    }
    let source = source::wrap(reader, name, Compression::None, None)?;
    read_stream(source, name, format, opts, progress)
}

impl InputFormat {
    /// The name used by `--format`.
    pub fn name(self) -> &'static str {
        match self {
            InputFormat::Auto => "auto",
            InputFormat::Text => "text",
            InputFormat::Csv => "csv",
            InputFormat::Tsv => "tsv",
            InputFormat::Jsonl => "jsonl",
            InputFormat::Dir => "dir",
            InputFormat::Parquet => "parquet",
        }
    }
}

/// The format a file name implies: the extension after removing `.gz` / `.zst`; `.csv` → CSV,
/// `.tsv` / `.tab` → TSV, `.jsonl` / `.ndjson` → JSON Lines, anything else → text lines.
pub fn detect_format(path: &Path) -> InputFormat {
    let mut path = path;
    let stripped;
    if Compression::from_name(path) != Compression::None {
        stripped = path.with_extension("");
        path = &stripped;
    }
    match source::lower_extension(path).as_deref() {
        Some("csv") => InputFormat::Csv,
        Some("tsv" | "tab") => InputFormat::Tsv,
        Some("jsonl" | "ndjson") => InputFormat::Jsonl,
        Some("parquet" | "pq") => InputFormat::Parquet,
        _ => InputFormat::Text,
    }
}

fn check_options(opts: &ReadOptions) -> Result<()> {
    if opts.limit == Some(0) {
        return Err(Error::usage("--limit must be at least 1"));
    }
    if opts.sample == Some(0) {
        return Err(Error::usage("--sample must be at least 1"));
    }
    Ok(())
}

fn read_stream(
    source: source::Source<'_>,
    name: &Path,
    format: InputFormat,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let mut sink = Sink::new(name, opts);
    // Without compression, sampling or a limit the file size bounds the text bytes: reserving
    // it up front avoids the repeated growth copies of a 400 MB arena (the excess is released
    // at the end).
    if let (Compression::None, None, None, Some(bytes)) = (
        source.compression,
        opts.sample,
        opts.limit,
        source.disk_bytes,
    ) {
        sink.corpus.texts.reserve(bytes as usize);
    }
    let mut reader = source.reader;
    let bytes = match format {
        InputFormat::Text | InputFormat::Auto => read_lines(&mut reader, &mut sink, progress)?,
        InputFormat::Csv => {
            super::delimited::read(&mut reader, b',', name, opts, &mut sink, progress)?
        }
        InputFormat::Tsv => {
            super::delimited::read(&mut reader, b'\t', name, opts, &mut sink, progress)?
        }
        InputFormat::Jsonl => super::jsonl::read(&mut reader, name, opts, &mut sink, progress)?,
        InputFormat::Dir => unreachable!("directories are read by dir::read_dir_corpus"),
        InputFormat::Parquet => unreachable!("Parquet is read by parquet::read_file"),
    };
    let mut report = ReadReport {
        format,
        bytes,
        compression: match source.compression {
            Compression::None => None,
            Compression::Gzip => Some("gzip"),
            Compression::Zstd => Some("zstd"),
        },
        ..Default::default()
    };
    let corpus = sink.finish(&mut report);
    Ok((corpus, report))
}

/// Lines of a reader with their 1-based numbers: the line ending (`\n` or `\r\n`) and a UTF-8
/// byte-order mark on the first line removed, I/O errors naming the line, and a cancellation
/// check every few thousand lines. One reused buffer, no allocation per line.
pub(super) struct Lines<'r> {
    reader: &'r mut dyn BufRead,
    name: &'r Path,
    buf: Vec<u8>,
    number: u64,
    /// Bytes read so far, line endings included.
    pub(super) bytes: u64,
}

impl<'r> Lines<'r> {
    pub(super) fn new(reader: &'r mut dyn BufRead, name: &'r Path) -> Self {
        Lines {
            reader,
            name,
            buf: Vec::with_capacity(4096),
            number: 0,
            bytes: 0,
        }
    }

    /// The next line as (number, content), or `None` at the end.
    pub(super) fn next_line(&mut self, progress: &Progress) -> Result<Option<(u64, &[u8])>> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| read_error(self.name, self.number + 1, e))?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        self.bytes += n as u64;
        if self.number.is_multiple_of(CHECK_EVERY) {
            progress.check()?;
        }
        let mut content = self.buf.as_slice();
        if let Some(rest) = content.strip_suffix(b"\n") {
            content = rest;
        }
        if let Some(rest) = content.strip_suffix(b"\r") {
            content = rest;
        }
        if self.number == 1 {
            content = strip_bom(content);
        }
        Ok(Some((self.number, content)))
    }
}

/// One document per line; id = line number from 1. Returns the bytes read.
fn read_lines(reader: &mut dyn BufRead, sink: &mut Sink, progress: &Progress) -> Result<u64> {
    let name = sink.name().to_path_buf();
    let mut lines = Lines::new(reader, &name);
    let mut id = String::new();
    while !sink.is_full() {
        let Some((number, content)) = lines.next_line(progress)? else {
            break;
        };
        let (text, lossy) = decode(content);
        sink.push(number_id(&mut id, number), &text, lossy);
    }
    Ok(lines.bytes)
}

pub(super) fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// UTF-8 text of `bytes`; invalid sequences become U+FFFD and the flag says so.
pub(super) fn decode(bytes: &[u8]) -> (Cow<'_, str>, bool) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), false),
        Err(_) => (String::from_utf8_lossy(bytes), true),
    }
}

/// Formats `n` into the reusable buffer.
pub(super) fn number_id(buf: &mut String, n: u64) -> &str {
    buf.clear();
    let _ = write!(buf, "{n}");
    buf
}

/// A failure of the underlying stream (disk error, corrupt compressed data) near `line`.
pub(super) fn read_error(name: &Path, line: u64, e: std::io::Error) -> Error {
    let hint = match e.kind() {
        std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof => {
            "; the file may be truncated or its compressed data corrupt"
        }
        _ => "",
    };
    Error::input(name, line, format!("read failed: {e}{hint}"))
}

/// Where readers put documents: applies `limit`, `sample` and `skip_bad` the same way for
/// every format, and appends kept documents to the corpus arenas.
pub(super) struct Sink {
    pub(super) corpus: Corpus,
    name: PathBuf,
    /// Documents still allowed by `limit`.
    remaining: usize,
    reservoir: Option<Reservoir>,
    skip_bad: bool,
    offered: usize,
    lossy: usize,
    skipped: usize,
    skipped_lines: Vec<u64>,
    skipped_files: Vec<String>,
}

impl Sink {
    pub(super) fn new(name: &Path, opts: &ReadOptions) -> Self {
        Sink {
            corpus: Corpus::new(),
            name: name.to_path_buf(),
            remaining: opts.limit.unwrap_or(usize::MAX),
            reservoir: opts.sample.map(|n| Reservoir::new(n, opts.seed)),
            skip_bad: opts.skip_bad,
            offered: 0,
            lossy: 0,
            skipped: 0,
            skipped_lines: Vec::new(),
            skipped_files: Vec::new(),
        }
    }

    pub(super) fn name(&self) -> &Path {
        &self.name
    }

    /// `limit` documents were taken: the reader can stop.
    pub(super) fn is_full(&self) -> bool {
        self.remaining == 0
    }

    pub(super) fn push(&mut self, id: &str, text: &str, lossy: bool) {
        debug_assert!(self.remaining > 0);
        self.remaining -= 1;
        self.offered += 1;
        match &mut self.reservoir {
            None => {
                self.corpus.push(id, text);
                self.lossy += usize::from(lossy);
            }
            Some(reservoir) => {
                if let Some(slot) = reservoir.offer() {
                    slot.id.clear();
                    slot.id.push_str(id);
                    slot.text.clear();
                    slot.text.push_str(text);
                    slot.lossy = lossy;
                }
            }
        }
    }

    /// A malformed row at `line`: an error, or under `skip_bad` counted and passed over.
    pub(super) fn bad_row(&mut self, line: u64, error: Error) -> Result<()> {
        if !self.skip_bad {
            return Err(error);
        }
        self.skipped += 1;
        if self.skipped_lines.len() < SKIPPED_LINES_KEPT {
            self.skipped_lines.push(line);
        }
        Ok(())
    }

    /// An unreadable file inside a directory: an error, or under `skip_bad` counted.
    pub(super) fn bad_file(&mut self, relative: &str, error: Error) -> Result<()> {
        if !self.skip_bad {
            return Err(error);
        }
        self.skipped += 1;
        if self.skipped_files.len() < SKIPPED_LINES_KEPT {
            self.skipped_files.push(relative.to_string());
        }
        Ok(())
    }

    pub(super) fn finish(mut self, report: &mut ReadReport) -> Corpus {
        if let Some(reservoir) = self.reservoir.take() {
            for slot in reservoir.into_input_order() {
                self.corpus.push(&slot.id, &slot.text);
                self.lossy += usize::from(slot.lossy);
            }
        }
        let mut corpus = self.corpus;
        corpus.shrink_to_fit();
        report.documents = corpus.len();
        report.empty = (0..corpus.len())
            .filter(|&i| corpus.text(i).trim().is_empty())
            .count();
        report.lossy_utf8 = self.lossy;
        report.rows_read = self.offered;
        report.skipped = self.skipped;
        report.skipped_lines = self.skipped_lines;
        report.skipped_files = self.skipped_files;
        corpus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_bytes(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
        read_corpus_from(bytes, Path::new(name), opts, &Progress::new())
    }

    fn docs(c: &Corpus) -> Vec<(String, String)> {
        (0..c.len())
            .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
            .collect()
    }

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    fn input_error(r: Result<(Corpus, ReadReport)>) -> (u64, String) {
        match r {
            Err(Error::Input { line, message, .. }) => (line, message),
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn format_from_extension() {
        let f = |p: &str| detect_format(Path::new(p));
        assert_eq!(f("a.csv"), InputFormat::Csv);
        assert_eq!(f("a.CSV.gz"), InputFormat::Csv);
        assert_eq!(f("dir.v2/a.tsv.zst"), InputFormat::Tsv);
        assert_eq!(f("a.tab"), InputFormat::Tsv);
        assert_eq!(f("a.jsonl"), InputFormat::Jsonl);
        assert_eq!(f("a.ndjson.gz"), InputFormat::Jsonl);
        assert_eq!(f("hf/train-00000-of-00002.parquet"), InputFormat::Parquet);
        assert_eq!(f("a.txt"), InputFormat::Text);
        assert_eq!(f("a.json"), InputFormat::Text);
        assert_eq!(f("notes"), InputFormat::Text);
        assert_eq!(f("a.gz"), InputFormat::Text);
        assert_eq!(f("<stdin>"), InputFormat::Text);
    }

    #[test]
    fn text_lines_strip_crlf_and_bom_and_keep_empty_lines() {
        let (c, r) = read_bytes(
            b"\xEF\xBB\xBFfirst\r\n\r\n  \nlast",
            "x.txt",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("1", "first"), ("2", ""), ("3", "  "), ("4", "last")])
        );
        assert_eq!((r.documents, r.empty, r.format), (4, 2, InputFormat::Text));
        assert_eq!(r.bytes, 19);
    }

    #[test]
    fn invalid_utf8_is_decoded_lossily_and_counted() {
        let (c, r) = read_bytes(b"ok\nbad \xFF byte\n", "x.txt", &ReadOptions::default()).unwrap();
        assert_eq!(c.text(1), "bad \u{FFFD} byte");
        assert_eq!(r.lossy_utf8, 1);
    }

    #[test]
    fn csv_defaults_to_text_and_id_columns_by_name() {
        let input = b"title,Text,id\nt1,\"one, with comma\",a\nt2,\"two\nlines\",b\n";
        let (c, r) = read_bytes(input, "x.csv", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "one, with comma"), ("b", "two\nlines")])
        );
        assert_eq!(r.format, InputFormat::Csv);
    }

    #[test]
    fn csv_without_named_columns_uses_last_column_and_row_number() {
        let (c, _) = read_bytes(
            b"x,y\n1,first\n2,second\n",
            "x.csv",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(docs(&c), pairs(&[("1", "first"), ("2", "second")]));
        let opts = ReadOptions {
            has_headers: false,
            id_column: Some(ColumnSpec::Index(1)),
            text_column: Some(ColumnSpec::Index(2)),
            ..Default::default()
        };
        let (c, _) = read_bytes(b"k1,first\nk2,second\n", "x.csv", &opts).unwrap();
        assert_eq!(docs(&c), pairs(&[("k1", "first"), ("k2", "second")]));
    }

    #[test]
    fn csv_ragged_row_reports_the_physical_line() {
        // The first data row spans lines 2-3, so the ragged row is on line 5, not row 4.
        let input = b"id,text\na,\"two\nlines\"\nb,ok\nc,too,many\nd,fine\n";
        let (line, message) = input_error(read_bytes(input, "x.csv", &ReadOptions::default()));
        assert_eq!(line, 5);
        assert!(
            message.contains("3 fields but the header has 2"),
            "{message}"
        );
        assert!(message.contains("--skip-bad"), "{message}");

        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read_bytes(input, "x.csv", &opts).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("a", "two\nlines"), ("b", "ok"), ("d", "fine")])
        );
        assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![5]));
    }

    #[test]
    fn csv_missing_column_lists_the_columns() {
        let opts = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(b"id,title,text\n1,a,b\n", "x.csv", &opts));
        assert_eq!(line, 1);
        assert!(
            message.contains("no column named `body`; columns are: id, title, text"),
            "{message}"
        );
        assert!(message.contains("--text-column"), "{message}");
    }

    #[test]
    fn tsv_uses_tabs() {
        let (c, _) =
            read_bytes(b"id\ttext\n7\ta, b, c\n", "x.tsv", &ReadOptions::default()).unwrap();
        assert_eq!(docs(&c), pairs(&[("7", "a, b, c")]));
    }

    #[test]
    fn jsonl_fields_ids_blank_lines_and_escapes() {
        let input = concat!(
            "{\"id\": 17, \"text\": \"plain\", \"other\": [1, {\"x\": null}]}\n",
            "\n",
            "{\"text\": \"esc\\u00e9 \\\"q\\\"\"}\n",
            "{\"id\": \"s-1\", \"text\": null}\r\n",
        );
        let (c, r) = read_bytes(input.as_bytes(), "x.jsonl", &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            pairs(&[("17", "plain"), ("3", "esc\u{e9} \"q\""), ("s-1", "")])
        );
        assert_eq!((r.documents, r.empty), (3, 1));
    }

    #[test]
    fn jsonl_errors_name_the_line() {
        let opts = ReadOptions::default();
        let (line, message) = input_error(read_bytes(
            b"{\"text\": \"a\"}\n{\"text\": 5}\n",
            "x.jsonl",
            &opts,
        ));
        assert_eq!(line, 2);
        assert!(
            message.contains("expected a string in field `text`"),
            "{message}"
        );

        let (line, message) =
            input_error(read_bytes(b"{\"text\": \"a\"}\n[1, 2]\n", "x.jsonl", &opts));
        assert_eq!(line, 2);
        assert!(message.contains("a JSON object"), "{message}");

        let (line, message) = input_error(read_bytes(
            b"{\"body\": \"a\", \"n\": 1}\n",
            "x.jsonl",
            &opts,
        ));
        assert_eq!(line, 1);
        assert!(
            message.contains("no field `text`") && message.contains("body, n"),
            "{message}"
        );

        let explicit = ReadOptions {
            id_field: Some("key".into()),
            ..Default::default()
        };
        let (line, message) = input_error(read_bytes(
            b"{\"key\": 1, \"text\": \"a\"}\n{\"text\": \"b\"}\n",
            "x.jsonl",
            &explicit,
        ));
        assert_eq!(line, 2);
        assert!(message.contains("no field `key`"), "{message}");
    }

    #[test]
    fn limit_applies_before_sample() {
        let input: String = (1..=100).map(|i| format!("doc {i}\n")).collect();
        let limited = ReadOptions {
            limit: Some(10),
            ..Default::default()
        };
        let (c, r) = read_bytes(input.as_bytes(), "x.txt", &limited).unwrap();
        assert_eq!((c.len(), c.id(9), r.rows_read), (10, "10", 10));

        let both = ReadOptions {
            limit: Some(10),
            sample: Some(4),
            seed: 9,
            ..Default::default()
        };
        let (c, r) = read_bytes(input.as_bytes(), "x.txt", &both).unwrap();
        assert_eq!((c.len(), r.rows_read, r.documents), (4, 10, 4));
        let ids: Vec<u32> = (0..c.len()).map(|i| c.id(i).parse().unwrap()).collect();
        assert!(ids.iter().all(|&i| i <= 10), "{ids:?}");
        assert!(ids.windows(2).all(|w| w[0] < w[1]), "input order: {ids:?}");
        for i in 0..c.len() {
            assert_eq!(c.text(i), format!("doc {}", c.id(i)));
        }
    }

    #[test]
    fn compressed_streams_are_recognised_by_magic() {
        use std::io::Write;
        let plain = b"id,text\n1,hello there\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(plain).unwrap();
        let gz = gz.finish().unwrap();
        let zst = zstd::encode_all(&plain[..], 1).unwrap();
        for (bytes, kind) in [(gz, "gzip"), (zst, "zstd")] {
            let (c, r) = read_bytes(&bytes, "x.csv", &ReadOptions::default()).unwrap();
            assert_eq!(docs(&c), pairs(&[("1", "hello there")]), "{kind}");
            assert_eq!(r.compression, Some(kind));
            assert_eq!(r.bytes, plain.len() as u64);
        }
    }

    #[test]
    fn zero_limit_or_sample_is_a_usage_error() {
        for opts in [
            ReadOptions {
                limit: Some(0),
                ..Default::default()
            },
            ReadOptions {
                sample: Some(0),
                ..Default::default()
            },
        ] {
            assert!(matches!(
                read_bytes(b"a\n", "x.txt", &opts),
                Err(Error::Usage(_))
            ));
        }
    }
}
