//! Candidate pairs as Apache Parquet: a streaming writer for `scan`'s pairs and a reader for
//! `tune --pairs` / `plot --pairs`; and a writer for `dedup`'s clusters.
//!
//! Schema (every column required, no nulls):
//!
//! | column      | Parquet type                 | Arrow / pandas / Spark      |
//! |-------------|------------------------------|-----------------------------|
//! | `id_a`      | BYTE_ARRAY (STRING)          | string / object / string    |
//! | `id_b`      | BYTE_ARRAY (STRING)          | string / object / string    |
//! | `jaccard`   | DOUBLE                       | double / float64 / double   |
//! | `estimate`  | DOUBLE                       | double / float64 / double   |
//! | `bands_hit` | INT32 (signed)               | int32 / int32 / integer     |
//!
//! `bands_hit` is a signed 32-bit integer rather than an unsigned one: Spark and Hive have no
//! unsigned types (Spark widens UINT32 to a 64-bit long, older versions refuse it), Java-based
//! tools read INT32 directly, and the count of bands never comes near 2^31.
//!
//! The writer accepts any [`Write`] (it need not be `Send` nor seekable): each row group is
//! encoded into a buffer and passed on when complete, so the output can be a compressed
//! stream, a temporary file or stdout.

use std::io::Write;
use std::path::Path;

use bytes::Bytes;
use parquet::basic::{Compression, Type as PhysicalType};
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::errors::ParquetError;
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{ChunkReader, FileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::SchemaDescriptor;

use crate::io::parquet::{ColumnBatch, TypedReader, corrupt, guard_panics, open};
use crate::jobs::Progress;
use crate::{Error, Result};

/// The pairs schema in Parquet's message syntax.
const SCHEMA: &str = "message pairs {
    required binary id_a (STRING);
    required binary id_b (STRING);
    required double jaccard;
    required double estimate;
    required int32 bands_hit;
}";

/// Rows per row group: about 4 MB of buffered rows with typical short ids, many pairs per
/// group for efficient columns, and several groups in a large output for parallel readers.
pub const ROW_GROUP_ROWS: usize = 128 * 1024;

/// Rows decoded per batch when reading.
const BATCH_ROWS: usize = 4096;

fn to_io(e: ParquetError) -> std::io::Error {
    std::io::Error::other(e)
}

/// The ids of a corpus as values of a string column, made once: every id is a slice of one
/// shared buffer, so a row costs two reference counts instead of two allocations (they were
/// a fifth of the writing time).
pub struct IdColumn(Vec<ByteArray>);

impl IdColumn {
    /// The column of `ids`, in the order given: row `i` of a pairs file names `ids[i]`.
    pub fn new<'a>(ids: impl IntoIterator<Item = &'a str>) -> Self {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for id in ids {
            bytes.extend_from_slice(id.as_bytes());
            ends.push(bytes.len());
        }
        let all = Bytes::from(bytes);
        let mut start = 0;
        IdColumn(
            ends.into_iter()
                .map(|end| {
                    let id = ByteArray::from(all.slice(start..end));
                    start = end;
                    id
                })
                .collect(),
        )
    }
}

/// The buffered values of one column of the row group being filled.
enum ColumnValues {
    Text(Vec<ByteArray>),
    Double(Vec<f64>),
    Int32(Vec<i32>),
    Int64(Vec<i64>),
    Boolean(Vec<bool>),
}

impl ColumnValues {
    fn len(&self) -> usize {
        match self {
            ColumnValues::Text(v) => v.len(),
            ColumnValues::Double(v) => v.len(),
            ColumnValues::Int32(v) => v.len(),
            ColumnValues::Int64(v) => v.len(),
            ColumnValues::Boolean(v) => v.len(),
        }
    }

    fn clear(&mut self) {
        match self {
            ColumnValues::Text(v) => v.clear(),
            ColumnValues::Double(v) => v.clear(),
            ColumnValues::Int32(v) => v.clear(),
            ColumnValues::Int64(v) => v.clear(),
            ColumnValues::Boolean(v) => v.clear(),
        }
    }
}

/// Streams rows of required columns into a Parquet file on any [`Write`]: values collect per
/// column, and every `rows_per_group` rows they are encoded as one row group and passed on.
struct TableWriter<W: Write> {
    out: W,
    file: SerializedFileWriter<Vec<u8>>,
    columns: Vec<ColumnValues>,
    rows_per_group: usize,
}

