//! The Parquet column toolkit every reader of Parquet shares (corpora, pair files, imported
//! tables): opening a file with a clear message for what is not Parquet, the column kinds
//! lshscope reads and their description in messages, batched typed column reads, and decoding
//! guarded against the `parquet` crate's panics on corrupt pages.

use std::path::Path;

use parquet::basic::{ConvertedType, LogicalType, Type as PhysicalType};
use parquet::column::reader::{ColumnReader, ColumnReaderImpl};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::reader::{ChunkReader, SerializedFileReader};
use parquet::schema::types::ColumnDescriptor;

use crate::io::compression::Compression;
use crate::io::parquet_chunks::EndIsError;
use crate::terms::Setting::Format;
use crate::{Error, Result};

/// The four bytes that open and close every Parquet file.
pub(crate) const MAGIC: &[u8; 4] = b"PAR1";

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
    if matches!(
        Compression::sniff(head),
        Compression::Gzip | Compression::Zstd
    ) {
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
            format!(
                "not a Parquet file (it does not start with the bytes `PAR1`); choose the \
                 format with {Format}, or check that the file was fully written"
            ),
        ));
    }
    SerializedFileReader::new(EndIsError(chunks)).map_err(|e| corrupt(name, "footer", &e))
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
