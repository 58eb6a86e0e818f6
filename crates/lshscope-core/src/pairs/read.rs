//! The one reader of pair files (CSV, JSON Lines, a plain list of similarities), compressed or
//! not, from a file or stdin.

use super::*;
use crate::io::header_csv::HeaderCsv;
use crate::io::input::open_input;

/// What a reader of pair files needs from each row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PairColumns {
    /// Require `id_a` and `id_b` (truth files); otherwise only `jaccard` is read.
    pub ids: bool,
    /// Also accept a plain list: one similarity per line, no header.
    pub plain_list: bool,
}

/// One row of a pair file. `line` is the 1-based physical line where the row starts.
#[derive(Debug, Clone, PartialEq)]
pub struct PairRow<'a> {
    /// 1-based line number of the row's start, for messages.
    pub line: u64,
    /// Id of the first document; empty in a plain list of similarities.
    pub id_a: Cow<'a, str>,
    /// Id of the second document; empty in a plain list.
    pub id_b: Cow<'a, str>,
    /// The pair's Jaccard as the file gives it.
    pub jaccard: f64,
    /// How many pairs this row stands for: the optional `weight` column (a sample of pairs
    /// from `truth --estimate-pairs` carries population ÷ sample size), else 1.
    pub weight: f64,
}

/// Reads every row of the pair file at `path` (`-` is stdin; CSV or JSON Lines, either
/// possibly gzip- or zstd-compressed: what `scan`, `truth` and `gen` write) and hands it to
/// `row`. Errors name the file, the line and the column.
pub fn for_each_pair(
    path: &Path,
    columns: PairColumns,
    row: impl FnMut(PairRow) -> Result<()>,
) -> Result<()> {
    let reader = open_input(path)?;
    for_each_pair_in(reader, path, columns, row)
}

/// [`for_each_pair`] from a reader (already decompressed); `name` is used in messages.
pub fn for_each_pair_in(
    mut reader: impl BufRead,
    name: &Path,
    columns: PairColumns,
    mut row: impl FnMut(PairRow) -> Result<()>,
) -> Result<()> {
    let io = |e| Error::io(name, e);
    let head = reader.fill_buf().map_err(io)?;
    if head.starts_with(crate::io::parquet::MAGIC) {
        // Parquet needs random access (its footer is at the end): read the file into memory.
        // Pair files are compressed column by column, so this is a fraction of the CSV size.
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).map_err(io)?;
        crate::pairs::parquet::read_pairs_bytes(bytes, name, &Progress::new(), |r| {
            let jaccard = check_range(name, r.row, "column `jaccard`", r.jaccard)?;
            row(PairRow {
                line: r.row,
                id_a: Cow::Borrowed(r.id_a),
                id_b: Cow::Borrowed(r.id_b),
                jaccard,
                weight: 1.0,
            })
        })?;
        return Ok(());
    }
    let first_byte = head.iter().find(|b| !b.is_ascii_whitespace()).copied();
    let named_jsonl = matches!(OutputFormat::from_name(name), Some(OutputFormat::Jsonl));
    match first_byte {
        // JSON Lines without rows is an empty file: a truth or scan that found no pair.
        None if named_jsonl => Ok(()),
        None => Err(Error::input(
            name,
            1,
            "empty file: expected the CSV header id_a,id_b,jaccard,… or JSON Lines as \
             `lshscope scan` writes them",
        )),
        Some(b'{') => read_jsonl(reader, name, columns, &mut row),
        Some(_) => {
            let mut first = String::new();
            reader.read_line(&mut first).map_err(io)?;
            let first_trimmed = first.trim().trim_start_matches('\u{feff}');
            if columns.plain_list && first_trimmed.parse::<f64>().is_ok() {
                read_plain(first, reader, name, &mut row)
            } else {
                let chained = std::io::Cursor::new(first.into_bytes()).chain(reader);
                read_csv(chained, name, columns, &mut row)
            }
        }
    }
}

