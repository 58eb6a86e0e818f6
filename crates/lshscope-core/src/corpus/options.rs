//! What a corpus read is asked to do and what it reports: the format, columns, quoting,
//! limit, sample and skip rules, and the counts of what happened to each line.

use crate::terms::Message;

/// How documents are laid out in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum InputFormat {
    /// Decide from the extension (after `.gz` / `.zst`); a directory is `Dir`; stdin is `Text`.
    #[default]
    Auto,
    /// One document per line; id = line number from 1.
    Text,
    /// Comma-separated values; fields in double quotes by default.
    Csv,
    /// Tab-separated values; no quoting by default.
    Tsv,
    /// JSON Lines: one object per line, the text and id in named fields.
    Jsonl,
    /// Every regular file below a directory is one document; id = its relative path.
    Dir,
    /// Apache Parquet, read natively (only the text and id columns, row group by row group).
    Parquet,
}

/// A CSV/TSV column: a header name, or a 1-based index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ColumnSpec {
    /// The column whose header is this name.
    Name(String),
    /// The column at this position, counting from 1.
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

/// Quoting in CSV/TSV fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Quote {
    /// RFC 4180: a field starting with `"` runs to the closing `"`; `""` is a literal quote;
    /// the field may hold delimiters and line breaks. The CSV default.
    Double,
    /// No quoting: a field is everything between two delimiters, quotes included. The TSV
    /// default (IANA text/tab-separated-values).
    None,
}

/// Options for [`read_corpus`](crate::corpus::read_corpus).
#[derive(Debug, Clone)]
pub struct ReadOptions {
    /// The file format, or [`InputFormat::Auto`] to decide from the path.
    pub format: InputFormat,
    /// CSV/TSV: the first row is a header, unless it cannot be one (a field of over 100
    /// characters, a sentence, …: see `sniff_header`) and no column is named by
    /// `text_column`/`id_column`; then it is data and the report's warnings say so. `false`
    /// (`--no-headers`): the first row is data.
    pub has_headers: bool,
    /// CSV/TSV/Parquet text column; default: the column named `text`, else the only column
    /// that could hold it (several are an error; see `default_columns`), or the last one when
    /// there is no header.
    pub text_column: Option<ColumnSpec>,
    /// CSV/TSV/Parquet id column; default: the column named `id`, else the row number; without
    /// a header, in a file of two columns, the first (`id<TAB>text` dumps).
    pub id_column: Option<ColumnSpec>,
    /// CSV/TSV quoting; `None` means the format's default (CSV double, TSV none).
    pub quote: Option<Quote>,
    /// JSON Lines field holding the text (default `text`).
    pub text_field: Option<String>,
    /// JSON Lines field holding the id (default `id`; the line number when no line has it).
    pub id_field: Option<String>,
    /// CSV/TSV/JSON Lines/Parquet: name every document by its row (line) number, as when the
    /// input has no id, even where it has an id column or field: for inputs whose ids repeat
    /// (commands that act on ids refuse those) or are not wanted.
    pub row_ids: bool,
    /// Keep only the first N documents.
    pub limit: Option<usize>,
    /// Keep a uniform reservoir sample of N documents (reproducible with `seed`).
    pub sample: Option<usize>,
    /// Seed of the reservoir sample; the same seed and input give the same documents.
    pub seed: u64,
    /// Skip malformed rows instead of failing.
    pub skip_bad: bool,
    /// Fail wherever the read would only warn (every [`ReadReport::warnings`] entry: no
    /// documents, bytes that are not UTF-8, a text column or row-number ids taken by default,
    /// a first row that is not a header, a file that looks like another format, tables inside
    /// a directory): for pipelines, which should stop on an input that may not have been read
    /// as meant rather than write well-formed outputs of the wrong documents. Repeated ids are
    /// counted, not judged: a face whose output names documents by id stops on them.
    pub strict: bool,
    /// Directory input: include hidden files and directories (names starting with `.`).
    pub hidden: bool,
    /// Directory input: do not honour `.gitignore`, `.ignore` and `.git/info/exclude`.
    pub no_ignore: bool,
    /// Keep where each document was read from in [`ReadReport::document_lines`], for a face
    /// whose message points at particular documents of the input. Off by default: it costs 8
    /// bytes a document that most reads never use.
    pub keep_lines: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            format: InputFormat::Auto,
            has_headers: true,
            text_column: None,
            id_column: None,
            quote: None,
            text_field: None,
            id_field: None,
            row_ids: false,
            limit: None,
            sample: None,
            seed: 1,
            skip_bad: false,
            strict: false,
            hidden: false,
            no_ignore: false,
            keep_lines: false,
        }
    }
}

