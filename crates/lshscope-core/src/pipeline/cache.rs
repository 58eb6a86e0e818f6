//! The explorer's cache of built indexes, so a second `explore` of the same corpus reads its
//! documents, shingle sets and signatures instead of rebuilding them.
//!
//! An entry is an index file ([`crate::online::file`], the `.lshidx` format: XXH3 checksum,
//! written atomically) named by its key, an XXH3-128 hash of the input file's bytes, the read
//! and index options (the sketch family among them) and the lshscope version (shingling may
//! change between versions). An entry of another family is another key: a miss. The
//! key is also stored in the file's header and checked on reading, so a renamed, stale or
//! corrupt entry is never used: it is removed and the index rebuilt, with a note.
//!
//! Where: `$LSHSCOPE_CACHE_DIR`, else `$XDG_CACHE_HOME/lshscope`, else `~/.cache/lshscope`.
//! Size: entries are about as large as the corpus's index in memory (1 M short documents at
//! K = 128 take about 1 GB), so the cache keeps at most [`DEFAULT_LIMIT_BYTES`] (or
//! `$LSHSCOPE_CACHE_LIMIT_MB`), dropping the least recently opened entries first: a handful of
//! large corpora, which is what one works on at a time, while a rebuild of any of them costs
//! far more than reading it back.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::corpus::{Corpus, ReadOptions};
use crate::minhash::{Banding, Index, IndexOptions};
use crate::{Error, Result};

/// Overrides where the cache lives (tests point it at a temporary directory).
pub const DIR_ENV: &str = "LSHSCOPE_CACHE_DIR";
/// Overrides the cache's size limit, in MB.
pub const LIMIT_ENV: &str = "LSHSCOPE_CACHE_LIMIT_MB";
/// 4 GB: a few million-document corpora.
pub const DEFAULT_LIMIT_BYTES: u64 = 4_000_000_000;
const EXTENSION: &str = "lshidx";

/// A cache directory and its size limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexCache {
    /// The directory the cache files live in.
    pub dir: PathBuf,
    /// Bytes the cache may hold: the least recently used entries are removed to stay under it,
    /// and an entry larger than this is not stored.
    pub limit_bytes: u64,
}

/// A cache entry read back.
#[derive(Debug)]
pub struct CachedIndex {
    /// The documents as they were read the first time.
    pub corpus: Corpus,
    /// Their shingle sets and signatures.
    pub index: Index,
    /// What the reader warned about when the corpus was first read.
    pub read_warnings: Vec<String>,
}

/// What a lookup found.
#[derive(Debug)]
pub enum Lookup {
    /// A usable entry for the key.
    Hit(Box<CachedIndex>),
    /// No entry for the key.
    Miss,
    /// An entry that cannot be used (corrupt, or built from something else); it was removed.
    Rejected(String),
}

impl IndexCache {
    /// A cache in `dir` that holds at most `limit_bytes`.
    pub fn new(dir: PathBuf, limit_bytes: u64) -> Self {
        IndexCache { dir, limit_bytes }
    }

    /// The user's cache, from the environment; `None` when no directory can be named (no
    /// `LSHSCOPE_CACHE_DIR`, `XDG_CACHE_HOME` or `HOME`).
    pub fn from_env() -> Option<Self> {
        Self::from_vars(|name| std::env::var_os(name))
    }

