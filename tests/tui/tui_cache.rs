//! The explorer's index cache through its load path (`tui::load` with a cached source): a
//! second open reads the index the first one stored, a changed input or option rebuilds, a
//! corrupt entry is rebuilt with a note; the cache lives in a temporary directory.

use crate::tui_support;

use std::path::{Path, PathBuf};

use lshscope::tui::session::{Config, Source};
use lshscope_core::corpus::ReadOptions;
use lshscope_core::jobs::{Phase, Progress};
use lshscope_core::pipeline::Loaded;
use lshscope_core::pipeline::cache::{DEFAULT_LIMIT_BYTES, IndexCache};
use tui_support::*;

fn write_input(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("docs.csv");
    let mut text = String::from("id,text\n");
    for (id, doc) in DOCS {
        text.push_str(&format!("{id},\"{doc}\"\n"));
    }
    text.push_str(extra);
    std::fs::write(&path, text).unwrap();
    path
}

fn cached_config(dir: &Path, input: &Path, cache: &IndexCache) -> Config {
    Config {
        source: Source::CachedFile {
            path: input.to_path_buf(),
            read: ReadOptions::default(),
            cache: cache.clone(),
        },
        ..config(dir)
    }
}

/// Loads `config`, returning the data and the phases that ran.
fn open(config: &Config) -> (Loaded, Vec<Phase>) {
    let mut phases = Vec::new();
    let loaded = lshscope::tui::load(config, &Progress::new(), |t| phases.push(t.phase)).unwrap();
    (loaded, phases)
}

fn note(loaded: &Loaded) -> &str {
    loaded.read.cache_note.as_deref().unwrap_or("")
}

#[test]
fn a_second_open_reads_the_cache_and_changes_rebuild() {
    let dir = tempfile::tempdir().unwrap();
    let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
    let input = write_input(dir.path(), "");
    let config = cached_config(dir.path(), &input, &cache);

    let (cold, phases) = open(&config);
    assert!(phases.contains(&Phase::Signatures), "{phases:?}");
    assert!(note(&cold).starts_with("index cached"), "{}", note(&cold));
    assert_eq!(cache.entries().len(), 1);

    let (warm, phases) = open(&config);
    assert!(!phases.contains(&Phase::Signatures), "{phases:?}");
    assert!(
        note(&warm).starts_with("opened from the cache"),
        "{}",
        note(&warm)
    );
    assert_eq!(warm.corpus.len(), cold.corpus.len());
    for i in 0..cold.corpus.len() {
        assert_eq!(warm.corpus.id(i), cold.corpus.id(i));
        assert_eq!(warm.corpus.text(i), cold.corpus.text(i));
        assert_eq!(warm.index.sets.get(i), cold.index.sets.get(i));
    }
    assert_eq!(warm.index.signatures.rows(), cold.index.signatures.rows());

    // Changed content: a new entry, built.
    write_input(
        dir.path(),
        "extra-1,one more document that was not there before\n",
    );
    let (changed, phases) = open(&config);
    assert!(phases.contains(&Phase::Signatures));
    assert_eq!(changed.corpus.len(), cold.corpus.len() + 1);
    assert_eq!(cache.entries().len(), 2);

    // Changed options (another seed): built, not read.
    let mut reseeded = config.clone();
    reseeded.index_options.seed += 1;
    let (other, phases) = open(&reseeded);
    assert!(phases.contains(&Phase::Signatures));
    assert_ne!(
        other.index.signatures.rows(),
        changed.index.signatures.rows()
    );
    assert_eq!(cache.entries().len(), 3);
}

