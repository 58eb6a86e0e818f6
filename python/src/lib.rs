//! `lshscope._lshscope`: the Python bindings. Every algorithm is the engine's (the `lshscope`
//! crate); this layer converts arguments and results and releases the GIL around the work.

use std::path::PathBuf;

use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::{
    Banding, BandingOptions, IdenticalGroups, IndexOptions, SketchFamily, SketchScratch, Sketcher,
    bucket_lists, build_index, stream_verified,
};
use lshscope_core::online::{LshIndex, hash_text};
use lshscope_core::text::{Profile, ShingleKind, ShingleOptions, shingle_hash};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyIOError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

mod spark;
mod terms;

/// An engine error as the Python exception users expect: bad files are `OSError` or
/// `ValueError` with the engine's message (which names the file and what to do), its settings
/// named as Python's keyword arguments.
fn to_py(e: lshscope_core::Error) -> PyErr {
    let text = terms::error_text(&e);
    match e {
        lshscope_core::Error::Io { .. } => PyIOError::new_err(text),
        _ => PyValueError::new_err(text),
    }
}

/// Runs `work` without the GIL on a thread of its own while this thread, every 50 ms, lets
/// Python handle signals: on Ctrl-C the work's progress is cancelled (the engine stops at its
/// next check, within milliseconds), the thread is joined, and `KeyboardInterrupt` (or what
/// the signal handler raised) is raised. Without this a long call ignored Ctrl-C to its end,
/// and the pending interrupt then surfaced as a panic in the next call into NumPy.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Progress) -> lshscope_core::Result<T> + Send,
) -> PyResult<T> {
    let progress = Progress::new();
    // Set (and notified) when the worker ends, whether it returns or panics.
    let ended = (std::sync::Mutex::new(false), std::sync::Condvar::new());
    struct Ends<'a>(&'a (std::sync::Mutex<bool>, std::sync::Condvar));
    impl Drop for Ends<'_> {
        fn drop(&mut self) {
            *self.0.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
            self.0.1.notify_all();
        }
    }
    std::thread::scope(|scope| {
        let (progress, ended) = (&progress, &ended);
        let worker = scope.spawn(move || {
            let _ends = Ends(ended);
            work(progress)
        });
        loop {
            let finished = py.detach(|| {
                let (lock, signal) = ended;
                let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
                let (guard, _) = signal
                    .wait_timeout_while(guard, std::time::Duration::from_millis(50), |done| !*done)
                    .unwrap_or_else(|e| e.into_inner());
                *guard
            });
            if finished {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                progress.cancel();
                let _ = py.detach(|| worker.join());
                return Err(interrupt);
            }
        }
        match worker.join() {
            Ok(result) => result.map_err(to_py),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// The banding datasketch's `MinHashLSH(threshold=t, num_perm=K, weights=(fp, fn))` picks
/// (`lsh._optimal_param`), with its checks: t in [0, 1], two weights in [0, 1] summing to 1.
fn datasketch_banding(
    threshold: f64,
    num_perm: usize,
    (false_positive, false_negative): (f64, f64),
) -> PyResult<(usize, usize)> {
    if !(0.0..=1.0).contains(&threshold) {
        return Err(PyValueError::new_err(format!(
            "threshold must be in [0, 1], got {threshold}"
        )));
    }
    let weight_ok = |w: f64| (0.0..=1.0).contains(&w);
    if !weight_ok(false_positive)
        || !weight_ok(false_negative)
        || (false_positive + false_negative - 1.0).abs() > 1e-9
    {
        return Err(PyValueError::new_err(format!(
            "weights must be two numbers in [0, 1] that sum to 1 (false positives, false \
             negatives), got ({false_positive}, {false_negative})"
        )));
    }
    if num_perm == 0 {
        return Err(PyValueError::new_err("num_perm must be at least 1"));
    }
    Ok(lshscope_core::minhash::scurve::datasketch_optimal_params(
        threshold,
        num_perm,
        false_positive,
        false_negative,
    ))
}

/// The strings of an argument that takes several (texts, keys, shingles): any iterable of
/// `str`, a generator as well as a list. One `str` (or `bytes`) there is a `TypeError`: a
/// single text where a list of them is expected, whose characters would otherwise pass for
/// the documents.
fn strings_of(obj: &Bound<'_, PyAny>, what: &str, one: &str) -> PyResult<Vec<String>> {
    let kind = || {
        obj.get_type()
            .name()
            .map_or_else(|_| "object".to_string(), |n| n.to_string())
    };
    if obj.is_instance_of::<PyString>()
        || obj.is_instance_of::<PyBytes>()
        || obj.is_instance_of::<PyByteArray>()
    {
        return Err(PyTypeError::new_err(format!(
            "expected several {what}, got a single {}: pass a list of {what}, e.g. [{one}]",
            kind()
        )));
    }
    let items = obj.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "expected a list (or any iterable) of {what}, got {}",
            kind()
        ))
    })?;
    items
        .enumerate()
        .map(|(i, item)| {
            let item = item?;
            item.extract::<String>().map_err(|_| {
                let name = item
                    .get_type()
                    .name()
                    .map_or_else(|_| "object".to_string(), |n| n.to_string());
                PyTypeError::new_err(format!("{what}[{i}] is of type {name}, not str"))
            })
        })
        .collect()
}

