//! Pair files in and out: one place that knows where output goes (a file written atomically,
//! or stdout for `-`), how it is compressed (`.gz`, `.zst`) and formatted (CSV, JSON Lines,
//! Parquet for pairs), and one reader for everything `scan`, `truth` and `gen` write, used by
//! every command that reads pairs.
//!
//! Writing is on the hot path of a scan that keeps millions of pairs, so [`RowWriter`] formats
//! without allocating per row: ids are copied as bytes (quoted only when they must be), floats
//! go through `ryu` (shortest round-trip), integers through `itoa`, into a large buffer.

pub mod parquet;

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::corpus::Corpus;
use crate::io::atomic::WriteError;
use crate::io::excerpt::excerpt;
use crate::jobs::Progress;
use crate::minhash::VerifiedPair;
use crate::minhash::similarity::prefetch_line;
use crate::{Error, Result};

/// Buffer size of every writer and reader here: large enough that the kernel sees few calls.
const BUFFER: usize = 1 << 20;

/// Rows between two progress updates (and cancellation checks) while writing.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// The row format of an output file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputFormat {
    /// Comma-separated values with a header row.
    Csv,
    /// JSON Lines: one object per row, keys in the CSV column order.
    Jsonl,
    /// Apache Parquet: the CSV columns, typed (ids string, Jaccard and estimate double,
    /// counts integer).
    Parquet,
}

impl OutputFormat {
    /// Every format, in the order help lists them.
    pub const ALL: [OutputFormat; 3] = [
        OutputFormat::Csv,
        OutputFormat::Jsonl,
        OutputFormat::Parquet,
    ];

    /// The format's name, as `--output-format` and the Python API take it.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Jsonl => "jsonl",
            OutputFormat::Parquet => "parquet",
        }
    }

    /// What the format is, in one line for help texts.
    pub fn description(self) -> &'static str {
        match self {
            OutputFormat::Csv => "Comma-separated values with a header row",
            OutputFormat::Jsonl => "JSON Lines: one object per row, keys in the CSV column order",
            OutputFormat::Parquet => {
                "Apache Parquet: the CSV columns, typed (ids string, Jaccard and estimate double, \
                 counts integer)"
            }
        }
    }

    /// The format a name (any case) names, if any.
    pub fn from_format_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(name))
    }

    /// The format an output name asks for by its extension (after any `.gz`/`.zst`), if any.
    pub fn from_name(path: &Path) -> Option<OutputFormat> {
        let stripped = Compression::strip(path).0;
        match extension(&stripped).as_deref() {
            Some("csv") => Some(OutputFormat::Csv),
            Some("jsonl" | "ndjson") => Some(OutputFormat::Jsonl),
            Some("parquet") => Some(OutputFormat::Parquet),
            _ => None,
        }
    }
}

/// Compression applied to an output stream, chosen by the file name's last extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// The compression a name asks for, and the name without that extension.
    fn strip(path: &Path) -> (PathBuf, Compression) {
        match extension(path).as_deref() {
            Some("gz") => (path.with_extension(""), Compression::Gzip),
            Some("zst") => (path.with_extension(""), Compression::Zstd),
            _ => (path.to_path_buf(), Compression::None),
        }
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
}

/// How errors and summaries name stdout.
const STDOUT: &str = "<stdout>";

/// Where one output goes: a file (replaced atomically) or stdout, and its compression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputTarget {
    /// `None` is stdout (no `-o`, or `-o -`).
    pub path: Option<PathBuf>,
    pub compression: Compression,
}

impl OutputTarget {
    /// The target for an `-o` argument: absent or `-` is stdout (uncompressed); a name ending
    /// in `.gz` or `.zst` is compressed.
    pub fn new(path: Option<&Path>) -> OutputTarget {
        match path {
            None => OutputTarget::stdout(),
            Some(p) if p == Path::new("-") => OutputTarget::stdout(),
            Some(p) => OutputTarget {
                path: Some(p.to_path_buf()),
                compression: Compression::strip(p).1,
            },
        }
    }

    pub fn stdout() -> OutputTarget {
        OutputTarget {
            path: None,
            compression: Compression::None,
        }
    }

    /// The name used in messages: the path, or `<stdout>`.
    pub fn display(&self) -> String {
        match &self.path {
            Some(p) => p.display().to_string(),
            None => STDOUT.to_string(),
        }
    }

    /// The row format: `flag` when given (an explicit `--output-format` wins over the
    /// extension, as documented), else the extension's, else CSV. `allowed` lists the formats
    /// this output can take; others are a usage error before any work starts.
    pub fn format(
        &self,
        flag: Option<OutputFormat>,
        allowed: &[OutputFormat],
    ) -> Result<OutputFormat> {
        let by_name = self.path.as_deref().and_then(OutputFormat::from_name);
        let format = flag.or(by_name).unwrap_or(OutputFormat::Csv);
        if !allowed.contains(&format) {
            let names: Vec<&str> = allowed.iter().map(|f| format_name(*f)).collect();
            return Err(Error::usage(format!(
                "{}: this output cannot be written as {}; use {}",
                self.display(),
                format_name(format),
                names.join(" or ")
            )));
        }
        if format == OutputFormat::Parquet && self.compression != Compression::None {
            return Err(Error::usage(format!(
                "{}: Parquet compresses internally; drop the .gz/.zst extension",
                self.display()
            )));
        }
        Ok(format)
    }