/// What reading found, for the summary.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct ReadReport {
    /// The format actually read (never [`InputFormat::Auto`]).
    pub format: InputFormat,
    /// Documents kept.
    pub documents: usize,
    /// Malformed rows skipped under `skip_bad`.
    pub skipped: usize,
    /// Line numbers of the first few skipped rows (left out of the JSON when no row was
    /// skipped, as when only files of a directory were).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_lines: Vec<u64>,
    /// Documents whose bytes were not valid UTF-8 and were decoded lossily.
    pub lossy_utf8: usize,
    /// Documents whose text is empty (kept, never collide).
    pub empty: usize,
    /// Input bytes read (after decompression).
    pub bytes: u64,
    /// The explorer's index cache ([`crate::pipeline::cache`]): that the corpus was read from
    /// it, or why it was rebuilt. `None` when no cache was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_note: Option<String>,
    /// Documents read from the input before `sample` chose among them (equals `documents`
    /// without sampling; counts rows up to `limit` when both are given).
    pub rows_read: usize,
    /// `gzip`, `zstd`, `bzip2` or `xz` when the input was decompressed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compression: Option<&'static str>,
    /// Directory input under `skip_bad`: the first few files that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped_files: Vec<String>,
    /// How the physical lines read became rows (0 for directory input). For every line
    /// format: `lines = header_lines + blank_lines + continuation_lines + rows_read +
    /// skipped`.
    pub lines: LineCounts,
    /// Documents whose id repeats the id of an earlier document.
    pub duplicate_ids: usize,
    /// The first few repeated ids, in order of their first repetition, as messages quote them
    /// ([`crate::io::excerpt::excerpt`]).
    pub duplicate_id_examples: Vec<String>,
    /// How many different ids repeat (at most `duplicate_ids`): whether the examples are all
    /// of them.
    #[serde(skip)]
    pub repeated_id_values: usize,
    /// Advice about how the input was read that did not stop the read: stdin that looks like
    /// CSV read as text lines, a CSV read as TSV (or the reverse), a text column chosen by
    /// default, ids numbered by row when a column looks like an id, no documents at all. The
    /// CLI prints each as a `warning:`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Message>,
    /// Under [`ReadOptions::keep_lines`], by document position: the 1-based line its row
    /// starts on (Parquet: its 1-based row; a file of a directory: 0, its id names it). Empty
    /// otherwise.
    #[serde(skip)]
    pub document_lines: Vec<u64>,
}

impl ReadReport {
    /// The report of a corpus that was not read here (an index file, the cache, or made in
    /// memory): every document one row, its repeated ids counted as a read counts them.
    pub fn of_corpus(corpus: &super::Corpus) -> ReadReport {
        let mut report = ReadReport {
            documents: corpus.len(),
            rows_read: corpus.len(),
            ..Default::default()
        };
        report.count_repeated_ids(corpus);
        report
    }

    /// Counts `corpus`'s repeated ids into this report (0.1 s at a million documents).
    pub(crate) fn count_repeated_ids(&mut self, corpus: &super::Corpus) {
        let repeated = super::RepeatedIds::find(corpus);
        self.duplicate_ids = repeated.repeats();
        self.duplicate_id_examples = repeated.examples().to_vec();
        self.repeated_id_values = repeated.values();
    }

    /// `N documents repeat an earlier id (first: a, "", …)`: how many, and the first few ids
    /// as messages show them; what every face says of repeated ids begins with it.
    pub fn repeated_ids(&self) -> String {
        super::repeated::phrase(
            self.duplicate_ids,
            self.repeated_id_values,
            &self.duplicate_id_examples,
        )
    }
}

/// Physical lines of a line-based input, by what became of them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct LineCounts {
    /// Lines read (up to the last row taken under `limit`).
    pub physical: u64,
    /// Lines of the CSV/TSV header row.
    pub header: u64,
    /// Blank lines between rows, skipped (CSV, TSV, JSON Lines; in text input a blank line is
    /// an empty document).
    pub blank: u64,
    /// Lines after the first of a row whose quoted field spans several lines (CSV, or TSV
    /// with `--quote double`), including those of skipped rows.
    pub continuation: u64,
}

/// How many repeated ids the report keeps as examples.
pub const DUPLICATE_IDS_KEPT: usize = 5;

/// How many skipped line numbers (and file names) the report keeps.
pub const SKIPPED_LINES_KEPT: usize = 10;

/// Rows between two cancellation checks.
pub(super) const CHECK_EVERY: u64 = 4096;

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