/// `texts` of `signatures`, `scan`, `dedup` and `LSHIndex.insert_many` ([`strings_of`]).
fn texts_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    strings_of(obj, "texts", "text")
}

/// `keys` of `LSHIndex.insert_many` ([`strings_of`]).
fn keys_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    strings_of(obj, "keys", "key")
}

/// `shingles` of `MinHash.update_shingles` ([`strings_of`]).
fn shingles_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    strings_of(obj, "shingles", "shingle")
}

/// The engine's options for the keyword arguments every function takes: `shingle` defaults
/// to the profile's own (`char:5` for lshscope's), as on the command line; `family` is a
/// sketch family's name, as `--family` takes it.
fn index_options(
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
) -> PyResult<IndexOptions> {
    let family: SketchFamily = family.parse().map_err(|e: lshscope_core::Error| {
        PyValueError::new_err(format!("family: {}", terms::error_text(&e)))
    })?;
    if num_perm == 0 || num_perm > 4096 {
        return Err(PyValueError::new_err(format!(
            "num_perm must be between 1 and 4096, got {num_perm}"
        )));
    }
    let profile: Profile = match profile {
        Some(name) => name.parse().map_err(PyValueError::new_err)?,
        None => Profile::default(),
    };
    let kind: ShingleKind = match shingle {
        Some(text) => text.parse().map_err(|e: String| {
            PyValueError::new_err(format!("shingle: {e} (use \"char:K\" or \"word:N\")"))
        })?,
        None => profile.default_shingle(),
    };
    profile
        .check_shingle(kind)
        .map_err(|m| PyValueError::new_err(terms::message_text(&m)))?;
    Ok(IndexOptions {
        shingle: ShingleOptions {
            kind,
            ..ShingleOptions::for_profile(profile)
        },
        num_perm,
        seed,
        family,
    })
}

/// The MinHash estimate of two signatures of one K: the share of rows that agree, as the
/// engine's `Signatures::estimate` computes it for documents with shingles.
fn estimate(a: &[u32], b: &[u32]) -> f64 {
    lshscope_core::minhash::similarity::agreeing_rows(a, b) as f64 / a.len() as f64
}

/// `max_bucket` as the command line's `--max-bucket` takes it
/// ([`lshscope_core::minhash::max_bucket_refusal`]).
fn check_max_bucket(max_bucket: Option<usize>) -> PyResult<()> {
    match max_bucket.and_then(lshscope_core::minhash::max_bucket_refusal) {
        Some(why) => Err(PyValueError::new_err(format!(
            "max_bucket={why}, or None for no cap"
        ))),
        None => Ok(()),
    }
}

fn banding(bands: usize, rows: usize, num_perm: usize) -> PyResult<Banding> {
    Banding::new(bands, rows, num_perm).map_err(to_py)
}

