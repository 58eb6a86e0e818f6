//! CSV and TSV: the `csv` crate's byte records (no UTF-8 check per field until we decode the
//! two fields we keep), strict field counts so a ragged row is reported rather than misread.
//!
//! Both formats use RFC 4180 double-quote quoting (a TSV written by pandas or Python's `csv`
//! quotes fields holding tabs, quotes or newlines the same way).

use std::io::BufRead;
use std::path::Path;

use super::ColumnSpec;
use super::read::{CHECK_EVERY, ReadOptions, Sink, decode, number_id, read_error};
use super::source::BUFFER_BYTES;
use crate::jobs::Progress;
use crate::{Error, Result};

/// Reads CSV (`delimiter = b','`) or TSV (`b'\t'`); returns the bytes read.
pub(super) fn read(
    reader: &mut dyn BufRead,
    delimiter: u8,
    name: &Path,
    opts: &ReadOptions,
    sink: &mut Sink,
    progress: &Progress,
) -> Result<u64> {
    let mut rdr = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        // The header row is handled here, so that the first record of a header-less file goes
        // through the same column resolution as a header.
        .has_headers(false)
        .flexible(false)
        .buffer_capacity(BUFFER_BYTES)
        .from_reader(reader);
    let mut record = csv::ByteRecord::new();
    let first = rdr
        .read_byte_record(&mut record)
        .map_err(|e| csv_failure(name, &rdr, e, opts.has_headers))?;
    if !first {
        return Ok(rdr.position().byte());
    }
    let headers: Option<Vec<String>> = opts.has_headers.then(|| {
        record
            .iter()
            .map(|f| String::from_utf8_lossy(f).trim().to_string())
            .collect()
    });
    let columns = Columns {
        count: record.len(),
        headers: headers.as_deref(),
        delimiter,
    };
    let header_line = record.position().map_or(1, |p| p.line());
    let text_col = columns
        .resolve(opts.text_column.as_ref(), "text", "--text-column")
        .map_err(|m| Error::input(name, header_line, m))?
        .unwrap_or(columns.count - 1);
    let id_col = columns
        .resolve(opts.id_column.as_ref(), "id", "--id-column")
        .map_err(|m| Error::input(name, header_line, m))?;

    let mut first_data_pending = !opts.has_headers;
    let mut row = 0u64;
    let mut id_buf = String::new();
    while !sink.is_full() {
        if !first_data_pending {
            match rdr.read_byte_record(&mut record) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    let line = e
                        .position()
                        .map_or_else(|| rdr.position().line(), |p| p.line());
                    if let csv::ErrorKind::UnequalLengths { .. } = e.kind() {
                        // The row is consumed; under --skip-bad the next one is read normally.
                        row += 1;
                        sink.bad_row(line, csv_failure(name, &rdr, e, opts.has_headers))?;
                        continue;
                    }
                    return Err(csv_failure(name, &rdr, e, opts.has_headers));
                }
            }
        }
        first_data_pending = false;
        row += 1;
        if row.is_multiple_of(CHECK_EVERY) {
            progress.check()?;
        }
        let (text, text_lossy) = decode(record.get(text_col).unwrap_or_default());
        let (id, id_lossy) = match id_col {
            Some(c) => {
                let (id, lossy) = decode(record.get(c).unwrap_or_default());
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
        sink.push(&id, &text, text_lossy || id_lossy);
    }
    Ok(rdr.position().byte())
}

/// Turns a `csv` error into a message that says where, what, and what to do.
fn csv_failure<R: std::io::Read>(
    name: &Path,
    rdr: &csv::Reader<R>,
    e: csv::Error,
    has_headers: bool,
) -> Error {
    let line = e
        .position()
        .map_or_else(|| rdr.position().line(), |p| p.line());
    match e.into_kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => Error::input(
            name,
            line,
            format!(
                "row has {len} field{} but the {} has {expected_len}; fix the row \
                 (quote fields that contain the delimiter, quotes or line breaks), or pass \
                 --skip-bad to skip such rows",
                if len == 1 { "" } else { "s" },
                if has_headers { "header" } else { "first row" }
            ),
        ),
        csv::ErrorKind::Io(io) => read_error(name, line, io),
        other => Error::input(name, line, format!("malformed row: {other:?}")),
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
        flag: &str,
    ) -> std::result::Result<Option<usize>, String> {
        match spec {
            Some(ColumnSpec::Index(i)) => {
                if *i >= 1 && *i <= self.count {
                    Ok(Some(i - 1))
                } else {
                    Err(format!(
                        "{flag} {i} is out of range: the first row has {} column{}{}; use an \
                         index from 1 to {}",
                        self.count,
                        if self.count == 1 { "" } else { "s" },
                        self.listing(),
                        self.count
                    ))
                }
            }
            Some(ColumnSpec::Name(wanted)) => match self.headers {
                None => Err(format!(
                    "{flag} `{wanted}` names a column, but with --no-headers columns have no \
                     names; give a 1-based index (1 to {})",
                    self.count
                )),
                Some(headers) => self.find(headers, wanted).map(Some).ok_or_else(|| {
                    let hint = if self.count == 1 && self.delimiter == b',' {
                        " (only one column was found: if the file is tab-separated, use \
                         --format tsv)"
                    } else {
                        ""
                    };
                    format!(
                        "no column named `{wanted}`; columns are: {}{hint}; use {flag} with \
                         one of these names or a 1-based index",
                        headers.join(", ")
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
            Some(h) => format!(" ({})", h.join(", ")),
            None => String::new(),
        }
    }
}
