//! Opening a corpus with its index: read and built through a [`Pipeline`], read from an index
//! file, or read from the index cache ([`super::cache`]) when it holds an entry for the same
//! bytes and options. A built index's cache entry is handed back as a
//! [`PendingCacheWrite`], so a face can show the corpus first and write the entry after (an
//! entry of a million documents is gigabytes, and fsync under load can take seconds).

use std::path::Path;

use crate::corpus::{Corpus, ReadOptions, ReadReport};
use crate::jobs::{Phase, Progress};
use crate::minhash::{Index, IndexOptions};
use crate::terms::Message;
use crate::terms::Setting::NoCache;
use crate::{Error, Result};

use super::cache::{CachedIndex, IndexCache, Lookup};
use super::{Loaded, PhaseTiming, Pipeline};

/// Where the documents of [`open_deferred`] come from.
pub enum CorpusSource<'a> {
    /// A corpus file, read and indexed every time.
    File {
        /// The corpus file.
        path: &'a Path,
        /// How to read it.
        read: &'a ReadOptions,
    },
    /// A corpus file whose index is kept in `cache`: read from it when an entry of the same
    /// bytes and options is there, else built and stored.
    CachedFile {
        /// The corpus file.
        path: &'a Path,
        /// How to read it.
        read: &'a ReadOptions,
        /// The cache the index is looked up in and stored to.
        cache: &'a IndexCache,
    },
    /// An index file (`lshscope index build`): documents, shingle sets and signatures are
    /// read, not rebuilt.
    Index {
        /// The index file.
        path: &'a Path,
    },
    /// A reader of the face's own (an embedded sample, say), run as the reading phase.
    Reader(&'a dyn Fn(&Progress) -> Result<(Corpus, ReadReport)>),
}

/// A cache entry still to write for a corpus that was built, not read from the cache.
pub struct PendingCacheWrite {
    cache: IndexCache,
    key: String,
    /// Why an entry that was there could not be used, if one was.
    rejected: Option<String>,
}

impl PendingCacheWrite {
    /// Writes the entry for `loaded`; returns the note for the status line.
    pub fn write(self, loaded: &Loaded) -> String {
        let stored = self.cache.store(
            &self.key,
            &loaded.corpus,
            &loaded.index,
            // Stored with their settings' tokens, so that a hit gives them back whole.
            &loaded
                .read
                .warnings
                .iter()
                .map(|w| w.tokens().to_string())
                .collect::<Vec<_>>(),
        );
        let done = match stored {
            Ok(true) => format!("index cached in {}", self.cache.dir.display()),
            Ok(false) => "index not cached: larger than the cache's limit".to_string(),
            Err(e) => format!("index not cached: {e}"),
        };
        match self.rejected {
            Some(why) => format!("{why}; {done}"),
            None => done,
        }
    }
}

/// Opens `source` and writes its cache entry (if one is due) before returning; the entry's
/// note goes to `read.cache_note`.
pub fn open(
    source: CorpusSource<'_>,
    options: &IndexOptions,
    name: &str,
    progress: &Progress,
    step_done: impl FnMut(PhaseTiming),
) -> Result<Loaded> {
    let (mut loaded, pending) = open_deferred(source, options, name, progress, step_done)?;
    if let Some(pending) = pending {
        loaded.read.cache_note = Some(pending.write(&loaded));
    }
    Ok(loaded)
}

/// [`open`] without writing the cache entry: it is returned for the caller to write when it
/// suits. Each finished phase goes to `step_done`, the signature phase counted in documents
/// (as a progress bar counts it). `name` names the corpus in the error for an empty one.
pub fn open_deferred(
    source: CorpusSource<'_>,
    options: &IndexOptions,
    name: &str,
    progress: &Progress,
    mut step_done: impl FnMut(PhaseTiming),
) -> Result<(Loaded, Option<PendingCacheWrite>)> {
    let documents = std::cell::Cell::new(0);
    let mut run = Pipeline::new(progress).on_phase(|t| {
        let (items, unit) = match t.phase {
            Phase::Signatures => (documents.get(), "docs"),
            _ => (t.items, t.unit),
        };
        step_done(PhaseTiming {
            phase: t.phase,
            items,
            unit,
            seconds: t.seconds,
        })
    });
    let mut pending = None;
    let (corpus, mut read) = match source {
        CorpusSource::File { path, read } => run.read(path, read)?,
        CorpusSource::CachedFile { path, read, cache } => {
            // The key hashes the input's bytes: unreadable input is left to the reader,
            // which says what is wrong with it.
            let key = IndexCache::key(path, read, options).ok();
            let mut note = None;
            if let Some(key) = &key {
                let found = run.timed(Phase::Reading, "docs", |_| {
                    let found = cache.lookup(key, options);
                    let documents = match &found {
                        Lookup::Hit(hit) => hit.corpus.len() as u64,
                        _ => 0,
                    };
                    Ok((found, documents))
                })?;
                match found {
                    Lookup::Hit(hit) => {
                        let CachedIndex {
                            corpus,
                            index,
                            read_warnings,
                        } = *hit;
                        progress.finish();
                        let note = format!(
                            "opened from the cache ({}; {NoCache} rebuilds)",
                            cache.dir.display()
                        );
                        let mut loaded = prebuilt(corpus, index, Some(note));
                        loaded.read.warnings =
                            read_warnings.into_iter().map(Message::from).collect();
                        return Ok((loaded, None));
                    }
                    Lookup::Miss => {}
                    Lookup::Rejected(why) => note = Some(format!("{why}: rebuilt")),
                }
            }
            pending = key.map(|key| PendingCacheWrite {
                cache: cache.clone(),
                key,
                rejected: note,
            });
            run.read(path, read)?
        }
        CorpusSource::Reader(reader) => run.read_with(reader)?,
        CorpusSource::Index { path } => {
            let (corpus, index) = run.timed(Phase::Reading, "docs", |_| {
                let loaded = crate::online::LshIndex::load(path)?;
                let documents = loaded.len() as u64;
                Ok((loaded.into_parts(), documents))
            })?;
            progress.finish();
            return Ok((prebuilt(corpus, index, None), None));
        }
    };
    documents.set(corpus.len() as u64);
    if corpus.is_empty() {
        return Err(Error::usage(format!(
            "{name} has no documents: nothing to explore"
        )));
    }
    let index = run.index(&corpus, options)?;
    if let Some(p) = &pending {
        let first = p
            .rejected
            .as_deref()
            .map(|why| format!("{why}; "))
            .unwrap_or_default();
        read.cache_note = Some(format!("{first}caching the index in the background"));
    }
    progress.finish();
    Ok((
        Loaded {
            corpus,
            index,
            read,
        },
        pending,
    ))
}

/// A corpus whose index was read, not built (from the cache or an index file); its report
/// counts the repeated ids as a read would.
fn prebuilt(corpus: Corpus, index: Index, cache_note: Option<String>) -> Loaded {
    let read = ReadReport {
        cache_note,
        ..ReadReport::of_corpus(&corpus)
    };
    Loaded {
        corpus,
        index,
        read,
    }
}