/// A MinHash signature of one document, as `lshscope scan` computes it (in the sketch family
/// `family`, classic by default).
///
/// >>> a = MinHash("the quick brown fox")
/// >>> b = MinHash("the quick brown fox!")
/// >>> round(a.jaccard(b), 1) > 0.5
/// True
#[pyclass(module = "lshscope", from_py_object)]
#[derive(Clone)]
struct MinHash {
    options: IndexOptions,
    sketcher: Sketcher,
    /// The shingle hashes seen so far (sorted, distinct).
    set: Vec<u64>,
    signature: Vec<u32>,
}

impl MinHash {
    fn rehash(&mut self) {
        self.signature = vec![u32::MAX; self.options.num_perm];
        self.sketcher.sketch_into(
            &self.set,
            &mut self.signature,
            &mut SketchScratch::default(),
        );
    }

    /// Adds shingle hashes: merged into the sorted set, and folded into the signature where
    /// the family allows it ([`Sketcher::update_into`]), so a loop of `update(word)` costs
    /// the words' own hashing and a merge, not a sort and a sketch of the whole set per call
    /// (8,000 one-word updates took 0.52 s that way, four times longer per doubling).
    fn add_hashes(&mut self, hashes: impl IntoIterator<Item = u64>) {
        let mut more: Vec<u64> = hashes.into_iter().collect();
        more.sort_unstable();
        more.dedup();
        if more.is_empty() {
            return;
        }
        let was_empty = self.set.is_empty();
        self.set = if self.set.last().is_some_and(|&last| last < more[0]) {
            let mut set = std::mem::take(&mut self.set);
            set.extend_from_slice(&more);
            set
        } else {
            lshscope_core::util::sorted::union_by_key(&self.set, &more, |&v| v)
        };
        let updated = !was_empty
            && self
                .sketcher
                .update_into(&more, &mut self.signature, &mut SketchScratch::default());
        if !updated {
            self.rehash();
        }
    }

    fn check_comparable(&self, other: &MinHash) -> PyResult<()> {
        if self.options != other.options {
            return Err(PyValueError::new_err(
                "the two MinHashes were made with different num_perm, seed, family or shingle options",
            ));
        }
        Ok(())
    }
}

#[pymethods]
impl MinHash {
    /// `MinHash(text=None, *, num_perm=128, seed=1, shingle=None, profile=None,
    /// family="classic")`: the signature of `text` (normalized, shingled and hashed as
    /// `lshscope scan` does, or as the tool `profile` names: datatrove, text-dedup, nemo,
    /// datasketch, spark), or of nothing yet. `family` is the sketch family of
    /// `lshscope scan --family`: "classic", "one-permutation" or "c-minhash".
    #[new]
    #[pyo3(signature = (text=None, *, num_perm=128, seed=1, shingle=None, profile=None, family="classic"))]
    fn new(
        text: Option<&str>,
        num_perm: usize,
        seed: u64,
        shingle: Option<&str>,
        profile: Option<&str>,
        family: &str,
    ) -> PyResult<Self> {
        let options = index_options(num_perm, seed, shingle, profile, family)?;
        let sketcher = Sketcher::new(options.family, num_perm, seed);
        let mut m = MinHash {
            options,
            sketcher,
            set: Vec::new(),
            signature: Vec::new(),
        };
        match text {
            Some(text) => m.update(text),
            None => m.rehash(),
        }
        Ok(m)
    }

    /// Adds the shingles of `text` (the signature becomes that of the union).
    fn update(&mut self, text: &str) {
        let (set, _) = hash_text(&self.options, text);
        self.add_hashes(set);
    }

    /// Adds shingles made elsewhere, each string hashed as lshscope hashes its own shingles.
    fn update_shingles(&mut self, #[pyo3(from_py_with = shingles_arg)] shingles: Vec<String>) {
        self.add_hashes(shingles.iter().map(|s| shingle_hash(s.as_bytes())));
    }

    /// The MinHash estimate of the Jaccard similarity: the share of the K values that agree.
    fn jaccard(&self, other: &MinHash) -> PyResult<f64> {
        self.check_comparable(other)?;
        if self.set.is_empty() || other.set.is_empty() {
            return Ok(0.0);
        }
        Ok(estimate(&self.signature, &other.signature))
    }