    /// Writes through `write`, compressed as the name says, to the file (atomically: a failed
    /// or cancelled write leaves the old file, and no temporary file) or to stdout.
    ///
    /// `write` fails with an I/O error, reported against this output, or with an engine
    /// error, passed on as it is ([`WriteError`]). A cancelled `progress` turns the failure
    /// into [`Error::Cancelled`].
    pub fn write<F, E>(&self, progress: Option<&Progress>, write: F) -> Result<()>
    where
        F: FnOnce(&mut dyn Write) -> std::result::Result<(), E>,
        E: Into<WriteError>,
    {
        let compression = self.compression;
        let compressed = move |w: &mut dyn Write| -> std::result::Result<(), WriteError> {
            match compression {
                Compression::None => write(w).map_err(Into::into),
                Compression::Gzip => {
                    let mut enc = flate2::write::GzEncoder::new(w, flate2::Compression::fast());
                    write(&mut enc).map_err(Into::into)?;
                    Ok(enc.try_finish()?)
                }
                Compression::Zstd => {
                    let mut enc = zstd::stream::write::Encoder::new(w, 3)?;
                    write(&mut enc).map_err(Into::into)?;
                    Ok(enc.finish().map(|_| ())?)
                }
            }
        };
        let result = match &self.path {
            Some(path) => crate::io::atomic::write_atomically(path, compressed),
            None => {
                let stdout = std::io::stdout();
                let mut w = std::io::BufWriter::with_capacity(BUFFER, stdout.lock());
                compressed(&mut w)
                    .and_then(|_| Ok(w.flush()?))
                    .map_err(|e| e.at(STDOUT))
            }
        };
        match result {
            Err(_) if progress.is_some_and(|p| p.is_cancelled()) => Err(Error::Cancelled),
            other => other,
        }
    }
}

fn format_name(f: OutputFormat) -> &'static str {
    match f {
        OutputFormat::Csv => "CSV",
        OutputFormat::Jsonl => "JSON Lines",
        OutputFormat::Parquet => "Parquet",
    }
}

/// One value of a row.
#[derive(Debug, Clone, Copy)]
pub enum Field<'a> {
    Str(&'a str),
    F64(f64),
    U64(u64),
    /// `true`/`false` in CSV, a JSON boolean in JSON Lines.
    Bool(bool),
}

fn bool_text(v: bool) -> &'static [u8] {
    if v { b"true" } else { b"false" }
}

/// Writes rows of a fixed set of columns as CSV (header first) or JSON Lines (keys in column
/// order), advancing `progress` as it goes and stopping when it is cancelled.
///
/// Rows are formatted into one reused buffer that goes to `out` in large blocks: one virtual
/// call per megabyte instead of one per field, and no allocation per row.
pub struct RowWriter<'w, 'p> {
    out: &'w mut dyn Write,
    buf: Vec<u8>,
    format: OutputFormat,
    columns: &'static [&'static str],
    progress: Option<&'p Progress>,
    since_update: u64,
    floats: FloatCache,
    ints: itoa::Buffer,
}

impl<'w, 'p> RowWriter<'w, 'p> {
    /// Starts a file of `columns`; CSV writes its header now. Parquet is not a row format
    /// here: it has its own writer.
    pub fn new(
        out: &'w mut dyn Write,
        format: OutputFormat,
        columns: &'static [&'static str],
        progress: Option<&'p Progress>,
    ) -> std::io::Result<Self> {
        if format == OutputFormat::Parquet {
            return Err(std::io::Error::other(
                "Parquet is written by its own writer, not row by row",
            ));
        }
        let mut writer = RowWriter {
            out,
            buf: Vec::with_capacity(BUFFER + 4096),
            format,
            columns,
            progress,
            since_update: 0,
            floats: FloatCache::new(),
            ints: itoa::Buffer::new(),
        };
        if format == OutputFormat::Csv {
            for (i, c) in columns.iter().enumerate() {
                if i > 0 {
                    writer.buf.push(b',');
                }
                push_csv_str(&mut writer.buf, c);
            }
            writer.buf.push(b'\n');
        }
        Ok(writer)
    }

    /// Writes one row; `fields` are in the order of the columns.
    pub fn write_row(&mut self, fields: &[Field]) -> std::io::Result<()> {
        debug_assert_eq!(fields.len(), self.columns.len());
        let buf = &mut self.buf;
        match self.format {
            OutputFormat::Csv => {
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        buf.push(b',');
                    }
                    match *f {
                        Field::Str(s) => push_csv_str(buf, s),
                        Field::F64(v) => self.floats.push(buf, v),
                        Field::U64(v) => buf.extend_from_slice(self.ints.format(v).as_bytes()),
                        Field::Bool(v) => buf.extend_from_slice(bool_text(v)),
                    }
                }
                buf.push(b'\n');
            }
            _ => {
                buf.push(b'{');
                for (i, (f, key)) in fields.iter().zip(self.columns).enumerate() {
                    buf.extend_from_slice(if i > 0 { b",\"" } else { b"\"" });
                    buf.extend_from_slice(key.as_bytes());
                    buf.extend_from_slice(b"\":");
                    match *f {
                        Field::Str(s) => serde_json::to_writer(&mut *buf, s)?,
                        Field::F64(v) if v.is_finite() => self.floats.push(buf, v),
                        Field::F64(_) => buf.extend_from_slice(b"null"),
                        Field::U64(v) => buf.extend_from_slice(self.ints.format(v).as_bytes()),
                        Field::Bool(v) => buf.extend_from_slice(bool_text(v)),
                    }
                }
                buf.extend_from_slice(b"}\n");
            }
        }
        if self.buf.len() >= BUFFER {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        self.since_update += 1;
        if self.since_update == PROGRESS_EVERY {
            self.count_progress()?;
        }
        Ok(())
    }

    fn count_progress(&mut self) -> std::io::Result<()> {
        if let Some(p) = self.progress {
            p.advance(self.since_update);
            if p.is_cancelled() {
                return Err(std::io::Error::other("cancelled"));
            }
        }
        self.since_update = 0;
        Ok(())
    }

    /// Writes what is buffered, counts the last rows into the progress handle, and flushes.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.count_progress()?;
        self.out.write_all(&self.buf)?;
        self.out.flush()
    }
}

