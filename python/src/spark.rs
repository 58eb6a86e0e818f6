//! Batch kernels for `lshscope.spark`: Spark hands the Python workers Arrow record batches,
//! and these functions work on the batches' raw buffers (offsets and bytes as NumPy arrays,
//! no Python object per row), so every number is the engine's, computed as `lshscope scan`
//! computes it.
//!
//! The plan they serve (see `python/lshscope/spark.py`):
//! 1. [`hash_texts`]: each document's band keys (a short binary value) and shingle count.
//! 2. [`band_rows`]: one row per (band, bucket key, document), grouped by bucket in Spark.
//! 3. [`bucket_members`]: in each bucket partition, the buckets of two or more documents (the
//!    CLI's cap applied); each bucket is owned by a scoring partition named after its first
//!    member, and every member is sent there once, with a mask of the bands whose bucket it
//!    is sent for.
//! 4. [`score_documents`]: a scoring partition receives its documents' texts and masks (no
//!    signature or shingle set crosses the shuffles: a text is several times smaller),
//!    hashes them again, rebuilds the buckets it owns and scores each pair once, in the
//!    first band that emits it.
//!
//! `estimate-pairs` walks the same candidates with [`sample_documents`] (a bottom-k sample
//! of each partition's candidates, and their exact count), under the permissive banding that
//! [`permissive_banding`] names, and writes the sample with [`write_stratified_sample`]; with
//! a lower strata level ([`strata_levels`]) a second walk under the lower banding skips the
//! first banding's candidates (`exclude_bands`) to sample the lower candidates.

use std::path::PathBuf;

use lshscope_core::corpus::Corpus;
use lshscope_core::jobs::Progress;
use lshscope_core::minhash::similarity::jaccard;
use lshscope_core::minhash::{Banding, Index, IndexOptions, band_key, build_index};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyIOError, PyValueError};
use pyo3::prelude::*;

use crate::{banding, index_options, to_py};

/// A NumPy array handed back to Python.
type Column<'py, T> = Bound<'py, PyArray1<T>>;

/// An Arrow variable-width column as NumPy arrays: offsets (widened to 64 bits) and bytes.
type Buffers<'py> = (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, u8>);

/// The `i`-th value of a variable-width Arrow column given as (offsets, values).
fn value<'a, T>(offsets: &[i64], values: &'a [T], i: usize) -> PyResult<&'a [T]> {
    let (start, end) = (offsets[i], offsets[i + 1]);
    if start < 0 || end < start || end as usize > values.len() {
        return Err(PyValueError::new_err(format!(
            "value {i}: offsets {start}..{end} outside a buffer of {} values",
            values.len()
        )));
    }
    Ok(&values[start as usize..end as usize])
}

fn count(offsets: &[i64]) -> PyResult<usize> {
    offsets
        .len()
        .checked_sub(1)
        .ok_or_else(|| PyValueError::new_err("offsets must hold one more entry than values"))
}

/// 64-bit words of a mask with one bit per band.
fn mask_words(bands: usize) -> usize {
    bands.div_ceil(64)
}

fn has_bit(mask: &[i64], band: usize) -> bool {
    (mask[band / 64] as u64) >> (band % 64) & 1 == 1
}

/// The engine's index (signatures and shingle sets) of a batch of texts given as an Arrow
/// string or binary column; bytes that are not UTF-8 are decoded lossily, as the CLI's
/// readers do.
fn index_of_texts(
    py: Python<'_>,
    offsets: &[i64],
    data: &[u8],
    options: &IndexOptions,
) -> PyResult<Index> {
    let n = count(offsets)?;
    let mut corpus = Corpus::new();
    for i in 0..n {
        corpus.push("", &String::from_utf8_lossy(value(offsets, data, i)?));
    }
    py.detach(|| build_index(&corpus, options, &Progress::new()))
        .map_err(to_py)
}

/// What [`hash_texts`] returns: the band keys of every document as a binary column (offsets,
/// bytes: `bands` little-endian `u64`s, empty for a document without shingles), its number
/// of shingles, and with a lower banding its keys likewise (offsets, bytes), else `None`s.
type Hashed<'py> = (
    Column<'py, i64>,
    Column<'py, u8>,
    Column<'py, i64>,
    Option<Column<'py, i64>>,
    Option<Column<'py, u8>>,
);

/// A second banding given as `{what}_bands` and `{what}_rows` keyword arguments: both or
/// neither.
fn optional_banding(
    bands: Option<usize>,
    rows: Option<usize>,
    num_perm: usize,
    what: &str,
) -> PyResult<Option<Banding>> {
    match (bands, rows) {
        (None, None) => Ok(None),
        (Some(b), Some(r)) => crate::banding(b, r, num_perm).map(Some),
        _ => Err(PyValueError::new_err(format!(
            "{what}_bands and {what}_rows go together"
        ))),
    }
}

/// The band keys of every document of `index` under `banding`, as a binary column (offsets,
/// bytes: `bands` little-endian `u64`s per document, none for a document without shingles).
fn key_column(index: &Index, banding: Banding) -> (Vec<i64>, Vec<u8>) {
    let n = index.len();
    let mut key_offsets = Vec::with_capacity(n + 1);
    let mut key_bytes = Vec::with_capacity(n * banding.bands * 8);
    key_offsets.push(0i64);
    for i in 0..n {
        if !index.signatures.is_empty_doc(i) {
            let signature = index.signatures.row(i);
            for band in 0..banding.bands {
                key_bytes.extend(band_key(signature, banding, band).to_le_bytes());
            }
        }
        key_offsets.push(key_bytes.len() as i64);
    }
    (key_offsets, key_bytes)
}