    /// The exact Jaccard similarity of the two shingle sets.
    fn exact_jaccard(&self, other: &MinHash) -> PyResult<f64> {
        self.check_comparable(other)?;
        Ok(lshscope_core::minhash::similarity::jaccard(
            &self.set, &other.set,
        ))
    }

    /// The K signature values as a NumPy `uint32` array.
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.signature.clone().into_pyarray(py)
    }

    #[getter]
    fn num_perm(&self) -> usize {
        self.options.num_perm
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.options.seed
    }

    /// The sketch family's name ("classic", "one-permutation" or "c-minhash").
    #[getter]
    fn family(&self) -> &'static str {
        self.options.family.name()
    }

    /// The number of distinct shingles seen.
    fn __len__(&self) -> usize {
        self.set.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "MinHash(num_perm={}, seed={}, shingle=\"{}\", family=\"{}\", shingles={})",
            self.options.num_perm,
            self.options.seed,
            self.options.shingle.kind,
            self.options.family,
            self.set.len()
        )
    }
}

/// `signatures(texts, *, num_perm=128, seed=1, shingle=None, profile=None,
/// family="classic")`: an N × K `uint32` array, row i the signature of texts[i] in the sketch
/// family `family`, computed in parallel without the GIL.
#[pyfunction]
#[pyo3(signature = (texts, *, num_perm=128, seed=1, shingle=None, profile=None, family="classic"))]
fn signatures<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = texts_arg)] texts: Vec<String>,
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let n = texts.len();
    let rows = interruptible(py, |progress| {
        let corpus = Corpus::from_texts(texts.iter());
        let index = build_index(&corpus, &options, progress)?;
        Ok(index.signatures.rows().to_vec())
    })?;
    let array = Array2::from_shape_vec((n, num_perm), rows)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py))
}

/// One row of `scan`: (id_a, id_b, jaccard, estimate, bands_hit).
type PairRow = (String, String, f64, f64, u32);

/// `scan(texts, ids=None, *, bands=20, rows=5, threshold=0.0, num_perm=128, seed=1,
/// shingle=None, profile=None, max_bucket=None, family="classic", columns=False)`: the pairs
/// `lshscope scan` writes for these documents, in its order (by document), as tuples; with
/// `columns`, as five NumPy arrays instead (the two documents' 0-based input positions,
/// Jaccard, estimate, bands_hit), which an Arrow table is built from without a Python object
/// per pair.
#[pyfunction]
#[pyo3(signature = (texts, ids=None, *, bands=20, rows=5, threshold=0.0, num_perm=128, seed=1, shingle=None, profile=None, max_bucket=None, family="classic", columns=false))]
#[allow(clippy::too_many_arguments)]
fn scan<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = texts_arg)] texts: Vec<String>,
    ids: Option<Vec<String>>,
    bands: usize,
    rows: usize,
    threshold: f64,
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    max_bucket: Option<usize>,
    family: &str,
    columns: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let banding = banding(bands, rows, num_perm)?;
    if !(0.0..=1.0).contains(&threshold) {
        return Err(PyValueError::new_err(format!(
            "threshold must be in [0, 1], got {threshold}"
        )));
    }
    check_max_bucket(max_bucket)?;
    let corpus = match ids {
        Some(ids) if ids.len() != texts.len() => {
            return Err(PyValueError::new_err(format!(
                "{} ids for {} texts",
                ids.len(),
                texts.len()
            )));
        }
        Some(ids) => Corpus::from_pairs(ids.iter().zip(&texts)),
        None => Corpus::from_texts(texts.iter()),
    };
    let pairs = interruptible(py, |progress| {
        let index = build_index(&corpus, &options, progress)?;
        let banding = BandingOptions {
            banding,
            max_bucket,
        };
        // The command line's own path: buckets listed once, pairs verified as found (pairs of
        // identical copies without reading their sets), then sorted by document.
        let lists = bucket_lists(&index.signatures, &banding, None, progress)?;
        let copies = IdenticalGroups::find(&index.sets);
        let mut pairs = Vec::new();
        stream_verified(
            &index,
            &lists,
            Some(&copies),
            threshold,
            progress,
            |batch| {
                pairs.extend_from_slice(batch);
                Ok(())
            },
        )?;
        pairs.sort_unstable_by_key(|p| (p.a, p.b));
        Ok(pairs)
    })?;
    if columns {
        let column = |f: fn(&lshscope_core::minhash::VerifiedPair) -> i64| -> Vec<i64> {
            pairs.iter().map(f).collect()
        };
        let a = column(|p| i64::from(p.a)).into_pyarray(py);
        let b = column(|p| i64::from(p.b)).into_pyarray(py);
        let jaccard: Vec<f64> = pairs.iter().map(|p| p.jaccard).collect();
        let estimate: Vec<f64> = pairs.iter().map(|p| p.estimate).collect();
        let hits: Vec<i32> = pairs.iter().map(|p| p.bands_hit as i32).collect();
        return Ok((
            a,
            b,
            jaccard.into_pyarray(py),
            estimate.into_pyarray(py),
            hits.into_pyarray(py),
        )
            .into_pyobject(py)?
            .into_any());
    }
    let rows: Vec<PairRow> = pairs
        .iter()
        .map(|p| {
            (
                corpus.id(p.a as usize).to_string(),
                corpus.id(p.b as usize).to_string(),
                p.jaccard,
                p.estimate,
                p.bands_hit,
            )
        })
        .collect();
    Ok(rows.into_pyobject(py)?.into_any())
}

