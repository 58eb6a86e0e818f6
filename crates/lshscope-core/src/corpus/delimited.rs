//! CSV and TSV with our own line-based splitter, so that every physical line is accounted for
//! and a quote that never closes is reported instead of swallowing the rest of the file.
//!
//! Quoting ([`Quote`]) is per format: CSV defaults to RFC 4180 double quotes (a field that
//! starts with `"` runs to the matching `"`, `""` inside it is one quote, and it may hold the
//! delimiter and line breaks); TSV defaults to none, as the IANA text/tab-separated-values
//! format, `cut` and PostgreSQL's text COPY read it: a field is everything between two tabs and
//! a leading `"` is an ordinary character. Field counts are strict, so a ragged row is reported
//! (or skipped under `--skip-bad`) rather than misread. Completely blank lines between rows
//! are skipped and counted.
//!
//! A quoted field may not span more than [`MAX_QUOTED_LINES`] lines or [`MAX_QUOTED_BYTES`]
//! bytes, nor be open at the end of the input: either is a malformed row naming the line where
//! the quote opened. Nor may text follow its closing quote (`"abc"def`): RFC 4180 ends a quoted
//! field at its closing quote, and taking the rest literally, as the `csv` crate and Python do,
//! would silently drop the quotes and glue two pieces of text together; it is a malformed row
//! naming the line and column of that text. Under `--skip-bad` either row is dropped and
//! reading resumes at the line after the one where the quote opened, so the lines a stray
//! quote swallowed are read again.
//!
//! The header row is the exception: it cannot be skipped, since the next row would silently
//! become the header (wrong column names, one document lost). A malformed quoted field in it
//! is an error even under `--skip-bad`, saying so; under `--no-headers` the first row is a
//! data row like any other. A first row that cannot be a header (`sniff_header`: a document
//! of hundreds of characters in front of its id) is read as data, with a note; without a
//! header, two columns are the id and the text, as `id<TAB>text` dumps are written.

use std::collections::VecDeque;
use std::io::BufRead;
use std::path::Path;

use super::ColumnSpec;
use super::default_columns::{TEXT, TableColumns};
use super::options::{Quote, ReadOptions};
use super::sink::{Lines, RawLine, Sink, decode, number_id};
use crate::io::excerpt::{excerpt_bytes, listing};
use crate::jobs::Progress;
use crate::terms::Setting::Quote as QuoteSetting;
use crate::terms::Setting::{self, Format, IdColumn, NoHeaders, SkipBad, TextColumn};
use crate::{Error, Result};

/// Longest quoted field, in physical lines: real multi-line texts (addresses, paragraphs)
/// stay far below it, a stray quote in an unquoted dump reaches it quickly.
pub const MAX_QUOTED_LINES: u64 = 10_000;
/// Longest quoted field, in bytes (16 MiB).
pub const MAX_QUOTED_BYTES: usize = 16 << 20;

/// Reads CSV (`delimiter = b','`) or TSV (`b'\t'`); returns the bytes read.
/// `warn_about_columns`: add warnings for a text column chosen by default and for ids numbered
/// by row (off when the file was already found to use another delimiter, which explains both).
pub(super) fn read(
    reader: &mut dyn BufRead,
    delimiter: u8,
    name: &Path,
    opts: &ReadOptions,
    warn_about_columns: bool,
    sink: &mut Sink,
    progress: &Progress,
) -> Result<u64> {
    let quote = opts.quote.unwrap_or(if delimiter == b'\t' {
        Quote::None
    } else {
        Quote::Double
    });
    let mut rows = Rows {
        lines: LineSource {
            lines: Lines::new(reader, name),
            replay: VecDeque::new(),
            current: Vec::new(),
        },
        splitter: Splitter {
            delimiter,
            quoted: quote == Quote::Double,
            out: Vec::with_capacity(4096),
            spans: Vec::new(),
            field_start: 0,
            state: State::FieldStart,
            open_line: 0,
            open_column: 0,
        },
        held: Vec::new(),
        held_bytes: Vec::new(),
        name,
        header: opts.has_headers,
    };

    // The header row is handled here, so that the first record of a header-less file goes
    // through the same column resolution as a header.
    let first = loop {
        match rows.next(progress, sink)? {
            Some(Row::Record(r)) => break Some(r),
            Some(Row::Skipped) => continue,
            None => break None,
        }
    };
    rows.header = false;
    let Some(first) = first else {
        sink.lines.physical = rows.lines.lines.count();
        return Ok(rows.lines.lines.bytes);
    };
    let ColumnChoice {
        count,
        has_headers,
        id_col,
        text_col,
    } = choose_columns(
        &rows.splitter,
        &first,
        delimiter,
        (name, opts),
        warn_about_columns,
        sink,
    )?;
    if has_headers {
        sink.lines.header += first.lines;
    }

    let first = (!has_headers).then_some(first);
    read_records(
        &mut rows,
        first,
        (count, has_headers),
        (id_col, text_col),
        sink,
        progress,
    )?;
    sink.lines.physical = rows.lines.lines.count();
    Ok(rows.lines.lines.bytes)
}

