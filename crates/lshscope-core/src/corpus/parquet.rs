//! Apache Parquet input, read natively with the `parquet` crate's column readers (no Arrow).
//!
//! Only the text column and the id column are decoded (projection), one row group at a time
//! and a batch of rows at a time within it (streaming), so a 10 GB dataset costs the memory of
//! its documents plus one batch, not of the whole table.
//!
//! Column rules, chosen to match the CSV and JSON Lines readers:
//! - `--text-column` / `--id-column` name a top-level column, or give its 1-based index among
//!   the top-level columns. Defaults, the same as for CSV ([`super::default_columns`]): text
//!   = the column named `text`, else the only string column that is not the id (several are
//!   an error); id = the column named `id`, else the 1-based row number.
//! - The text column must be a string (`string` / `large_string` in Arrow terms, both stored as
//!   a UTF-8 byte array) or `binary` (decoded as lossy UTF-8 and counted in the report like in
//!   the other readers). A null text is an empty document.
//! - The id column may be a string, binary, or an integer type (signed or unsigned, 8 to 64
//!   bits). A null id is a malformed row (an error, or skipped and counted under `--skip-bad`):
//!   substituting the row number could silently collide with a real id of another row.
//! - Row numbers in messages and in the skipped list count from 1 across the whole file.

use std::path::Path;

use bytes::Bytes;
use parquet::basic::{ConvertedType, LogicalType, Repetition, Type as PhysicalType};
use parquet::file::reader::{ChunkReader, FileReader};
use parquet::schema::types::SchemaDescriptor;

use super::Corpus;
use super::default_columns::{TEXT, TableColumns};
use super::options::{ColumnSpec, InputFormat, ReadOptions, ReadReport};
use super::sink::{Sink, decode, number_id};
use crate::io::parquet::{
    ColumnBatch, Kind, TypedReader, classify, corrupt, describe, guard_panics, open,
};
use crate::jobs::Progress;
use crate::terms::Setting::{self, IdColumn, Limit, Sample, SkipBad, TextColumn};
use crate::{Error, Result};

/// Rows decoded per batch: large enough to amortise the per-call cost, small enough that a
/// batch of long documents stays a few megabytes and cancellation stays prompt.
const BATCH_ROWS: usize = 1024;

/// Reads a Parquet file from disk, streaming its row groups.
pub(super) fn read_file(
    path: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let file = std::fs::File::open(path).map_err(|e| crate::io::input::cannot_open(path, e))?;
    let len = file
        .metadata()
        .map_err(|e| crate::io::input::cannot_open(path, e))?
        .len();
    read_chunks(file, len, path, opts, progress)
}

/// Reads a Parquet file held in memory (stdin, or a fuzzer's input); `name` is used in
/// messages.
pub fn read_parquet_bytes(
    bytes: Vec<u8>,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let len = bytes.len() as u64;
    read_chunks(Bytes::from(bytes), len, name, opts, progress)
}

/// A projected column: its position among the top-level columns and the leaves, and how to
/// decode it.
struct Projected {
    root: usize,
    leaf: usize,
    name: String,
    kind: Kind,
    max_def: i16,
}

fn read_chunks<R: ChunkReader + 'static>(
    chunks: R,
    file_bytes: u64,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    guard_panics(name, || {
        read_guarded(chunks, file_bytes, name, opts, progress)
    })
}

