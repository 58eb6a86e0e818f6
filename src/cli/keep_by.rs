//! `dedup --keep-by COLUMN`: a numeric column of the input decides which document is kept
//! (highest first, ties in input order).
//!
//! The corpus holds ids and texts only, so the column is read in a second pass over the same
//! file with the same options, the column standing in for the text; its rows are matched to
//! the documents by id (dedup refuses repeated ids before this runs).

use std::collections::HashMap;
use std::path::Path;

use lshscope_core::corpus::{
    ColumnSpec, Corpus, InputFormat, ReadOptions, ReadReport, read_corpus,
};
use lshscope_core::jobs::Progress;
use lshscope_core::{Error, Result};

use super::summary::id_for_message;

/// The value of `column` for every document of `corpus`, read from `input` with `options`
/// (those the corpus was read with). `read` is the corpus's read report.
pub fn column_values(
    input: &Path,
    options: &ReadOptions,
    read: &ReadReport,
    corpus: &Corpus,
    column: &ColumnSpec,
    progress: &Progress,
) -> Result<Vec<f64>> {
    let name = column_name(column);
    if input == Path::new("-") {
        return Err(Error::usage(format!(
            "--keep-by {name} reads the input a second time, which stdin cannot be; save the \
             input to a file and pass its path"
        )));
    }
    if !matches!(read.format, InputFormat::Csv | InputFormat::Tsv) {
        return Err(Error::usage(format!(
            "--keep-by {name} reads a column of a CSV or TSV input, and {} is read as {}; \
             write the corpus as CSV/TSV with the score beside the text, or use --keep \
             first|longest",
            input.display(),
            read.format.name()
        )));
    }
    let mut column_options = options.clone();
    column_options.format = read.format;
    column_options.text_column = Some(column.clone());
    let (values, _) = read_corpus(input, &column_options, progress)?;
    // Rows whose position agrees need no lookup; otherwise (rows skipped differently) by id.
    let aligned =
        values.len() == corpus.len() && (0..corpus.len()).all(|d| values.id(d) == corpus.id(d));
    let position: HashMap<&str, usize> = if aligned {
        HashMap::new()
    } else {
        (0..values.len()).map(|d| (values.id(d), d)).collect()
    };
    // Row numbers count data rows; they name the row only when nothing was sampled or skipped,
    // and its line only when each row is one line after the header (no blank lines between
    // rows, no quoted field over several lines).
    let numbered = options.sample.is_none() && read.skipped == 0;
    let one_line_each = numbered && read.lines.blank == 0 && read.lines.continuation == 0;
    let bad_value = |d: usize, what: String| {
        let id = id_for_message(corpus.id(d));
        if one_line_each {
            let line = read.lines.header + d as u64 + 1;
            Error::input(input, line, format!("column {name} of id {id}: {what}"))
        } else if numbered {
            let row = d + 1;
            Error::usage(format!(
                "{}: row {row} (id {id}), column {name}: {what}",
                input.display()
            ))
        } else {
            Error::usage(format!(
                "{}: the row of id {id}, column {name}: {what}",
                input.display()
            ))
        }
    };
    (0..corpus.len())
        .map(|d| {
            let at = if aligned {
                Some(d)
            } else {
                position.get(corpus.id(d)).copied()
            };
            let text = at.map(|k| values.text(k).trim()).unwrap_or("");
            if text.is_empty() {
                return Err(bad_value(
                    d,
                    "no value; --keep-by needs a number on every row (a score where higher is \
                     kept first): fill it in, or choose another column"
                        .to_string(),
                ));
            }
            match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(v),
                _ => Err(bad_value(
                    d,
                    format!(
                        "{:?} is not a number; --keep-by needs a numeric column (a score where \
                         higher is kept first): fix the value, or choose another column",
                        text.chars().take(40).collect::<String>()
                    ),
                )),
            }
        })
        .collect()
}

fn column_name(column: &ColumnSpec) -> String {
    match column {
        ColumnSpec::Name(n) => format!("`{n}`"),
        ColumnSpec::Index(i) => format!("{i}"),
    }
}