/// Recently formatted floats, direct-mapped by their bits. A pair file repeats few distinct
/// values per column (estimates are multiples of 1/K, Jaccard values ratios of small
/// integers), and copying a cached text is several times cheaper than formatting it anew.
struct FloatCache {
    ryu: ryu::Buffer,
    slots: Vec<FloatSlot>,
    /// log2 of the slot count.
    bits: u32,
    /// Where a value that is not cached (not finite, or too long a text) is formatted; 32
    /// bytes, so it can be copied like a slot.
    uncached: [u8; 32],
    uncached_len: usize,
}

/// One formatted float: `text[..len]`, then spare bytes, so a row formatter can copy the
/// whole 24 bytes (text and length) with two moves and advance by `len`. 32 bytes, aligned, so
/// a slot is one cache line's quarter, never split between two.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct FloatSlot {
    /// The value's bits; a NaN pattern marks an empty slot (NaN is never cached).
    bits: u64,
    text: [u8; SLOT_TEXT],
    len: u8,
}

/// Bytes of text a [`FloatSlot`] holds: every finite f64 between −1e16 and 1e16 (the longest
/// Jaccard text, `0.000…` with 17 digits, is 22 bytes); longer texts are formatted uncached.
const SLOT_TEXT: usize = 23;

impl FloatCache {
    const SLOTS_LOG2: u32 = 10;

    fn new() -> Self {
        Self::with_slots_log2(Self::SLOTS_LOG2)
    }

    fn with_slots_log2(bits: u32) -> Self {
        let empty = FloatSlot {
            bits: u64::MAX,
            text: [0; SLOT_TEXT],
            len: 0,
        };
        FloatCache {
            ryu: ryu::Buffer::new(),
            slots: vec![empty; 1 << bits],
            bits,
            uncached: [0; 32],
            uncached_len: 0,
        }
    }

    /// The text of `v` (as [`format_f64`] writes it): 32 bytes of which the first `len` are
    /// the text, and `len`.
    #[inline(always)]
    fn text(&mut self, v: f64) -> (*const u8, usize) {
        let bits = v.to_bits();
        // Fibonacci hashing spreads the varying mantissa bits over the slot index; folding the
        // upper half in first lets the low bits count too (without it, 1000 ratios k/997 took
        // 766 of 4096 slots, and thrashed where they met; with it, 881, as random values do).
        let i = ((bits ^ (bits >> 32)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits))
            as usize;
        let slot = &self.slots[i];
        if slot.bits == bits && v.is_finite() {
            return (slot.text.as_ptr(), slot.len as usize);
        }
        self.fill(v, i)
    }

    /// [`FloatCache::text`] for a value not in its slot: formats it, and caches it unless it
    /// is not finite or its text is too long for a slot.
    #[cold]
    #[inline(never)]
    fn fill(&mut self, v: f64, i: usize) -> (*const u8, usize) {
        let text = if v.is_finite() {
            format_f64(&mut self.ryu, v)
        } else {
            self.ryu.format(v).as_bytes()
        };
        if v.is_finite() && text.len() <= SLOT_TEXT {
            let slot = &mut self.slots[i];
            slot.text[..text.len()].copy_from_slice(text);
            slot.len = text.len() as u8;
            slot.bits = v.to_bits();
            return (slot.text.as_ptr(), slot.len as usize);
        }
        self.uncached[..text.len()].copy_from_slice(text);
        self.uncached_len = text.len();
        (self.uncached.as_ptr(), self.uncached_len)
    }

    fn push(&mut self, out: &mut Vec<u8>, v: f64) {
        let (text, len) = self.text(v);
        // SAFETY: `text` points at `len` initialized bytes of this cache.
        out.extend_from_slice(unsafe { std::slice::from_raw_parts(text, len) });
    }
}

/// Shortest round-trip form; whole numbers without `.0` (`1`, not `1.0`), as Rust's `{}`
/// writes them, so files stay as earlier versions wrote them.
fn format_f64(buf: &mut ryu::Buffer, v: f64) -> &[u8] {
    let s = buf.format(v).as_bytes();
    s.strip_suffix(b".0").unwrap_or(s)
}

/// A CSV field, quoted only when it holds a comma, a quote or a line break (RFC 4180).
fn push_csv_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    if !bytes
        .iter()
        .any(|&b| matches!(b, b',' | b'"' | b'\n' | b'\r'))
    {
        out.extend_from_slice(bytes);
        return;
    }
    out.push(b'"');
    for (i, part) in bytes.split(|&b| b == b'"').enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\"\"");
        }
        out.extend_from_slice(part);
    }
    out.push(b'"');
}

// ---------------------------------------------------------------------------------------------
// Reading

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
    pub line: u64,
    pub id_a: Cow<'a, str>,
    pub id_b: Cow<'a, str>,
    pub jaccard: f64,
    /// How many pairs this row stands for: the optional `weight` column (a sample of pairs
    /// from `truth --estimate-pairs` carries population ÷ sample size), else 1.
    pub weight: f64,
}

/// Opens `path` (`-` is stdin), undoing gzip, zstd, bzip2 or xz compression found by its
/// magic bytes.
pub fn open_input(path: &Path) -> Result<Box<dyn BufRead>> {
    let raw: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(
            std::fs::File::open(path).map_err(|e| crate::corpus::source::cannot_open(path, e))?,
        )
    };
    let mut buffered = BufReader::with_capacity(BUFFER, raw);
    let head = buffered.fill_buf().map_err(|e| Error::io(path, e))?;
    // The same magic-byte detection and decoders as the corpus readers.
    let compression = crate::corpus::source::Compression::sniff(head);
    crate::corpus::source::decompress(buffered, compression, path)
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
    if head.starts_with(crate::corpus::source::PARQUET_MAGIC) {
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
            .buffer_capacity(BUFFER)
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

    /// The header as found, comma-separated, for messages.
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
                Err(Error::input(
                    &self.name,
                    line,
                    format!("malformed CSV: {e}"),
                ))
            }
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