/// The columns of a delimited file: how many, whether the first row is a header, and where
/// the ids (`None`: numbered by row) and the texts are.
struct ColumnChoice {
    count: usize,
    has_headers: bool,
    id_col: Option<usize>,
    text_col: usize,
}

/// Chooses the columns from the first record (its fields in `splitter`): whether it is a
/// header, the id and text columns asked for or the fallbacks, with the warnings they call
/// for.
fn choose_columns(
    splitter: &Splitter,
    first: &Record,
    delimiter: u8,
    (name, opts): (&Path, &ReadOptions),
    warn_about_columns: bool,
    sink: &mut Sink,
) -> Result<ColumnChoice> {
    let count = splitter.spans.len();
    // A column named on the command line says the first row is a header; otherwise a first row
    // that cannot be one (a document of hundreds of characters, a sentence) is data.
    let names_a_column = matches!(opts.text_column, Some(ColumnSpec::Name(_)))
        || matches!(opts.id_column, Some(ColumnSpec::Name(_)));
    let not_a_header = if opts.has_headers && !names_a_column {
        let fields: Vec<&[u8]> = (0..count).map(|i| splitter.field(i)).collect();
        super::sniff_header::not_a_header(&fields)
    } else {
        None
    };
    let has_headers = opts.has_headers && not_a_header.is_none();
    let headers: Option<Vec<String>> = has_headers.then(|| {
        (0..count)
            .map(|i| {
                String::from_utf8_lossy(splitter.field(i))
                    .trim()
                    .to_string()
            })
            .collect()
    });
    let columns = Columns {
        count,
        headers: headers.as_deref(),
        delimiter,
    };
    let header_line = first.line;
    let named_id = columns
        .resolve(opts.id_column.as_ref(), "id", IdColumn)
        .map_err(|m| Error::input(name, header_line, m))?;
    // Row numbers asked for: the id column is read as no column at all, but is still not
    // taken for the text.
    let id_col = named_id.filter(|_| !opts.row_ids);
    let named_text = columns
        .resolve(opts.text_column.as_ref(), TEXT, TextColumn)
        .map_err(|m| Error::input(name, header_line, m))?;
    let text_col = match &headers {
        // Without a header the columns have no names to choose by or to show: the last one.
        None => named_text.unwrap_or(count - 1),
        Some(headers) => {
            let table = TableColumns {
                names: headers.iter().map(String::as_str).collect(),
                can_hold_text: vec![true; count],
                can_hold_id: vec![true; count],
            };
            let text_col = match named_text {
                Some(c) => c,
                None => {
                    let (c, warning) = table.fallback_text(name, named_id).map_err(|m| {
                        Error::input(name, header_line, no_headers_hint(m, headers))
                    })?;
                    sink.warnings.extend(warn_about_columns.then_some(warning));
                    c
                }
            };
            if id_col.is_none() && warn_about_columns && !opts.row_ids {
                sink.warnings
                    .extend(table.numbered_ids_warning(name, text_col));
            }
            text_col
        }
    };
    // `id<TAB>text` with no header: two columns are an id and a text, the most common dump.
    let id_col = match id_col {
        None if headers.is_none()
            && opts.id_column.is_none()
            && !opts.row_ids
            && count == 2
            && text_col == 1 =>
        {
            Some(0)
        }
        c => c,
    };
    if let Some(reason) = not_a_header
        && warn_about_columns
    {
        sink.warnings.push(format!(
            "{}: the first row does not look like a header ({reason}), so it is read as data \
             and the file as having no header row: {}; pass {NoHeaders} to say so, or, if \
             that row is a header, name the text column with {TextColumn} NAME",
            name.display(),
            headerless_columns(count, id_col, text_col)
        ));
    }
    Ok(ColumnChoice {
        count,
        has_headers,
        id_col,
        text_col,
    })
}