/// The band keys (in the sketch family `family`, `bands` × `rows` of `num_perm` rows) and
/// the shingle counts of a batch of texts (offsets, bytes of an Arrow string or binary
/// column). The keys are the CLI's own ([`band_key`]), so buckets are the same. With
/// `lower_bands` and `lower_rows` (the lower strata level of `estimate-pairs`), the keys of
/// that banding too, from the same signatures.
#[pyfunction]
#[pyo3(signature = (offsets, data, *, num_perm, seed, bands, rows, shingle=None, profile=None, family="classic", lower_bands=None, lower_rows=None))]
#[allow(clippy::too_many_arguments)]
pub fn hash_texts<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
    num_perm: usize,
    seed: u64,
    bands: usize,
    rows: usize,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
    lower_bands: Option<usize>,
    lower_rows: Option<usize>,
) -> PyResult<Hashed<'py>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let banding: Banding = banding(bands, rows, num_perm)?;
    let lower = optional_banding(lower_bands, lower_rows, num_perm, "lower")?;
    let index = index_of_texts(py, offsets.as_slice()?, data.as_slice()?, &options)?;
    let (key_offsets, key_bytes) = key_column(&index, banding);
    let shingles: Vec<i64> = (0..index.len())
        .map(|i| index.sets.get(i).len() as i64)
        .collect();
    let (lower_offsets, lower_keys) = match lower {
        Some(lower) => {
            let (offsets, bytes) = key_column(&index, lower);
            (Some(offsets.into_pyarray(py)), Some(bytes.into_pyarray(py)))
        }
        None => (None, None),
    };
    Ok((
        key_offsets.into_pyarray(py),
        key_bytes.into_pyarray(py),
        shingles.into_pyarray(py),
        lower_offsets,
        lower_keys,
    ))
}

/// One row per (band, bucket key, document) for the documents with shingles: `(band, key,
/// position in the batch)`, from the band keys of [`hash_texts`].
#[pyfunction]
#[pyo3(signature = (offsets, data, *, bands))]
pub fn band_rows<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
    bands: usize,
) -> PyResult<(Column<'py, i32>, Column<'py, i64>, Column<'py, i64>)> {
    let (offsets, data) = (offsets.as_slice()?, data.as_slice()?);
    let n = count(offsets)?;
    let (mut band_col, mut key_col, mut doc_col) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let bytes = value(offsets, data, i)?;
        if bytes.is_empty() {
            // A document without shingles has no signature and is in no bucket.
            continue;
        }
        if bytes.len() != bands * 8 {
            return Err(PyValueError::new_err(format!(
                "band keys of {} bytes where {bands} bands need {}",
                bytes.len(),
                bands * 8
            )));
        }
        for (band, key) in bytes.chunks_exact(8).enumerate() {
            band_col.push(band as i32);
            // Spark has no unsigned 64-bit type: the key's bits as a signed long.
            key_col.push(i64::from_le_bytes(key.try_into().expect("8 bytes")));
            doc_col.push(i as i64);
        }
    }
    Ok((
        band_col.into_pyarray(py),
        key_col.into_pyarray(py),
        doc_col.into_pyarray(py),
    ))
}

/// Which of `parts` scoring partitions owns a bucket whose first member is the document at
/// input position `first_row`: a family of near copies shares its first member in most
/// bands, so its buckets meet in one partition and each of its documents is sent there once.
fn owner(first_row: i64, parts: usize) -> usize {
    // Input positions are dense, their partitions should not be.
    (mix64(first_row as u64) % parts as u64) as usize
}

/// SplitMix64's finalizer (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014): a bijection of 64-bit values that scatters nearby inputs.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// What [`bucket_members`] returns: per (scoring partition, document) the partition's value
/// (see [`bucket_members`]), the document's input position and its mask (`mask_words(bands)` longs per row, flattened) of
/// the bands whose bucket sends it there.
type Members<'py> = (Column<'py, i32>, Column<'py, i64>, Column<'py, i64>);

