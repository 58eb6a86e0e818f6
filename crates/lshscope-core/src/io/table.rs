//! Two columns of any table another tool wrote: CSV with a header, JSON Lines (nested fields
//! named with dots), or Parquet, possibly compressed, recognised by their bytes; a directory of
//! part files (Spark, Dask, datatrove) read part by part in name order. [`for_each_row`] hands
//! each row's two values to the caller with where the row is, for its messages.

use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

use crate::io::header_csv::HeaderCsv;
use crate::io::input::open_input;
use crate::io::parquet::{ColumnBatch, Kind, TypedReader, classify, corrupt, guard_panics};
use crate::jobs::Progress;
use crate::terms::Setting;
use crate::{Error, Result};

/// What an imported file looked like.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TableFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// JSON Lines, one object per row.
    Jsonl,
    /// Apache Parquet.
    Parquet,
    /// A directory of part files (Spark, Dask and datatrove write one file per task), each
    /// read by its own bytes.
    Directory,
}

impl TableFormat {
    /// The format's name as messages and reports print it (`CSV`, `JSON Lines`, …).
    pub fn name(self) -> &'static str {
        match self {
            TableFormat::Csv => "CSV",
            TableFormat::Jsonl => "JSON Lines",
            TableFormat::Parquet => "Parquet",
            TableFormat::Directory => "directory of part files",
        }
    }
}

/// Where a row is, for messages: a line of a text file, or a row of a Parquet file.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RowPlace<'a> {
    pub(crate) file: &'a Path,
    /// The two columns read.
    pub(crate) columns: [&'a str; 2],
    /// 1-based line (text files) or row (Parquet, counted across row groups).
    pub(crate) number: u64,
    pub(crate) parquet: bool,
}

impl RowPlace<'_> {
    pub(crate) fn error(&self, message: impl Into<String>) -> Error {
        if self.parquet {
            Error::input(
                self.file,
                0,
                format!("row {}: {}", self.number, message.into()),
            )
        } else {
            Error::input(self.file, self.number, message)
        }
    }

    pub(crate) fn describe(&self) -> String {
        let what = if self.parquet { "row" } else { "line" };
        format!("{what} {} of {}", self.number, self.file.display())
    }
}

/// The columns asked for (two names, or pairs of candidates tried in order) and the setting
/// that names them with the form of its value, for messages.
pub(crate) struct Want<'a> {
    candidates: Vec<(&'a str, &'a str)>,
    named: bool,
    option: Setting,
    value: &'static str,
}

impl<'a> Want<'a> {
    pub(crate) fn new(
        named: Option<&'a [String; 2]>,
        candidates: Vec<(&'a str, &'a str)>,
        option: Setting,
        value: &'static str,
    ) -> Self {
        match named {
            Some(n) => Want {
                candidates: vec![(n[0].as_str(), n[1].as_str())],
                named: true,
                option,
                value,
            },
            None => Want {
                candidates,
                named: false,
                option,
                value,
            },
        }
    }

    /// The first pair of candidates `find` locates, with where it found each.
    pub(crate) fn find<T>(
        &self,
        find: impl Fn(&str) -> Option<T>,
    ) -> Option<((T, T), [String; 2])> {
        self.candidates.iter().find_map(|&(a, b)| {
            let (x, y) = (find(a)?, find(b)?);
            Some(((x, y), [a.to_string(), b.to_string()]))
        })
    }

    /// The error for a file without the columns; `found` lists the file's columns.
    pub(crate) fn missing(&self, file: &Path, line: u64, found: &str) -> Error {
        let listing = self
            .candidates
            .iter()
            .map(|(a, b)| format!("{a},{b}"))
            .collect::<Vec<_>>()
            .join(" ");
        let asked = if self.named {
            "the columns"
        } else {
            "any of the column pairs"
        };
        Error::input(
            file,
            line,
            format!(
                "{asked} {listing} not found (columns are: {found}); name them with {} {}",
                self.option, self.value
            ),
        )
    }
}

