//! Opening an input: a file or stdin, with transparent gzip / zstd / bzip2 / xz decompression
//! and progress counted on the bytes actually read from disk (so the bar's total is the file
//! size even when the file is compressed).
//!
//! Content is recognised by its first bytes, never trusted from the name alone: compressed
//! data is decompressed whatever the name, a name promising compression over plain bytes is an
//! error, and binary files no reader can use (ZIP, PDF, images, Parquet, anything with NUL
//! bytes in its first block) are refused with what they appear to be and what to do, instead
//! of being split into lines of garbage.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::options::InputFormat;
pub(crate) use crate::io::compression::Compression;
pub(super) use crate::io::compression::lower_extension;
use crate::io::input::{cannot_open, decompress};
use crate::io::parquet::MAGIC as PARQUET_MAGIC;
use crate::jobs::Progress;
use crate::terms::Setting::{Format, SkipBad};
use crate::{Error, Result};

/// Read buffer size: large enough that per-call overhead vanishes next to parsing.
pub(super) const BUFFER_BYTES: usize = 256 * 1024;
/// Bytes examined for NUL bytes when deciding that a stream is binary.
const SNIFF_BYTES: usize = 8192;

/// Passes reads through and reports the byte count to the progress handle.
pub(super) struct Counted<R> {
    pub(super) inner: R,
    pub(super) progress: Progress,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.progress.advance(n as u64);
        Ok(n)
    }
}

/// An opened input: decompressed bytes, plus the on-disk size when known.
pub(super) struct Source<'a> {
    pub reader: Box<dyn BufRead + 'a>,
    /// Bytes on disk (compressed size for a compressed file); `None` for stdin.
    pub disk_bytes: Option<u64>,
    pub compression: Compression,
}

/// Where a file is read: given by itself, or as one document of a directory input. A file
/// refused inside a directory gets advice that works there (skip it, ignore it) instead of
/// advice for reading it alone (`--format parquet` does not apply to a directory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Within {
    Alone,
    Directory,
}

/// What a refusal inside a directory input says the file is in.
const IN_DIRECTORY: &str = "inside a directory input (read as one document per text file)";
/// The two ways to leave a file out of a directory input.
const SKIP_BAD: SkipBadFiles = SkipBadFiles;
const IGNORE_FILE: &str = "list them in a .ignore file";

/// `pass <skip-bad> to skip such files`: a `Display` rather than a `&str`, since it names a
/// setting ([`crate::terms`]).
struct SkipBadFiles;

impl std::fmt::Display for SkipBadFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "pass {SkipBad} to skip such files")
    }
}
/// The format a file name implies: the extension after removing a compression one (`.gz`,
/// `.zst`, …); `.csv` → CSV, `.tsv` / `.tab` → TSV, `.jsonl` / `.ndjson` → JSON Lines,
/// `.parquet` / `.pq` → Parquet, anything else → text lines. The one answer to "is this file a
/// table" for the reader and for a directory's files alike.
pub fn detect_format(path: &Path) -> InputFormat {
    match lower_extension(&Compression::strip(path).0).as_deref() {
        Some("csv") => InputFormat::Csv,
        Some("tsv" | "tab") => InputFormat::Tsv,
        Some("jsonl" | "ndjson") => InputFormat::Jsonl,
        Some("parquet" | "pq") => InputFormat::Parquet,
        _ => InputFormat::Text,
    }
}

/// `.json` after removing a compression extension: a name the reader sniffs for JSON Lines.
pub fn has_json_extension(path: &Path) -> bool {
    lower_extension(&Compression::strip(path).0).as_deref() == Some("json")
}

/// Opens `path` (`-` = stdin). Compression is recognised from the magic bytes; a file whose name
/// ends in `.gz` / `.zst` but whose bytes are not compressed is an error rather than a guess.
pub(super) fn open(path: &Path, progress: &Progress) -> Result<Source<'static>> {
    open_within(path, progress, Within::Alone)
}