/// The buckets among a bucket partition's band rows `(band, key, row)` (every row of a
/// bucket is in the same partition), as the CLI forms them: members in input order, buckets
/// of one left out, and with `max_bucket` only a larger bucket's first `max_bucket` members
/// (never fewer than two). Each bucket is owned by the scoring partition [`owner`] names
/// after its first member; the result lists every (partition, member) once, with the bands
/// it is sent for. A partition is named by its entry of `parts`: one value per scoring
/// partition that Spark's hash partitioning sends to exactly that partition, so that no two
/// owners share one (chosen by the caller with Spark's own hash).
#[pyfunction]
#[pyo3(signature = (band, key, row, *, bands, parts, max_bucket=None))]
pub fn bucket_members<'py>(
    py: Python<'py>,
    band: PyReadonlyArray1<'py, i32>,
    key: PyReadonlyArray1<'py, i64>,
    row: PyReadonlyArray1<'py, i64>,
    bands: usize,
    parts: PyReadonlyArray1<'py, i32>,
    max_bucket: Option<usize>,
) -> PyResult<Members<'py>> {
    let (band, key, row) = (band.as_slice()?, key.as_slice()?, row.as_slice()?);
    let parts = parts.as_slice()?;
    if key.len() != band.len() || row.len() != band.len() {
        return Err(PyValueError::new_err(
            "the band row columns (band, key, row) differ in length",
        ));
    }
    crate::check_max_bucket(max_bucket)?;
    if parts.is_empty() {
        return Err(PyValueError::new_err(
            "parts must name at least one partition",
        ));
    }
    if let Some(b) = band.iter().find(|&&b| b < 0 || b as usize >= bands) {
        return Err(PyValueError::new_err(format!(
            "band {b} is not below {bands}"
        )));
    }
    let cap = max_bucket.unwrap_or(usize::MAX);
    let words = mask_words(bands);
    let (parts_col, rows_col, masks) = py.detach(|| {
        let mut entries: Vec<(i32, i64, i64)> =
            (0..band.len()).map(|i| (band[i], key[i], row[i])).collect();
        entries.sort_unstable();
        // (owner, member, band) for every member of a bucket of two or more.
        let mut sent: Vec<(i32, i64, i32)> = Vec::new();
        for bucket in entries.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            if bucket.len() < 2 {
                continue;
            }
            let part = parts[owner(bucket[0].2, parts.len())];
            sent.extend(bucket.iter().take(cap).map(|&(b, _, r)| (part, r, b)));
        }
        sent.sort_unstable();
        let (mut parts_col, mut rows_col, mut masks) = (Vec::new(), Vec::new(), Vec::new());
        for group in sent.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            parts_col.push(group[0].0);
            rows_col.push(group[0].1);
            let start = masks.len();
            masks.resize(start + words, 0i64);
            for &(_, _, b) in group {
                let b = b as usize;
                masks[start + b / 64] |= (1u64 << (b % 64)) as i64;
            }
        }
        (parts_col, rows_col, masks)
    });
    Ok((
        parts_col.into_pyarray(py),
        rows_col.into_pyarray(py),
        masks.into_pyarray(py),
    ))
}

/// What [`score_documents`] returns: for each kept pair, the positions of its two documents
/// among the documents given, its exact Jaccard, its estimate and its `bands_hit`; then the
/// number of candidate pairs scored (kept or not).
type Scored<'py> = (
    Column<'py, i64>,
    Column<'py, i64>,
    Column<'py, f64>,
    Column<'py, f64>,
    Column<'py, i32>,
    u64,
);

/// The candidate pairs of the buckets one scoring partition owns, each scored once.
///
/// The partition holds the documents of its buckets: input position `doc_row`, text, and
/// `owned`, the mask of bands whose bucket (owned here) holds the document
/// (`mask_words(bands)` longs per document, flattened); a document given more than once
/// (its buckets' owners share the partition) is hashed once, for the union of its masks. With `--max-bucket`, `emitted` is
/// every document's mask of the bands in which it is among its bucket's first members,
/// owned here or not. The texts are hashed again (the signatures are the ones the band keys
/// came from); the documents owned in a band, grouped by band key, are exactly that band's
/// buckets, members in input order. A pair is scored in the first band that emits it,
/// decided from the two documents alone (their band keys and emitted bands): so however
/// many bands, buckets or partitions it spans, no pair is scored twice and none is missed.
/// Its `bands_hit` counts the bands that emit it, as [`lshscope_core::minhash::find_candidates`]
/// counts them. Pairs below `threshold` (exact Jaccard) are counted but not returned.
#[pyfunction]
#[pyo3(signature = (doc_row, text, owned, emitted, *, num_perm, seed, bands, rows, threshold, shingle=None, profile=None, family="classic"))]
#[allow(clippy::too_many_arguments)]
pub fn score_documents<'py>(
    py: Python<'py>,
    doc_row: PyReadonlyArray1<'py, i64>,
    text: Buffers<'py>,
    owned: PyReadonlyArray1<'py, i64>,
    emitted: Option<PyReadonlyArray1<'py, i64>>,
    num_perm: usize,
    seed: u64,
    bands: usize,
    rows: usize,
    threshold: f64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
) -> PyResult<Scored<'py>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let banding = banding(bands, rows, num_perm)?;
    let emitted = match &emitted {
        Some(masks) => Some(masks.as_slice()?),
        None => None,
    };
    let part = ScoringPartition::new(
        py,
        doc_row.as_slice()?,
        (text.0.as_slice()?, text.1.as_slice()?),
        owned.as_slice()?,
        emitted,
        &options,
        banding,
    )?;
    let scored = py.detach(|| {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        let (mut jaccards, mut estimates, mut hits) = (Vec::new(), Vec::new(), Vec::new());
        let candidates = part.for_each_candidate(|b, i, j| {
            let jaccard = jaccard(part.index.sets.get(i), part.index.sets.get(j));
            if jaccard < threshold {
                return;
            }
            first.push(part.given[i] as i64);
            second.push(part.given[j] as i64);
            jaccards.push(jaccard);
            estimates.push(crate::estimate(
                part.index.signatures.row(i),
                part.index.signatures.row(j),
            ));
            hits.push((b..bands).filter(|&h| part.emitted_in(i, j, h)).count() as i32);
        });
        (first, second, jaccards, estimates, hits, candidates)
    });
    let (first, second, jaccards, estimates, hits, candidates) = scored;
    Ok((
        first.into_pyarray(py),
        second.into_pyarray(py),
        jaccards.into_pyarray(py),
        estimates.into_pyarray(py),
        hits.into_pyarray(py),
        candidates,
    ))
}

