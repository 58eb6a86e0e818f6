//! A directory as a corpus: every regular file below it (recursively) is one document, in the
//! byte order of its relative path, whose id is that path with `/` separators. Hidden files
//! and files excluded by ignore files are left out (see [`walk`]).
//!
//! Compressed files (gzip, zstd, bzip2, xz, recognised by their bytes) are decompressed;
//! binary files are refused like any other input (skipped under `--skip-bad`). Symbolic
//! links to files are followed; symbolic links to directories are not (a link cycle would
//! otherwise never end). Sockets, pipes and devices are not files and are left out.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::Corpus;
use super::options::{InputFormat, ReadOptions, ReadReport};
use super::sink::{Sink, decode, strip_bom};
use super::source;
use super::source::detect_format;
use super::source::{Within, read_error_within};
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
    walk(root, opts, &mut entries, progress)?;
    entries.sort_unstable_by(|a, b| a.relative.cmp(&b.relative));
    progress.set_total(entries.iter().map(|e| e.bytes).sum());

    let mut sink = Sink::new(root, opts);
    if let Some(warning) = tables_inside(root, &entries) {
        sink.warnings.push(warning);
    }
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
        sink.push(0, &entry.relative, &text, lossy);
    }
    let mut report = ReadReport {
        format: InputFormat::Dir,
        bytes,
        ..Default::default()
    };
    let corpus = sink.finish(&mut report)?;
    Ok((corpus, report))
}

/// A warning when files of the directory are named as tables (names that
/// [`detect_format`] reads as CSV, TSV or JSON Lines, compressed or not): shards of one
/// corpus, most likely, which a directory input reads as one document per file, not one per
/// row. Read as asked (a directory of CSV files can be meant as documents), but never
/// silently.
fn tables_inside(root: &Path, entries: &[Entry]) -> Option<String> {
    let tables: Vec<&str> = entries
        .iter()
        .filter(|e| {
            matches!(
                detect_format(&e.path),
                InputFormat::Csv | InputFormat::Tsv | InputFormat::Jsonl
            )
        })
        .map(|e| e.relative.as_str())
        .collect();
    let first = tables.first()?;
    Some(format!(
        "{}: {} of its {} files are named as tables (first: {first}); a directory is read as \
         one document per file, so each of them is one document, not one per row. To read \
         their rows, pass the files one at a time or join them into one file (one header row)",
        root.display(),
        tables.len(),
        entries.len(),
    ))
}

/// The files below `root` that are documents: hidden files and directories and what
/// `.gitignore` / `.ignore` / `.git/info/exclude` files inside `root` exclude are left out
/// unless the options say otherwise (as ripgrep and fd do). Ignore files above `root` and the
/// user's global git excludes are not consulted, so the same directory reads the same anywhere,
/// and `.gitignore` applies whether or not the directory is in a git repository.
fn walk(root: &Path, opts: &ReadOptions, out: &mut Vec<Entry>, progress: &Progress) -> Result<()> {
    let respect = !opts.no_ignore;
    let walker = ignore::WalkBuilder::new(root)
        .hidden(!opts.hidden)
        .ignore(respect)
        .git_ignore(respect)
        .git_exclude(respect)
        .git_global(false)
        .parents(false)
        .require_git(false)
        .follow_links(false)
        .build();
    for (n, item) in walker.enumerate() {
        if n % 1024 == 0 {
            progress.check()?;
        }
        let item = item.map_err(|e| walk_error(root, e))?;
        let path = item.path();
        let Some(kind) = item.file_type() else {
            continue; // stdin; never produced for a directory walk
        };
        let (is_file, bytes) = if kind.is_symlink() {
            // Follow links to files only: a link to a directory could close a cycle.
            match std::fs::metadata(path) {
                Ok(m) => (m.is_file(), m.len()),
                Err(e) => return Err(crate::io::input::cannot_open(path, e)),
            }
        } else if kind.is_file() {
            (true, item.metadata().map(|m| m.len()).unwrap_or(0))
        } else {
            (false, 0)
        };
        if !is_file {
            continue;
        }
        let relative = path
            .strip_prefix(root)
            .unwrap_or(path)
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        out.push(Entry {
            relative,
            path: path.to_path_buf(),
            bytes,
        });
    }
    Ok(())
}

fn walk_error(root: &Path, e: ignore::Error) -> Error {
    match e.io_error() {
        Some(io) => cannot_list(root, std::io::Error::new(io.kind(), e.to_string())),
        // A malformed ignore file, for instance.
        None => Error::input(root, 0, format!("cannot walk the directory: {e}")),
    }
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
    // Refusals and read failures say how to leave the file out of the directory.
    let mut src = source::open_in_directory(path, progress)?;
    src.reader
        .read_to_end(buf)
        .map_err(|e| read_error_within(path, 0, e, Within::Directory))?;
    Ok(buf.len() as u64)
}