/// The columns of a pair file, in order (CSV header and JSON Lines keys).
pub const PAIR_COLUMNS: &[&str] = &["id_a", "id_b", "jaccard", "estimate", "bands_hit"];

/// [`PAIR_COLUMNS`] and a human label (the explorer's exports).
pub const LABELLED_PAIR_COLUMNS: &[&str] =
    &["id_a", "id_b", "jaccard", "estimate", "bands_hit", "label"];

/// Writes pairs as CSV (`id_a,id_b,jaccard,estimate,bands_hit`), JSON Lines with the same keys
/// in the same order, or Parquet; with `label`, a last `label` column (CSV and JSON Lines).
/// Floats use the shortest representation that round-trips, so every tool reading them sees
/// the same value. `progress` advances per row written.
pub fn write_pairs<'p>(
    w: &mut dyn Write,
    corpus: &Corpus,
    pairs: impl ExactSizeIterator<Item = &'p VerifiedPair>,
    format: OutputFormat,
    progress: Option<&Progress>,
    label: Option<&dyn Fn(&VerifiedPair) -> &'static str>,
) -> std::io::Result<()> {
    let Some(label) = label else {
        let mut out = PairWriter::new(w, corpus, format, progress)?;
        // In batches, so CSV is formatted on all threads.
        let mut batch = Vec::with_capacity(
            pairs
                .len()
                .min(4 * CSV_CHUNK_ROWS * rayon::current_num_threads()),
        );
        for p in pairs {
            batch.push(*p);
            if batch.len() == batch.capacity() {
                out.write_batch(&batch)?;
                batch.clear();
            }
        }
        out.write_batch(&batch)?;
        return out.finish();
    };
    if format == OutputFormat::Parquet {
        return Err(std::io::Error::other(
            "labelled pairs are written as CSV or JSON Lines, not Parquet",
        ));
    }
    let mut out = RowWriter::new(w, format, LABELLED_PAIR_COLUMNS, progress)?;
    let mut row = Vec::with_capacity(LABELLED_PAIR_COLUMNS.len());
    for p in pairs {
        row.clear();
        row.extend(pair_fields(corpus, p));
        row.push(Field::Str(label(p)));
        out.write_row(&row)?;
    }
    out.finish()
}

/// The fields of a pair in [`PAIR_COLUMNS`] order.
fn pair_fields<'c>(corpus: &'c Corpus, p: &VerifiedPair) -> [Field<'c>; 5] {
    [
        Field::Str(corpus.id(p.a as usize)),
        Field::Str(corpus.id(p.b as usize)),
        Field::F64(p.jaccard),
        Field::F64(p.estimate),
        Field::U64(p.bands_hit as u64),
    ]
}

/// Writes pairs one at a time or in batches, as CSV, JSON Lines or Parquet ([`PAIR_COLUMNS`]):
/// what a scan that streams its pairs writes through.
///
/// CSV, the common case, has its own formatter (`PairCsv`): large batches are formatted in
/// parallel, in chunks whose bytes are then written in order, so the file is byte for byte
/// what one thread writing row by row gives.
pub struct PairWriter<'w, 'p, 'c> {
    corpus: &'c Corpus,
    kind: PairWriterKind<'w, 'p>,
}

enum PairWriterKind<'w, 'p> {
    Csv {
        out: &'w mut dyn Write,
        buf: Vec<u8>,
        format: PairCsv,
        /// One set of float caches per worker thread (the last for the calling thread), so
        /// the values a thread has formatted stay cached from one batch to the next.
        caches: Vec<std::sync::Mutex<PairCsvCaches>>,
        /// The formatted bytes of the chunks of one parallel group, reused from group to
        /// group (fresh megabyte buffers would each be mapped and faulted in anew).
        chunks: Vec<Vec<u8>>,
        progress: Option<&'p Progress>,
        since_update: u64,
    },
    Rows(RowWriter<'w, 'p>),
    Parquet {
        out: Box<crate::pairs::parquet::PairsParquetWriter<&'w mut dyn Write>>,
        ids: crate::pairs::parquet::IdColumn,
        progress: Option<&'p Progress>,
        since_update: u64,
    },
}

/// Rows per chunk formatted by one thread: large enough to amortise the hand-off, small
/// enough that a few chunks per thread keep both cores busy and the formatted bytes small.
const CSV_CHUNK_ROWS: usize = 16 * 1024;

impl<'w, 'p, 'c> PairWriter<'w, 'p, 'c> {
    pub fn new(
        w: &'w mut dyn Write,
        corpus: &'c Corpus,
        format: OutputFormat,
        progress: Option<&'p Progress>,
    ) -> std::io::Result<Self> {
        let kind = match format {
            OutputFormat::Parquet => PairWriterKind::Parquet {
                out: Box::new(crate::pairs::parquet::PairsParquetWriter::new(w)?),
                ids: crate::pairs::parquet::IdColumn::new((0..corpus.len()).map(|i| corpus.id(i))),
                progress,
                since_update: 0,
            },
            OutputFormat::Csv => {
                let mut buf = Vec::with_capacity(BUFFER + 4096);
                for (i, c) in PAIR_COLUMNS.iter().enumerate() {
                    if i > 0 {
                        buf.push(b',');
                    }
                    push_csv_str(&mut buf, c);
                }
                buf.push(b'\n');
                let threads = rayon::current_num_threads();
                PairWriterKind::Csv {
                    out: w,
                    buf,
                    format: PairCsv::new(corpus),
                    caches: (0..=threads)
                        .map(|_| std::sync::Mutex::new(PairCsvCaches::new()))
                        .collect(),
                    chunks: Vec::new(),
                    progress,
                    since_update: 0,
                }
            }
            OutputFormat::Jsonl => {
                PairWriterKind::Rows(RowWriter::new(w, format, PAIR_COLUMNS, progress)?)
            }
        };
        Ok(PairWriter { corpus, kind })
    }