/// The documents of one scoring partition, each once, hashed again: what
/// [`score_documents`] and [`sample_documents`] walk the buckets of.
struct ScoringPartition {
    /// Per document (in input order, each once), its position among the rows given.
    given: Vec<usize>,
    /// The input position (`doc_row`) of each document.
    rows: Vec<i64>,
    /// Per document, the mask of bands whose bucket (owned here) holds it.
    owned: Vec<i64>,
    /// Per document, with `--max-bucket`: the bands in which it is among its bucket's first
    /// members.
    emitted: Option<Vec<i64>>,
    /// Signatures and shingle sets of the documents.
    index: Index,
    /// Band keys, `bands` per document (0 for a document without shingles).
    keys: Vec<u64>,
    bands: usize,
}

impl ScoringPartition {
    /// Checks and merges the rows given (a document given more than once, because its
    /// buckets' owners share this partition, holds the union of their masks) and hashes the
    /// texts again: the signatures are the ones the band keys came from.
    fn new(
        py: Python<'_>,
        doc_row: &[i64],
        (text_offsets, text_bytes): (&[i64], &[u8]),
        owned: &[i64],
        emitted: Option<&[i64]>,
        options: &IndexOptions,
        banding: Banding,
    ) -> PyResult<Self> {
        let bands = banding.bands;
        let words = mask_words(bands);
        let docs = doc_row.len();
        if count(text_offsets)? != docs
            || owned.len() != docs * words
            || emitted.is_some_and(|e| e.len() != docs * words)
        {
            return Err(PyValueError::new_err(
                "the document columns (row, text, owned, emitted) differ in length",
            ));
        }
        let mut by_row: Vec<usize> = (0..docs).collect();
        by_row.sort_unstable_by_key(|&i| doc_row[i]);
        let mut given: Vec<usize> = Vec::with_capacity(docs);
        let mut owned_here: Vec<i64> = Vec::with_capacity(docs * words);
        for &i in &by_row {
            let mask = &owned[i * words..(i + 1) * words];
            if given.last().is_some_and(|&g| doc_row[g] == doc_row[i]) {
                let start = owned_here.len() - words;
                for (merged, &m) in owned_here[start..].iter_mut().zip(mask) {
                    *merged |= m;
                }
            } else {
                given.push(i);
                owned_here.extend_from_slice(mask);
            }
        }
        let owned = owned_here;
        let docs = given.len();
        let mut texts = Vec::with_capacity(docs + 1);
        let mut text = Vec::new();
        texts.push(0i64);
        for &i in &given {
            text.extend_from_slice(value(text_offsets, text_bytes, i)?);
            texts.push(text.len() as i64);
        }
        let rows: Vec<i64> = given.iter().map(|&g| doc_row[g]).collect();
        let index = index_of_texts(py, &texts, &text, options)?;
        for d in 0..docs {
            let mask = &owned[d * words..(d + 1) * words];
            if mask.iter().any(|&m| m != 0) && index.signatures.is_empty_doc(d) {
                return Err(PyValueError::new_err(format!(
                    "document {} has no shingles but is in a bucket",
                    rows[d]
                )));
            }
            if let Some(e) = emitted
                && (0..bands).any(|b| has_bit(mask, b) && !has_bit(&e[given[d] * words..], b))
            {
                return Err(PyValueError::new_err(format!(
                    "document {} is sent for a band that does not emit it",
                    rows[d]
                )));
            }
        }
        let emitted: Option<Vec<i64>> = emitted.map(|e| {
            given
                .iter()
                .flat_map(|&i| e[i * words..(i + 1) * words].iter().copied())
                .collect()
        });
        let keys: Vec<u64> = (0..docs)
            .flat_map(|i| {
                let signature = index.signatures.row(i);
                let empty = index.signatures.is_empty_doc(i);
                (0..bands).map(move |b| {
                    if empty {
                        0
                    } else {
                        band_key(signature, banding, b)
                    }
                })
            })
            .collect();
        Ok(ScoringPartition {
            given,
            rows,
            owned,
            emitted,
            index,
            keys,
            bands,
        })
    }

    /// True when the CLI's banding emits the pair (i, j) in band `b`: the two share its
    /// bucket and both are within the bucket cap there.
    fn emitted_in(&self, i: usize, j: usize, b: usize) -> bool {
        let (bands, words) = (self.bands, mask_words(self.bands));
        self.keys[i * bands + b] == self.keys[j * bands + b]
            && self
                .emitted
                .as_deref()
                .is_none_or(|e| has_bit(&e[i * words..], b) && has_bit(&e[j * words..], b))
    }

    /// Calls `visit(band, i, j)` once per candidate pair of the buckets owned here (documents
    /// `i` before `j` in input order), in the first band that emits it, decided from the two
    /// documents alone (their band keys and emitted bands): so however many bands, buckets
    /// or partitions a pair spans, it is visited in exactly one. Returns how many.
    fn for_each_candidate(&self, mut visit: impl FnMut(usize, usize, usize)) -> u64 {
        let (bands, words) = (self.bands, mask_words(self.bands));
        let docs = self.given.len();
        let mut candidates = 0u64;
        let mut bucket_rows: Vec<(u64, i64, usize)> = Vec::new();
        for b in 0..bands {
            bucket_rows.clear();
            bucket_rows.extend(
                (0..docs)
                    .filter(|&d| has_bit(&self.owned[d * words..], b))
                    .map(|d| (self.keys[d * bands + b], self.rows[d], d)),
            );
            bucket_rows.sort_unstable();
            for bucket in bucket_rows.chunk_by(|x, y| x.0 == y.0) {
                for (k, &(_, _, i)) in bucket.iter().enumerate() {
                    for &(_, _, j) in &bucket[k + 1..] {
                        // This band, unless an earlier band's bucket holds the pair too.
                        if (0..b).any(|earlier| self.emitted_in(i, j, earlier)) {
                            continue;
                        }
                        candidates += 1;
                        visit(b, i, j);
                    }
                }
            }
        }
        candidates
    }
}