/// One row of `dedup`: (id, cluster, size, keep, jaccard), as `lshscope dedup` writes them.
type ClusterRow = (String, String, usize, bool, f64);

/// `dedup(texts, ids=None, *, threshold, bands=20, rows=5, num_perm=128, seed=1, shingle=None,
/// profile=None, max_bucket=None, family="classic", clustering="center", keep="first",
/// scores=None, unverified=False)`: the clusters `lshscope dedup` writes for these documents,
/// one row per clustered document in input order: its id, the id of the document kept for
/// its cluster, the cluster's size, whether it is the kept one, and its Jaccard with the kept
/// one. `keep` is `"first"`, `"longest"` or `"highest"` (the highest of `scores`, one number
/// per text, as `--keep-by` takes a column).
#[pyfunction]
#[pyo3(signature = (texts, ids=None, *, threshold, bands=20, rows=5, num_perm=128, seed=1, shingle=None, profile=None, max_bucket=None, family="classic", clustering="center", keep="first", scores=None, unverified=false))]
#[allow(clippy::too_many_arguments)]
fn dedup(
    py: Python<'_>,
    #[pyo3(from_py_with = texts_arg)] texts: Vec<String>,
    ids: Option<Vec<String>>,
    threshold: f64,
    bands: usize,
    rows: usize,
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    max_bucket: Option<usize>,
    family: &str,
    clustering: &str,
    keep: &str,
    scores: Option<Vec<f64>>,
    unverified: bool,
) -> PyResult<Vec<ClusterRow>> {
    use lshscope_core::analysis::clusters::{AuditLimits, KeepRule, score_keys};
    use lshscope_core::analysis::dedup::{Clustering, DedupOptions, Joining};
    use lshscope_core::pipeline::Pipeline;
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let banding = banding(bands, rows, num_perm)?;
    if !(0.0..=1.0).contains(&threshold) {
        return Err(PyValueError::new_err(format!(
            "threshold must be in [0, 1], got {threshold}"
        )));
    }
    check_max_bucket(max_bucket)?;
    let clustering = match (clustering, unverified) {
        ("center", true) => {
            return Err(PyValueError::new_err(
                "clustering=\"center\" removes a document only for a verified pair at the \
                 threshold, and unverified=True joins every candidate unchecked, which has \
                 components only: use clustering=\"components\"",
            ));
        }
        ("center", false) => Clustering::Center,
        ("components", _) => Clustering::Components,
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "clustering must be \"center\" or \"components\", got {other:?}"
            )));
        }
    };
    let (keep, keys) = match (keep, scores) {
        ("first", None) => (KeepRule::First, None),
        ("longest", None) => (KeepRule::Longest, None),
        ("highest", Some(scores)) => {
            if scores.len() != texts.len() {
                return Err(PyValueError::new_err(format!(
                    "{} scores for {} texts",
                    scores.len(),
                    texts.len()
                )));
            }
            if let Some(at) = scores.iter().position(|s| !s.is_finite()) {
                return Err(PyValueError::new_err(format!(
                    "scores[{at}] is {}; keep=\"highest\" needs a finite number per text",
                    scores[at]
                )));
            }
            (KeepRule::Highest, Some(score_keys(&scores)))
        }
        ("highest", None) => {
            return Err(PyValueError::new_err(
                "keep=\"highest\" keeps the highest of scores: pass scores, one number per text",
            ));
        }
        ("first" | "longest", Some(_)) => {
            return Err(PyValueError::new_err(
                "scores serve keep=\"highest\" only; drop them, or pass keep=\"highest\"",
            ));
        }
        (other, _) => {
            return Err(PyValueError::new_err(format!(
                "keep must be \"first\", \"longest\" or \"highest\", got {other:?}"
            )));
        }
    };
    let corpus = match ids {
        Some(ids) if ids.len() != texts.len() => {
            return Err(PyValueError::new_err(format!(
                "{} ids for {} texts",
                ids.len(),
                texts.len()
            )));
        }
        Some(ids) => {
            // The rows name documents by id: a repeated id would stand for several, and
            // dropping it would drop the kept one too (the command line refuses them alike).
            let mut seen = std::collections::HashSet::new();
            if let Some(id) = ids.iter().find(|id| !seen.insert(id.as_str())) {
                return Err(PyValueError::new_err(format!(
                    "the id {id:?} repeats; the clusters name documents by id, so make the ids \
                     unique"
                )));
            }
            Corpus::from_pairs(ids.iter().zip(&texts))
        }
        None => Corpus::from_texts(texts.iter()),
    };
    let dedup_options = DedupOptions {
        banding: BandingOptions {
            banding,
            max_bucket,
        },
        threshold,
        joining: if unverified {
            Joining::Unverified
        } else {
            Joining::Verified
        },
        clustering,
        keep,
        collapse_identical: true,
        audit: AuditLimits::default(),
    };
    interruptible(py, |progress| {
        let mut run = Pipeline::new(progress);
        let index = build_index(&corpus, &options, progress)?;
        // Lengths in characters, as the command line's --keep longest counts them.
        let result = match &keys {
            Some(keys) => run.dedup(&index, &dedup_options, |d| keys[d as usize])?,
            None => run.dedup(&index, &dedup_options, |d| {
                corpus.text(d as usize).chars().count()
            })?,
        };
        let (clusters, to_kept) = (result.chosen(), result.chosen_to_kept());
        let rows: Vec<ClusterRow> = (0..corpus.len() as u32)
            .filter_map(|d| {
                let c = clusters.cluster_of(d)?;
                let kept = clusters.kept(c);
                Some((
                    corpus.id(d as usize).to_string(),
                    corpus.id(kept as usize).to_string(),
                    clusters.members(c).len(),
                    kept == d,
                    to_kept[d as usize],
                ))
            })
            .collect();
        Ok(rows)
    })
}