    pub fn write(&mut self, p: &VerifiedPair) -> std::io::Result<()> {
        match &mut self.kind {
            PairWriterKind::Csv { .. } => self.write_batch(std::slice::from_ref(p)),
            PairWriterKind::Rows(out) => out.write_row(&pair_fields(self.corpus, p)),
            PairWriterKind::Parquet {
                out,
                ids,
                progress,
                since_update,
            } => {
                out.write_indexed_pair(ids, p.a, p.b, p.jaccard, p.estimate, p.bands_hit)?;
                *since_update += 1;
                if *since_update == PROGRESS_EVERY {
                    *since_update = 0;
                    if let Some(progress) = progress {
                        progress.advance(PROGRESS_EVERY);
                        if progress.is_cancelled() {
                            return Err(std::io::Error::other("cancelled"));
                        }
                    }
                }
                Ok(())
            }
        }
    }

    /// Writes `pairs` in order; the same bytes as [`PairWriter::write`] on each, faster: CSV
    /// batches of more than one chunk are formatted on all threads.
    pub fn write_batch(&mut self, pairs: &[VerifiedPair]) -> std::io::Result<()> {
        let PairWriterKind::Csv {
            out,
            buf,
            format,
            caches,
            chunks,
            progress,
            since_update,
        } = &mut self.kind
        else {
            return pairs.iter().try_for_each(|p| self.write(p));
        };
        let caller = caches.len() - 1;
        // Whole groups of chunks in parallel (a group at a time, so the formatted bytes held
        // stay a few megabytes), the rest on this thread.
        let group = CSV_CHUNK_ROWS * (caches.len() - 1).max(1);
        let mut rest = pairs;
        while rest.len() >= 2 * CSV_CHUNK_ROWS && caches.len() > 2 {
            let (now, later) = rest.split_at(rest.len().min(group));
            let format = &*format;
            let caches = &*caches;
            let count = now.len().div_ceil(CSV_CHUNK_ROWS);
            if chunks.len() < count {
                chunks.resize_with(count, Vec::new);
            }
            now.par_chunks(CSV_CHUNK_ROWS)
                .zip(chunks[..count].par_iter_mut())
                .for_each(|(chunk, bytes)| {
                    let thread = rayon::current_thread_index().unwrap_or(caller).min(caller);
                    let mut caches = caches[thread].lock().unwrap_or_else(|e| e.into_inner());
                    bytes.clear();
                    format.push_rows(&mut caches, bytes, chunk);
                });
            if !buf.is_empty() {
                out.write_all(buf)?;
                buf.clear();
            }
            for bytes in &chunks[..count] {
                out.write_all(bytes)?;
            }
            count_rows(*progress, since_update, now.len() as u64)?;
            rest = later;
        }
        let mut caches = caches[caller].lock().unwrap_or_else(|e| e.into_inner());
        for chunk in rest.chunks(CSV_CHUNK_ROWS) {
            format.push_rows(&mut caches, buf, chunk);
            if buf.len() >= BUFFER {
                out.write_all(buf)?;
                buf.clear();
            }
            count_rows(*progress, since_update, chunk.len() as u64)?;
        }
        Ok(())
    }

    pub fn finish(self) -> std::io::Result<()> {
        match self.kind {
            PairWriterKind::Csv {
                out,
                buf,
                progress,
                since_update,
                ..
            } => {
                if let Some(progress) = progress {
                    progress.advance(since_update);
                }
                out.write_all(&buf)?;
                out.flush()
            }
            PairWriterKind::Rows(out) => out.finish(),
            PairWriterKind::Parquet {
                out,
                progress,
                since_update,
                ..
            } => {
                if let Some(progress) = progress {
                    progress.advance(since_update);
                }
                out.finish().map(|_| ())
            }
        }
    }
}

/// Counts `rows` more rows written, advancing `progress` every [`PROGRESS_EVERY`] rows and
/// stopping with an error once it is cancelled.
fn count_rows(
    progress: Option<&Progress>,
    since_update: &mut u64,
    rows: u64,
) -> std::io::Result<()> {
    *since_update += rows;
    if *since_update >= PROGRESS_EVERY {
        if let Some(p) = progress {
            p.advance(*since_update);
            if p.is_cancelled() {
                return Err(std::io::Error::other("cancelled"));
            }
        }
        *since_update = 0;
    }
    Ok(())
}

/// Spare bytes after the last id of [`PairCsv::ids`], so any id is copied in whole 16-byte
/// moves without reading past the allocation.
const ID_PAD: usize = 16;

/// Bytes a row may take besides its two ids, counting what the fixed-size copies write past
/// the end of each field: two floats of 24 bytes (the uncached ones are at most 24 long),
/// 16 past each id, a u32 of at most 10 digits, four commas and the line break.
const ROW_SLACK: usize = 2 * 24 + 2 * 16 + 16 + 8;

/// The CSV form of pair rows, formatted straight into bytes: ids copied from one arena of
/// their CSV fields (quoted once, here, where they must be), floats from [`FloatCache`]s (so
/// the text is `ryu`'s shortest round-trip form, `.0` dropped, exactly as [`RowWriter`] writes
/// it), and every field copied with fixed-size moves into room reserved once per row.
struct PairCsv {
    ids: Vec<u8>,
    /// `ids[id_start[d]..id_start[d + 1]]` is the CSV field of document d's id.
    id_start: Vec<usize>,
}

/// The float caches of one thread formatting [`PairCsv`] rows: one per column, so the K + 1
/// estimate values are never pushed out by the many Jaccard values.
struct PairCsvCaches {
    jaccard: FloatCache,
    estimate: FloatCache,
}