/// A pseudo-random 64-bit priority of the pair of input positions `(a, b)` under `seed`
/// ([`mix64`] over both positions). The pairs with the smallest priorities are a uniform
/// sample without replacement ("bottom-k" sampling).
fn pair_priority(seed: u64, a: i64, b: i64) -> u64 {
    mix64(mix64(mix64(seed) ^ a as u64) ^ b as u64)
}

/// What [`sample_documents`] returns: per sampled pair the positions of its two documents
/// among the documents given, its exact Jaccard and its priority (as a signed long, for
/// Spark); then the number of candidate pairs of the partition.
type Sampled<'py> = (
    Column<'py, i64>,
    Column<'py, i64>,
    Column<'py, f64>,
    Column<'py, i64>,
    u64,
);

/// A uniform sample of at most `size` of the candidate pairs one scoring partition owns (the
/// same walk as [`score_documents`], each distinct candidate once), and their exact count:
/// the pairs of smallest [`pair_priority`] under `sample_seed`. Taking the `size` smallest
/// priorities over every partition's sample is then a uniform sample of `size` of all
/// candidates without replacement, or all of them when they are fewer. Only the sampled pairs
/// are scored (exact Jaccard).
///
/// With `exclude_bands` and `exclude_rows` (the first strata level's banding, when this
/// partition walks the lower level's), a candidate whose two documents share a bucket in any
/// band of that banding is skipped, neither counted nor sampled: what is left are the lower
/// candidates, decided as the CLI's bucket lists decide them (the same band keys, from the
/// same signatures, which hold the rows of both bandings).
#[pyfunction]
#[pyo3(signature = (doc_row, text, owned, *, num_perm, seed, bands, rows, size, sample_seed, shingle=None, profile=None, family="classic", exclude_bands=None, exclude_rows=None))]
#[allow(clippy::too_many_arguments)]
pub fn sample_documents<'py>(
    py: Python<'py>,
    doc_row: PyReadonlyArray1<'py, i64>,
    text: Buffers<'py>,
    owned: PyReadonlyArray1<'py, i64>,
    num_perm: usize,
    seed: u64,
    bands: usize,
    rows: usize,
    size: usize,
    sample_seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
    exclude_bands: Option<usize>,
    exclude_rows: Option<usize>,
) -> PyResult<Sampled<'py>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let exclude = optional_banding(exclude_bands, exclude_rows, num_perm, "exclude")?;
    let banding = banding(bands, rows, num_perm)?;
    let part = ScoringPartition::new(
        py,
        doc_row.as_slice()?,
        (text.0.as_slice()?, text.1.as_slice()?),
        owned.as_slice()?,
        None,
        &options,
        banding,
    )?;
    // The exclude banding's keys per document (`bands` of it each; none is read for a
    // document without shingles, which is in no bucket).
    let excluded_keys: Option<(usize, Vec<u64>)> = exclude.map(|ex| {
        let keys = (0..part.given.len())
            .flat_map(|d| {
                let signature = part.index.signatures.row(d);
                let empty = part.index.signatures.is_empty_doc(d);
                (0..ex.bands).map(move |b| if empty { 0 } else { band_key(signature, ex, b) })
            })
            .collect();
        (ex.bands, keys)
    });
    let sampled = py.detach(|| {
        // A max-heap of the `size` smallest priorities seen.
        let mut kept: std::collections::BinaryHeap<(u64, usize, usize)> =
            std::collections::BinaryHeap::with_capacity(size.min(1 << 20) + 1);
        let mut not_excluded = 0u64;
        let walked = part.for_each_candidate(|_, i, j| {
            if let Some((bands, keys)) = &excluded_keys {
                let (ki, kj) = (
                    &keys[i * bands..(i + 1) * bands],
                    &keys[j * bands..(j + 1) * bands],
                );
                if ki.iter().zip(kj).any(|(a, b)| a == b) {
                    return;
                }
            }
            not_excluded += 1;
            if size == 0 {
                return;
            }
            let priority = pair_priority(sample_seed, part.rows[i], part.rows[j]);
            if kept.len() < size {
                kept.push((priority, i, j));
            } else if kept.peek().is_some_and(|top| priority < top.0) {
                kept.pop();
                kept.push((priority, i, j));
            }
        });
        let candidates = if excluded_keys.is_some() {
            not_excluded
        } else {
            walked
        };
        let kept = kept.into_sorted_vec();
        let first: Vec<i64> = kept.iter().map(|&(_, i, _)| part.given[i] as i64).collect();
        let second: Vec<i64> = kept.iter().map(|&(_, _, j)| part.given[j] as i64).collect();
        let jaccards: Vec<f64> = kept
            .iter()
            .map(|&(_, i, j)| jaccard(part.index.sets.get(i), part.index.sets.get(j)))
            .collect();
        // Spark has no unsigned long: the bits flipped at the top keep the order as signed.
        let priorities: Vec<i64> = kept
            .iter()
            .map(|&(p, _, _)| (p ^ (1 << 63)) as i64)
            .collect();
        (first, second, jaccards, priorities, candidates)
    });
    let (first, second, jaccards, priorities, candidates) = sampled;
    Ok((
        first.into_pyarray(py),
        second.into_pyarray(py),
        jaccards.into_pyarray(py),
        priorities.into_pyarray(py),
        candidates,
    ))
}

