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
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, FileReader, SerializedFileReader};
use parquet::schema::types::{ColumnDescriptor, SchemaDescriptor};

use super::Corpus;
use super::default_columns::{TEXT, TableColumns};
use super::options::{ColumnSpec, InputFormat, ReadOptions, ReadReport};
use super::parquet_chunks::EndIsError;
use super::sink::{Sink, decode, number_id};
use crate::jobs::Progress;
use crate::{Error, Result};

use super::source::PARQUET_MAGIC as MAGIC;

/// Rows decoded per batch: large enough to amortise the per-call cost, small enough that a
/// batch of long documents stays a few megabytes and cancellation stays prompt.
const BATCH_ROWS: usize = 1024;

/// Reads a Parquet file from disk, streaming its row groups.
pub(super) fn read_file(
    path: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let file = std::fs::File::open(path).map_err(|e| super::source::cannot_open(path, e))?;
    let len = file
        .metadata()
        .map_err(|e| super::source::cannot_open(path, e))?
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

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// UTF-8 string (lossy decoding never expected, but still counted).
    Utf8,
    /// Byte array without a string annotation: decoded lossily.
    Binary,
    Int32 {
        signed: bool,
    },
    Int64 {
        signed: bool,
    },
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

/// Runs a decode that may panic on a corrupt file: the `parquet` crate still has decoder
/// paths that panic on malformed pages (found by the corrupt-file test below), and a corrupt
/// input must be an error naming the file, never a crash. While `decode` runs, the panic hook
/// stays silent on this thread, so the user sees one error line instead of a backtrace; other
/// threads' panics are reported as before. (A panic inside a caller's callback run by `decode`
/// is reported the same way, as a decoder failure.)
pub(crate) fn guard_panics<T>(name: &Path, decode: impl FnOnce() -> Result<T>) -> Result<T> {
    install_quiet_hook();
    let was = DECODING.with(|d| d.replace(true));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode));
    DECODING.with(|d| d.set(was));
    outcome.unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "decoder failure".to_string());
        Err(Error::input(
            name,
            0,
            format!(
                "not a readable Parquet file ({what}); the file is probably truncated or corrupt"
            ),
        ))
    })
}

thread_local! {
    /// True while this thread runs a guarded Parquet decode.
    static DECODING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Wraps the current panic hook once so that it skips panics raised inside a guarded decode.
fn install_quiet_hook() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !DECODING.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
}

fn read_guarded<R: ChunkReader + 'static>(
    chunks: R,
    file_bytes: u64,
    name: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    if opts.limit == Some(0) || opts.sample == Some(0) {
        return Err(Error::usage("--limit and --sample must be at least 1"));
    }
    let reader = open(chunks, file_bytes, name)?;
    let metadata = reader.metadata();
    let schema = metadata.file_metadata().schema_descr();
    let mut warnings = Vec::new();
    let id = match project(name, schema, opts.id_column.as_ref(), "id", "--id-column") {
        Ok(id) => id,
        // A column named `id` that cannot hold ids (a float, a list) without --id-column:
        // the row number stands in, as when there is none, and the warning says why.
        Err(Error::Input { message, .. }) if opts.id_column.is_none() => {
            warnings.push(format!(
                "{}: {message}; documents are numbered by row (1, 2, …) instead",
                name.display()
            ));
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
    let text = match project(
        name,
        schema,
        opts.text_column.as_ref(),
        TEXT,
        "--text-column",
    )? {
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
                "--text-column",
            )?
            .expect("a column given by index is found")
        }
    };
    if !matches!(text.kind, Kind::Utf8 | Kind::Binary) {
        return Err(Error::input(
            name,
            0,
            format!(
                "column `{}` is {}, not a string; choose the text column with --text-column \
                 (columns are: {})",
                text.name,
                describe(schema.column(text.leaf).as_ref()),
                column_listing(schema)
            ),
        ));
    }
    if id.is_none() && opts.id_column.is_none() {
        warnings.extend(table.numbered_ids_warning(name, text.root));
    }

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
                             in the id, choose another --id-column, or pass --skip-bad to skip \
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
                sink.push(id_str, &text_str, lossy);
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
    let corpus = sink.finish(&mut report);
    Ok((corpus, report))
}

