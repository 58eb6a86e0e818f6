//! A directory as a corpus: every regular file below it (recursively) is one document, in the
//! byte order of its relative path, whose id is that path with `/` separators.
//!
//! Files named `.gz` / `.zst` (or starting with those magic bytes) are decompressed. Symbolic
//! links to files are followed; symbolic links to directories are not (a link cycle would
//! otherwise never end). Sockets, pipes and devices are not files and are left out.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Corpus;
use super::read::{InputFormat, ReadOptions, ReadReport, Sink, decode, read_error, strip_bom};
use super::source;
use crate::jobs::Progress;
use crate::{Error, Result};

struct Entry {
    /// Relative path with `/` separators: the document id and the sort key.
    relative: String,
    path: PathBuf,
    bytes: u64,
}

pub(super) fn read_dir_corpus(
    root: &Path,
    opts: &ReadOptions,
    progress: &Progress,
) -> Result<(Corpus, ReadReport)> {
    let mut entries = Vec::new();
    walk(root, root, &mut entries, progress)?;
    entries.sort_unstable_by(|a, b| a.relative.cmp(&b.relative));
    progress.set_total(entries.iter().map(|e| e.bytes).sum());

    let mut sink = Sink::new(root, opts);
    let mut buf = Vec::new();
    let mut bytes = 0u64;
    for entry in &entries {
        if sink.is_full() {
            break;
        }
        progress.check()?;
        match read_whole(&entry.path, &mut buf, progress) {
            Ok(n) => bytes += n,
            Err(e) => {
                sink.bad_file(&entry.relative, e)?;
                continue;
            }
        }
        let (text, lossy) = decode(strip_bom(&buf));
        sink.push(&entry.relative, &text, lossy);
    }
    let mut report = ReadReport {
        format: InputFormat::Dir,
        bytes,
        ..Default::default()
    };
    let corpus = sink.finish(&mut report);
    Ok((corpus, report))
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Entry>, progress: &Progress) -> Result<()> {
    progress.check()?;
    let listing = std::fs::read_dir(dir).map_err(|e| cannot_list(dir, e))?;
    for item in listing {
        let item = item.map_err(|e| cannot_list(dir, e))?;
        let path = item.path();
        let kind = item
            .file_type()
            .map_err(|e| source::cannot_open(&path, e))?;
        let (is_file, is_dir, bytes) = if kind.is_symlink() {
            // Follow links to files only.
            match std::fs::metadata(&path) {
                Ok(m) => (m.is_file(), false, m.len()),
                Err(e) => return Err(source::cannot_open(&path, e)),
            }
        } else if kind.is_file() {
            (true, false, item.metadata().map(|m| m.len()).unwrap_or(0))
        } else {
            (false, kind.is_dir(), 0)
        };
        if is_dir {
            walk(root, &path, out, progress)?;
        } else if is_file {
            let relative = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push(Entry {
                relative,
                path,
                bytes,
            });
        }
    }
    Ok(())
}

fn cannot_list(dir: &Path, e: std::io::Error) -> Error {
    Error::input(
        dir,
        0,
        format!("cannot list directory: {e}; check its permissions"),
    )
}

/// Reads one file (decompressing it when compressed) into `buf`; returns the bytes read.
fn read_whole(path: &Path, buf: &mut Vec<u8>, progress: &Progress) -> Result<u64> {
    buf.clear();
    let mut src = source::open(path, progress)?;
    src.reader
        .read_to_end(buf)
        .map_err(|e| read_error(path, 0, e))?;
    Ok(buf.len() as u64)
}