/// Reads the `jaccard` values with the `weight` of each (1 without that column).
pub fn read_weighted_similarities(path: &Path, plain_list: bool) -> Result<Vec<(f64, f64)>> {
    let mut values = Vec::new();
    for_each_pair(
        path,
        PairColumns {
            ids: false,
            plain_list,
        },
        |r| {
            values.push((r.jaccard, r.weight));
            Ok(())
        },
    )?;
    Ok(values)
}

/// Reads only the `jaccard` values (for histograms and the tuner).
pub fn read_similarities(path: &Path, plain_list: bool) -> Result<Vec<f64>> {
    let mut values = Vec::new();
    for_each_pair(
        path,
        PairColumns {
            ids: false,
            plain_list,
        },
        |r| {
            values.push(r.jaccard);
            Ok(())
        },
    )?;
    Ok(values)
}

fn check_jaccard(name: &Path, line: u64, column: &str, text: &str) -> Result<f64> {
    let v: f64 = text.trim().parse().map_err(|_| {
        Error::input(
            name,
            line,
            format!(
                "{column}: `{}` is not a number; expected a Jaccard similarity in [0, 1]",
                excerpt(text)
            ),
        )
    })?;
    check_range(name, line, column, v)
}

fn check_weight(name: &Path, line: u64, column: &str, text: &str) -> Result<f64> {
    match text.trim().parse::<f64>() {
        Ok(w) if w > 0.0 && w.is_finite() => Ok(w),
        _ => Err(Error::input(
            name,
            line,
            format!(
                "{column}: `{}` is not a positive number; a weight says how many pairs the \
                 row stands for",
                excerpt(text)
            ),
        )),
    }
}

fn check_range(name: &Path, line: u64, column: &str, v: f64) -> Result<f64> {
    if !(0.0..=1.0).contains(&v) {
        return Err(Error::input(
            name,
            line,
            format!("{column}: similarity {v} is outside [0, 1]"),
        ));
    }
    Ok(v)
}

fn read_plain(
    first: String,
    mut reader: impl BufRead,
    name: &Path,
    row: &mut impl FnMut(PairRow) -> Result<()>,
) -> Result<()> {
    let mut line = first;
    let mut line_no = 1u64;
    loop {
        let text = line.trim();
        if !text.is_empty() {
            let jaccard = check_jaccard(name, line_no, "column 1", text)?;
            row(PairRow {
                line: line_no,
                id_a: Cow::Borrowed(""),
                id_b: Cow::Borrowed(""),
                jaccard,
                weight: 1.0,
            })?;
        }
        line.clear();
        line_no += 1;
        if reader
            .read_line(&mut line)
            .map_err(|e| Error::io(name, e))?
            == 0
        {
            return Ok(());
        }
    }
}

fn read_csv(
    reader: impl Read,
    name: &Path,
    columns: PairColumns,
    row: &mut impl FnMut(PairRow) -> Result<()>,
) -> Result<()> {
    let mut csv = HeaderCsv::new(reader, name, false)?;
    let column = |want: &str| {
        csv.column(want).ok_or_else(|| {
            Error::input(
                name,
                1,
                format!(
                    "no `{want}` column in the header (found: {}); expected a pair file as \
                     `lshscope scan`, `truth` or `gen` write it (id_a,id_b,jaccard,…){}",
                    csv.header_text(),
                    if columns.plain_list {
                        ", or one similarity per line"
                    } else {
                        ""
                    }
                ),
            )
        })
    };
    let cj = column("jaccard")?;
    let ids = if columns.ids {
        Some((column("id_a")?, column("id_b")?))
    } else {
        None
    };
    let jaccard_label = format!("column {} (jaccard)", cj + 1);
    let cw = csv.column("weight");
    let weight_label = cw.map(|c| format!("column {} (weight)", c + 1));
    while let Some((line, record)) = csv.next_row()? {
        let jaccard = check_jaccard(name, line, &jaccard_label, record.get(cj).unwrap_or(""))?;
        let weight = match (cw, &weight_label) {
            (Some(c), Some(label)) => check_weight(name, line, label, record.get(c).unwrap_or(""))?,
            _ => 1.0,
        };
        let (id_a, id_b) = match ids {
            Some((ca, cb)) => (record.get(ca).unwrap_or(""), record.get(cb).unwrap_or("")),
            None => ("", ""),
        };
        row(PairRow {
            line,
            id_a: Cow::Borrowed(id_a),
            id_b: Cow::Borrowed(id_b),
            jaccard,
            weight,
        })?;
    }
    Ok(())
}