/// [`open`] for one file of a directory input: refusals and read failures say how to leave
/// the file out.
pub(super) fn open_in_directory(path: &Path, progress: &Progress) -> Result<Source<'static>> {
    open_within(path, progress, Within::Directory)
}

fn open_within(path: &Path, progress: &Progress, within: Within) -> Result<Source<'static>> {
    if path == Path::new("-") {
        let stdin = Counted {
            inner: std::io::stdin(),
            progress: progress.clone(),
        };
        return wrap(
            BufReader::with_capacity(BUFFER_BYTES, stdin),
            Path::new("<stdin>"),
            Compression::None,
            None,
        );
    }
    let file = File::open(path).map_err(|e| cannot_open(path, e))?;
    let disk_bytes = file.metadata().ok().map(|m| m.len());
    let counted = Counted {
        inner: file,
        progress: progress.clone(),
    };
    wrap_within(
        BufReader::with_capacity(BUFFER_BYTES, counted),
        path,
        Compression::from_name(path),
        disk_bytes,
        within,
    )
}

/// Wraps an already buffered reader, decompressing it when its first bytes say so.
pub(super) fn wrap<'a, R: BufRead + 'a>(
    reader: R,
    name: &Path,
    by_name: Compression,
    disk_bytes: Option<u64>,
) -> Result<Source<'a>> {
    wrap_within(reader, name, by_name, disk_bytes, Within::Alone)
}

fn wrap_within<'a, R: BufRead + 'a>(
    mut reader: R,
    name: &Path,
    by_name: Compression,
    disk_bytes: Option<u64>,
    within: Within,
) -> Result<Source<'a>> {
    // Peek without consuming. A pipe could in principle deliver fewer than 4 bytes in its first
    // read; the magic check then fails and the bytes are read as plain text, which only matters
    // for a compressed stream split that oddly.
    let head = reader.fill_buf().map_err(|e| cannot_open(name, e))?;
    let sniffed = Compression::sniff(head);
    let empty = head.is_empty();
    if by_name != Compression::None && sniffed != by_name && !empty {
        let found = match sniffed.name() {
            Some(other) => format!("{other}-compressed"),
            None => "not compressed at all".to_string(),
        };
        return Err(Error::input(
            name,
            0,
            format!(
                "the name ends in .{} but the content is not {}-compressed (it is {found}); \
                 rename the file to match its content",
                by_name.extension(),
                by_name.name().unwrap_or_default(),
            ),
        ));
    }
    if sniffed == Compression::None {
        refuse_binary(head, name, None, within)?;
    }
    let reader = decompress(reader, sniffed, name)?;
    let mut reader = reader;
    if sniffed != Compression::None {
        // What was compressed may itself be binary (a .tar.gz, a zipped PDF).
        let head = reader
            .fill_buf()
            .map_err(|e| read_error_within(name, 1, e, within))?;
        refuse_binary(head, name, sniffed.name(), within)?;
    }
    Ok(Source {
        reader,
        disk_bytes,
        compression: sniffed,
    })
}

/// True when the file at `path` starts with Parquet's magic `PAR1` (false when it cannot be
/// read: the stream reader then reports that with its own message).
pub(super) fn starts_with_parquet_magic(path: &Path) -> bool {
    let mut head = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == PARQUET_MAGIC
}

/// What the first bytes of a stream say it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Content {
    /// Possibly text: no known binary signature and no NUL byte in the first block.
    Text,
    /// An Apache Parquet file (`PAR1`).
    Parquet,
    /// Some other binary format, described for the message.
    Binary(&'static str),
}