fn read_guarded<R: ChunkReader + 'static>(
    chunks: R,
    file_bytes: u64,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    if opts.limit == Some(0) || opts.sample == Some(0) {
        return Err(Error::usage(format!(
            "{Limit} and {Sample} must be at least 1"
        )));
    }
    let reader = open(chunks, file_bytes, name)?;
    let metadata = reader.metadata();
    let schema = metadata.file_metadata().schema_descr();
    let (id, text, warnings) = choose_columns(name, schema, opts)?;
    progress.set_total(file_bytes);
    let mut sink = Sink::new(name, opts);
    sink.warnings = warnings;
    let mut row_number = 0u64;
    let mut text_col = ColumnBatch::default();
    let mut id_col = ColumnBatch::default();
    let mut id_buf = String::new();
    'groups: for group_index in 0..metadata.num_row_groups() {
        let group_meta = metadata.row_group(group_index);
        let group_rows = usize::try_from(group_meta.num_rows().max(0)).unwrap_or(usize::MAX);
        let group_bytes = u64::try_from(group_meta.compressed_size().max(0)).unwrap_or(0);
        let group = reader
            .get_row_group(group_index)
            .map_err(|e| corrupt(name, &format!("row group {}", group_index + 1), &e))?;
        let where_ = |column: &str| format!("row group {}, column `{column}`", group_index + 1);
        let mut text_reader = TypedReader::new(
            group
                .get_column_reader(text.leaf)
                .map_err(|e| corrupt(name, &where_(&text.name), &e))?,
        );
        let mut id_reader = match &id {
            Some(id) => Some(TypedReader::new(
                group
                    .get_column_reader(id.leaf)
                    .map_err(|e| corrupt(name, &where_(&id.name), &e))?,
            )),
            None => None,
        };
        let mut done = 0usize;
        while done < group_rows {
            if sink.is_full() {
                break 'groups;
            }
            progress.check()?;
            let want = BATCH_ROWS.min(group_rows - done);
            text_col
                .fill(&mut text_reader, text.max_def, want)
                .map_err(|e| corrupt(name, &where_(&text.name), &e))?;
            if let (Some(reader), Some(id)) = (id_reader.as_mut(), id.as_ref()) {
                id_col
                    .fill(reader, id.max_def, want)
                    .map_err(|e| corrupt(name, &where_(&id.name), &e))?;
            }
            let mut text_values = 0usize;
            let mut id_values = 0usize;
            for row in 0..want {
                if sink.is_full() {
                    break 'groups;
                }
                row_number += 1;
                let text_bytes: &[u8] = if text_col.is_set(row, text.max_def) {
                    text_values += 1;
                    text_col.bytes[text_values - 1].data()
                } else {
                    b""
                };
                let id_str: &str = match &id {
                    None => number_id(&mut id_buf, row_number),
                    Some(id) if !id_col.is_set(row, id.max_def) => {
                        let message = format!(
                            "row {row_number} (row group {}): the id column `{}` is null; fill \
                             in the id, choose another {IdColumn}, or pass {SkipBad} to skip \
                             such rows",
                            group_index + 1,
                            id.name
                        );
                        sink.bad_row(row_number, Error::input(name, 0, message))?;
                        continue;
                    }
                    Some(id) => {
                        id_values += 1;
                        id_col.format(id.kind, id_values - 1, &mut id_buf)
                    }
                };
                let (text_str, lossy) = decode(text_bytes);
                sink.push(row_number, id_str, &text_str, lossy);
            }
            done += want;
            progress.advance(group_bytes * want as u64 / group_rows.max(1) as u64);
        }
    }
    progress.set_done(file_bytes);
    let mut report = ReadReport {
        format: InputFormat::Parquet,
        bytes: file_bytes,
        ..Default::default()
    };
    let corpus = sink.finish(&mut report)?;
    Ok((corpus, report))
}

/// The id column (`None`: documents numbered by row) and the text column of a file with
/// `schema`, as asked or by fallback, with the warnings they call for.
fn choose_columns(
    name: &Path,
    schema: &SchemaDescriptor,
    opts: &ReadOptions,
) -> Result<(Option<Projected>, Projected, Vec<String>)> {
    let mut warnings = Vec::new();
    let id = match project(name, schema, opts.id_column.as_ref(), "id", IdColumn) {
        Ok(id) => id,
        // A column named `id` that cannot hold ids (a float, a list) without --id-column:
        // the row number stands in, as when there is none, and the warning says why.
        Err(Error::Input { message, .. }) if opts.id_column.is_none() => {
            warnings.extend((!opts.row_ids).then(|| {
                format!(
                    "{}: {message}; documents are numbered by row (1, 2, …) instead",
                    name.display()
                )
            }));
            None
        }
        Err(e) => return Err(e),
    };
    let fields = schema.root_schema().get_fields();
    let table = TableColumns {
        names: fields.iter().map(|f| f.name()).collect(),
        can_hold_text: (0..fields.len())
            .map(|root| {
                flat_kind(schema, root).is_some_and(|k| matches!(k, Kind::Utf8 | Kind::Binary))
            })
            .collect(),
        can_hold_id: (0..fields.len())
            .map(|root| flat_kind(schema, root).is_some())
            .collect(),
    };
    let text = match project(name, schema, opts.text_column.as_ref(), TEXT, TextColumn)? {
        Some(text) => text,
        None => {
            let (root, warning) = table
                .fallback_text(name, id.as_ref().map(|id| id.root))
                .map_err(|m| Error::input(name, 0, m))?;
            warnings.push(warning);
            project(
                name,
                schema,
                Some(&ColumnSpec::Index(root + 1)),
                TEXT,
                TextColumn,
            )?
            .expect("a column given by index is found")
        }
    };
    if !matches!(text.kind, Kind::Utf8 | Kind::Binary) {
        return Err(Error::input(
            name,
            0,
            format!(
                "column `{}` is {}, not a string; choose the text column with {TextColumn} \
                 (columns are: {})",
                text.name,
                describe(schema.column(text.leaf).as_ref()),
                column_listing(schema)
            ),
        ));
    }
    // Row numbers asked for: the id column is not read (but was not taken for the text).
    let id = id.filter(|_| !opts.row_ids);
    if id.is_none() && opts.id_column.is_none() && !opts.row_ids {
        warnings.extend(table.numbered_ids_warning(name, text.root));
    }

    Ok((id, text, warnings))
}