    /// [`Self::from_env`] with the variables looked up by `var` (empty ones count as unset).
    pub fn from_vars(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<Self> {
        let var = |name: &str| var(name).filter(|v| !v.is_empty());
        let dir = match (var(DIR_ENV), var("XDG_CACHE_HOME"), var("HOME")) {
            (Some(dir), _, _) => PathBuf::from(dir),
            (None, Some(xdg), _) => PathBuf::from(xdg).join("lshscope"),
            (None, None, Some(home)) => PathBuf::from(home).join(".cache").join("lshscope"),
            (None, None, None) => return None,
        };
        let limit_bytes = var(LIMIT_ENV)
            .and_then(|v| v.to_str()?.trim().parse::<u64>().ok())
            .map_or(DEFAULT_LIMIT_BYTES, |mb| mb.saturating_mul(1_000_000));
        Some(IndexCache::new(dir, limit_bytes))
    }

    /// The key of `input` read with `read` and indexed with `index`: XXH3-128 of the file's
    /// bytes and the options, as 32 hex digits.
    pub fn key(input: &Path, read: &ReadOptions, index: &IndexOptions) -> Result<String> {
        use std::io::Read;
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        let settings = format!(
            "lshscope {} cache 1\nread {read:?}\nindex {}\n",
            env!("CARGO_PKG_VERSION"),
            serde_json::to_string(index).map_err(|e| Error::internal(e.to_string()))?
        );
        hasher.update(settings.as_bytes());
        let mut file = std::fs::File::open(input).map_err(|e| Error::io(input, e))?;
        let mut buf = vec![0u8; 1 << 20];
        loop {
            let n = file.read(&mut buf).map_err(|e| Error::io(input, e))?;
            if n == 0 {
                break;
            }
            hasher.update(&buf[..n]);
        }
        Ok(format!("{:032x}", hasher.digest128()))
    }

    /// Where the entry of `key` lives.
    pub fn path_of(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.{EXTENSION}"))
    }

    /// The entry of `key`, checked: its checksum, its stored key and its options must match.
    /// A hit is marked as just used (for eviction).
    pub fn lookup(&self, key: &str, options: &IndexOptions) -> Lookup {
        let path = self.path_of(key);
        if !path.is_file() {
            return Lookup::Miss;
        }
        let reject = |why: String| {
            let _ = std::fs::remove_file(&path);
            Lookup::Rejected(why)
        };
        match crate::online::file::load_parts(&path) {
            Err(e) => reject(format!("cached index unreadable ({e})")),
            Ok((header, _, _)) if header.cache_key.as_deref() != Some(key) => {
                reject("cached index was built from another input".to_string())
            }
            Ok((header, _, _)) if &header.options != options => {
                reject("cached index was built with other options".to_string())
            }
            Ok((header, corpus, index)) => {
                if let Ok(file) = std::fs::File::options().append(true).open(&path) {
                    let _ = file.set_modified(SystemTime::now());
                }
                Lookup::Hit(Box::new(CachedIndex {
                    corpus,
                    index,
                    read_warnings: header.read_warnings,
                }))
            }
        }
    }

    /// Stores `corpus` and `index` under `key`, with what the reader warned about
    /// (`read_warnings`, shown again on a hit), then drops the least recently used entries
    /// beyond the size limit. Returns `false` when the entry alone would exceed the limit (it
    /// is not written).
    pub fn store(
        &self,
        key: &str,
        corpus: &Corpus,
        index: &Index,
        read_warnings: &[String],
    ) -> Result<bool> {
        let size = entry_bytes(corpus, index);
        if size > self.limit_bytes {
            return Ok(false);
        }
        std::fs::create_dir_all(&self.dir).map_err(|e| Error::io(&self.dir, e))?;
        let path = self.path_of(key);
        // The banding is not part of an entry (the explorer moves it freely): 1 × K.
        let banding = Banding::new(1, index.options.num_perm, index.options.num_perm)?;
        crate::online::file::save_parts(
            &path,
            corpus,
            index,
            banding,
            Some(key.to_string()),
            read_warnings,
        )?;
        self.evict(&path);
        Ok(true)
    }

    /// The entries, oldest use first, with their sizes.
    pub fn entries(&self) -> Vec<(PathBuf, u64, SystemTime)> {
        let Ok(dir) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut out: Vec<(PathBuf, u64, SystemTime)> = dir
            .flatten()
            .filter(|e| e.path().extension().is_some_and(|x| x == EXTENSION))
            .filter_map(|e| {
                let meta = e.metadata().ok()?;
                Some((e.path(), meta.len(), meta.modified().ok()?))
            })
            .collect();
        out.sort_by_key(|e| e.2);
        out
    }

    /// Removes the least recently used entries until the rest fit the limit; `keep` stays.
    /// Also removes temporary files of writes that were killed before their rename (an hour
    /// old: no write of an entry takes that long).
    fn evict(&self, keep: &Path) {
        if let Ok(dir) = std::fs::read_dir(&self.dir) {
            let hour_ago = SystemTime::now() - std::time::Duration::from_secs(3600);
            for e in dir.flatten() {
                let stale = e.path().extension().is_some_and(|x| x == "tmp")
                    && e.metadata()
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t < hour_ago);
                if stale {
                    let _ = std::fs::remove_file(e.path());
                }
            }
        }
        let entries = self.entries();
        let mut total: u64 = entries.iter().map(|e| e.1).sum();
        for (path, size, _) in entries {
            if total <= self.limit_bytes {
                break;
            }
            if path != keep && std::fs::remove_file(&path).is_ok() {
                total -= size;
            }
        }
    }
}