/// One JSON Lines row; ids may be strings or integers (written back as their decimal form).
#[derive(serde::Deserialize)]
struct JsonRow<'a> {
    #[serde(borrow, default)]
    id_a: Option<JsonId<'a>>,
    #[serde(borrow, default)]
    id_b: Option<JsonId<'a>>,
    #[serde(default)]
    jaccard: Option<serde_json::Value>,
    #[serde(default)]
    weight: Option<serde_json::Value>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum JsonId<'a> {
    Str(#[serde(borrow)] Cow<'a, str>),
    Int(i64),
}

fn json_id<'a>(v: Option<JsonId<'a>>, key: &str, name: &Path, line: u64) -> Result<Cow<'a, str>> {
    match v {
        Some(JsonId::Str(s)) => Ok(s),
        Some(JsonId::Int(i)) => Ok(Cow::Owned(i.to_string())),
        None => Err(Error::input(
            name,
            line,
            format!("no `{key}` field; a truth file needs id_a, id_b and jaccard"),
        )),
    }
}

fn read_jsonl(
    mut reader: impl BufRead,
    name: &Path,
    columns: PairColumns,
    row: &mut impl FnMut(PairRow) -> Result<()>,
) -> Result<()> {
    let mut line = String::new();
    let mut line_no = 0u64;
    loop {
        line.clear();
        if reader
            .read_line(&mut line)
            .map_err(|e| Error::io(name, e))?
            == 0
        {
            return Ok(());
        }
        line_no += 1;
        let text = line.trim();
        if text.is_empty() {
            continue;
        }
        let parsed: JsonRow = serde_json::from_str(text).map_err(|e| {
            Error::input(
                name,
                line_no,
                format!(
                    "column {}: not a JSON object of a pair ({e}); expected JSON Lines as \
                     `lshscope scan -o pairs.jsonl` writes them",
                    e.column()
                ),
            )
        })?;
        let jaccard = match parsed.jaccard {
            Some(serde_json::Value::Number(n)) => {
                check_jaccard(name, line_no, "field `jaccard`", &n.to_string())?
            }
            Some(other) => {
                return Err(Error::input(
                    name,
                    line_no,
                    format!(
                        "field `jaccard`: {} is not a number",
                        excerpt(&other.to_string())
                    ),
                ));
            }
            None => {
                return Err(Error::input(
                    name,
                    line_no,
                    "no `jaccard` field; expected objects with id_a, id_b and jaccard",
                ));
            }
        };
        let (id_a, id_b) = if columns.ids {
            (
                json_id(parsed.id_a, "id_a", name, line_no)?,
                json_id(parsed.id_b, "id_b", name, line_no)?,
            )
        } else {
            (Cow::Borrowed(""), Cow::Borrowed(""))
        };
        let weight = match parsed.weight {
            None => 1.0,
            Some(serde_json::Value::Number(n)) => {
                check_weight(name, line_no, "field `weight`", &n.to_string())?
            }
            Some(other) => {
                return Err(Error::input(
                    name,
                    line_no,
                    format!(
                        "field `weight`: {} is not a number",
                        excerpt(&other.to_string())
                    ),
                ));
            }
        };
        row(PairRow {
            line: line_no,
            id_a,
            id_b,
            jaccard,
            weight,
        })?;
    }
}