#[test]
fn a_corrupt_entry_is_rebuilt_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
    let input = write_input(dir.path(), "");
    let config = cached_config(dir.path(), &input, &cache);
    let (cold, _) = open(&config);
    let (entry, _, _) = cache.entries().pop().unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0xff;
    std::fs::write(&entry, &bytes).unwrap();

    let (rebuilt, phases) = open(&config);
    assert!(phases.contains(&Phase::Signatures), "{phases:?}");
    assert!(note(&rebuilt).contains("rebuilt"), "{}", note(&rebuilt));
    assert_eq!(
        rebuilt.index.signatures.rows(),
        cold.index.signatures.rows()
    );
    // The rebuilt entry is sound again.
    let (warm, _) = open(&config);
    assert!(note(&warm).starts_with("opened from the cache"));

    // The note reaches the status line's message.
    let mut app = new_app_with(config.clone(), dir.path(), (120, 36));
    app.attach(std::sync::Arc::new(warm));
    assert!(
        app.message()
            .as_ref()
            .is_some_and(|m| m.text.contains("opened from the cache")),
        "{:?}",
        app.message()
    );
    // ... naming the flag that rebuilds, not the engine's name for the setting.
    let message = app.message().as_ref().unwrap().text.clone();
    assert!(message.contains("--no-cache rebuilds"), "{message}");
}

/// The explorer's own path: the corpus opens before its entry is written (the note says it is
/// being cached), the entry is written from the same shared data, and its note then reaches
/// the status line.
#[test]
fn the_explorer_opens_first_and_caches_in_the_background() {
    let dir = tempfile::tempdir().unwrap();
    let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
    let input = write_input(dir.path(), "");
    let config = cached_config(dir.path(), &input, &cache);

    let (loaded, pending) =
        lshscope::tui::load_deferred(&config, &Progress::new(), |_| {}).unwrap();
    let pending = pending.expect("a built corpus leaves an entry to write");
    assert_eq!(note(&loaded), "caching the index in the background");
    assert!(
        cache.entries().is_empty(),
        "nothing written before the explorer opens"
    );

    let loaded = std::sync::Arc::new(loaded);
    let mut app = new_app_with(config.clone(), dir.path(), (120, 36));
    app.update(lshscope::tui::app::Action::Opened(std::sync::Arc::clone(
        &loaded,
    )));
    assert!(
        app.message()
            .as_ref()
            .is_some_and(|m| m.text.contains("in the background"))
    );
    let written = pending.write(&loaded);
    assert!(written.starts_with("index cached in"), "{written}");
    app.update(lshscope::tui::app::Action::CacheWritten(written));
    assert!(
        app.message()
            .as_ref()
            .is_some_and(|m| m.text.starts_with("index cached in"))
    );
    assert_eq!(cache.entries().len(), 1);

    // A cache hit has nothing left to write.
    let (warm, pending) = lshscope::tui::load_deferred(&config, &Progress::new(), |_| {}).unwrap();
    assert!(pending.is_none());
    assert!(note(&warm).starts_with("opened from the cache"));
}

#[test]
fn a_cached_open_repeats_the_readers_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
    // No `id` column but one that looks like an id: the reader numbers the rows and warns.
    let input = dir.path().join("docs.csv");
    let mut text = String::from("doc_id,text\n");
    for (id, doc) in DOCS {
        text.push_str(&format!("{id},\"{doc}\"\n"));
    }
    std::fs::write(&input, text).unwrap();
    let config = cached_config(dir.path(), &input, &cache);

    let (cold, _) = open(&config);
    assert!(
        cold.read
            .warnings
            .iter()
            .any(|w| w.to_string().contains("doc_id")),
        "{:?}",
        cold.read.warnings
    );
    let (warm, phases) = open(&config);
    assert!(!phases.contains(&Phase::Signatures), "{phases:?}");
    assert!(
        note(&warm).starts_with("opened from the cache"),
        "{}",
        note(&warm)
    );
    assert_eq!(warm.read.warnings, cold.read.warnings);
}

/// An open from the cache counts repeated ids as the read did, so the explorer warns about
/// them and refuses to label their pairs on a warm open too (it looks them up only when the
/// report counts some).
#[test]
fn a_warm_open_reports_the_repeated_ids_the_read_found() {
    let dir = tempfile::tempdir().unwrap();
    let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
    let input = write_input(
        dir.path(),
        "lake-1,a second document under the first one's id\n",
    );
    let config = cached_config(dir.path(), &input, &cache);
    let (cold, _) = open(&config);
    let (warm, phases) = open(&config);
    assert!(!phases.contains(&Phase::Signatures), "{phases:?}");
    assert_eq!(cold.read.duplicate_ids, 1);
    assert_eq!(warm.read.duplicate_ids, cold.read.duplicate_ids);
    assert_eq!(warm.read.repeated_ids(), cold.read.repeated_ids());
}