/// LSH as an online structure: band tables to insert documents into and query.
///
/// `LSHIndex(bands=20, rows=5, *, threshold=None, weights=(0.5, 0.5), num_perm=128, seed=1,
/// shingle=None, profile=None, family="classic")`; with `threshold` (and no bands or rows)
/// the banding is the one datasketch's `MinHashLSH(threshold, num_perm, weights)` picks.
/// Files written by `save` are the ones `lshscope index` reads and writes; they record the
/// sketch family.
#[pyclass(module = "lshscope", name = "LSHIndex")]
struct PyLshIndex {
    index: LshIndex,
}

/// Another thread is inside `insert_many` (which changes the index without the GIL) or
/// `insert`: PyO3's own "Already mutably borrowed" says what, not why.
fn index_busy() -> PyErr {
    PyRuntimeError::new_err(
        "the LSHIndex is being changed by another thread (insert/insert_many): wait for that \
         call to finish, or guard the index with a lock (threading.Lock) held by the threads \
         that change it and those that query it",
    )
}

impl PyLshIndex {
    /// The index to read: any number of threads at once, none while it is being changed.
    fn reading<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRef<'py, Self>> {
        slf.try_borrow().map_err(|_| index_busy())
    }

    /// The index to change: one thread at a time.
    fn changing<'py>(slf: &Bound<'py, Self>) -> PyResult<PyRefMut<'py, Self>> {
        slf.try_borrow_mut().map_err(|_| index_busy())
    }
}

