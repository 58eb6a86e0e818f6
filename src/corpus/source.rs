//! Opening an input: a file or stdin, with transparent gzip / zstd decompression and progress
//! counted on the bytes actually read from disk (so the bar's total is the file size even when
//! the file is compressed).

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::jobs::Progress;
use crate::{Error, Result};

/// Read buffer size: large enough that per-call overhead vanishes next to parsing.
pub(super) const BUFFER_BYTES: usize = 256 * 1024;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// Zstandard frame magic number 0xFD2FB528, little endian (RFC 8878 §3.1.1).
const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Compression of an input stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Compression {
    None,
    Gzip,
    Zstd,
}

impl Compression {
    /// What the file name promises (`.gz` / `.zst`, any case).
    pub(super) fn from_name(path: &Path) -> Compression {
        match lower_extension(path).as_deref() {
            Some("gz") => Compression::Gzip,
            Some("zst") => Compression::Zstd,
            _ => Compression::None,
        }
    }

    /// What the first bytes say.
    fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&GZIP_MAGIC) {
            Compression::Gzip
        } else if head.starts_with(&ZSTD_MAGIC) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }
}

pub(super) fn lower_extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

/// Passes reads through and reports the byte count to the progress handle.
struct Counted<R> {
    inner: R,
    progress: Progress,
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

/// Opens `path` (`-` = stdin). Compression is recognised from the magic bytes; a file whose name
/// ends in `.gz` / `.zst` but whose bytes are not compressed is an error rather than a guess.
pub(super) fn open(path: &Path, progress: &Progress) -> Result<Source<'static>> {
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
    wrap(
        BufReader::with_capacity(BUFFER_BYTES, counted),
        path,
        Compression::from_name(path),
        disk_bytes,
    )
}

/// Wraps an already buffered reader, decompressing it when its first bytes say so.
pub(super) fn wrap<'a, R: BufRead + 'a>(
    mut reader: R,
    name: &Path,
    by_name: Compression,
    disk_bytes: Option<u64>,
) -> Result<Source<'a>> {
    // Peek without consuming. A pipe could in principle deliver fewer than 4 bytes in its first
    // read; the magic check then fails and the bytes are read as plain text, which only matters
    // for a compressed stream split that oddly.
    let head = reader.fill_buf().map_err(|e| cannot_open(name, e))?;
    let sniffed = Compression::sniff(head);
    let empty = head.is_empty();
    if by_name != Compression::None && sniffed != by_name && !empty {
        let what = if by_name == Compression::Gzip {
            "gzip"
        } else {
            "zstd"
        };
        return Err(Error::input(
            name,
            0,
            format!(
                "the name ends in .{} but the content is not {what}-compressed; \
                 rename the file or compress it",
                if by_name == Compression::Gzip {
                    "gz"
                } else {
                    "zst"
                }
            ),
        ));
    }
    let reader: Box<dyn BufRead + 'a> = match sniffed {
        Compression::None => Box::new(reader),
        Compression::Gzip => Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            // Multi-member: `cat a.gz b.gz` is a valid gzip file (RFC 1952 §2.2).
            flate2::bufread::MultiGzDecoder::new(reader),
        )),
        Compression::Zstd => Box::new(BufReader::with_capacity(
            BUFFER_BYTES,
            zstd::stream::read::Decoder::with_buffer(reader).map_err(|e| cannot_open(name, e))?,
        )),
    };
    Ok(Source {
        reader,
        disk_bytes,
        compression: sniffed,
    })
}

pub(super) fn cannot_open(path: &Path, e: std::io::Error) -> Error {
    let hint = match e.kind() {
        std::io::ErrorKind::NotFound => "; check the path",
        std::io::ErrorKind::PermissionDenied => "; check the file's permissions",
        _ => "",
    };
    Error::input(path, 0, format!("cannot read: {e}{hint}"))
}
