//! What every reader shares: numbered physical lines, text decoding, and the [`Sink`] that
//! applies `--limit`, `--sample` and `--skip-bad` the same way for every format.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use super::Corpus;
use super::options::{
    CHECK_EVERY, InputFormat, LineCounts, ReadOptions, ReadReport, SKIPPED_LINES_KEPT,
};
use super::sample::Reservoir;
use super::source::read_error;
use crate::jobs::Progress;
use crate::terms::Message;
use crate::terms::Setting::{Hidden, NoIgnore, SkipBad, Strict};
use crate::{Error, Result};

/// A physical line: (1-based number, content, the line ending removed from it).
pub(super) type RawLine<'a> = (u64, &'a [u8], &'a [u8]);

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
        Ok(self
            .next_line_and_ending(progress)?
            .map(|(number, content, _)| (number, content)))
    }

    /// Physical lines read so far.
    pub(super) fn count(&self) -> u64 {
        self.number
    }

    /// The next line as (number, content, ending): the ending is the `\n` or `\r\n` removed
    /// from the content (empty on a last line without one), for readers that keep line breaks
    /// inside quoted fields.
    pub(super) fn next_line_and_ending(
        &mut self,
        progress: &Progress,
    ) -> Result<Option<RawLine<'_>>> {
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
        let full = content.len();
        if let Some(rest) = content.strip_suffix(b"\n") {
            content = rest;
        }
        if let Some(rest) = content.strip_suffix(b"\r") {
            content = rest;
        }
        let ending = &self.buf[content.len()..full];
        if self.number == 1 {
            content = strip_bom(content);
        }
        Ok(Some((self.number, content, ending)))
    }
}

/// One document per line; id = line number from 1. Returns the bytes read.
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

/// Where readers put documents: applies `limit`, `sample` and `skip_bad` the same way for
/// every format, and appends kept documents to the corpus arenas.
pub(super) struct Sink {
    pub(super) corpus: Corpus,
    name: PathBuf,
    /// Documents still allowed by `limit`.
    remaining: usize,
    reservoir: Option<Reservoir>,
    /// `limit` (unlimited: `usize::MAX`) and `sample` (size, seed), to start again from.
    limit: usize,
    sample: Option<(usize, u64)>,
    skip_bad: bool,
    strict: bool,
    offered: usize,
    lossy: usize,
    /// The id of the first document kept that was decoded lossily, for the warning.
    first_lossy: Option<String>,
    skipped: usize,
    skipped_lines: Vec<u64>,
    skipped_files: Vec<String>,
    /// Filled by the line-based readers.
    pub(super) lines: LineCounts,
    /// Advice for the report (a column chosen by default, ids numbered by row).
    pub(super) warnings: Vec<String>,
    /// Under `keep_lines`, the line (Parquet: row) of each document in the corpus.
    document_lines: Option<Vec<u64>>,
}

impl Sink {
    pub(super) fn new(name: &Path, opts: &ReadOptions) -> Self {
        let limit = opts.limit.unwrap_or(usize::MAX);
        Sink {
            corpus: Corpus::new(),
            name: name.to_path_buf(),
            remaining: limit,
            reservoir: opts.sample.map(|n| Reservoir::new(n, opts.seed)),
            limit,
            sample: opts.sample.map(|n| (n, opts.seed)),
            skip_bad: opts.skip_bad,
            strict: opts.strict,
            offered: 0,
            lossy: 0,
            first_lossy: None,
            skipped: 0,
            skipped_lines: Vec::new(),
            skipped_files: Vec::new(),
            lines: LineCounts::default(),
            warnings: Vec::new(),
            document_lines: opts.keep_lines.then(Vec::new),
        }
    }

    pub(super) fn name(&self) -> &Path {
        &self.name
    }

    /// `limit` documents were taken: the reader can stop.
    pub(super) fn is_full(&self) -> bool {
        self.remaining == 0
    }

    /// Offers a document read from `line` (Parquet: the row; 0 for a file of a directory).
    pub(super) fn push(&mut self, line: u64, id: &str, text: &str, lossy: bool) {
        debug_assert!(self.remaining > 0);
        self.remaining -= 1;
        self.offered += 1;
        match &mut self.reservoir {
            None => {
                self.corpus.push(id, text);
                if let Some(lines) = &mut self.document_lines {
                    lines.push(line);
                }
                self.count_lossy(id, lossy);
            }
            Some(reservoir) => {
                if let Some(slot) = reservoir.offer() {
                    slot.line = line;
                    slot.id.clear();
                    slot.id.push_str(id);
                    slot.text.clear();
                    slot.text.push_str(text);
                    slot.lossy = lossy;
                }
            }
        }
    }