impl<W: Write> TableWriter<W> {
    /// `schema` in Parquet's message syntax; `columns` empty buffers of its columns' types,
    /// in order.
    fn new(out: W, schema: &str, columns: Vec<ColumnValues>, rows: usize) -> std::io::Result<Self> {
        let schema = std::sync::Arc::new(parse_message_type(schema).map_err(to_io)?);
        let props = WriterProperties::builder()
            // zstd level 1: smaller than snappy on ids and similarities, and every current
            // reader (pyarrow, Spark 3, DuckDB, Polars) decodes it.
            .set_compression(Compression::ZSTD(Default::default()))
            .build();
        let file = SerializedFileWriter::new(Vec::new(), schema, std::sync::Arc::new(props))
            .map_err(to_io)?;
        Ok(TableWriter {
            out,
            file,
            columns,
            rows_per_group: rows.max(1),
        })
    }

    /// Call after pushing one value to every column.
    fn row_done(&mut self) -> std::io::Result<()> {
        if self.columns[0].len() >= self.rows_per_group {
            self.flush_group()?;
        }
        Ok(())
    }

    fn flush_group(&mut self) -> std::io::Result<()> {
        if self.columns[0].len() == 0 {
            return Ok(());
        }
        let mut group = self.file.next_row_group().map_err(to_io)?;
        let mut values = self.columns.iter();
        while let Some(mut writer) = group.next_column().map_err(to_io)? {
            match values.next().expect("one buffer per schema column") {
                ColumnValues::Text(v) => writer.typed::<ByteArrayType>().write_batch(v, None, None),
                ColumnValues::Double(v) => writer.typed::<DoubleType>().write_batch(v, None, None),
                ColumnValues::Int32(v) => writer.typed::<Int32Type>().write_batch(v, None, None),
                ColumnValues::Int64(v) => writer.typed::<Int64Type>().write_batch(v, None, None),
                ColumnValues::Boolean(v) => writer.typed::<BoolType>().write_batch(v, None, None),
            }
            .map_err(to_io)?;
            writer.close().map_err(to_io)?;
        }
        group.close().map_err(to_io)?;
        self.columns.iter_mut().for_each(ColumnValues::clear);
        // Pass the finished group on. The parquet writer counts offsets itself, so taking the
        // bytes out of its buffer does not disturb the footer it writes later.
        self.file.flush()?;
        let encoded = self.file.inner_mut();
        self.out.write_all(encoded)?;
        encoded.clear();
        Ok(())
    }

    /// Writes the last row group and the footer; returns the output (flushed).
    fn finish(mut self) -> std::io::Result<W> {
        self.flush_group()?;
        let rest = self.file.into_inner().map_err(to_io)?;
        self.out.write_all(&rest)?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Writes pairs to any [`Write`], one at a time; call [`PairsParquetWriter::finish`] to write
/// the footer (without it the output is not a valid Parquet file).
pub struct PairsParquetWriter<W: Write>(TableWriter<W>);

impl<W: Write> PairsParquetWriter<W> {
    /// A writer with zstd-compressed columns and [`ROW_GROUP_ROWS`] rows per row group.
    pub fn new(out: W) -> std::io::Result<Self> {
        Self::with_row_group_rows(out, ROW_GROUP_ROWS)
    }

    /// A writer with `rows` rows per row group (at least 1).
    pub fn with_row_group_rows(out: W, rows: usize) -> std::io::Result<Self> {
        let columns = vec![
            ColumnValues::Text(Vec::new()),
            ColumnValues::Text(Vec::new()),
            ColumnValues::Double(Vec::new()),
            ColumnValues::Double(Vec::new()),
            ColumnValues::Int32(Vec::new()),
        ];
        Ok(PairsParquetWriter(TableWriter::new(
            out, SCHEMA, columns, rows,
        )?))
    }

    /// Appends one pair. `bands_hit` above `i32::MAX` is an error (no LSH setup has that many
    /// bands).
    pub fn write_pair(
        &mut self,
        id_a: &str,
        id_b: &str,
        jaccard: f64,
        estimate: f64,
        bands_hit: u32,
    ) -> std::io::Result<()> {
        self.push(
            ByteArray::from(id_a),
            ByteArray::from(id_b),
            jaccard,
            estimate,
            bands_hit,
        )
    }

    /// Appends the pair of documents `a` and `b` of `ids`: the same row as
    /// [`PairsParquetWriter::write_pair`] with their ids, without copying an id per row.
    pub fn write_indexed_pair(
        &mut self,
        ids: &IdColumn,
        a: u32,
        b: u32,
        jaccard: f64,
        estimate: f64,
        bands_hit: u32,
    ) -> std::io::Result<()> {
        self.push(
            ids.0[a as usize].clone(),
            ids.0[b as usize].clone(),
            jaccard,
            estimate,
            bands_hit,
        )
    }

    fn push(
        &mut self,
        id_a: ByteArray,
        id_b: ByteArray,
        jaccard: f64,
        estimate: f64,
        bands_hit: u32,
    ) -> std::io::Result<()> {
        let bands = i32::try_from(bands_hit).map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("bands_hit {bands_hit} does not fit the int32 column"),
            )
        })?;
        let [
            ColumnValues::Text(a),
            ColumnValues::Text(b),
            ColumnValues::Double(j),
            ColumnValues::Double(e),
            ColumnValues::Int32(h),
        ] = &mut self.0.columns[..]
        else {
            unreachable!("the pairs schema's buffers")
        };
        a.push(id_a);
        b.push(id_b);
        j.push(jaccard);
        e.push(estimate);
        h.push(bands);
        self.0.row_done()
    }

    /// Writes the last row group and the footer; returns the output (flushed).
    pub fn finish(self) -> std::io::Result<W> {
        self.0.finish()
    }
}