impl PairCsvCaches {
    fn new() -> Self {
        PairCsvCaches {
            jaccard: FloatCache::with_slots_log2(12),
            estimate: FloatCache::with_slots_log2(10),
        }
    }
}

impl PairCsv {
    fn new(corpus: &Corpus) -> Self {
        let mut ids = Vec::new();
        let mut id_start = Vec::with_capacity(corpus.len() + 1);
        id_start.push(0);
        for d in 0..corpus.len() {
            push_csv_str(&mut ids, corpus.id(d));
            id_start.push(ids.len());
        }
        ids.extend_from_slice(&[0; ID_PAD]);
        PairCsv { ids, id_start }
    }

    /// Appends the rows of `pairs` to `out`.
    fn push_rows(&self, caches: &mut PairCsvCaches, out: &mut Vec<u8>, pairs: &[VerifiedPair]) {
        for (k, p) in pairs.iter().enumerate() {
            // Pairs come sorted by a, or by bucket: b's id is a random place in an arena of
            // every id (tens of MB on a million documents), so its offset is fetched 16 rows
            // ahead and its bytes 8 rows ahead (the offset is cached by then).
            if let Some(ahead) = pairs.get(k + 16) {
                prefetch_line(self.id_start.as_ptr().wrapping_add(ahead.b as usize));
            }
            if let Some(ahead) = pairs.get(k + 8) {
                prefetch_line(
                    self.ids
                        .as_ptr()
                        .wrapping_add(self.id_start[ahead.b as usize]),
                );
            }
            let (a, b) = (p.a as usize, p.b as usize);
            let (a_start, a_end) = (self.id_start[a], self.id_start[a + 1]);
            let (b_start, b_end) = (self.id_start[b], self.id_start[b + 1]);
            out.reserve((a_end - a_start) + (b_end - b_start) + ROW_SLACK);
            let jaccard = caches.jaccard.text(p.jaccard);
            let estimate = caches.estimate.text(p.estimate);
            // SAFETY: `out` has room for the row and every byte the block copies write past a
            // field (ROW_SLACK counts them); the id copies read at most ID_PAD − 1 bytes past
            // an id, inside `ids` (which ends with ID_PAD spare bytes); a float's text is
            // followed by at least 24 − len readable bytes of its slot (text and length) or of
            // the 32-byte uncached buffer; `set_len` covers exactly the bytes written as fields.
            unsafe {
                let start = out.as_mut_ptr().add(out.len());
                let mut w = start;
                w = copy_blocks(w, self.ids.as_ptr().add(a_start), a_end - a_start);
                *w = b',';
                w = copy_blocks(w.add(1), self.ids.as_ptr().add(b_start), b_end - b_start);
                *w = b',';
                w = w.add(1);
                std::ptr::copy_nonoverlapping(jaccard.0, w, 24);
                w = w.add(jaccard.1);
                *w = b',';
                w = w.add(1);
                std::ptr::copy_nonoverlapping(estimate.0, w, 24);
                w = w.add(estimate.1);
                *w = b',';
                w = write_u32(w.add(1), p.bands_hit);
                *w = b'\n';
                w = w.add(1);
                out.set_len(out.len() + w.offset_from(start) as usize);
            }
        }
    }
}

/// Copies `len` bytes from `src` to `dst` in 16-byte moves (so up to 15 bytes more are read
/// and written) and returns the end of the `len` bytes at `dst`.
///
/// # Safety
/// `src..src + len` rounded up to 16 must be readable and `dst..` as much writable.
#[inline(always)]
unsafe fn copy_blocks(dst: *mut u8, src: *const u8, len: usize) -> *mut u8 {
    let mut done = 0;
    while done < len {
        // SAFETY: the caller's contract.
        unsafe { std::ptr::copy_nonoverlapping(src.add(done), dst.add(done), 16) };
        done += 16;
    }
    // SAFETY: within the bytes just written.
    unsafe { dst.add(len) }
}