    /// Counts a document kept (`id`) that was decoded lossily, remembering the first.
    fn count_lossy(&mut self, id: &str, lossy: bool) {
        if lossy {
            self.lossy += 1;
            self.first_lossy.get_or_insert_with(|| id.to_string());
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

    /// Every document pushed so far turns out to be malformed (JSON Lines lines numbered by
    /// line before a later line showed that the file has ids): `error` (about the first of
    /// them), or under `skip_bad` they are taken back and counted as skipped, `first_lines`
    /// holding the first few of their lines, as if they had never been offered (the sample's
    /// draws restart, so the sample is the one a read without them would take).
    pub(super) fn take_back_all_as_bad(&mut self, first_lines: &[u64], error: Error) -> Result<()> {
        if !self.skip_bad {
            return Err(error);
        }
        self.skipped += self.offered;
        self.skipped_lines.extend_from_slice(first_lines);
        self.skipped_lines.sort_unstable();
        self.skipped_lines.truncate(SKIPPED_LINES_KEPT);
        self.corpus.clear();
        if let Some(lines) = &mut self.document_lines {
            lines.clear();
        }
        self.reservoir = self.sample.map(|(n, seed)| Reservoir::new(n, seed));
        self.remaining = self.limit;
        self.offered = 0;
        self.lossy = 0;
        self.first_lossy = None;
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

    /// The corpus read and its report; under `strict`, an error where the report warns.
    pub(super) fn finish(mut self, report: &mut ReadReport) -> Result<Corpus> {
        if let Some(reservoir) = self.reservoir.take() {
            for slot in reservoir.into_input_order() {
                self.corpus.push(&slot.id, &slot.text);
                if let Some(lines) = &mut self.document_lines {
                    lines.push(slot.line);
                }
                self.count_lossy(&slot.id, slot.lossy);
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
        report.lines = self.lines;
        report.document_lines = self.document_lines.take().unwrap_or_default();
        report.count_repeated_ids(&corpus);
        report
            .warnings
            .extend(self.warnings.drain(..).map(Message::from));
        if let Some(id) = &self.first_lossy {
            report
                .warnings
                .push(lossy_warning(&self.name, self.lossy, id).into());
        }
        if corpus.is_empty() {
            report
                .warnings
                .push(no_documents_warning(&self.name, report).into());
        }
        if self.strict {
            strict_check(report)?;
        }
        Ok(corpus)
    }
}

/// Under `strict`, the first thing the read would warn about as an error, with how many more
/// there were. A usage error, not an input error at a line: every warning already names the
/// file, and the input is not malformed, only not what `strict` accepts. Repeated ids are not
/// judged here: whether they matter depends on whether the output names documents by id,
/// which the face knows ([`ReadReport::duplicate_ids`] counts them).
fn strict_check(report: &ReadReport) -> Result<()> {
    use crate::util::numfmt::{for_count, thousands};
    let Some((first, rest)) = report.warnings.split_first() else {
        return Ok(());
    };
    let more = rest.len() as u64;
    let more = if more == 0 {
        String::new()
    } else {
        format!(
            " ({} more {} without {Strict})",
            thousands(more),
            for_count(
                more,
                "thing would have been a warning",
                "things would have been warnings"
            )
        )
    };
    Err(Error::usage(format!(
        "{}; {Strict} stops here{more}",
        first.tokens()
    )))
}

/// Documents whose bytes were not UTF-8 are read, each bad byte as U+FFFD, and counted in the
/// summary; this says which one first, so the user can find it, and what to do.
fn lossy_warning(name: &Path, count: usize, first_id: &str) -> String {
    use crate::util::numfmt::{for_count, thousands};
    let count = count as u64;
    format!(
        "{}: {} {} bytes that are not valid UTF-8 (first id: {}), read with each such byte as \
         U+FFFD; re-encode the file as UTF-8 (from Latin-1: `iconv -f latin1 -t utf-8`) to \
         shingle the text it holds",
        name.display(),
        thousands(count),
        for_count(count, "document has", "documents have"),
        crate::io::excerpt::excerpt(first_id)
    )
}

/// `no documents in FILE: why`. An empty input is not an error (an empty shard of a dataset
/// is normal, and every output is still well formed), but it is rarely what was meant; a
/// pipeline that wants it to stop passes `strict`.
fn no_documents_warning(name: &Path, report: &ReadReport) -> String {
    let lines = report.lines;
    let why = if report.skipped > 0 {
        let (what, bad) = if report.format == InputFormat::Dir {
            ("file", "unreadable")
        } else {
            ("row", "malformed")
        };
        if report.skipped == 1 {
            format!("its only {what} was {bad} and skipped ({SkipBad})")
        } else {
            format!(
                "all {} {what}s were {bad} and skipped ({SkipBad})",
                crate::util::numfmt::thousands(report.skipped as u64)
            )
        }
    } else if report.format == InputFormat::Dir {
        format!(
            "it holds no file to read (hidden files and those ignore files exclude are left \
             out: see {Hidden} and {NoIgnore})"
        )
    } else if report.format == InputFormat::Parquet {
        "the file has no rows".to_string()
    } else if report.bytes == 0 {
        "it is empty".to_string()
    } else if lines.header > 0 {
        "it holds only a header row".to_string()
    } else {
        "it holds only blank lines".to_string()
    };
    format!("no documents in {}: {why}", name.display())
}