/// Reads the records after the header (from `first` when the first row is data) into `sink`,
/// each checked to have `count` fields.
fn read_records(
    rows: &mut Rows<'_>,
    first: Option<Record>,
    (count, has_headers): (usize, bool),
    (id_col, text_col): (Option<usize>, usize),
    sink: &mut Sink,
    progress: &Progress,
) -> Result<()> {
    let name = rows.name;
    let mut pending = first;
    let mut row = 0u64;
    let mut id_buf = String::new();
    // Unquoted reading (TSV's default) of texts wrapped in quotes: a file quoted as Python's
    // csv module and pandas write TSV, whose quotes would be read as text.
    let mut wrapped_texts = 0u64;
    while !sink.is_full() {
        let record = match pending.take() {
            Some(r) => r,
            None => match rows.next(progress, sink)? {
                Some(Row::Record(r)) => r,
                Some(Row::Skipped) => continue,
                None => break,
            },
        };
        if rows.splitter.spans.len() != count {
            let len = rows.splitter.spans.len();
            // A quoted text with a line break, read unquoted, ends its row early and leaves the
            // rest of the text as a row of its own.
            let quoting_hint = !rows.splitter.quoted
                && (wrapped_texts > 0
                    || (0..len).any(|i| rows.splitter.field(i).starts_with(b"\"")));
            let message = format!(
                "row has {len} {} but the {} has {count}; {}fix the row{}, or pass \
                 {SkipBad} to skip such rows",
                crate::util::numfmt::for_count(len as u64, "field", "fields"),
                if has_headers { "header" } else { "first row" },
                if quoting_hint {
                    format!(
                        "fields of this file begin with `\"`: if it quotes its fields (Python's \
                         csv module and pandas quote TSV so), pass {QuoteSetting} double; else "
                    )
                } else {
                    String::new()
                },
                if rows.splitter.quoted {
                    " (quote fields that contain the delimiter, quotes or line breaks)"
                } else {
                    ""
                },
            );
            sink.lines.continuation += record.lines - 1;
            sink.bad_row(record.line, Error::input(name, record.line, message))?;
            continue;
        }
        sink.lines.continuation += record.lines - 1;
        row += 1;
        let raw_text = rows.splitter.field(text_col);
        if !rows.splitter.quoted
            && raw_text.len() >= 2
            && raw_text.starts_with(b"\"")
            && raw_text.ends_with(b"\"")
        {
            wrapped_texts += 1;
        }
        let (text, text_lossy) = decode(raw_text);
        let (id, id_lossy) = match id_col {
            Some(c) => {
                let (id, lossy) = decode(rows.splitter.field(c));
                // Ids are compared and printed; stray spaces around them are never meant.
                match id {
                    std::borrow::Cow::Borrowed(s) => (std::borrow::Cow::Borrowed(s.trim()), lossy),
                    std::borrow::Cow::Owned(s) => {
                        (std::borrow::Cow::Owned(s.trim().to_string()), lossy)
                    }
                }
            }
            None => (
                std::borrow::Cow::Borrowed(number_id(&mut id_buf, row)),
                false,
            ),
        };
        sink.push(record.line, &id, &text, text_lossy || id_lossy);
    }
    if wrapped_texts * 2 > row {
        sink.warnings
            .push(quoted_file_warning(name, wrapped_texts, row));
    }
    Ok(())
}

/// The warning for a file read without quoting whose texts are mostly wrapped in `"`: their
/// quotes, and any `""` inside them, are read as part of the texts, and shingled.
fn quoted_file_warning(name: &Path, wrapped: u64, rows: u64) -> String {
    use crate::util::numfmt::thousands;
    format!(
        "{}: {} of {} texts begin and end with `\"`, and the file is read without quoting, so \
         the quotes are part of the texts: it looks quoted (Python's csv module and pandas quote \
         TSV so); pass {QuoteSetting} double to read them as quoting",
        name.display(),
        thousands(wrapped),
        thousands(rows)
    )
}