/// What [`center_components`] returns, one row per clustered document: the document, the
/// kept document of its star (itself when kept), and their Jaccard (1 for the kept one).
type Centered<'py> = (Column<'py, i64>, Column<'py, i64>, Column<'py, f64>);

/// The documents of one component: dense indexes, each document's keep key and its
/// neighbours (index, Jaccard).
struct Component {
    node: Vec<i64>,
    key: Vec<(i64, i64)>,
    adjacent: Vec<Vec<(usize, f64)>>,
}

/// Center clustering, the engine's greedy (`lshscope_core::analysis::center`), run whole
/// per connected component of the verified pairs `(a, b, jaccard)`: the result decomposes
/// by component, since a document's decision reads only its neighbours. `component` names
/// each pair's component (every pair of a component must be in this call); `a_key` and
/// `b_key` are the keep keys of `a` and `b`: keep order is ascending `(key, node)` (key 0
/// for input order, minus the length for `--keep longest`, nodes numbered in input order).
///
/// As the CLI, identical documents (Jaccard exactly 1: equal shingle sets) are decided once,
/// at their copy first in keep order (the lead): the other copies go to the lead at 1 when
/// it is kept, else to the lead's kept document at the lead's Jaccard. A document is removed
/// when a kept document is its neighbour, assigned to the most similar one (ties to the
/// earlier in keep order); else it is kept. Rows: every removed document and every kept one
/// with something assigned to it, in no particular order.
#[pyfunction]
#[pyo3(signature = (component, a, b, a_key, b_key, jaccard))]
#[allow(clippy::too_many_arguments)]
pub fn center_components<'py>(
    py: Python<'py>,
    component: PyReadonlyArray1<'py, i64>,
    a: PyReadonlyArray1<'py, i64>,
    b: PyReadonlyArray1<'py, i64>,
    a_key: PyReadonlyArray1<'py, i64>,
    b_key: PyReadonlyArray1<'py, i64>,
    jaccard: PyReadonlyArray1<'py, f64>,
) -> PyResult<Centered<'py>> {
    let (component, a, b) = (component.as_slice()?, a.as_slice()?, b.as_slice()?);
    let (a_key, b_key, jaccard) = (a_key.as_slice()?, b_key.as_slice()?, jaccard.as_slice()?);
    let n = component.len();
    if [a.len(), b.len(), a_key.len(), b_key.len(), jaccard.len()]
        .iter()
        .any(|&l| l != n)
    {
        return Err(PyValueError::new_err(
            "the pair columns (component, a, b, a_key, b_key, jaccard) differ in length",
        ));
    }
    let mut pairs: Vec<usize> = (0..n).collect();
    pairs.sort_unstable_by_key(|&i| component[i]);
    let (mut nodes, mut centers, mut values) = (Vec::new(), Vec::new(), Vec::new());
    py.detach(|| {
        for group in pairs.chunk_by(|&x, &y| component[x] == component[y]) {
            let c = component_of(group, a, b, a_key, b_key, jaccard);
            for (node, center, value) in center_greedy(&c) {
                nodes.push(node);
                centers.push(center);
                values.push(value);
            }
        }
    });
    Ok((
        nodes.into_pyarray(py),
        centers.into_pyarray(py),
        values.into_pyarray(py),
    ))
}

/// The component of the pairs `group` (indexes into the pair columns).
fn component_of(
    group: &[usize],
    a: &[i64],
    b: &[i64],
    a_key: &[i64],
    b_key: &[i64],
    jaccard: &[f64],
) -> Component {
    let mut keyed: Vec<(i64, i64)> = group
        .iter()
        .flat_map(|&i| [(a_key[i], a[i]), (b_key[i], b[i])])
        .collect();
    keyed.sort_unstable();
    keyed.dedup();
    let index_of = |node: i64, key: i64| keyed.binary_search(&(key, node)).unwrap();
    let mut adjacent = vec![Vec::new(); keyed.len()];
    for &i in group {
        let (x, y) = (index_of(a[i], a_key[i]), index_of(b[i], b_key[i]));
        if x != y {
            adjacent[x].push((y, jaccard[i]));
            adjacent[y].push((x, jaccard[i]));
        }
    }
    Component {
        node: keyed.iter().map(|&(_, node)| node).collect(),
        key: keyed,
        adjacent,
    }
}