/// About what an entry of `corpus` and `index` takes on disk.
fn entry_bytes(corpus: &Corpus, index: &Index) -> u64 {
    let documents = corpus.len() as u64;
    let texts: u64 = (0..corpus.len())
        .map(|i| (corpus.id(i).len() + corpus.text(i).len()) as u64)
        .sum();
    texts
        + 16 * documents
        + 8 * index.sets.total() as u64
        + index.signatures.rows().len() as u64 * 4
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jobs::Progress;
    use crate::minhash::{SketchFamily, build_index};

    fn write_corpus(dir: &Path, name: &str, extra: &str) -> PathBuf {
        let path = dir.join(name);
        let mut text = String::from("id,text\n");
        for i in 0..40 {
            text.push_str(&format!("d{i},a short note number {i} about {}\n", i % 7));
        }
        text.push_str(extra);
        std::fs::write(&path, text).unwrap();
        path
    }

    fn built(path: &Path, options: &IndexOptions) -> (Corpus, Index) {
        let (corpus, _) =
            crate::corpus::read_corpus(path, &ReadOptions::default(), &Progress::new()).unwrap();
        let index = build_index(&corpus, options, &Progress::new()).unwrap();
        (corpus, index)
    }

    #[test]
    fn hit_after_store_and_misses_on_other_content_or_options() {
        let dir = tempfile::tempdir().unwrap();
        let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
        let input = write_corpus(dir.path(), "c.csv", "");
        let options = IndexOptions::default();
        let read = ReadOptions::default();
        let key = IndexCache::key(&input, &read, &options).unwrap();
        assert!(matches!(cache.lookup(&key, &options), Lookup::Miss));
        let (corpus, index) = built(&input, &options);
        let warnings = vec!["ids are numbered by row".to_string()];
        assert!(cache.store(&key, &corpus, &index, &warnings).unwrap());
        let Lookup::Hit(hit) = cache.lookup(&key, &options) else {
            panic!("a hit");
        };
        let CachedIndex {
            corpus: c2,
            index: i2,
            read_warnings: w2,
        } = *hit;
        assert_eq!(
            w2, warnings,
            "the reader's warnings come back with the entry"
        );
        assert_eq!(c2.len(), corpus.len());
        assert_eq!(c2.text(3), corpus.text(3));
        assert_eq!(i2.signatures.rows(), index.signatures.rows());
        assert_eq!(i2.sets.get(5), index.sets.get(5));
        // One more byte, other shingles, another seed, another read option: other keys.
        let changed = write_corpus(dir.path(), "c.csv", "d40,one more\n");
        assert_ne!(IndexCache::key(&changed, &read, &options).unwrap(), key);
        let shingles = IndexOptions {
            seed: options.seed + 1,
            ..options.clone()
        };
        assert_ne!(IndexCache::key(&changed, &read, &shingles).unwrap(), key);
        let limited = ReadOptions {
            limit: Some(10),
            ..ReadOptions::default()
        };
        assert_ne!(IndexCache::key(&changed, &limited, &options).unwrap(), key);
    }

    #[test]
    fn an_entry_of_another_family_is_a_miss_and_each_family_has_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let cache = IndexCache::new(dir.path().join("cache"), DEFAULT_LIMIT_BYTES);
        let input = write_corpus(dir.path(), "c.csv", "");
        let read = ReadOptions::default();
        let classic = IndexOptions::default();
        let key = IndexCache::key(&input, &read, &classic).unwrap();
        let (corpus, index) = built(&input, &classic);
        cache.store(&key, &corpus, &index, &[]).unwrap();
        for family in [SketchFamily::OnePermutation, SketchFamily::CMinHash] {
            let options = IndexOptions {
                family,
                ..classic.clone()
            };
            let other = IndexCache::key(&input, &read, &options).unwrap();
            assert_ne!(other, key, "{family}");
            assert!(matches!(cache.lookup(&other, &options), Lookup::Miss));
            let (corpus, index) = built(&input, &options);
            cache.store(&other, &corpus, &index, &[]).unwrap();
            let Lookup::Hit(hit) = cache.lookup(&other, &options) else {
                panic!("a hit for {family}");
            };
            assert_eq!(hit.index.options.family, family);
            assert_eq!(hit.index.signatures.rows(), index.signatures.rows());
        }
        // The classic entry is still there, and still classic.
        let Lookup::Hit(hit) = cache.lookup(&key, &classic) else {
            panic!("the classic entry is kept");
        };
        assert_eq!(hit.index.options.family, SketchFamily::Classic);
        // An entry whose stored options name another family than the key's is never used.
        assert!(matches!(
            cache.lookup(
                &key,
                &IndexOptions {
                    family: SketchFamily::CMinHash,
                    ..classic.clone()
                }
            ),
            Lookup::Rejected(why) if why.contains("other options")
        ));
    }

    #[test]
    fn corrupt_or_foreign_entries_are_rejected_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let cache = IndexCache::new(dir.path().to_path_buf(), DEFAULT_LIMIT_BYTES);
        let input = write_corpus(dir.path(), "c.csv", "");
        let options = IndexOptions::default();
        let key = IndexCache::key(&input, &ReadOptions::default(), &options).unwrap();
        let (corpus, index) = built(&input, &options);
        cache.store(&key, &corpus, &index, &[]).unwrap();
        // A flipped byte in the middle: the checksum catches it.
        let path = cache.path_of(&key);
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 0x20;
        std::fs::write(&path, &bytes).unwrap();
        assert!(matches!(cache.lookup(&key, &options), Lookup::Rejected(_)));
        assert!(!path.exists(), "a corrupt entry is removed");
        // An intact entry under another key's name.
        cache.store(&key, &corpus, &index, &[]).unwrap();
        let other = "0".repeat(32);
        std::fs::rename(&path, cache.path_of(&other)).unwrap();
        let Lookup::Rejected(why) = cache.lookup(&other, &options) else {
            panic!("a renamed entry is not used");
        };
        assert!(why.contains("another input"), "{why}");
    }

    #[test]
    fn the_least_recently_used_entries_go_first() {
        let dir = tempfile::tempdir().unwrap();
        let input = write_corpus(dir.path(), "c.csv", "");
        let options = IndexOptions::default();
        let (corpus, index) = built(&input, &options);
        let one = entry_bytes(&corpus, &index);
        // Room for two entries.
        let cache = IndexCache::new(dir.path().join("cache"), 2 * one + one / 2);
        let keys: Vec<String> = (0..3).map(|i| format!("{i:032x}")).collect();
        let old = SystemTime::now() - std::time::Duration::from_secs(100);
        cache.store(&keys[0], &corpus, &index, &[]).unwrap();
        cache.store(&keys[1], &corpus, &index, &[]).unwrap();
        // Entry 0 was opened more recently than entry 1.
        let f = std::fs::File::options()
            .append(true)
            .open(cache.path_of(&keys[1]))
            .unwrap();
        f.set_modified(old).unwrap();
        cache.store(&keys[2], &corpus, &index, &[]).unwrap();
        assert!(cache.path_of(&keys[0]).exists());
        assert!(
            !cache.path_of(&keys[1]).exists(),
            "the oldest use is dropped"
        );
        assert!(cache.path_of(&keys[2]).exists());
        // An entry larger than the whole limit is not written.
        let tiny = IndexCache::new(dir.path().join("tiny"), 10);
        assert!(!tiny.store(&keys[0], &corpus, &index, &[]).unwrap());
        assert!(tiny.entries().is_empty());
    }

    #[test]
    fn the_directory_comes_from_the_environment_in_order() {
        fn vars<'a>(
            set: &'a [(&'a str, &'a str)],
        ) -> impl Fn(&str) -> Option<std::ffi::OsString> + 'a {
            move |name| {
                set.iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        }
        let all = [
            (DIR_ENV, "/tmp/own"),
            ("XDG_CACHE_HOME", "/x"),
            ("HOME", "/h"),
        ];
        let cache = IndexCache::from_vars(vars(&all)).unwrap();
        assert_eq!(cache.dir, PathBuf::from("/tmp/own"));
        assert_eq!(cache.limit_bytes, DEFAULT_LIMIT_BYTES);
        let xdg = [(DIR_ENV, ""), ("XDG_CACHE_HOME", "/x"), ("HOME", "/h")];
        assert_eq!(
            IndexCache::from_vars(vars(&xdg)).unwrap().dir,
            PathBuf::from("/x/lshscope")
        );
        let home = [("HOME", "/h"), (LIMIT_ENV, "250")];
        let cache = IndexCache::from_vars(vars(&home)).unwrap();
        assert_eq!(cache.dir, PathBuf::from("/h/.cache/lshscope"));
        assert_eq!(cache.limit_bytes, 250_000_000);
        assert!(IndexCache::from_vars(vars(&[])).is_none());
    }
}