/// Writes `n` in decimal at `w` (at most 10 bytes) and returns the end.
///
/// # Safety
/// `w..w + 10` must be writable.
#[inline(always)]
unsafe fn write_u32(w: *mut u8, n: u32) -> *mut u8 {
    // SAFETY (all three arms): at most 10 bytes are written, the caller's contract.
    unsafe {
        if n < 10 {
            *w = b'0' + n as u8;
            w.add(1)
        } else if n < 100 {
            *w = b'0' + (n / 10) as u8;
            *w.add(1) = b'0' + (n % 10) as u8;
            w.add(2)
        } else {
            let mut digits = itoa::Buffer::new();
            let text = digits.format(n).as_bytes();
            std::ptr::copy_nonoverlapping(text.as_ptr(), w, text.len());
            w.add(text.len())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLUMNS: &[&str] = &["id_a", "id_b", "jaccard", "estimate", "bands_hit"];

    fn write(format: OutputFormat) -> String {
        let mut buf = Vec::new();
        let mut w = RowWriter::new(&mut buf, format, COLUMNS, None).unwrap();
        w.write_row(&[
            Field::Str("a"),
            Field::Str("b,\"c\""),
            Field::F64(1.0),
            Field::F64(0.1 + 0.2),
            Field::U64(3),
        ])
        .unwrap();
        w.finish().unwrap();
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn csv_quotes_only_when_needed_and_floats_round_trip() {
        assert_eq!(
            write(OutputFormat::Csv),
            "id_a,id_b,jaccard,estimate,bands_hit\na,\"b,\"\"c\"\"\",1,0.30000000000000004,3\n"
        );
    }

    #[test]
    fn cached_floats_equal_fresh_ones() {
        let mut cache = FloatCache::new();
        let mut fresh = ryu::Buffer::new();
        let mut out = Vec::new();
        // Enough distinct values that slots are overwritten, each seen twice.
        for round in 0..2 {
            for k in 0..5000u32 {
                let v = f64::from(k) / 4999.0;
                out.clear();
                cache.push(&mut out, v);
                assert_eq!(out, format_f64(&mut fresh, v), "{v} in round {round}");
            }
        }
        out.clear();
        cache.push(&mut out, 1.0);
        assert_eq!(out, b"1");
    }

    #[test]
    fn cached_floats_equal_fresh_ones_on_random_values() {
        // Random bit patterns (every exponent, subnormals, NaN and infinities), Jaccard-like
        // ratios and estimates k/128, through caches small enough that slots are overwritten.
        let mut rng = crate::util::rng::SplitMix64::new(41);
        let mut values: Vec<f64> = (0..20_000)
            .map(|_| f64::from_bits(rng.next_u64()))
            .collect();
        values.extend((0..20_000).map(|_| {
            let union = 1 + rng.below(2000);
            rng.below(union + 1) as f64 / union as f64
        }));
        values.extend((0..=128).map(|k| k as f64 / 128.0));
        values.extend([
            0.0,
            -0.0,
            1.0,
            1e-7,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]);
        let mut fresh = ryu::Buffer::new();
        for log2 in [2, 9, 12] {
            let mut cache = FloatCache::with_slots_log2(log2);
            let mut out = Vec::new();
            for _ in 0..2 {
                for &v in &values {
                    out.clear();
                    cache.push(&mut out, v);
                    let expected: &[u8] = if v.is_finite() {
                        format_f64(&mut fresh, v)
                    } else {
                        fresh.format(v).as_bytes()
                    };
                    assert_eq!(out, expected, "{v:e}");
                }
            }
        }
    }

    /// The pair rows of the fast CSV formatter, one at a time, in batches on one thread and in
    /// parallel, equal the rows the general row writer makes of the same pairs.
    #[test]
    fn fast_csv_pairs_equal_general_rows() {
        let mut rng = crate::util::rng::SplitMix64::new(43);
        let long = "an-id-long-enough-to-need-several-sixteen-byte-moves";
        let mut ids: Vec<String> = vec![
            String::new(),
            "a,b".into(),
            "say \"hi\"".into(),
            "line\nbreak".into(),
            "cr\rhere".into(),
            "café ½ ™".into(),
            long.into(),
            format!("{long},{long}"),
            "x".repeat(15),
            "y".repeat(16),
            "z".repeat(17),
        ];
        ids.extend((0..300).map(|i| format!("t{i:07}")));
        let corpus = Corpus::from_pairs(ids.iter().map(|id| (id.as_str(), "text")));
        let n = corpus.len() as u64;
        let floats = [0.0, 1.0, 0.5, 1e-7, 0.1 + 0.2, f64::NAN, f64::INFINITY];
        let pairs: Vec<VerifiedPair> = (0..70_000)
            .map(|i| {
                let (a, b) = (rng.below(n) as u32, rng.below(n) as u32);
                let union = 1 + rng.below(700);
                VerifiedPair {
                    a: a.min(b),
                    b: a.max(b),
                    bands_hit: match i % 7 {
                        0 => u32::MAX,
                        1 => 9,
                        2 => 10,
                        3 => 100,
                        _ => rng.below(40) as u32,
                    },
                    jaccard: if i % 11 == 0 {
                        floats[i % floats.len()]
                    } else {
                        rng.below(union + 1) as f64 / union as f64
                    },
                    estimate: if i % 13 == 0 {
                        f64::from_bits(rng.next_u64())
                    } else {
                        rng.below(129) as f64 / 128.0
                    },
                }
            })
            .collect();
        let mut expected = Vec::new();
        let mut rows =
            RowWriter::new(&mut expected, OutputFormat::Csv, PAIR_COLUMNS, None).unwrap();
        for p in &pairs {
            rows.write_row(&pair_fields(&corpus, p)).unwrap();
        }
        rows.finish().unwrap();
        let one_by_one = {
            let mut out = Vec::new();
            let mut w = PairWriter::new(&mut out, &corpus, OutputFormat::Csv, None).unwrap();
            for p in &pairs {
                w.write(p).unwrap();
            }
            w.finish().unwrap();
            out
        };
        assert!(one_by_one == expected, "row by row");
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let batched = pool.install(|| {
                let mut out = Vec::new();
                let mut w = PairWriter::new(&mut out, &corpus, OutputFormat::Csv, None).unwrap();
                for batch in [&pairs[..1], &pairs[1..40_000], &pairs[40_000..]] {
                    w.write_batch(batch).unwrap();
                }
                w.finish().unwrap();
                out
            });
            assert!(batched == expected, "batches on {threads} threads");
            let mut whole = Vec::new();
            pool.install(|| {
                write_pairs(
                    &mut whole,
                    &corpus,
                    pairs.iter(),
                    OutputFormat::Csv,
                    None,
                    None,
                )
            })
            .unwrap();
            assert!(whole == expected, "write_pairs on {threads} threads");
        }
    }

    #[test]
    fn jsonl_keys_follow_the_csv_columns() {
        let line = write(OutputFormat::Jsonl);
        assert_eq!(
            line,
            "{\"id_a\":\"a\",\"id_b\":\"b,\\\"c\\\"\",\"jaccard\":1,\"estimate\":0.30000000000000004,\"bands_hit\":3}\n"
        );
        let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
        assert_eq!(v["id_b"], "b,\"c\"");
    }

    fn read_all(text: &[u8], columns: PairColumns) -> Result<Vec<(u64, String, String, f64)>> {
        let mut out = Vec::new();
        for_each_pair_in(text, Path::new("p"), columns, |r| {
            out.push((r.line, r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
            Ok(())
        })?;
        Ok(out)
    }

    const IDS: PairColumns = PairColumns {
        ids: true,
        plain_list: false,
    };

    #[test]
    fn reads_back_what_it_writes() {
        for format in [OutputFormat::Csv, OutputFormat::Jsonl] {
            let text = write(format);
            let rows = read_all(text.as_bytes(), IDS).unwrap();
            assert_eq!(
                rows,
                vec![(
                    if format == OutputFormat::Csv { 2 } else { 1 },
                    "a".to_string(),
                    "b,\"c\"".to_string(),
                    1.0
                )],
                "{format:?}"
            );
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read_all(b"id_a,id_b,jaccard\nx,y,0.5\nx,z,half\n", IDS)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("p:3:") && e.contains("column 3 (jaccard)"),
            "{e}"
        );
        let e = read_all(
            b"{\"id_a\":\"x\",\"id_b\":\"y\",\"jaccard\":0.5}\n{\"id_a\":\"x\",",
            IDS,
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("p:2:") && e.contains("column"), "{e}");
        let e = read_all(b"{\"id_a\":\"x\",\"jaccard\":0.5}\n", IDS)
            .unwrap_err()
            .to_string();
        assert!(e.contains("id_b"), "{e}");
        let e = read_all(b"{\"id_a\":\"x\",\"id_b\":\"y\",\"jaccard\":1.5}\n", IDS)
            .unwrap_err()
            .to_string();
        assert!(e.contains("outside"), "{e}");
        let e = read_all(b"", IDS).unwrap_err().to_string();
        assert!(e.contains("empty"), "{e}");
        let mut rows = 0;
        for_each_pair_in(&b""[..], Path::new("none.jsonl.gz"), IDS, |_| {
            rows += 1;
            Ok(())
        })
        .unwrap();
        assert_eq!(rows, 0);
    }

    #[test]
    fn plain_lists_only_where_allowed() {
        let plain = PairColumns {
            ids: false,
            plain_list: true,
        };
        let rows = read_all(b"0.5\n\n1\n", plain).unwrap();
        assert_eq!(rows.iter().map(|r| r.3).collect::<Vec<_>>(), vec![0.5, 1.0]);
        assert!(read_all(b"0.5\n1\n", IDS).is_err());
    }

    #[test]
    fn names_choose_format_and_compression() {
        let t = OutputTarget::new(Some(Path::new("out/pairs.JSONL.gz")));
        assert_eq!(t.compression, Compression::Gzip);
        let all = [OutputFormat::Csv, OutputFormat::Jsonl];
        assert_eq!(t.format(None, &all).unwrap(), OutputFormat::Jsonl);
        assert_eq!(
            t.format(Some(OutputFormat::Csv), &all).unwrap(),
            OutputFormat::Csv
        );
        let stdout = OutputTarget::new(Some(Path::new("-")));
        assert_eq!(stdout, OutputTarget::stdout());
        assert_eq!(stdout.format(None, &all).unwrap(), OutputFormat::Csv);
        let zst = OutputTarget::new(Some(Path::new("p.ndjson.zst")));
        assert_eq!(zst.compression, Compression::Zstd);
        assert_eq!(zst.format(None, &all).unwrap(), OutputFormat::Jsonl);
        let parquet = OutputTarget::new(Some(Path::new("p.parquet")));
        assert!(parquet.format(None, &all).is_err());
    }

    #[test]
    fn cancelling_while_writing_leaves_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.csv.gz");
        let progress = Progress::new();
        progress.begin(crate::jobs::Phase::Writing, 1_000_000);
        let result = OutputTarget::new(Some(&path)).write(Some(&progress), |w| {
            let mut rows = RowWriter::new(w, OutputFormat::Csv, &["jaccard"], Some(&progress))?;
            for i in 0..1_000_000u64 {
                if i == 200_000 {
                    progress.cancel();
                }
                rows.write_row(&[Field::U64(i)])?;
            }
            rows.finish()
        });
        assert!(matches!(result, Err(Error::Cancelled)), "{result:?}");
        let done = progress.snapshot().done;
        assert!((200_000..=300_000).contains(&done), "{done}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn compressed_files_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["p.csv.gz", "p.jsonl.zst"] {
            let path = dir.path().join(name);
            let target = OutputTarget::new(Some(&path));
            let format = target
                .format(None, &[OutputFormat::Csv, OutputFormat::Jsonl])
                .unwrap();
            target
                .write(None, |w| {
                    let mut rows = RowWriter::new(w, format, &["id_a", "id_b", "jaccard"], None)?;
                    rows.write_row(&[Field::Str("1"), Field::Str("2"), Field::F64(0.75)])?;
                    rows.finish()
                })
                .unwrap();
            let bytes = std::fs::read(&path).unwrap();
            assert!(
                bytes[0] == 0x1f || bytes[0] == 0x28,
                "{name} not compressed"
            );
            let mut got = Vec::new();
            for_each_pair(&path, IDS, |r| {
                got.push((r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
                Ok(())
            })
            .unwrap();
            assert_eq!(got, vec![("1".into(), "2".into(), 0.75)], "{name}");
        }
    }

    #[test]
    fn bzip2_and_xz_pair_files_read_like_the_corpus_readers_do() {
        use std::io::Write as _;
        let plain = b"id_a,id_b,jaccard\n1,2,0.75\n";
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(plain).unwrap();
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
        xz.write_all(plain).unwrap();
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes) in [
            ("p.csv.bz2", bz.finish().unwrap()),
            ("p.csv.xz", xz.finish().unwrap()),
        ] {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).unwrap();
            let mut got = Vec::new();
            for_each_pair(&path, IDS, |r| {
                got.push((r.id_a.into_owned(), r.id_b.into_owned(), r.jaccard));
                Ok(())
            })
            .unwrap();
            assert_eq!(got, vec![("1".into(), "2".into(), 0.75)], "{name}");
        }
    }
}