/// Writes membership rows as Parquet: a document, the id of the document that heads its group
/// and the group's size, and for clusters whether this document is the one kept and its
/// Jaccard with it. Serves `dedup`'s clusters (`id, cluster, size, keep, jaccard`) and `scan --collapse-identical`'s groups
/// (`id, representative, size`); [`MembersParquetWriter::finish`] writes the footer.
pub struct MembersParquetWriter<W: Write> {
    table: TableWriter<W>,
    keep_column: bool,
}

impl<W: Write> MembersParquetWriter<W> {
    /// The clusters of `lshscope dedup`: `id`, `cluster` (the kept document), `size`, `keep`,
    /// `jaccard` (with the kept document); rows go in with
    /// [`MembersParquetWriter::write_cluster_member`].
    pub fn clusters(out: W) -> std::io::Result<Self> {
        Self::new(out, "cluster", true)
    }

    /// The identical groups of `scan --collapse-identical`: `id`, `representative`, `size`.
    pub fn groups(out: W) -> std::io::Result<Self> {
        Self::new(out, "representative", false)
    }

    fn new(out: W, head: &str, keep_column: bool) -> std::io::Result<Self> {
        let schema = format!(
            "message members {{
    required binary id (STRING);
    required binary {head} (STRING);
    required int64 size;{}
}}",
            if keep_column {
                "\n    required boolean keep;\n    required double jaccard;"
            } else {
                ""
            }
        );
        let mut columns = vec![
            ColumnValues::Text(Vec::new()),
            ColumnValues::Text(Vec::new()),
            ColumnValues::Int64(Vec::new()),
        ];
        if keep_column {
            columns.push(ColumnValues::Boolean(Vec::new()));
            columns.push(ColumnValues::Double(Vec::new()));
        }
        Ok(MembersParquetWriter {
            table: TableWriter::new(out, &schema, columns, ROW_GROUP_ROWS)?,
            keep_column,
        })
    }

    /// Appends document `doc` of `ids`, in the group headed by `head`, of `size` documents
    /// (identical groups; a clusters row needs its Jaccard: [`Self::write_cluster_member`]).
    pub fn write_member(
        &mut self,
        ids: &IdColumn,
        doc: u32,
        head: u32,
        size: usize,
    ) -> std::io::Result<()> {
        self.push(ids, doc, head, size, f64::NAN)
    }

    /// Appends document `doc` of `ids` to the cluster that keeps `head`, of `size` documents,
    /// with its Jaccard with `head`.
    pub fn write_cluster_member(
        &mut self,
        ids: &IdColumn,
        doc: u32,
        head: u32,
        size: usize,
        jaccard: f64,
    ) -> std::io::Result<()> {
        self.push(ids, doc, head, size, jaccard)
    }

    fn push(
        &mut self,
        ids: &IdColumn,
        doc: u32,
        head: u32,
        size: usize,
        jaccard: f64,
    ) -> std::io::Result<()> {
        let columns = &mut self.table.columns;
        if let ColumnValues::Text(v) = &mut columns[0] {
            v.push(ids.0[doc as usize].clone());
        }
        if let ColumnValues::Text(v) = &mut columns[1] {
            v.push(ids.0[head as usize].clone());
        }
        if let ColumnValues::Int64(v) = &mut columns[2] {
            v.push(size as i64);
        }
        if self.keep_column
            && let ColumnValues::Boolean(v) = &mut columns[3]
        {
            v.push(doc == head);
        }
        if self.keep_column
            && let ColumnValues::Double(v) = &mut columns[4]
        {
            v.push(jaccard);
        }
        self.table.row_done()
    }

    /// Writes the last row group and the footer; returns the output (flushed).
    pub fn finish(self) -> std::io::Result<W> {
        self.table.finish()
    }
}