/// A complete record: the line it starts on and how many physical lines it spans. Its fields
/// are in the splitter.
struct Record {
    line: u64,
    lines: u64,
}

enum Row {
    Record(Record),
    /// A row with a malformed quoted field under `--skip-bad`: counted in the sink, nothing to
    /// use.
    Skipped,
}

/// `message`, about a column not found in `headers`, with the advice for a file that has
/// none (its first document may have been taken for column names), unless a column is named
/// like one the readers look for (`id`, `text`): then the header is real.
fn no_headers_hint(message: String, headers: &[String]) -> String {
    if headers
        .iter()
        .any(|h| super::sniff_header::names_a_column(h))
    {
        return message;
    }
    format!(
        "{message}; if the file has no header row (its first row is a document), pass \
         {NoHeaders}"
    )
}

/// Which columns a file without a header is read from, for the note.
fn headerless_columns(count: usize, id_col: Option<usize>, text_col: usize) -> String {
    let id = match id_col {
        Some(c) => format!("column {} is the id", c + 1),
        None => "documents are numbered by row (1, 2, …)".to_string(),
    };
    let text = if count == 1 {
        "its one column is the text".to_string()
    } else {
        format!("column {} of {count} is the text", text_col + 1)
    };
    let choose = if count > 2 {
        format!(" (choose others with {TextColumn} and {IdColumn} INDEX)")
    } else {
        String::new()
    };
    format!("{text}, {id}{choose}")
}

/// Physical lines, from the reader or, after a malformed quoted field, replayed from memory.
struct LineSource<'r> {
    lines: Lines<'r>,
    /// Lines to read again (number, content, ending length), oldest first.
    replay: VecDeque<(u64, Vec<u8>, usize)>,
    current: Vec<u8>,
}

impl LineSource<'_> {
    fn next(&mut self, progress: &Progress) -> Result<Option<RawLine<'_>>> {
        if let Some((number, bytes, ending)) = self.replay.pop_front() {
            self.current = bytes;
            let split = self.current.len() - ending;
            let (content, ending) = self.current.split_at(split);
            return Ok(Some((number, content, ending)));
        }
        self.lines.next_line_and_ending(progress)
    }
}

struct Rows<'r> {
    lines: LineSource<'r>,
    splitter: Splitter,
    /// Lines after the first of the record being assembled: what is read again when a quoted
    /// field turns out to be malformed (runs away, or has text after its closing quote).
    /// (line number, end of its content, end of its ending) in `held_bytes`; one buffer for
    /// all, so multi-line rows cost no allocation per line.
    held: Vec<(u64, usize, usize)>,
    held_bytes: Vec<u8>,
    name: &'r Path,
    /// The record being read is the header row: a malformed one is an error even under
    /// `--skip-bad`, since skipping it would make the next row the header.
    header: bool,
}

/// The end of the message for a malformed quoted field in the header row, in place of
/// "fix the row or pass --skip-bad".
fn header_cannot_be_skipped() -> String {
    format!(
        "the header row cannot be skipped, not even under {SkipBad} (the next row would be \
         taken for the header and its column names would be wrong); if the file has no header \
         row, pass {NoHeaders}"
    )
}

