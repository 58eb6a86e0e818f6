//! The one reader of CSV files with a header row, read by column name.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Read buffer of the CSV parser: large enough that per-call overhead vanishes next to parsing.
const CSV_BUFFER_BYTES: usize = 1 << 20;

/// A CSV file with a header row, read by column name: the one reader of header-column files
/// (pair, truth and similarity files here, labels files in [`crate::analysis::labels`]).
/// Header names match after trimming spaces and a byte-order mark; errors name the file and
/// the line.
pub struct HeaderCsv<R: Read> {
    reader: csv::Reader<R>,
    name: PathBuf,
    headers: csv::StringRecord,
    record: csv::StringRecord,
}

impl<R: Read> HeaderCsv<R> {
    /// Reads the header of `reader`; `name` is used in messages. With `flexible`, rows may
    /// have more or fewer fields than the header (missing ones read as empty).
    pub fn new(reader: R, name: &Path, flexible: bool) -> Result<Self> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(flexible)
            .buffer_capacity(CSV_BUFFER_BYTES)
            .from_reader(reader);
        let headers = reader
            .headers()
            .map_err(|e| Error::input(name, 1, format!("cannot read the CSV header: {e}")))?
            .clone();
        Ok(HeaderCsv {
            reader,
            name: name.to_path_buf(),
            headers,
            record: csv::StringRecord::new(),
        })
    }

    /// The position of the column named `want`, if the header has it.
    pub fn column(&self, want: &str) -> Option<usize> {
        self.headers
            .iter()
            .position(|h| h.trim().trim_start_matches('\u{feff}') == want)
    }

    /// How many columns the header names.
    pub fn column_count(&self) -> usize {
        self.headers.len()
    }

    /// The header's column names as a message lists them ([`crate::io::excerpt::listing`]).
    pub fn header_text(&self) -> String {
        crate::io::excerpt::listing(&self.headers.iter().collect::<Vec<_>>())
    }

    /// The next row and the 1-based line it starts on; `None` at the end.
    pub fn next_row(&mut self) -> Result<Option<(u64, &csv::StringRecord)>> {
        match self.reader.read_record(&mut self.record) {
            Ok(false) => Ok(None),
            Ok(true) => {
                let line = self.record.position().map(|p| p.line()).unwrap_or(0);
                Ok(Some((line, &self.record)))
            }
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(0);
                // The csv crate's own text repeats the line and names records from 0; say
                // what is wrong in the row's terms and what fixes it.
                let what = match e.kind() {
                    csv::ErrorKind::UnequalLengths {
                        expected_len, len, ..
                    } => format!(
                        "this row has {len} {} where the header has {expected_len}; quote a \
                         field that holds a comma or a line break (\"...\")",
                        if *len == 1 { "field" } else { "fields" }
                    ),
                    csv::ErrorKind::Utf8 { .. } => {
                        "this row is not valid UTF-8; re-encode the file as UTF-8".to_string()
                    }
                    _ => e.to_string(),
                };
                Err(Error::input(
                    &self.name,
                    line,
                    format!("malformed CSV: {what}"),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_error(bytes: &[u8], flexible: bool) -> String {
        let mut csv = HeaderCsv::new(bytes, Path::new("sims.csv"), flexible).unwrap();
        loop {
            match csv.next_row() {
                Ok(Some(_)) => continue,
                Ok(None) => panic!("no error"),
                Err(e) => return e.to_string(),
            }
        }
    }

    #[test]
    fn malformed_rows_are_said_in_the_rows_terms_with_the_fix() {
        assert_eq!(
            first_error(b"jaccard,weight\n0.5,1\n0.7\n", false),
            "sims.csv:3: malformed CSV: this row has 1 field where the header has 2; quote a \
             field that holds a comma or a line break (\"...\")"
        );
        assert_eq!(
            first_error(b"a,b\n1,2\n1,2,3\n", false),
            "sims.csv:3: malformed CSV: this row has 3 fields where the header has 2; quote a \
             field that holds a comma or a line break (\"...\")"
        );
        assert_eq!(
            first_error(b"a,b\n1,\xff\n", true),
            "sims.csv:2: malformed CSV: this row is not valid UTF-8; re-encode the file as UTF-8"
        );
    }
}
