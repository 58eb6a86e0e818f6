//! Pair files in and out: one place that knows where output goes (a file written atomically,
//! or stdout for `-`), how it is compressed (`.gz`, `.zst`, `.bz2`, `.xz`) and formatted (CSV, JSON Lines,
//! Parquet for pairs), and one reader for everything `scan`, `truth` and `gen` write, used by
//! every command that reads pairs.
//!
//! Writing is on the hot path of a scan that keeps millions of pairs, so [`RowWriter`] formats
//! without allocating per row: ids are copied as bytes (quoted only when they must be), floats
//! go through `ryu` (shortest round-trip), integers through `itoa`, into a large buffer.

pub mod parquet;
mod read;
mod row_writer;
mod target;
mod write;

pub use read::*;
pub use row_writer::*;
pub use target::*;
pub use write::*;

use std::borrow::Cow;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::corpus::Corpus;
use crate::io::atomic::WriteError;
use crate::io::compression::{Compression, lower_extension};
use crate::io::excerpt::excerpt;
use crate::jobs::Progress;
use crate::minhash::VerifiedPair;
use crate::minhash::similarity::prefetch_line;
use crate::{Error, Result};

/// Buffer size of every writer and reader here: large enough that the kernel sees few calls.
const BUFFER: usize = 1 << 20;

/// Rows between two progress updates (and cancellation checks) while writing.
pub const PROGRESS_EVERY: u64 = 1 << 16;

#[cfg(test)]
mod tests;
