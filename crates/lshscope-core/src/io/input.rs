//! Opening a file to read: a path or `-` for stdin, decompressed by what its first bytes say,
//! and the one wording of a file that cannot be opened. The corpus readers add progress and
//! binary sniffing on top; pair, truth, label and imported files are read through
//! [`open_input`] as it is.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use crate::io::compression::Compression;
use crate::{Error, Result};

/// Read buffer of [`open_input`]: large enough that the kernel sees few calls.
const READ_BUFFER_BYTES: usize = 1 << 20;

/// Opens `path` (`-` is stdin), undoing gzip, zstd, bzip2 or xz compression found by its
/// magic bytes.
pub fn open_input(path: &Path) -> Result<Box<dyn BufRead>> {
    let raw: Box<dyn Read> = if path == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| cannot_open(path, e))?)
    };
    let mut buffered = BufReader::with_capacity(READ_BUFFER_BYTES, raw);
    let head = buffered.fill_buf().map_err(|e| Error::io(path, e))?;
    // The same magic-byte detection and decoders as the corpus readers.
    let compression = Compression::sniff(head);
    decompress(buffered, compression, path)
}

/// A file that cannot be opened, with what to do: `cannot read: …; check the path`. Also the
/// wording of the pair, truth and index files the faces read.
pub fn cannot_open(path: &Path, e: std::io::Error) -> Error {
    let hint = match e.kind() {
        std::io::ErrorKind::NotFound => "; check the path",
        std::io::ErrorKind::PermissionDenied => "; check the file's permissions",
        _ => "",
    };
    Error::input(path, 0, format!("cannot read: {e}{hint}"))
}

/// `reader` decoded as `compression` says (found by [`Compression::sniff`]); a decoder that
/// cannot start is a file that cannot be opened.
pub(crate) fn decompress<'a, R: BufRead + 'a>(
    reader: R,
    compression: Compression,
    name: &Path,
) -> Result<Box<dyn BufRead + 'a>> {
    compression
        .decoder(reader)
        .map_err(|e| cannot_open(name, e))
}