impl Rows<'_> {
    /// The next non-blank record, its fields in the splitter.
    fn next(&mut self, progress: &Progress, sink: &mut Sink) -> Result<Option<Row>> {
        self.held.clear();
        self.held_bytes.clear();
        let (first_line, mut last_line, mut crlf) = loop {
            let Some((number, content, ending)) = self.lines.next(progress)? else {
                return Ok(None);
            };
            if content.is_empty() {
                sink.lines.blank += 1;
                continue;
            }
            self.splitter.begin();
            match self.splitter.feed(content, number) {
                Fed::Complete => {
                    return Ok(Some(Row::Record(Record {
                        line: number,
                        lines: 1,
                    })));
                }
                Fed::QuoteOpen => break (number, number, ending == b"\r\n"),
                Fed::TextAfterQuote(stray) => {
                    let error = self.text_after_quote(number, &stray);
                    return self.bad_quoted_row(number, error, sink);
                }
            }
        };
        // A quoted field continues on the next lines.
        loop {
            let too_long = last_line - self.splitter.open_line >= MAX_QUOTED_LINES
                || self.splitter.out.len() > MAX_QUOTED_BYTES;
            let next = if too_long {
                None
            } else {
                self.lines.next(progress)?
            };
            let Some((number, content, ending)) = next else {
                let open = self.splitter.open_line;
                let what = if too_long {
                    format!(
                        "spans more than {MAX_QUOTED_LINES} lines or {} MiB",
                        MAX_QUOTED_BYTES >> 20
                    )
                } else {
                    "is still open at the end of the input".to_string()
                };
                let message = if self.header {
                    format!(
                        "a quoted field of the header row opened on this line {what}; a `\"` at \
                         the start of a field begins a quoted field: if quotes in this file are \
                         ordinary characters, pass {QuoteSetting} none, else fix the quoting of the \
                         header; {}",
                        header_cannot_be_skipped()
                    )
                } else {
                    format!(
                        "a quoted field opened on this line {what}; a `\"` at the start of a \
                         field begins a quoted field: if quotes in this file are ordinary \
                         characters, pass {QuoteSetting} none, else fix the row or pass {SkipBad} to \
                         skip it"
                    )
                };
                let column = self.splitter.open_column;
                let error = Error::input_at(self.name, open, column, message);
                return self.bad_quoted_row(first_line, error, sink);
            };
            last_line = number;
            // The line break belongs to the quoted field: keep it as it was written.
            self.splitter
                .out
                .extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
            crlf = ending == b"\r\n";
            self.held_bytes.extend_from_slice(content);
            let content_end = self.held_bytes.len();
            self.held_bytes.extend_from_slice(ending);
            self.held.push((number, content_end, self.held_bytes.len()));
            match self.splitter.feed(content, number) {
                Fed::Complete => {
                    return Ok(Some(Row::Record(Record {
                        line: first_line,
                        lines: last_line - first_line + 1,
                    })));
                }
                Fed::QuoteOpen => {}
                Fed::TextAfterQuote(stray) => {
                    let error = self.text_after_quote(number, &stray);
                    return self.bad_quoted_row(first_line, error, sink);
                }
            }
        }
    }

    /// A row made malformed by its last quoted field, the one opened on the splitter's
    /// `open_line` (the row began on `first_line`): `error`, or under `--skip-bad` a skipped
    /// row at that line. Every line read after it is read again: when the quote was a stray,
    /// the lines it swallowed are rows of their own. The header row is never skipped.
    fn bad_quoted_row(
        &mut self,
        first_line: u64,
        error: Error,
        sink: &mut Sink,
    ) -> Result<Option<Row>> {
        if self.header {
            return Err(error);
        }
        let open = self.splitter.open_line;
        sink.lines.continuation += open - first_line;
        sink.bad_row(open, error)?;
        let mut start = 0;
        for &(number, content_end, end) in &self.held {
            if number > open {
                let raw = self.held_bytes[start..end].to_vec();
                self.lines
                    .replay
                    .push_back((number, raw, end - content_end));
            }
            start = end;
        }
        // Lines still waiting to be replayed (from an earlier bad quote) come after.
        let fresh = self.held.iter().filter(|h| h.0 > open).count();
        self.lines
            .replay
            .rotate_left(self.lines.replay.len() - fresh);
        Ok(Some(Row::Skipped))
    }

    /// The error for text after the closing quote of the field opened on the splitter's
    /// `open_line`, met on `line`.
    fn text_after_quote(&self, line: u64, stray: &Stray) -> Error {
        let open = self.splitter.open_line;
        let opened = if open < line {
            format!(" opened on line {open}")
        } else {
            String::new()
        };
        let (field, fix) = if self.header {
            (
                " of the header row",
                format!(
                    "fix the quoting of the header (inside a quoted field a quote is written \
                     twice, `\"\"`); {}",
                    header_cannot_be_skipped()
                ),
            )
        } else {
            (
                "",
                format!(
                    "fix the row (inside a quoted field a quote is written twice, `\"\"`) or \
                     pass {SkipBad} to skip it"
                ),
            )
        };
        let message = format!(
            "text follows the closing quote of a quoted field{field}{opened}: `{}`; a quoted \
             field ends at its closing quote, before a delimiter or the line end (RFC 4180), so \
             this text would be glued to it: if quotes in this file are ordinary characters, \
             pass {QuoteSetting} none, else {fix}",
            stray.text
        );
        Error::input_at(self.name, line, stray.column, message)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// At the first byte of a field.
    FieldStart,
    /// Inside an unquoted field (a `"` in it is an ordinary character).
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a `"` inside a quoted field: `"` again is an escaped quote, the delimiter or
    /// the line end means the field closed, anything else is text after the closing quote.
    QuoteSeen,
}