/// The files of `path`: itself, or the part files of a directory in name order.
pub(crate) fn table_files(path: &Path) -> Result<(bool, Vec<PathBuf>)> {
    let meta = std::fs::metadata(path).map_err(|e| Error::io(path, e))?;
    if !meta.is_dir() {
        return Ok((false, vec![path.to_path_buf()]));
    }
    let mut parts = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|e| Error::io(path, e))? {
        let entry = entry.map_err(|e| Error::io(path, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // `_SUCCESS`, `_metadata`, `.part-0.crc` and the like are bookkeeping, not data.
        if name.starts_with('_') || name.starts_with('.') || name.ends_with(".crc") {
            continue;
        }
        let file = entry.path();
        // Empty parts (a task that found nothing) hold no rows.
        if file.is_file() && entry.metadata().is_ok_and(|m| m.len() > 0) {
            parts.push(file);
        }
    }
    if parts.is_empty() {
        return Err(Error::input(
            path,
            0,
            "a directory without part files; give a CSV, JSON Lines or Parquet file, or the \
             directory Spark, Dask or datatrove wrote",
        ));
    }
    parts.sort();
    Ok((true, parts))
}

/// Reads two columns of every row of the table at `path` and hands their values (`None`:
/// null, missing or empty) to `row`. Returns the format, the number of files and the two
/// column names used.
pub(crate) fn for_each_row(
    path: &Path,
    want: Want<'_>,
    progress: &Progress,
    mut row: impl FnMut(RowPlace<'_>, [Option<&str>; 2]) -> Result<()>,
) -> Result<(TableFormat, usize, [String; 2])> {
    let (directory, files) = table_files(path)?;
    let mut format = TableFormat::Parquet;
    let mut columns = [String::new(), String::new()];
    for file in &files {
        let mut reader = open_input(file)?;
        let head = reader.fill_buf().map_err(|e| Error::io(file, e))?;
        if head.starts_with(crate::io::parquet::MAGIC) {
            let mut bytes = Vec::new();
            reader
                .read_to_end(&mut bytes)
                .map_err(|e| Error::io(file, e))?;
            columns = guard_panics(file, || {
                parquet_rows(bytes, file, &want, progress, &mut row)
            })?;
            format = TableFormat::Parquet;
            continue;
        }
        let first = head.iter().find(|b| !b.is_ascii_whitespace()).copied();
        match first {
            None => {
                return Err(Error::input(
                    file,
                    1,
                    "empty file: expected a CSV header, JSON Lines or Parquet",
                ));
            }
            Some(b'{') => {
                format = TableFormat::Jsonl;
                columns = jsonl_rows(reader, file, &want, progress, &mut row)?;
            }
            Some(_) => {
                format = TableFormat::Csv;
                columns = csv_rows(reader, file, &want, progress, &mut row)?;
            }
        }
    }
    if directory {
        format = TableFormat::Directory;
    }
    Ok((format, files.len(), columns))
}

pub(crate) fn csv_rows(
    reader: impl Read,
    file: &Path,
    want: &Want<'_>,
    progress: &Progress,
    row: &mut impl FnMut(RowPlace<'_>, [Option<&str>; 2]) -> Result<()>,
) -> Result<[String; 2]> {
    let mut csv = HeaderCsv::new(reader, file, false)?;
    let Some(((ca, cb), names)) = want.find(|name| csv.column(name)) else {
        return Err(want.missing(file, 1, &csv.header_text()));
    };
    let mut count = 0u64;
    while let Some((line, record)) = csv.next_row()? {
        count += 1;
        if count.is_multiple_of(65_536) {
            progress.check()?;
        }
        let value = |c: usize| record.get(c).map(str::trim).filter(|v| !v.is_empty());
        row(
            RowPlace {
                file,
                columns: [&names[0], &names[1]],
                number: line,
                parquet: false,
            },
            [value(ca), value(cb)],
        )?;
    }
    Ok(names)
}

/// The value at a dotted `path` of a JSON object: the key as written first (pandas writes
/// `metadata.minhash_cluster_id` flat), else nested objects.
pub(crate) fn json_at<'v>(
    object: &'v serde_json::Value,
    path: &str,
) -> Option<&'v serde_json::Value> {
    if let Some(v) = object.get(path) {
        return Some(v);
    }
    let mut at = object;
    for key in path.split('.') {
        at = at.get(key)?;
    }
    Some(at)
}

pub(crate) fn jsonl_rows(
    mut reader: impl BufRead,
    file: &Path,
    want: &Want<'_>,
    progress: &Progress,
    row: &mut impl FnMut(RowPlace<'_>, [Option<&str>; 2]) -> Result<()>,
) -> Result<[String; 2]> {
    let mut line = String::new();
    let mut number = 0u64;
    let mut names: Option<[String; 2]> = None;
    let mut buffers = [String::new(), String::new()];
    loop {
        line.clear();
        if reader
            .read_line(&mut line)
            .map_err(|e| Error::io(file, e))?
            == 0
        {
            break;
        }
        number += 1;
        if number.is_multiple_of(65_536) {
            progress.check()?;
        }
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| {
            Error::input_at(
                file,
                number,
                e.column() as u64,
                format!("not a JSON object ({e}); expected JSON Lines, one object per line"),
            )
        })?;
        if !value.is_object() {
            return Err(Error::input(
                file,
                number,
                "not a JSON object; expected JSON Lines, one object per line",
            ));
        }
        // The columns are chosen on the first object; later objects may lack them (null).
        let names = match &mut names {
            Some(n) => n,
            None => {
                let Some((_, found)) = want.find(|name| json_at(&value, name)) else {
                    let keys = value
                        .as_object()
                        .map(|o| o.keys().cloned().collect::<Vec<_>>().join(", "))
                        .unwrap_or_default();
                    return Err(want.missing(file, number, &keys));
                };
                names.insert(found)
            }
        };
        let place = RowPlace {
            file,
            columns: [&names[0], &names[1]],
            number,
            parquet: false,
        };
        let mut present = [false, false];
        for k in 0..2 {
            buffers[k].clear();
            match json_at(&value, &names[k]) {
                None | Some(serde_json::Value::Null) => {}
                Some(serde_json::Value::String(s)) => {
                    buffers[k].push_str(s.trim());
                    present[k] = !buffers[k].is_empty();
                }
                Some(serde_json::Value::Number(n)) => {
                    buffers[k].push_str(&n.to_string());
                    present[k] = true;
                }
                Some(other) => {
                    return Err(place.error(format!(
                        "field `{}` is {}, not a string or a number",
                        names[k],
                        crate::io::excerpt::excerpt(&other.to_string())
                    )));
                }
            }
        }
        let values = [
            present[0].then_some(buffers[0].as_str()),
            present[1].then_some(buffers[1].as_str()),
        ];
        row(place, values)?;
    }
    names.ok_or_else(|| Error::input(file, 1, "no rows: expected JSON Lines, one object per line"))
}

/// Rows of a Parquet file in memory. Columns are leaves named by their dotted path
/// (`datasetA.id`), of a string or integer type, not inside a list.
pub(crate) fn parquet_rows(
    bytes: Vec<u8>,
    file: &Path,
    want: &Want<'_>,
    progress: &Progress,
    row: &mut impl FnMut(RowPlace<'_>, [Option<&str>; 2]) -> Result<()>,
) -> Result<[String; 2]> {
    use parquet::file::reader::FileReader;
    let len = bytes.len() as u64;
    let reader = crate::io::parquet::open(bytes::Bytes::from(bytes), len, file)?;
    let metadata = reader.metadata();
    let schema = metadata.file_metadata().schema_descr();
    let paths: Vec<String> = (0..schema.num_columns())
        .map(|i| schema.column(i).path().string())
        .collect();
    let leaf = |name: &str| {
        paths
            .iter()
            .position(|p| p == name)
            .or_else(|| paths.iter().position(|p| p.eq_ignore_ascii_case(name)))
    };
    let Some(((la, lb), names)) = want.find(leaf) else {
        return Err(want.missing(file, 0, &paths.join(", ")));
    };
    let [na, nb] = [names[0].as_str(), names[1].as_str()];
    let mut kinds = [Kind::Utf8, Kind::Utf8];
    let mut max_defs = [0i16; 2];
    for (k, (&leaf, name)) in [la, lb].iter().zip([na, nb]).enumerate() {
        let descr = schema.column(leaf);
        let kind = classify(&descr).filter(|_| descr.max_rep_level() == 0);
        let Some(kind) = kind else {
            return Err(Error::input(
                file,
                0,
                format!(
                    "column `{name}` is {}{}; ids and clusters must be strings or integers",
                    crate::io::parquet::describe(&descr),
                    if descr.max_rep_level() > 0 {
                        " inside a list"
                    } else {
                        ""
                    }
                ),
            ));
        };
        kinds[k] = kind;
        max_defs[k] = descr.max_def_level();
    }
    let mut batches = [ColumnBatch::default(), ColumnBatch::default()];
    let mut buffers = [String::new(), String::new()];
    let mut number = 0u64;
    for group_index in 0..metadata.num_row_groups() {
        let group_rows =
            usize::try_from(metadata.row_group(group_index).num_rows().max(0)).unwrap_or(0);
        let group = reader
            .get_row_group(group_index)
            .map_err(|e| corrupt(file, &format!("row group {}", group_index + 1), &e))?;
        let place = |name: &str| format!("row group {}, column `{name}`", group_index + 1);
        let mut readers = [
            TypedReader::new(
                group
                    .get_column_reader(la)
                    .map_err(|e| corrupt(file, &place(na), &e))?,
            ),
            TypedReader::new(
                group
                    .get_column_reader(lb)
                    .map_err(|e| corrupt(file, &place(nb), &e))?,
            ),
        ];
        let mut done = 0usize;
        while done < group_rows {
            progress.check()?;
            let want_rows = 4096.min(group_rows - done);
            for k in 0..2 {
                batches[k]
                    .fill(&mut readers[k], max_defs[k], want_rows)
                    .map_err(|e| corrupt(file, &place([na, nb][k]), &e))?;
            }
            let mut next_value = [0usize; 2];
            for r in 0..want_rows {
                number += 1;
                let mut present = [false; 2];
                for k in 0..2 {
                    if batches[k].is_set(r, max_defs[k]) {
                        batches[k].format(kinds[k], next_value[k], &mut buffers[k]);
                        next_value[k] += 1;
                        present[k] = !buffers[k].is_empty();
                    }
                }
                row(
                    RowPlace {
                        file,
                        columns: [na, nb],
                        number,
                        parquet: true,
                    },
                    [
                        present[0].then_some(buffers[0].as_str()),
                        present[1].then_some(buffers[1].as_str()),
                    ],
                )?;
            }
            done += want_rows;
        }
    }
    Ok(names.clone())
}
