//! What a session works on: where the documents come from, the settings fixed for the
//! session, and the loaded corpus with its index (shared read-only with the workers).

use std::path::PathBuf;

use crate::corpus::{Corpus, ReadOptions, ReadReport};
use crate::jobs::Phase;
use crate::minhash::{Banding, Index, IndexOptions};

/// Where the documents come from.
#[derive(Debug, Clone)]
pub enum Source {
    File {
        path: PathBuf,
        read: ReadOptions,
    },
    /// The gzipped sample compiled into the binary.
    EmbeddedSample,
}

/// Everything fixed for a session.
#[derive(Debug, Clone)]
pub struct Config {
    pub source: Source,
    /// Shown in titles.
    pub source_name: String,
    pub index_options: IndexOptions,
    /// The banding to start with.
    pub banding: Banding,
    pub threshold: f64,
    pub max_bucket: Option<usize>,
    /// Exports go to `export_dir/<export_stem>.pairs.<b>x<r>.csv`.
    pub export_dir: PathBuf,
    pub export_stem: String,
    pub monochrome: bool,
    /// Histogram bins (at least 20).
    pub bins: usize,
    /// Seed of the shuffled sort order.
    pub shuffle_seed: u64,
}

/// The corpus and its index, shared read-only with the workers.
#[derive(Debug)]
pub struct Loaded {
    pub corpus: Corpus,
    pub index: Index,
    pub read: ReadReport,
}

/// A finished loading phase, for the loading screen.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadStep {
    pub phase: Phase,
    pub items: u64,
    pub unit: &'static str,
    pub seconds: f64,
}