/// Finds the column for `spec` (or the column named `default`) among the top-level columns;
/// `Ok(None)` when no spec is given and no column has the default name.
fn project(
    name: &Path,
    schema: &SchemaDescriptor,
    spec: Option<&ColumnSpec>,
    default: &str,
    option: Setting,
) -> Result<Option<Projected>> {
    let fields = schema.root_schema().get_fields();
    let root = match spec {
        Some(ColumnSpec::Index(i)) => {
            if *i > fields.len() {
                return Err(Error::input(
                    name,
                    0,
                    format!(
                        "{option} {i}: the file has {} top-level columns ({}); give a name or an \
                         index from 1 to {}",
                        fields.len(),
                        column_listing(schema),
                        fields.len()
                    ),
                ));
            }
            i - 1
        }
        Some(ColumnSpec::Name(wanted)) => find_field(fields, wanted).ok_or_else(|| {
            Error::input(
                name,
                0,
                format!(
                    "no column named `{wanted}`; columns are: {}; choose one with {option}",
                    column_listing(schema)
                ),
            )
        })?,
        None => match find_field(fields, default) {
            Some(root) => root,
            None => return Ok(None),
        },
    };
    let field = &fields[root];
    let column_name = field.name().to_string();
    let nested = || {
        Error::input(
            name,
            0,
            format!(
                "column `{column_name}` is nested (a list, map or struct); lshscope reads flat \
                 string or integer columns; choose another with {option} or flatten the column \
                 (columns are: {})",
                column_listing(schema)
            ),
        )
    };
    let leaf = flat_leaf(schema, root).ok_or_else(nested)?;
    let descr = schema.column(leaf);
    let kind = classify(&descr).ok_or_else(|| {
        Error::input(
            name,
            0,
            format!(
                "column `{column_name}` is {}; {option} needs a string{} column (columns are: \
                 {})",
                describe(&descr),
                if option == IdColumn {
                    " or integer"
                } else {
                    ""
                },
                column_listing(schema)
            ),
        )
    })?;
    Ok(Some(Projected {
        root,
        leaf,
        name: column_name,
        kind,
        max_def: descr.max_def_level(),
    }))
}

/// The leaf of top-level column `root` when it is flat (one value or null per row), the only
/// columns lshscope reads.
fn flat_leaf(schema: &SchemaDescriptor, root: usize) -> Option<usize> {
    let field = &schema.root_schema().get_fields()[root];
    if field.is_group() || field.get_basic_info().repetition() == Repetition::REPEATED {
        return None;
    }
    let leaf = (0..schema.num_columns()).find(|&leaf| schema.get_column_root_idx(leaf) == root)?;
    let descr = schema.column(leaf);
    (descr.max_rep_level() == 0 && descr.max_def_level() <= 1).then_some(leaf)
}

/// How top-level column `root` would be decoded, if it can be.
fn flat_kind(schema: &SchemaDescriptor, root: usize) -> Option<Kind> {
    classify(&schema.column(flat_leaf(schema, root)?))
}

/// Exact match first, then ASCII case-insensitive (as the CSV reader does for `text`/`id`).
fn find_field(fields: &[parquet::schema::types::TypePtr], wanted: &str) -> Option<usize> {
    fields.iter().position(|f| f.name() == wanted).or_else(|| {
        fields
            .iter()
            .position(|f| f.name().eq_ignore_ascii_case(wanted))
    })
}

/// `id (INT64), text (string), meta (group)` for messages.
fn column_listing(schema: &SchemaDescriptor) -> String {
    let fields = schema.root_schema().get_fields();
    if fields.is_empty() {
        return "(none)".to_string();
    }
    let fields: Vec<String> = fields
        .iter()
        .map(|f| {
            let what = if f.is_group() {
                "nested".to_string()
            } else {
                let info = f.get_basic_info();
                match (f.get_physical_type(), info.logical_type_ref()) {
                    (PhysicalType::BYTE_ARRAY, Some(LogicalType::String)) => "string".to_string(),
                    (PhysicalType::BYTE_ARRAY, None)
                        if info.converted_type() == ConvertedType::UTF8 =>
                    {
                        "string".to_string()
                    }
                    (PhysicalType::BYTE_ARRAY, None) => "binary".to_string(),
                    (physical, _) => physical.to_string().to_lowercase(),
                }
            };
            format!("{} ({what})", f.name())
        })
        .collect::<Vec<_>>();
    crate::io::excerpt::listing(&fields)
}

#[cfg(test)]
mod tests;