/// What feeding a line to the [`Splitter`] found.
enum Fed {
    /// The record is complete: its fields are in the splitter.
    Complete,
    /// A quoted field is still open at the end of the line: the record continues on the next.
    QuoteOpen,
    /// Text follows the closing quote of a quoted field: the record is malformed.
    TextAfterQuote(Stray),
}

/// Text after a closing quote, for the message.
struct Stray {
    /// 1-based column of its first character.
    column: u64,
    /// The text up to the next delimiter, shortened ([`excerpt_bytes`]).
    text: String,
}

impl Stray {
    /// The stray text starting at byte `start` of `line`.
    fn at(line: &[u8], start: usize, delimiter: u8) -> Self {
        let rest = &line[start..];
        let rest = &rest[..memchr::memchr(delimiter, rest).unwrap_or(rest.len())];
        Stray {
            column: column_at(line, start),
            text: excerpt_bytes(rest),
        }
    }
}

/// The 1-based column, in characters, of byte `index` of `line`: one plus the bytes before it
/// that do not continue a UTF-8 character.
fn column_at(line: &[u8], index: usize) -> u64 {
    line[..index].iter().filter(|&&b| b & 0xC0 != 0x80).count() as u64 + 1
}

/// Splits physical lines into the fields of one record, unescaping quoted fields into one
/// reused buffer.
struct Splitter {
    delimiter: u8,
    quoted: bool,
    /// Field bytes, back to back.
    out: Vec<u8>,
    /// Each field's range in `out`.
    spans: Vec<(usize, usize)>,
    /// Where the field being read starts in `out`.
    field_start: usize,
    state: State,
    /// Line of the quote that opened the field still open.
    open_line: u64,
    /// Its 1-based column, in characters.
    open_column: u64,
}

impl Splitter {
    fn begin(&mut self) {
        self.out.clear();
        self.spans.clear();
        self.field_start = 0;
        self.state = State::FieldStart;
    }

    fn field(&self, i: usize) -> &[u8] {
        let (start, end) = self.spans[i];
        &self.out[start..end]
    }

    /// Feeds one physical line (without its ending). While a quoted field is still open the
    /// caller appends the line break and feeds the next line.
    fn feed(&mut self, line: &[u8], number: u64) -> Fed {
        let d = self.delimiter;
        if !self.quoted || (self.state == State::FieldStart && memchr::memchr(b'"', line).is_none())
        {
            // No quoting in play: split on the delimiter.
            // Delimiters stay in `out` between the spans.
            let base = self.out.len();
            self.out.extend_from_slice(line);
            let mut start = base;
            for i in memchr::memchr_iter(d, line) {
                self.spans.push((start, base + i));
                start = base + i + 1;
            }
            self.spans.push((start, self.out.len()));
            return Fed::Complete;
        }
        let mut i = 0;
        while i < line.len() {
            match self.state {
                State::FieldStart => {
                    if line[i] == b'"' {
                        self.state = State::Quoted;
                        self.open_line = number;
                        self.open_column = column_at(line, i);
                        i += 1;
                    } else {
                        self.state = State::Unquoted;
                    }
                }
                State::Unquoted => match memchr::memchr(d, &line[i..]) {
                    Some(j) => {
                        self.out.extend_from_slice(&line[i..i + j]);
                        self.end_field();
                        i += j + 1;
                    }
                    None => {
                        self.out.extend_from_slice(&line[i..]);
                        i = line.len();
                    }
                },
                State::Quoted => match memchr::memchr(b'"', &line[i..]) {
                    Some(j) => {
                        self.out.extend_from_slice(&line[i..i + j]);
                        self.state = State::QuoteSeen;
                        i += j + 1;
                    }
                    None => {
                        self.out.extend_from_slice(&line[i..]);
                        i = line.len();
                    }
                },
                State::QuoteSeen => {
                    if line[i] == b'"' {
                        self.out.push(b'"');
                        self.state = State::Quoted;
                    } else if line[i] == d {
                        self.end_field();
                    } else {
                        return Fed::TextAfterQuote(Stray::at(line, i, d));
                    }
                    i += 1;
                }
            }
        }
        if self.state == State::Quoted {
            return Fed::QuoteOpen;
        }
        // The last field (empty after a delimiter at the end of the line).
        self.end_field();
        Fed::Complete
    }