/// Opens the footer, after checking the magic bytes so that a CSV named `.parquet` gets a
/// clear message rather than a footer error.
/// Streams the crate reads fail at the end of the file ([`EndIsError`]).
pub(crate) fn open<R: ChunkReader + 'static>(
    chunks: R,
    file_bytes: u64,
    name: &Path,
) -> Result<SerializedFileReader<EndIsError<R>>> {
    let head = chunks.get_bytes(0, 4.min(file_bytes as usize));
    let head = head.as_ref().map(|h| h.as_ref()).unwrap_or_default();
    if head.starts_with(&[0x1f, 0x8b]) || head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        return Err(Error::input(
            name,
            0,
            "is gzip- or zstd-compressed, but Parquet is read uncompressed (its pages carry \
             their own compression); decompress the file first",
        ));
    }
    if head != MAGIC {
        return Err(Error::input(
            name,
            0,
            "not a Parquet file (it does not start with the bytes `PAR1`); choose the format \
             with --format, or check that the file was fully written",
        ));
    }
    SerializedFileReader::new(EndIsError(chunks)).map_err(|e| corrupt(name, "footer", &e))
}

/// Finds the column for `spec` (or the column named `default`) among the top-level columns;
/// `Ok(None)` when no spec is given and no column has the default name.
fn project(
    name: &Path,
    schema: &SchemaDescriptor,
    spec: Option<&ColumnSpec>,
    default: &str,
    option: &str,
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
                if option == "--id-column" {
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

pub(crate) fn classify(descr: &ColumnDescriptor) -> Option<Kind> {
    let logical = descr.logical_type_ref();
    match descr.physical_type() {
        PhysicalType::BYTE_ARRAY => Some(match (logical, descr.converted_type()) {
            (Some(LogicalType::String | LogicalType::Json | LogicalType::Enum), _) => Kind::Utf8,
            (None, ConvertedType::UTF8 | ConvertedType::JSON | ConvertedType::ENUM) => Kind::Utf8,
            (None, ConvertedType::NONE | ConvertedType::BSON) => Kind::Binary,
            _ => return None,
        }),
        PhysicalType::INT32 | PhysicalType::INT64 => {
            let signed = match (logical, descr.converted_type()) {
                (Some(LogicalType::Integer(int)), _) => int.is_signed,
                (None, ConvertedType::UINT_8 | ConvertedType::UINT_16)
                | (None, ConvertedType::UINT_32 | ConvertedType::UINT_64) => false,
                (None, ConvertedType::NONE)
                | (None, ConvertedType::INT_8 | ConvertedType::INT_16)
                | (None, ConvertedType::INT_32 | ConvertedType::INT_64) => true,
                // Dates, times, decimals: not ids.
                _ => return None,
            };
            Some(if descr.physical_type() == PhysicalType::INT32 {
                Kind::Int32 { signed }
            } else {
                Kind::Int64 { signed }
            })
        }
        _ => None,
    }
}

/// `a string (UTF-8 byte array)`, `INT64 (TIMESTAMP)`, ... for messages.
pub(crate) fn describe(descr: &ColumnDescriptor) -> String {
    let physical = descr.physical_type();
    match descr.logical_type_ref() {
        Some(logical) => format!("of type {physical} ({logical:?})"),
        None if descr.converted_type() != ConvertedType::NONE => {
            format!("of type {physical} ({})", descr.converted_type())
        }
        None => format!("of type {physical}"),
    }
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

pub(crate) fn corrupt(name: &Path, place: &str, e: &ParquetError) -> Error {
    Error::input(
        name,
        0,
        format!(
            "not a readable Parquet file ({place}): {e}; the file may be truncated or corrupt, \
             or use a compression lshscope does not read (it reads uncompressed, snappy, gzip, \
             zstd and lz4; re-encode brotli or LZO files, e.g. with pyarrow)"
        ),
    )
}

/// A column reader of one of the physical types lshscope decodes.
pub(crate) enum TypedReader {
    Bytes(ColumnReaderImpl<ByteArrayType>),
    Int32(ColumnReaderImpl<Int32Type>),
    Int64(ColumnReaderImpl<Int64Type>),
    Float(ColumnReaderImpl<FloatType>),
    Double(ColumnReaderImpl<DoubleType>),
    /// Cannot happen after `classify`, kept so a mismatch is an error rather than a panic.
    Other,
}

impl TypedReader {
    pub(crate) fn new(reader: ColumnReader) -> Self {
        match reader {
            ColumnReader::ByteArrayColumnReader(r) => TypedReader::Bytes(r),
            ColumnReader::Int32ColumnReader(r) => TypedReader::Int32(r),
            ColumnReader::Int64ColumnReader(r) => TypedReader::Int64(r),
            ColumnReader::FloatColumnReader(r) => TypedReader::Float(r),
            ColumnReader::DoubleColumnReader(r) => TypedReader::Double(r),
            _ => TypedReader::Other,
        }
    }
}

/// One batch of decoded rows of a column: definition levels (for nullable columns) and the
/// non-null values.
#[derive(Default)]
pub(crate) struct ColumnBatch {
    pub(crate) defs: Vec<i16>,
    pub(crate) bytes: Vec<ByteArray>,
    pub(crate) int32: Vec<i32>,
    pub(crate) int64: Vec<i64>,
    pub(crate) float: Vec<f32>,
    pub(crate) double: Vec<f64>,
}

impl ColumnBatch {
    /// Decodes exactly `rows` rows; fewer means the column chunk is shorter than the row
    /// group says, i.e. a corrupt file.
    pub(crate) fn fill(
        &mut self,
        reader: &mut TypedReader,
        max_def: i16,
        rows: usize,
    ) -> std::result::Result<(), ParquetError> {
        self.defs.clear();
        self.bytes.clear();
        self.int32.clear();
        self.int64.clear();
        self.float.clear();
        self.double.clear();
        let defs = (max_def > 0).then_some(&mut self.defs);
        let (records, values, _) = match reader {
            TypedReader::Bytes(r) => r.read_records(rows, defs, None, &mut self.bytes)?,
            TypedReader::Int32(r) => r.read_records(rows, defs, None, &mut self.int32)?,
            TypedReader::Int64(r) => r.read_records(rows, defs, None, &mut self.int64)?,
            TypedReader::Float(r) => r.read_records(rows, defs, None, &mut self.float)?,
            TypedReader::Double(r) => r.read_records(rows, defs, None, &mut self.double)?,
            TypedReader::Other => {
                return Err(ParquetError::General(
                    "unexpected physical type for this column".into(),
                ));
            }
        };
        let non_null = if max_def > 0 {
            self.defs.iter().filter(|&&d| d == max_def).count()
        } else {
            records
        };
        if records != rows || values != non_null || (max_def > 0 && self.defs.len() != rows) {
            return Err(ParquetError::General(format!(
                "the column chunk holds fewer rows than its row group ({records} of {rows} in \
                 this batch)"
            )));
        }
        Ok(())
    }

    pub(crate) fn is_set(&self, row: usize, max_def: i16) -> bool {
        max_def == 0 || self.defs[row] == max_def
    }

    /// The `index`-th non-null value as an id, formatted into `buf`.
    pub(crate) fn format<'b>(&self, kind: Kind, index: usize, buf: &'b mut String) -> &'b str {
        use std::fmt::Write as _;
        buf.clear();
        match kind {
            Kind::Utf8 | Kind::Binary => {
                // Raw bytes are checked by the caller for `Binary`; strings are UTF-8 by the
                // format's definition but a corrupt file may break that, so decode lossily.
                buf.push_str(&String::from_utf8_lossy(self.bytes[index].data()));
            }
            Kind::Int32 { signed: true } => {
                let _ = write!(buf, "{}", self.int32[index]);
            }
            Kind::Int32 { signed: false } => {
                let _ = write!(buf, "{}", self.int32[index] as u32);
            }
            Kind::Int64 { signed: true } => {
                let _ = write!(buf, "{}", self.int64[index]);
            }
            Kind::Int64 { signed: false } => {
                let _ = write!(buf, "{}", self.int64[index] as u64);
            }
        }
        buf
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use parquet::basic::{Compression, GzipLevel, ZstdLevel};
    use parquet::column::writer::ColumnWriterImpl;
    use parquet::data_type::DataType;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use parquet::schema::parser::parse_message_type;

    use super::*;

    /// One column's values for the test writer; `None` is null.
    #[derive(Clone)]
    enum Col {
        Bytes(Vec<Option<Vec<u8>>>),
        I64(Vec<Option<i64>>),
    }

    fn strs(values: &[Option<&str>]) -> Col {
        Col::Bytes(
            values
                .iter()
                .map(|o| o.map(|s| s.as_bytes().to_vec()))
                .collect(),
        )
    }

    fn put<T: DataType>(w: &mut ColumnWriterImpl<'_, T>, values: Vec<Option<T::T>>) {
        let nullable = w.get_descriptor().max_def_level() > 0;
        let defs: Vec<i16> = values.iter().map(|o| i16::from(o.is_some())).collect();
        let vals: Vec<T::T> = values.into_iter().flatten().collect();
        w.write_batch(&vals, nullable.then_some(&defs[..]), None)
            .unwrap();
    }

    /// Writes a file with `schema`, splitting the rows into groups of `group_rows` and pages of
    /// 3 rows, so batches, pages and groups all have boundaries in the data.
    fn write(schema: &str, cols: &[Col], group_rows: usize, codec: Compression) -> Vec<u8> {
        let schema = Arc::new(parse_message_type(schema).unwrap());
        let props = Arc::new(
            WriterProperties::builder()
                .set_compression(codec)
                .set_data_page_row_count_limit(3)
                .set_write_batch_size(3)
                .build(),
        );
        let mut w = SerializedFileWriter::new(Vec::new(), schema, props).unwrap();
        let rows = match &cols[0] {
            Col::Bytes(v) => v.len(),
            Col::I64(v) => v.len(),
        };
        let mut start = 0;
        while start < rows {
            let end = (start + group_rows).min(rows);
            let mut g = w.next_row_group().unwrap();
            for col in cols {
                let mut cw = g.next_column().unwrap().unwrap();
                match col {
                    Col::Bytes(v) => put(
                        cw.typed::<ByteArrayType>(),
                        v[start..end]
                            .iter()
                            .map(|o| o.clone().map(ByteArray::from))
                            .collect(),
                    ),
                    Col::I64(v) => put(cw.typed::<Int64Type>(), v[start..end].to_vec()),
                }
                cw.close().unwrap();
            }
            g.close().unwrap();
            start = end;
        }
        w.into_inner().unwrap()
    }

    fn read(bytes: Vec<u8>, opts: &ReadOptions) -> Result<(Corpus, ReadReport)> {
        read_parquet_bytes(bytes, Path::new("x.parquet"), opts, &Progress::new())
    }

    fn docs(c: &Corpus) -> Vec<(String, String)> {
        (0..c.len())
            .map(|i| (c.id(i).to_string(), c.text(i).to_string()))
            .collect()
    }

    fn message(r: Result<(Corpus, ReadReport)>) -> String {
        match r {
            Err(Error::Input { message, .. }) => message,
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    const STRING_ID_TEXT: &str = "message m {
        optional binary title (STRING);
        optional int64 id;
        optional binary text (STRING);
    }";

    fn sample_columns(n: usize) -> Vec<Col> {
        let titles: Vec<Option<&str>> = (0..n).map(|_| Some("t")).collect();
        let ids: Vec<Option<i64>> = (0..n).map(|i| Some(100 + i as i64)).collect();
        let texts: Vec<Option<Vec<u8>>> = (0..n)
            .map(|i| (i % 4 != 3).then(|| format!("doc number {i}").into_bytes()))
            .collect();
        vec![strs(&titles), Col::I64(ids), Col::Bytes(texts)]
    }

    #[test]
    fn reads_every_row_group_with_every_codec() {
        for codec in [
            Compression::UNCOMPRESSED,
            Compression::SNAPPY,
            Compression::GZIP(GzipLevel::default()),
            Compression::ZSTD(ZstdLevel::default()),
            Compression::LZ4_RAW,
        ] {
            // 2500 rows in groups of 700: four groups, batches of 1024 cross none of them.
            let bytes = write(STRING_ID_TEXT, &sample_columns(2500), 700, codec);
            let file_len = bytes.len() as u64;
            let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
            assert_eq!(c.len(), 2500, "{codec:?}");
            for i in 0..2500 {
                assert_eq!(c.id(i), (100 + i).to_string(), "{codec:?}");
                let want = if i % 4 == 3 {
                    String::new()
                } else {
                    format!("doc number {i}")
                };
                assert_eq!(c.text(i), want, "{codec:?} row {i}");
            }
            assert_eq!(
                (r.format, r.empty, r.bytes),
                (InputFormat::Parquet, 625, file_len)
            );
        }
    }

    #[test]
    fn columns_by_name_or_index_and_row_number_ids() {
        let cols = vec![
            strs(&[Some("a"), Some("b"), Some("c")]),
            strs(&[Some("first"), None, Some("third")]),
        ];
        let bytes = write(
            "message m { required binary key (STRING); optional binary body (STRING); }",
            &cols,
            2,
            Compression::SNAPPY,
        );
        let message_text = message(read(bytes.clone(), &ReadOptions::default()));
        assert_eq!(
            message_text,
            "no column named `text`, and 2 columns could hold the text: key, body; choose one \
             with --text-column NAME (or a 1-based index)"
        );

        let by_name = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            ..Default::default()
        };
        let (c, _) = read(bytes.clone(), &by_name).unwrap();
        let want = |ids: [&str; 3]| {
            ids.iter()
                .zip(["first", "", "third"])
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        assert_eq!(docs(&c), want(["1", "2", "3"]));

        let by_index = ReadOptions {
            text_column: Some(ColumnSpec::Index(2)),
            id_column: Some(ColumnSpec::Index(1)),
            ..Default::default()
        };
        let (c, _) = read(bytes.clone(), &by_index).unwrap();
        assert_eq!(docs(&c), want(["a", "b", "c"]));

        let out_of_range = ReadOptions {
            text_column: Some(ColumnSpec::Index(3)),
            ..Default::default()
        };
        let m = message(read(bytes, &out_of_range));
        assert!(m.contains("has 2 top-level columns"), "{m}");
    }

    #[test]
    fn wrong_types_and_null_ids_are_explained() {
        let bytes = write(
            STRING_ID_TEXT,
            &sample_columns(5),
            10,
            Compression::UNCOMPRESSED,
        );
        let text_is_int = ReadOptions {
            text_column: Some(ColumnSpec::Name("id".into())),
            ..Default::default()
        };
        let m = message(read(bytes, &text_is_int));
        assert!(
            m.contains("column `id` is of type INT64") && m.contains("not a string"),
            "{m}"
        );

        let cols = vec![
            Col::I64(vec![Some(1), None, Some(3)]),
            strs(&[Some("x"), Some("y"), Some("z")]),
        ];
        let bytes = write(
            "message m { optional int64 id (INTEGER(64, false)); required binary text (STRING); }",
            &cols,
            2,
            Compression::SNAPPY,
        );
        let m = message(read(bytes.clone(), &ReadOptions::default()));
        assert!(
            m.contains("row 2 (row group 1)") && m.contains("`id` is null"),
            "{m}"
        );
        let skip = ReadOptions {
            skip_bad: true,
            ..Default::default()
        };
        let (c, r) = read(bytes, &skip).unwrap();
        assert_eq!(
            docs(&c),
            vec![("1".into(), "x".into()), ("3".into(), "z".into())]
        );
        assert_eq!((r.skipped, r.skipped_lines), (1, vec![2]));
    }

    #[test]
    fn binary_text_is_decoded_lossily_and_counted() {
        let cols = vec![Col::Bytes(vec![
            Some(b"ok".to_vec()),
            Some(b"bad \xFF".to_vec()),
        ])];
        let bytes = write(
            "message m { required binary text; }",
            &cols,
            10,
            Compression::SNAPPY,
        );
        let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
        assert_eq!(c.text(1), "bad \u{FFFD}");
        assert_eq!(r.lossy_utf8, 1);
    }

    #[test]
    fn limit_and_sample_go_through_the_sink() {
        let bytes = write(
            STRING_ID_TEXT,
            &sample_columns(3000),
            1000,
            Compression::SNAPPY,
        );
        let limited = ReadOptions {
            limit: Some(1500),
            ..Default::default()
        };
        let (c, r) = read(bytes.clone(), &limited).unwrap();
        assert_eq!((c.len(), r.rows_read, c.id(1499)), (1500, 1500, "1599"));
        let sampled = ReadOptions {
            sample: Some(10),
            seed: 3,
            ..Default::default()
        };
        let (c, r) = read(bytes, &sampled).unwrap();
        assert_eq!((c.len(), r.rows_read), (10, 3000));
    }

    /// A page header whose statistics declare a 128 TiB value is a clean error. The `parquet`
    /// crate reserves a declared binary length before reading it (parquet 60.1,
    /// `ThriftReadInputProtocol::read_bytes_owned`), and no machine has 128 TiB: the process
    /// would abort. It is safe only because page statistics are skipped (`read_page_stats`
    /// stays off); this test fails, by aborting, if that ever changes.
    #[test]
    fn a_page_header_declaring_128_tib_is_an_error_not_an_abort() {
        let mut bytes = write(STRING_ID_TEXT, &sample_columns(50), 50, Compression::SNAPPY);
        let reader = SerializedFileReader::new(Bytes::from(bytes.clone())).unwrap();
        let (start, _) = reader.metadata().row_group(0).column(2).byte_range();
        // A data page header (Thrift compact) whose statistics' max value declares 2^47 bytes.
        let mut forged = vec![
            0x15, 0x00, 0x15, 0x80, 0x01, 0x15, 0x80, 0x01, 0x2c, 0x15, 0x04, 0x15, 0x00, 0x15,
            0x06, 0x15, 0x06, 0x1c, 0x18,
        ];
        forged.extend_from_slice(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20]);
        bytes[start as usize..start as usize + forged.len()].copy_from_slice(&forged);
        let m = message(read(bytes, &ReadOptions::default()));
        assert!(
            m.contains("not a readable Parquet file (row group 1, column `text`)"),
            "{m}"
        );
    }

    /// A corrupt page header that makes the crate skip a forged list element by element past
    /// the end of the file (1 min 45 s in a release build before) is a prompt error.
    #[test]
    fn a_header_skipped_past_the_end_of_the_file_is_a_prompt_error() {
        let bytes = include_bytes!("../../../../fuzz/regressions/parquet_slow_page_header.parquet");
        let start = std::time::Instant::now();
        let m = message(read(bytes.to_vec(), &ReadOptions::default()));
        assert!(
            m.contains("not a readable Parquet file") && m.contains("past the end of the file"),
            "{m}"
        );
        // Generous for a debug build on a busy machine; without the fix it ran for minutes.
        assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    }

    #[test]
    fn corrupt_files_are_errors_not_panics() {
        let m = message(read(b"id,text\n1,a\n".to_vec(), &ReadOptions::default()));
        assert!(m.contains("not a Parquet file"), "{m}");
        let m = message(read(
            zstd::encode_all(&b"PAR1"[..], 1).unwrap(),
            &ReadOptions::default(),
        ));
        assert!(m.contains("decompress the file first"), "{m}");
        let good = write(
            STRING_ID_TEXT,
            &sample_columns(300),
            100,
            Compression::SNAPPY,
        );
        // Truncations and single-byte changes everywhere: each must read or fail cleanly.
        for cut in (0..good.len()).step_by(7) {
            let _ = read(good[..cut].to_vec(), &ReadOptions::default());
        }
        // Also pyarrow's output (dictionary pages, snappy, large_string): what users have.
        let pyarrow = include_bytes!("../../../../tests/data/notes.parquet").to_vec();
        let rounds: usize = std::env::var("LSHSCOPE_PARQUET_MUTATIONS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(3000);
        let mut rng = crate::util::rng::SplitMix64::new(1);
        let mut next = move || rng.next_u64();
        for round in 0..rounds {
            let mut bytes = if round % 2 == 0 {
                good.clone()
            } else {
                pyarrow.clone()
            };
            // One to four changed bytes per file.
            for _ in 0..=(next() % 4) {
                let at = (next() as usize) % bytes.len();
                bytes[at] = next() as u8;
            }
            let _ = read(bytes, &ReadOptions::default());
        }
    }

    /// The same default rules as CSV (`default_columns`): the only string column that is not
    /// an id is the text, with a warning; ids are row numbers, with a warning when a column
    /// looks like an id.
    #[test]
    fn without_a_text_column_the_only_string_column_is_read_with_a_warning() {
        let cols = vec![
            strs(&[Some("k1"), Some("k2")]),
            Col::I64(vec![Some(7), Some(8)]),
            strs(&[Some("first"), Some("second")]),
        ];
        let bytes = write(
            "message m { required binary doc_id (STRING); required int64 n; \
             optional binary body (STRING); }",
            &cols,
            10,
            Compression::SNAPPY,
        );
        let (c, r) = read(bytes.clone(), &ReadOptions::default()).unwrap();
        assert_eq!(
            docs(&c),
            vec![("1".into(), "first".into()), ("2".into(), "second".into())]
        );
        assert_eq!(
            r.warnings,
            [
                "x.parquet has no column named `text`, so the text is read from column `body` \
                 (other columns: doc_id, n); name the text column with --text-column NAME to \
                 choose another or to confirm this one",
                "x.parquet has no column named `id`, so documents are numbered by row (1, 2, …) \
                 and pairs and clusters name them so; column `doc_id` looks like an id: pass \
                 --id-column doc_id to use it",
            ]
        );
        let named = ReadOptions {
            text_column: Some(ColumnSpec::Name("body".into())),
            id_column: Some(ColumnSpec::Name("doc_id".into())),
            ..Default::default()
        };
        let (c, r) = read(bytes, &named).unwrap();
        assert_eq!(c.id(1), "k2");
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);

        // Only numbers: no column could hold the text.
        let bytes = write(
            "message m { required int64 n; }",
            &[Col::I64(vec![Some(1)])],
            10,
            Compression::SNAPPY,
        );
        let m = message(read(bytes, &ReadOptions::default()));
        assert!(
            m.contains("no column could hold the text (columns are: n)"),
            "{m}"
        );
    }

    #[test]
    fn an_id_column_that_cannot_hold_ids_is_replaced_by_row_numbers_with_a_warning() {
        let cols = vec![
            Col::I64(vec![Some(1_700_000_000_000)]),
            strs(&[Some("first")]),
        ];
        let bytes = write(
            "message m { required int64 id (TIMESTAMP(MILLIS, true)); \
             required binary text (STRING); }",
            &cols,
            10,
            Compression::SNAPPY,
        );
        let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
        assert_eq!(c.id(0), "1");
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        assert!(
            r.warnings[0].starts_with("x.parquet: column `id` is of type INT64")
                && r.warnings[0].ends_with("documents are numbered by row (1, 2, …) instead"),
            "{:?}",
            r.warnings
        );
    }

    #[test]
    fn a_file_without_rows_is_warned_about() {
        let bytes = write(
            "message m { required binary text (STRING); }",
            &[strs(&[])],
            10,
            Compression::SNAPPY,
        );
        let (c, r) = read(bytes, &ReadOptions::default()).unwrap();
        assert!(c.is_empty());
        assert_eq!(
            r.warnings,
            ["no documents in x.parquet: the file has no rows"]
        );
    }
}