/// A table of one string column, `id`: `dedup --drop-list removed.parquet`, the documents to
/// remove, ready for an anti-join.
pub struct IdsParquetWriter<W: Write>(TableWriter<W>);

impl<W: Write> IdsParquetWriter<W> {
    /// A writer of the `id` table to `out`; an I/O error when the Parquet writer cannot start.
    pub fn new(out: W) -> std::io::Result<Self> {
        let schema = "message ids {\n    required binary id (STRING);\n}";
        let columns = vec![ColumnValues::Text(Vec::new())];
        Ok(IdsParquetWriter(TableWriter::new(
            out,
            schema,
            columns,
            ROW_GROUP_ROWS,
        )?))
    }

    /// Appends one id as a row; a full row group is written out.
    pub fn write_id(&mut self, id: &str) -> std::io::Result<()> {
        if let ColumnValues::Text(v) = &mut self.0.columns[0] {
            v.push(ByteArray::from(id));
        }
        self.0.row_done()
    }

    /// Writes the last row group and the footer; returns the output (flushed).
    pub fn finish(self) -> std::io::Result<W> {
        self.0.finish()
    }
}

/// One pair read back. `estimate` and `bands_hit` are `None` when the file has no such column
/// (a pairs file written by another tool) or the value is null.
#[derive(Debug, Clone, PartialEq)]
pub struct PairRecord<'a> {
    /// 1-based row number in the file, for messages.
    pub row: u64,
    /// Id of the first document of the pair.
    pub id_a: &'a str,
    /// Id of the second document.
    pub id_b: &'a str,
    /// Exact Jaccard of the pair, in [0, 1].
    pub jaccard: f64,
    /// MinHash estimate: the fraction of signature rows that agree.
    pub estimate: Option<f64>,
    /// Bands in which the two shared a bucket.
    pub bands_hit: Option<u32>,
}

/// Reads a pairs Parquet file, calling `visit` for each row in order; returns the row count.
/// Columns are found by name (`id_a`, `id_b`, `jaccard` required; `estimate`, `bands_hit`
/// optional); other columns are not decoded.
pub fn read_pairs_file(
    path: &Path,
    progress: &Progress,
    visit: impl FnMut(PairRecord<'_>) -> Result<()>,
) -> Result<u64> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let len = file.metadata().map_err(|e| Error::io(path, e))?.len();
    guard_panics(path, || read_pairs_chunks(file, len, path, progress, visit))
}

