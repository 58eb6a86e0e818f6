//! What a session works on: where the documents come from, the settings fixed for the
//! session, and the loaded corpus with its index (shared read-only with the workers).

use std::path::PathBuf;

use lshscope_core::corpus::ReadOptions;
use lshscope_core::minhash::{Banding, IndexOptions};
use lshscope_core::pipeline::open::CorpusSource;

/// Where the documents come from.
#[derive(Debug, Clone)]
pub enum Source {
    File {
        path: PathBuf,
        read: ReadOptions,
    },
    /// The gzipped sample compiled into the binary.
    EmbeddedSample,
    /// A corpus file whose index is kept in the explorer's cache: read from it when an entry
    /// of the same bytes and options is there, else built and stored
    /// ([`lshscope_core::pipeline::cache`]).
    CachedFile {
        path: PathBuf,
        read: ReadOptions,
        cache: lshscope_core::pipeline::cache::IndexCache,
    },
    /// An index file (`lshscope index build`): documents, shingle sets and signatures are
    /// read, not rebuilt.
    Index {
        path: PathBuf,
    },
}

impl Source {
    /// The engine's view of this source.
    pub fn corpus_source(&self) -> CorpusSource<'_> {
        match self {
            Source::File { path, read } => CorpusSource::File { path, read },
            Source::CachedFile { path, read, cache } => {
                CorpusSource::CachedFile { path, read, cache }
            }
            Source::Index { path } => CorpusSource::Index { path },
            Source::EmbeddedSample => CorpusSource::Reader(&super::sample::read_sample),
        }
    }
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
    /// After a label, move to the next pair (`--advance`; a key toggles it).
    pub advance: bool,
}