/// The greedy over one component whose documents are indexed in keep order: (node, kept
/// node of its star, Jaccard) per clustered document.
fn center_greedy(c: &Component) -> Vec<(i64, i64, f64)> {
    let m = c.node.len();
    debug_assert!(c.key.windows(2).all(|w| w[0] < w[1]));
    // Identical copies: the lead of each document is its copy first in keep order (the
    // smallest index, since indexes follow keep order).
    let lead: Vec<usize> = c
        .adjacent
        .iter()
        .enumerate()
        .map(|(d, neighbours)| {
            neighbours
                .iter()
                .filter(|&&(_, j)| j == 1.0)
                .fold(d, |first, &(e, _)| first.min(e))
        })
        .collect();
    const UNDECIDED: usize = usize::MAX;
    // Per lead: itself when kept, else the lead it is assigned to; and that Jaccard.
    let mut star = vec![UNDECIDED; m];
    let mut star_jaccard = vec![1.0f64; m];
    for d in (0..m).filter(|&d| lead[d] == d) {
        // The best kept neighbour: highest Jaccard, then earliest in keep order. Copies
        // share their neighbours, so the lead's own suffice; kept documents are leads.
        let mut best: Option<(usize, f64)> = None;
        for &(e, j) in &c.adjacent[d] {
            if e < d && lead[e] == e && star[e] == e {
                let better = match best {
                    None => true,
                    Some((b, bj)) => j > bj || (j == bj && e < b),
                };
                if better {
                    best = Some((e, j));
                }
            }
        }
        match best {
            Some((e, j)) => {
                star[d] = e;
                star_jaccard[d] = j;
            }
            None => star[d] = d,
        }
    }
    let mut has_members = vec![false; m];
    let mut rows = Vec::new();
    for (d, &l) in lead.iter().enumerate() {
        let (center, value) = if star[l] == l {
            (l, 1.0)
        } else {
            (star[l], star_jaccard[l])
        };
        if center != d {
            has_members[center] = true;
            rows.push((c.node[d], c.node[center], value));
        }
    }
    rows.extend(
        (0..m)
            .filter(|&d| has_members[d])
            .map(|d| (c.node[d], c.node[d], 1.0)),
    );
    rows
}

/// The exact Jaccard of each pair of texts `(a[i], b[i])` (Arrow string or binary columns),
/// shingled as `lshscope scan` shingles: the Jaccard of a component's member with the
/// document the component keeps, which need not be a scored pair.
#[pyfunction]
#[pyo3(signature = (a, b, *, num_perm, seed, shingle=None, profile=None, family="classic"))]
#[allow(clippy::too_many_arguments)]
pub fn text_jaccards<'py>(
    py: Python<'py>,
    a: Buffers<'py>,
    b: Buffers<'py>,
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
) -> PyResult<Column<'py, f64>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let (a_offsets, a_bytes) = (a.0.as_slice()?, a.1.as_slice()?);
    let (b_offsets, b_bytes) = (b.0.as_slice()?, b.1.as_slice()?);
    let n = count(a_offsets)?;
    if count(b_offsets)? != n {
        return Err(PyValueError::new_err(
            "the two text columns differ in length",
        ));
    }
    let first = index_of_texts(py, a_offsets, a_bytes, &options)?;
    let second = index_of_texts(py, b_offsets, b_bytes, &options)?;
    let values: Vec<f64> = (0..n)
        .map(|i| jaccard(first.sets.get(i), second.sets.get(i)))
        .collect();
    Ok(values.into_pyarray(py))
}

/// The permissive banding `lshscope truth --estimate-pairs` stratifies by for strata
/// threshold `threshold` (the engine's default when None) with `num_perm` hashes, as
/// `(bands, rows, threshold)`: the engine's
/// [`lshscope_core::analysis::stratified::permissive_banding`].
#[pyfunction]
#[pyo3(signature = (num_perm, threshold=None))]
pub fn permissive_banding(
    num_perm: usize,
    threshold: Option<f64>,
) -> PyResult<(usize, usize, f64)> {
    use lshscope_core::analysis::stratified::{DEFAULT_STRATA_THRESHOLD, permissive_banding};
    let threshold = threshold.unwrap_or(DEFAULT_STRATA_THRESHOLD);
    let banding = permissive_banding(num_perm, threshold).map_err(to_py)?;
    Ok((banding.bands, banding.rows, threshold))
}

/// The strata levels `lshscope truth --estimate-pairs` draws for strata threshold
/// `threshold` (the engine's default when None) with `num_perm` hashes: `(bands, rows,
/// threshold)` of the first level's permissive banding, and the lower level's likewise or
/// None. The lower threshold is `lower_threshold` when given, else the engine's default
/// ([`lshscope_core::analysis::stratified::StrataDesign::with_default_lower`]) when
/// `default_lower`, else none (two strata). A lower threshold not below the first is an
/// error, as the CLI's.
#[pyfunction]
#[pyo3(signature = (num_perm, threshold=None, lower_threshold=None, default_lower=true))]
#[allow(clippy::type_complexity)]
pub fn strata_levels(
    num_perm: usize,
    threshold: Option<f64>,
    lower_threshold: Option<f64>,
    default_lower: bool,
) -> PyResult<((usize, usize, f64), Option<(usize, usize, f64)>)> {
    use lshscope_core::analysis::stratified::{DEFAULT_STRATA_THRESHOLD, StrataDesign};
    let threshold = threshold.unwrap_or(DEFAULT_STRATA_THRESHOLD);
    let design = match lower_threshold {
        Some(lower) => StrataDesign {
            threshold,
            lower_threshold: Some(lower),
        },
        None if default_lower => StrataDesign::with_default_lower(threshold),
        None => StrataDesign::two_strata(threshold),
    };
    let (first, lower) = design.levels(num_perm).map_err(to_py)?;
    let level = |l: lshscope_core::analysis::stratified::StrataLevel| {
        (l.banding.bands, l.banding.rows, l.threshold)
    };
    Ok((level(first), lower.map(level)))
}