#[pymethods]
impl PyLshIndex {
    #[new]
    #[pyo3(signature = (bands=None, rows=None, *, threshold=None, weights=(0.5, 0.5), num_perm=128, seed=1, shingle=None, profile=None, family="classic"))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        bands: Option<usize>,
        rows: Option<usize>,
        threshold: Option<f64>,
        weights: (f64, f64),
        num_perm: usize,
        seed: u64,
        shingle: Option<&str>,
        profile: Option<&str>,
        family: &str,
    ) -> PyResult<Self> {
        let options = index_options(num_perm, seed, shingle, profile, family)?;
        let (bands, rows) = match (threshold, bands, rows) {
            (None, bands, rows) => (bands.unwrap_or(20), rows.unwrap_or(5)),
            (Some(t), None, None) => datasketch_banding(t, num_perm, weights)?,
            (Some(_), _, _) => {
                return Err(PyValueError::new_err(
                    "give either threshold= (the banding is then datasketch's choice for it) or \
                     bands= and rows=, not both",
                ));
            }
        };
        let banding = banding(bands, rows, num_perm)?;
        Ok(PyLshIndex {
            index: LshIndex::new(options, banding).map_err(to_py)?,
        })
    }

    /// Adds a document under `key`. A key already in the index is a `ValueError` (as in
    /// datasketch's `MinHashLSH.insert`): a second copy would be returned by every query.
    fn insert(slf: &Bound<'_, Self>, key: &str, text: &str) -> PyResult<()> {
        let mut this = Self::changing(slf)?;
        if this.index.holds(key) {
            return Err(PyValueError::new_err(format!(
                "key {key:?} is already in the index; give the document another key"
            )));
        }
        this.index.insert(key, text);
        Ok(())
    }

    /// Adds many documents at once (hashed in parallel without the GIL). Keys must be new
    /// and distinct: a key already in the index, or given twice, is a `ValueError` and
    /// nothing is added; with `skip_existing=True` the documents whose key the index already
    /// holds are left out instead (as `lshscope index add --skip-existing`). Returns how many
    /// documents were added.
    #[pyo3(signature = (keys, texts, *, skip_existing=false))]
    fn insert_many(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        #[pyo3(from_py_with = keys_arg)] keys: Vec<String>,
        #[pyo3(from_py_with = texts_arg)] texts: Vec<String>,
        skip_existing: bool,
    ) -> PyResult<usize> {
        if keys.len() != texts.len() {
            return Err(PyValueError::new_err(format!(
                "{} keys for {} texts",
                keys.len(),
                texts.len()
            )));
        }
        let mut seen = std::collections::HashSet::with_capacity(keys.len());
        if let Some(key) = keys.iter().find(|k| !seen.insert(k.as_str())) {
            return Err(PyValueError::new_err(format!(
                "key {key:?} is given twice; keys must be distinct"
            )));
        }
        let mut this = Self::changing(slf)?;
        let corpus = Corpus::from_pairs(keys.iter().zip(&texts));
        let held = this.index.held_among(&corpus);
        let corpus = match held.first() {
            None => corpus,
            Some(&first) if !skip_existing => {
                return Err(PyValueError::new_err(format!(
                    "{} of the {} keys are already in the index (first: {:?}); nothing was \
                     added: pass skip_existing=True to add only the new ones",
                    held.len(),
                    keys.len(),
                    keys[first]
                )));
            }
            Some(_) => corpus.without(&held),
        };
        let added = corpus.len();
        let index = &mut this.index;
        // Cancelled, the extension stops while it builds the new documents' index, before
        // the index itself is touched.
        interruptible(py, |progress| index.extend(&corpus, progress).map(|_| ()))?;
        Ok(added)
    }

    /// The indexed documents that share a bucket with `text` in at least one band, most
    /// similar first: a list of (key, jaccard, estimate, bands_hit).
    /// Several threads may query at once; a query while another thread changes the index
    /// (`insert`, `insert_many`) is a `RuntimeError` saying so.
    fn query(slf: &Bound<'_, Self>, text: &str) -> PyResult<Vec<(String, f64, f64, u32)>> {
        let this = Self::reading(slf)?;
        Ok(this
            .index
            .query(text)
            .iter()
            .map(|m| {
                (
                    this.index.id(m.doc).to_string(),
                    m.jaccard,
                    m.estimate,
                    m.bands_hit,
                )
            })
            .collect())
    }

    /// Writes the index to `path` (atomically), in the format `lshscope index` reads.
    fn save(slf: &Bound<'_, Self>, path: PathBuf) -> PyResult<()> {
        Self::reading(slf)?.index.save(&path).map_err(to_py)
    }

    /// Reads an index written by `save` or by `lshscope index build`. With `family`, an
    /// index of another sketch family is refused (`ValueError` naming both).
    #[staticmethod]
    #[pyo3(signature = (path, *, family=None))]
    fn load(py: Python<'_>, path: PathBuf, family: Option<&str>) -> PyResult<Self> {
        let asked: Option<SketchFamily> =
            family
                .map(str::parse)
                .transpose()
                .map_err(|e: lshscope_core::Error| {
                    PyValueError::new_err(format!("family: {}", terms::error_text(&e)))
                })?;
        let index = py.detach(|| LshIndex::load(&path)).map_err(to_py)?;
        if let Some(asked) = asked {
            lshscope_core::online::file::check_family(index.options().family, asked, &path)
                .map_err(to_py)?;
        }
        Ok(PyLshIndex { index })
    }

    #[getter]
    fn bands(&self) -> usize {
        self.index.banding().bands
    }

    #[getter]
    fn rows(&self) -> usize {
        self.index.banding().rows
    }

    #[getter]
    fn num_perm(&self) -> usize {
        self.index.options().num_perm
    }

    /// The sketch family's name, as recorded in the index.
    #[getter]
    fn family(&self) -> &'static str {
        self.index.options().family.name()
    }

    fn __len__(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Self::reading(slf)?.index.len())
    }

    fn __repr__(&self) -> String {
        format!(
            "LSHIndex(bands={}, rows={}, num_perm={}, seed={}, shingle=\"{}\", family=\"{}\", \
             documents={})",
            self.index.banding().bands,
            self.index.banding().rows,
            self.index.options().num_perm,
            self.index.options().seed,
            self.index.options().shingle.kind,
            self.index.options().family,
            self.index.len()
        )
    }
}

