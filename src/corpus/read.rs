//! Corpus readers. (Minimal first version: text lines only; other formats follow.)

use std::io::{BufRead, BufReader};
use std::path::Path;

use super::Corpus;
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
}

/// Reads a corpus from `path` (`-` for stdin).
pub fn read_corpus(
    path: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    progress.begin(Phase::Reading, 0);
    if path == Path::new("-") {
        let stdin = std::io::stdin();
        return read_corpus_from(stdin.lock(), Path::new("<stdin>"), opts, progress);
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    if let Ok(meta) = file.metadata() {
        progress.set_total(meta.len());
    }
    read_corpus_from(BufReader::new(file), path, opts, progress)
}

/// Reads one-document-per-line text from any reader; `name` is used in messages.
pub fn read_corpus_from(
    mut reader: impl BufRead,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let mut corpus = Corpus::new();
    let mut report = ReadReport {
        format: InputFormat::Text,
        ..Default::default()
    };
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        line.clear();
        let n = reader
            .by_ref()
            .read_until(b'\n', &mut line)
            .map_err(|e| Error::io(name, e))?;
        if n == 0 || opts.limit.is_some_and(|l| corpus.len() >= l) {
            break;
        }
        number += 1;
        report.bytes += n as u64;
        progress.advance(n as u64);
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        let text = String::from_utf8_lossy(&line);
        if matches!(text, std::borrow::Cow::Owned(_)) {
            report.lossy_utf8 += 1;
        }
        if text.trim().is_empty() {
            report.empty += 1;
        }
        corpus.push(&number.to_string(), &text);
    }
    report.documents = corpus.len();
    Ok((corpus, report))
}