/// A stratified pair sample as `lshscope truth --estimate-pairs` writes it (the engine's
/// columns, [`lshscope_core::analysis::stratified::COLUMNS`], and its row writer, so the two
/// files agree byte for byte): the candidates' similarities, then the others', each row with
/// its weight, stratum, the stratum's exact size, the permissive banding and the sketch
/// `family` (as `--family` names it); with the lower level (`lower_bands`, `lower_rows`,
/// `lower_threshold`, the `lower` similarities and `lower_pairs`, all or none) the lower
/// candidates between the two, their rows giving the lower banding. Written to
/// `path` atomically (CSV or JSON Lines and the compression by its name, as `truth -o`), or,
/// without a path, returned as the bytes of `format` (`"csv"` or `"jsonl"`, uncompressed).
#[pyfunction]
#[pyo3(signature = (path, *, bands, rows, threshold, candidates, candidate_pairs, others, other_pairs, family=None, format=None, lower_bands=None, lower_rows=None, lower_threshold=None, lower=None, lower_pairs=None))]
#[allow(clippy::too_many_arguments)]
pub fn write_stratified_sample<'py>(
    py: Python<'py>,
    path: Option<PathBuf>,
    bands: usize,
    rows: usize,
    threshold: f64,
    candidates: PyReadonlyArray1<'py, f64>,
    candidate_pairs: u64,
    others: PyReadonlyArray1<'py, f64>,
    other_pairs: u64,
    family: Option<&str>,
    format: Option<&str>,
    lower_bands: Option<usize>,
    lower_rows: Option<usize>,
    lower_threshold: Option<f64>,
    lower: Option<PyReadonlyArray1<'py, f64>>,
    lower_pairs: Option<u64>,
) -> PyResult<Option<Bound<'py, pyo3::types::PyBytes>>> {
    use lshscope_core::analysis::stratified::{
        CANDIDATES, LOWER_CANDIDATES, OTHERS, StrataLevel, StratifiedSample, Stratum,
    };
    use lshscope_core::minhash::Banding;
    use lshscope_core::pairs::{OutputFormat, OutputTarget};

    let mut strata = vec![Stratum {
        name: CANDIDATES,
        pairs: candidate_pairs,
        similarities: candidates.as_slice()?.to_vec(),
    }];
    let lower_level = match (
        lower_bands,
        lower_rows,
        lower_threshold,
        &lower,
        lower_pairs,
    ) {
        (None, None, None, None, None) => None,
        (Some(bands), Some(rows), Some(threshold), Some(similarities), Some(pairs)) => {
            strata.push(Stratum {
                name: LOWER_CANDIDATES,
                pairs,
                similarities: similarities.as_slice()?.to_vec(),
            });
            Some(StrataLevel {
                banding: Banding { bands, rows },
                threshold,
            })
        }
        _ => {
            return Err(PyValueError::new_err(
                "the lower level takes all of lower_bands, lower_rows, lower_threshold, lower \
                 and lower_pairs, or none",
            ));
        }
    };
    strata.push(Stratum {
        name: OTHERS,
        pairs: other_pairs,
        similarities: others.as_slice()?.to_vec(),
    });
    for s in &strata {
        if s.similarities.len() as u64 > s.pairs {
            return Err(PyValueError::new_err(format!(
                "{} similarities of the `{}` stratum, which holds {} pairs",
                s.similarities.len(),
                s.name,
                s.pairs
            )));
        }
    }
    let family = family
        .map(str::parse::<lshscope_core::minhash::SketchFamily>)
        .transpose()
        .map_err(to_py)?;
    let sample = StratifiedSample {
        banding: Banding { bands, rows },
        threshold,
        lower: lower_level,
        family,
        strata,
    };
    let write = |w: &mut dyn std::io::Write, format: OutputFormat| -> std::io::Result<()> {
        sample.write(w, format, None)
    };
    let allowed = [OutputFormat::Csv, OutputFormat::Jsonl];
    let named = match format {
        None => None,
        Some(name) => Some(
            OutputFormat::from_format_name(name)
                .filter(|f| allowed.contains(f))
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "format must be \"csv\" or \"jsonl\", got {name:?}"
                    ))
                })?,
        ),
    };
    match path {
        Some(path) => {
            let target = OutputTarget::new(Some(&path));
            let format = target.format(named, &allowed).map_err(to_py)?;
            py.detach(|| target.write(None, |w| write(w, format)))
                .map_err(to_py)?;
            Ok(None)
        }
        None => {
            let mut bytes = Vec::new();
            write(&mut bytes, named.unwrap_or(OutputFormat::Csv))
                .map_err(|e| PyIOError::new_err(e.to_string()))?;
            Ok(Some(pyo3::types::PyBytes::new(py, &bytes)))
        }
    }
}

/// Why a CSV/TSV file's first row (its fields) cannot be a header, as `lshscope` decides
/// before reading it as data ([`lshscope_core::corpus::not_a_header`]), or None when it
/// reads as one.
#[pyfunction]
pub fn not_a_header(fields: Vec<String>) -> Option<String> {
    let bytes: Vec<&[u8]> = fields.iter().map(|f| f.as_bytes()).collect();
    lshscope_core::corpus::not_a_header(&bytes)
}