#[pymodule]
fn _lshscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MinHash>()?;
    m.add_class::<PyLshIndex>()?;
    m.add_function(wrap_pyfunction!(signatures, m)?)?;
    m.add_function(wrap_pyfunction!(scan, m)?)?;
    m.add_function(wrap_pyfunction!(dedup, m)?)?;
    // The batch kernels of `lshscope.spark` (private: their arguments are Arrow buffers).
    m.add_function(wrap_pyfunction!(spark::hash_texts, m)?)?;
    m.add_function(wrap_pyfunction!(spark::band_rows, m)?)?;
    m.add_function(wrap_pyfunction!(spark::bucket_members, m)?)?;
    m.add_function(wrap_pyfunction!(spark::score_documents, m)?)?;
    m.add_function(wrap_pyfunction!(spark::sample_documents, m)?)?;
    m.add_function(wrap_pyfunction!(spark::permissive_banding, m)?)?;
    m.add_function(wrap_pyfunction!(spark::strata_levels, m)?)?;
    m.add_function(wrap_pyfunction!(spark::write_stratified_sample, m)?)?;
    m.add_function(wrap_pyfunction!(spark::not_a_header, m)?)?;
    m.add_function(wrap_pyfunction!(spark::center_components, m)?)?;
    m.add_function(wrap_pyfunction!(spark::text_jaccards, m)?)?;
    Ok(())
}