    /// Closes the field being read at the end of `out`; the next byte starts a field.
    fn end_field(&mut self) {
        self.spans.push((self.field_start, self.out.len()));
        self.field_start = self.out.len();
        self.state = State::FieldStart;
    }
}

/// The columns of a CSV/TSV file, for resolving `--text-column` / `--id-column`.
struct Columns<'a> {
    count: usize,
    /// `None` under `--no-headers`.
    headers: Option<&'a [String]>,
    delimiter: u8,
}

impl Columns<'_> {
    /// The 0-based column for `spec`; with no spec, the column named `default_name` if there is
    /// one, else `Ok(None)` (the caller's default).
    fn resolve(
        &self,
        spec: Option<&ColumnSpec>,
        default_name: &str,
        flag: Setting,
    ) -> std::result::Result<Option<usize>, String> {
        match spec {
            Some(ColumnSpec::Index(i)) => {
                if *i >= 1 && *i <= self.count {
                    Ok(Some(i - 1))
                } else {
                    Err(format!(
                        "{flag} {i} is out of range: the first row has {} {}{}; use an \
                         index from 1 to {}",
                        self.count,
                        crate::util::numfmt::for_count(self.count as u64, "column", "columns"),
                        self.listing(),
                        self.count
                    ))
                }
            }
            Some(ColumnSpec::Name(wanted)) => match self.headers {
                None => Err(format!(
                    "{flag} `{wanted}` names a column, but with {NoHeaders} columns have no \
                     names; give a 1-based index (1 to {})",
                    self.count
                )),
                Some(headers) => self.find(headers, wanted).map(Some).ok_or_else(|| {
                    let hint = match (self.count, self.delimiter) {
                        (1, b',') => format!(
                            " (only one column was found: if the file is tab-separated, use \
                             {Format} tsv)"
                        ),
                        (1, _) => format!(
                            " (only one column was found: if the file is comma-separated, use \
                             {Format} csv)"
                        ),
                        _ => String::new(),
                    };
                    no_headers_hint(
                        format!(
                            "no column named `{wanted}`; columns are: {}{hint}; use {flag} with \
                             one of these names or a 1-based index",
                            listing(headers)
                        ),
                        headers,
                    )
                }),
            },
            None => Ok(self
                .headers
                .and_then(|headers| self.find(headers, default_name))),
        }
    }

    /// Exact match first, then ASCII case-insensitive (`Text` for `text`).
    fn find(&self, headers: &[String], wanted: &str) -> Option<usize> {
        headers
            .iter()
            .position(|h| h == wanted)
            .or_else(|| headers.iter().position(|h| h.eq_ignore_ascii_case(wanted)))
    }

    fn listing(&self) -> String {
        match self.headers {
            Some(h) => format!(" ({})", listing(h)),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::corpus::{Corpus, Quote, ReadOptions, ReadReport, read_corpus_from};
    use crate::jobs::Progress;
    use crate::{Error, Result};

    fn read(bytes: &[u8], name: &str, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
        read_corpus_from(bytes, Path::new(name), opts, &Progress::new())
    }

    fn ids(c: &Corpus) -> Vec<&str> {
        (0..c.len()).map(|i| c.id(i)).collect()
    }

    /// A malformed quoted field in the header row is an error with or without ``skip_bad``:
    /// skipping it would make the next row the header, with wrong column names and one
    /// document lost.
    #[test]
    fn a_bad_header_is_an_error_even_under_skip_bad() {
        for (input, name, quote, line, column, says) in [
            // Text after the closing quote of a header field.
            (
                &b"\"id\"x,text\n1,first\n2,second\n"[..],
                "x.csv",
                None,
                1,
                5,
                "text follows the closing quote of a quoted field of the header row: `x`",
            ),
            // A quote that never closes swallows the whole file.
            (
                b"\"id,text\n1,first\n2,second\n",
                "x.csv",
                None,
                1,
                1,
                "a quoted field of the header row opened on this line is still open at the end \
                 of the input",
            ),
            // Blank lines before the header: the line is still the header's.
            (
                b"\n\n\"id\"x,text\n1,first\n",
                "x.csv",
                None,
                3,
                5,
                "of the header row: `x`",
            ),
            // A header spanning lines whose second quoted field opens on line 2.
            (
                b"\"i\nd\",\"text\n1,first\n",
                "x.csv",
                None,
                2,
                4,
                "of the header row opened on this line is still open",
            ),
            // TSV with `quote` double follows the same rule.
            (
                b"\"id\"x\ttext\n1\tfirst\n",
                "x.tsv",
                Some(Quote::Double),
                1,
                5,
                "of the header row: `x`",
            ),
        ] {
            for skip_bad in [false, true] {
                let opts = ReadOptions {
                    skip_bad,
                    quote,
                    ..Default::default()
                };
                let Err(Error::Input {
                    line: l,
                    column: c,
                    message,
                    ..
                }) = read(input, name, &opts)
                else {
                    panic!("{input:?} (skip_bad {skip_bad}) should be an input error");
                };
                let message = crate::terms::render_neutral(&message);
                assert_eq!((l, c), (line, Some(column)), "{message}");
                assert!(message.contains(says), "{message}");
                assert!(
                    message.contains("fix the quoting of the header")
                        && message.contains("`quote` none")
                        && message.contains(
                            "the header row cannot be skipped, not even under `skip_bad`"
                        )
                        && message.contains("pass `has_headers = false`"),
                    "{message}"
                );
                // The advice for data rows would be wrong here.
                assert!(!message.contains("skip it"), "{message}");
            }
        }
    }

    /// The same input under ``has_headers = false``: the first row is data and can be skipped.
    #[test]
    fn a_bad_first_row_without_a_header_is_skipped_under_skip_bad() {
        let input = b"\"a\"x,first\nk2,second\nk3,third\n";
        let opts = ReadOptions {
            has_headers: false,
            skip_bad: true,
            id_column: Some(crate::corpus::ColumnSpec::Index(1)),
            ..Default::default()
        };
        let (c, r) = read(input, "x.csv", &opts).unwrap();
        assert_eq!(ids(&c), ["k2", "k3"]);
        assert_eq!((r.skipped, r.skipped_lines.clone()), (1, vec![1]));
        assert_eq!(r.lines.header, 0);

        // Without `skip_bad` it is a bad row, with the data-row advice.
        let opts = ReadOptions {
            skip_bad: false,
            ..opts
        };
        let Err(Error::Input { line, message, .. }) = read(input, "x.csv", &opts) else {
            panic!("should be an input error");
        };
        let message = crate::terms::render_neutral(&message);
        assert_eq!(line, 1);
        assert!(
            message.starts_with("text follows the closing quote of a quoted field: `x`")
                && message.contains("`skip_bad` to skip it"),
            "{message}"
        );
    }

    /// After a good header, bad rows are skipped and counted as before.
    #[test]
    fn a_bad_row_after_a_good_header_is_still_skipped() {
        let input = b"id,text\n1,\"abc\"def\n2,fine\n3,\"open\n";
        let opts = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read(input, "x.csv", &opts).unwrap();
        assert_eq!(ids(&c), ["2"]);
        assert_eq!(c.text(0), "fine");
        assert_eq!((r.skipped, r.skipped_lines.clone()), (2, vec![2, 4]));
        assert_eq!(r.lines.header, 1);
        let l = r.lines;
        assert_eq!(
            l.physical,
            l.header + l.blank + l.continuation + r.rows_read as u64 + r.skipped as u64
        );
    }
}