/// [`read_pairs_file`] for bytes in memory (stdin `-`); `name` is used in messages.
pub fn read_pairs_bytes(
    bytes: Vec<u8>,
    name: &Path,
    progress: &Progress,
    visit: impl FnMut(PairRecord<'_>) -> Result<()>,
) -> Result<u64> {
    let len = bytes.len() as u64;
    guard_panics(name, || {
        read_pairs_chunks(Bytes::from(bytes), len, name, progress, visit)
    })
}

/// The leaf index and max definition level of each of [`COLUMNS`] in a file with `schema`
/// (`None`: an optional column the file does not have); an error names a column missing or
/// of the wrong type.
fn pair_columns(name: &Path, schema: &SchemaDescriptor) -> Result<[Option<(usize, i16)>; 5]> {
    let listing = crate::io::excerpt::listing(
        &(0..schema.num_columns())
            .map(|i| schema.column(i).path().string())
            .collect::<Vec<_>>(),
    );
    // Leaf index and max definition level of each wanted column.
    let mut leaves: [Option<(usize, i16)>; 5] = [None; 5];
    for (slot, wanted) in leaves.iter_mut().zip(COLUMNS) {
        let Some(leaf) = (0..schema.num_columns()).find(|&i| {
            let c = schema.column(i);
            c.path().parts().len() == 1 && c.name() == wanted
        }) else {
            continue;
        };
        let descr = schema.column(leaf);
        let expected: &[PhysicalType] = match wanted {
            "id_a" | "id_b" => &[PhysicalType::BYTE_ARRAY],
            "jaccard" | "estimate" => &[PhysicalType::DOUBLE, PhysicalType::FLOAT],
            _ => &[PhysicalType::INT32, PhysicalType::INT64],
        };
        if !expected.contains(&descr.physical_type()) || descr.max_rep_level() != 0 {
            return Err(Error::input(
                name,
                0,
                format!(
                    "column `{wanted}` has type {}{}; a pairs file needs {} (columns are: \
                     {listing})",
                    descr.physical_type(),
                    if descr.max_rep_level() != 0 {
                        " (repeated)"
                    } else {
                        ""
                    },
                    expected
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            ));
        }
        *slot = Some((leaf, descr.max_def_level()));
    }
    for (slot, wanted) in leaves.iter().zip(COLUMNS).take(3) {
        if slot.is_none() {
            return Err(Error::input(
                name,
                0,
                format!(
                    "no column `{wanted}`; a pairs file needs id_a, id_b and jaccard (columns \
                     are: {listing})"
                ),
            ));
        }
    }
    Ok(leaves)
}

/// The five columns in schema order; the last two optional.
const COLUMNS: [&str; 5] = ["id_a", "id_b", "jaccard", "estimate", "bands_hit"];

fn read_pairs_chunks<R: ChunkReader + 'static>(
    chunks: R,
    file_bytes: u64,
    name: &Path,
    progress: &Progress,
    mut visit: impl FnMut(PairRecord<'_>) -> Result<()>,
) -> Result<u64> {
    let reader = open(chunks, file_bytes, name)?;
    let metadata = reader.metadata();
    let schema = metadata.file_metadata().schema_descr();
    let leaves = pair_columns(name, schema)?;

    progress.set_total(file_bytes);
    let mut batches: [ColumnBatch; 5] = Default::default();
    let mut row_number = 0u64;
    let mut id_buf = [String::new(), String::new()];
    for group_index in 0..metadata.num_row_groups() {
        let group_meta = metadata.row_group(group_index);
        let group_rows = usize::try_from(group_meta.num_rows().max(0)).unwrap_or(usize::MAX);
        let group_bytes = u64::try_from(group_meta.compressed_size().max(0)).unwrap_or(0);
        let place = |c: &str| format!("row group {}, column `{c}`", group_index + 1);
        let group = reader
            .get_row_group(group_index)
            .map_err(|e| corrupt(name, &format!("row group {}", group_index + 1), &e))?;
        let mut readers: Vec<Option<TypedReader>> = Vec::with_capacity(5);
        for (slot, column) in leaves.iter().zip(COLUMNS) {
            readers.push(match slot {
                Some((leaf, _)) => Some(TypedReader::new(
                    group
                        .get_column_reader(*leaf)
                        .map_err(|e| corrupt(name, &place(column), &e))?,
                )),
                None => None,
            });
        }
        let mut done = 0usize;
        while done < group_rows {
            progress.check()?;
            let want = BATCH_ROWS.min(group_rows - done);
            for (c, reader) in readers.iter_mut().enumerate() {
                if let (Some(reader), Some((_, max_def))) = (reader.as_mut(), leaves[c]) {
                    batches[c]
                        .fill(reader, max_def, want)
                        .map_err(|e| corrupt(name, &place(COLUMNS[c]), &e))?;
                }
            }
            let mut next_value = [0usize; 5];
            for row in 0..want {
                row_number += 1;
                // The value of column `c` in this row, or None when null or absent.
                let mut present = [false; 5];
                for c in 0..5 {
                    if let Some((_, max_def)) = leaves[c]
                        && batches[c].is_set(row, max_def)
                    {
                        present[c] = true;
                        next_value[c] += 1;
                    }
                }
                for c in 0..3 {
                    if !present[c] {
                        return Err(Error::input(
                            name,
                            0,
                            format!(
                                "row {row_number} (row group {}): `{}` is null; every pair \
                                 needs both ids and its jaccard",
                                group_index + 1,
                                COLUMNS[c]
                            ),
                        ));
                    }
                }
                for (c, buf) in id_buf.iter_mut().enumerate() {
                    buf.clear();
                    buf.push_str(&String::from_utf8_lossy(
                        batches[c].bytes[next_value[c] - 1].data(),
                    ));
                }
                let float = |c: usize| -> Option<f64> {
                    if !present[c] {
                        return None;
                    }
                    let i = next_value[c] - 1;
                    let b = &batches[c];
                    Some(if b.double.is_empty() {
                        f64::from(b.float[i])
                    } else {
                        b.double[i]
                    })
                };
                // A negative or oversized count (another tool's file) reads as absent.
                let bands_hit = if present[4] {
                    let i = next_value[4] - 1;
                    let b = &batches[4];
                    if b.int32.is_empty() {
                        u32::try_from(b.int64[i]).ok()
                    } else {
                        u32::try_from(b.int32[i]).ok()
                    }
                } else {
                    None
                };
                visit(PairRecord {
                    row: row_number,
                    id_a: &id_buf[0],
                    id_b: &id_buf[1],
                    jaccard: float(2).unwrap_or(f64::NAN),
                    estimate: float(3),
                    bands_hit,
                })?;
            }
            done += want;
            progress.advance(group_bytes * want as u64 / group_rows.max(1) as u64);
        }
    }
    Ok(row_number)
}

#[cfg(test)]
mod tests {
    use parquet::file::reader::SerializedFileReader;

    use super::*;

    type Owned = (String, String, f64, Option<f64>, Option<u32>);

    fn read_all(bytes: Vec<u8>) -> Result<Vec<Owned>> {
        let mut rows = Vec::new();
        let mut expected_row = 0;
        read_pairs_bytes(bytes, Path::new("pairs.parquet"), &Progress::new(), |r| {
            expected_row += 1;
            assert_eq!(r.row, expected_row);
            rows.push((
                r.id_a.to_string(),
                r.id_b.to_string(),
                r.jaccard,
                r.estimate,
                r.bands_hit,
            ));
            Ok(())
        })?;
        Ok(rows)
    }

    #[test]
    fn pairs_round_trip_bit_exactly_across_row_groups() {
        // Awkward floats: thirds, subnormals, -0.0, and values one ulp apart.
        let specials = [
            1.0 / 3.0,
            f64::MIN_POSITIVE / 4.0,
            -0.0,
            0.1 + 0.2,
            0.3,
            1.0,
            0.0,
            f64::from_bits(0x3FE0_0000_0000_0001),
        ];
        let rows: Vec<Owned> = (0..1000u32)
            .map(|i| {
                (
                    format!("doc-{i}"),
                    if i % 3 == 0 {
                        String::new()
                    } else {
                        format!("é{}", i * 7)
                    },
                    specials[i as usize % specials.len()],
                    Some(specials[(i as usize + 3) % specials.len()]),
                    Some(i % 33),
                )
            })
            .collect();
        let mut w = PairsParquetWriter::with_row_group_rows(Vec::new(), 300).unwrap();
        for (a, b, j, e, h) in &rows {
            w.write_pair(a, b, *j, e.unwrap(), h.unwrap()).unwrap();
        }
        let bytes = w.finish().unwrap();
        let back = read_all(bytes.clone()).unwrap();
        assert_eq!(back.len(), rows.len());
        for (got, want) in back.iter().zip(&rows) {
            assert_eq!((&got.0, &got.1, got.4), (&want.0, &want.1, want.4));
            assert_eq!(got.2.to_bits(), want.2.to_bits());
            assert_eq!(got.3.unwrap().to_bits(), want.3.unwrap().to_bits());
        }
        let reader = SerializedFileReader::new(Bytes::from(bytes)).unwrap();
        assert_eq!(reader.metadata().num_row_groups(), 4);
    }

    #[test]
    fn clusters_read_back_with_their_types() {
        let ids = IdColumn::new(["a", "b", "c", "d"]);
        let mut w = MembersParquetWriter::clusters(Vec::new()).unwrap();
        w.write_cluster_member(&ids, 0, 0, 3, 1.0).unwrap();
        w.write_cluster_member(&ids, 2, 0, 3, 0.75).unwrap();
        w.write_cluster_member(&ids, 3, 0, 3, 0.5).unwrap();
        let reader = SerializedFileReader::new(Bytes::from(w.finish().unwrap())).unwrap();
        let schema = reader.metadata().file_metadata().schema_descr_ptr();
        let names: Vec<&str> = schema.columns().iter().map(|c| c.name()).collect();
        assert_eq!(names, ["id", "cluster", "size", "keep", "jaccard"]);
        let rows: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(
            rows,
            [
                r#"{id: "a", cluster: "a", size: 3, keep: true, jaccard: 1.0}"#,
                r#"{id: "c", cluster: "a", size: 3, keep: false, jaccard: 0.75}"#,
                r#"{id: "d", cluster: "a", size: 3, keep: false, jaccard: 0.5}"#,
            ]
        );
    }

    #[test]
    fn indexed_pairs_write_the_same_bytes_as_named_pairs() {
        let ids = ["a", "", "dóc-2", "a", "long id with spaces"];
        let table = IdColumn::new(ids);
        let rows = [(0u32, 1u32), (0, 4), (2, 3), (3, 4), (1, 2)];
        let mut named = PairsParquetWriter::with_row_group_rows(Vec::new(), 2).unwrap();
        let mut indexed = PairsParquetWriter::with_row_group_rows(Vec::new(), 2).unwrap();
        for (k, &(a, b)) in rows.iter().enumerate() {
            let (j, e, h) = (k as f64 / 7.0, k as f64 / 9.0, k as u32 + 1);
            named
                .write_pair(ids[a as usize], ids[b as usize], j, e, h)
                .unwrap();
            indexed.write_indexed_pair(&table, a, b, j, e, h).unwrap();
        }
        assert_eq!(named.finish().unwrap(), indexed.finish().unwrap());
    }

    #[test]
    fn empty_output_is_a_valid_file() {
        let bytes = PairsParquetWriter::new(Vec::new())
            .unwrap()
            .finish()
            .unwrap();
        assert!(read_all(bytes).unwrap().is_empty());
    }

    #[test]
    fn oversized_band_count_is_refused() {
        let mut w = PairsParquetWriter::new(Vec::new()).unwrap();
        assert!(w.write_pair("a", "b", 0.5, 0.5, u32::MAX).is_err());
    }

    #[test]
    fn a_file_without_pair_columns_is_explained() {
        let mut w = SerializedFileWriter::new(
            Vec::new(),
            std::sync::Arc::new(
                parse_message_type("message m { required binary text (STRING); }").unwrap(),
            ),
            Default::default(),
        )
        .unwrap();
        let mut g = w.next_row_group().unwrap();
        let mut c = g.next_column().unwrap().unwrap();
        c.typed::<ByteArrayType>()
            .write_batch(&[ByteArray::from("x")], None, None)
            .unwrap();
        c.close().unwrap();
        g.close().unwrap();
        let bytes = w.into_inner().unwrap();
        match read_all(bytes) {
            Err(Error::Input { message, .. }) => {
                assert!(message.contains("no column `id_a`"), "{message}");
                assert!(message.contains("columns are: text"), "{message}");
            }
            other => panic!("expected an input error, got {other:?}"),
        }
    }

    #[test]
    fn corrupt_pairs_files_are_errors() {
        let mut w = PairsParquetWriter::with_row_group_rows(Vec::new(), 50).unwrap();
        for i in 0..200 {
            w.write_pair(&i.to_string(), "b", 0.5, 0.25, 3).unwrap();
        }
        let good = w.finish().unwrap();
        for cut in (0..good.len()).step_by(5) {
            assert!(read_all(good[..cut].to_vec()).is_err());
        }
        let mut rng = crate::util::rng::SplitMix64::new(7);
        for _ in 0..2000 {
            let state = rng.next_u64();
            let mut bytes = good.clone();
            let at = (state as usize) % bytes.len();
            bytes[at] ^= (state >> 40) as u8 | 1;
            let _ = read_all(bytes);
        }
    }
}