/// Recognises binary formats by their signatures, then by NUL bytes in the first block.
pub(crate) fn sniff_content(head: &[u8]) -> Content {
    const SIGNATURES: &[(&[u8], &str)] = &[
        (
            b"PK\x03\x04",
            "a ZIP archive (or a .docx/.xlsx/.odt document)",
        ),
        (b"PK\x05\x06", "an empty ZIP archive"),
        (b"%PDF-", "a PDF document"),
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF87a", "a GIF image"),
        (b"GIF89a", "a GIF image"),
        (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
        (b"SQLite format 3\0", "an SQLite database"),
        (b"\x7fELF", "an executable"),
    ];
    if head.starts_with(PARQUET_MAGIC) {
        return Content::Parquet;
    }
    if head.len() >= 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP" {
        return Content::Binary("a WebP image");
    }
    if let Some((_, what)) = SIGNATURES.iter().find(|(magic, _)| head.starts_with(magic)) {
        return Content::Binary(what);
    }
    if head.starts_with(b"\xff\xfe") || head.starts_with(b"\xfe\xff") {
        return Content::Binary("UTF-16 text");
    }
    let block = &head[..head.len().min(SNIFF_BYTES)];
    if memchr::memchr(0, block).is_some() {
        return Content::Binary("binary data (NUL bytes in its first 8 KiB)");
    }
    Content::Text
}

/// An error for content no reader here can use; `Ok` for anything that may be text.
fn refuse_binary(
    head: &[u8],
    name: &Path,
    compression: Option<&str>,
    within: Within,
) -> Result<()> {
    let inside = compression
        .map(|c| format!(" ({c}-compressed)"))
        .unwrap_or_default();
    let message = match (sniff_content(head), within) {
        (Content::Text, _) => return Ok(()),
        (Content::Parquet, Within::Directory) => {
            parquet_in_directory(&inside, compression.is_some())
        }
        (Content::Parquet, Within::Alone) if compression.is_some() => format!(
            "the content is a Parquet file{inside}; Parquet compresses internally, so \
             decompress the file first and read the .parquet file"
        ),
        (Content::Parquet, Within::Alone) => format!(
            "the content is a Parquet file (it starts with PAR1); read it with {Format} parquet"
        ),
        (Content::Binary(what), within) => {
            let (not, fix) = if what.starts_with("UTF-16") {
                (
                    "not UTF-8",
                    "convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)",
                )
            } else if what.starts_with("binary data") {
                (
                    "not text",
                    "if it is text with stray NUL bytes, remove them first (tr -d '\\000')",
                )
            } else {
                ("not text", "extract or convert its text first")
            };
            match within {
                Within::Alone => {
                    format!("the content appears to be {what}{inside}, {not}; {fix}")
                }
                Within::Directory => format!(
                    "the content appears to be {what}{inside}, {not}, {IN_DIRECTORY}; \
                     {SKIP_BAD}, {IGNORE_FILE}, or {fix}"
                ),
            }
        }
    };
    Err(Error::input(name, 0, message))
}

/// The refusal of a Parquet file met inside a directory input: what works there.
fn parquet_in_directory(inside: &str, compressed: bool) -> String {
    let alone = if compressed {
        format!("or decompress it and read the .parquet file by itself with {Format} parquet")
    } else {
        format!("or read the file by itself with {Format} parquet")
    };
    format!("a Parquet file{inside} {IN_DIRECTORY}; {SKIP_BAD}, {IGNORE_FILE}, {alone}")
}

/// A failure of the underlying stream (disk error, corrupt compressed data) near `line`.
pub(crate) fn read_error(name: &Path, line: u64, e: std::io::Error) -> Error {
    Error::input(name, line, read_failure(&e))
}

/// [`read_error`] for a file read alone or inside a directory input, where it also says how
/// to leave the file out.
pub(super) fn read_error_within(
    name: &Path,
    line: u64,
    e: std::io::Error,
    within: Within,
) -> Error {
    match within {
        Within::Alone => read_error(name, line, e),
        Within::Directory => Error::input(
            name,
            line,
            format!(
                "{}; {IN_DIRECTORY}, {SKIP_BAD} or {IGNORE_FILE}",
                read_failure(&e)
            ),
        ),
    }
}

fn read_failure(e: &std::io::Error) -> String {
    let hint = match e.kind() {
        std::io::ErrorKind::InvalidData | std::io::ErrorKind::UnexpectedEof => {
            "; the file may be truncated or its compressed data corrupt"
        }
        _ => "",
    };
    format!("read failed: {e}{hint}")
}
