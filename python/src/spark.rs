//! Batch kernels for `lshscope.spark`: Spark hands the Python workers Arrow record batches,
//! and these functions work on the batches' raw buffers (offsets and bytes as NumPy arrays,
//! no Python object per row), so every number is the engine's, computed as `lshscope scan`
//! computes it.
//!
//! The plan they serve (see `python/lshscope/spark.py`): hash each document once (signature
//! and shingle set, both carried as binary columns), emit one row per (band, bucket key,
//! document), group by bucket in Spark, send each bucket of two or more documents (with the
//! CLI's bucket cap) and its documents to one partition, and there score each pair once, in
//! the first band that emits it.

use lshscope::corpus::Corpus;
use lshscope::jobs::Progress;
use lshscope::minhash::{Banding, band_key, build_index};
use lshscope::similarity::jaccard;
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{banding, index_options, to_py};

/// A NumPy array handed back to Python.
type Column<'py, T> = Bound<'py, PyArray1<T>>;

/// An Arrow variable-width column as NumPy arrays: offsets (widened to 64 bits) and bytes.
type Buffers<'py> = (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, u8>);

/// The `i`-th value of a variable-width Arrow column given as (offsets, values): the bytes
/// of a string or binary value, or the members of a list.
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

/// The signature stored in a binary value: K little-endian `u32`s.
fn signature_of(bytes: &[u8], num_perm: usize, out: &mut Vec<u32>) -> PyResult<()> {
    if bytes.len() != num_perm * 4 {
        return Err(PyValueError::new_err(format!(
            "a signature of {} bytes where num_perm = {num_perm} needs {}",
            bytes.len(),
            num_perm * 4
        )));
    }
    out.clear();
    out.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes"))),
    );
    Ok(())
}

/// The shingle set stored in a binary value: sorted, distinct little-endian `u64`s.
fn set_of(bytes: &[u8], out: &mut Vec<u64>) -> PyResult<()> {
    if !bytes.len().is_multiple_of(8) {
        return Err(PyValueError::new_err(format!(
            "a shingle set of {} bytes is not a whole number of 8-byte hashes",
            bytes.len()
        )));
    }
    out.clear();
    out.extend(
        bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
    );
    Ok(())
}

/// What [`hash_documents`] returns: the signatures and the shingle sets, each as a binary
/// column (offsets, bytes). A document without shingles has an empty signature value.
type Hashed<'py> = (
    Column<'py, i64>,
    Column<'py, u8>,
    Column<'py, i64>,
    Column<'py, u8>,
);

/// Signatures (in the sketch family `family`) and shingle sets of a batch of texts given as an
/// Arrow string or binary column (offsets, bytes); bytes that are not UTF-8 are decoded
/// lossily, as the CLI's readers do.
#[pyfunction]
#[pyo3(signature = (offsets, data, *, num_perm, seed, shingle=None, profile=None, family="classic"))]
#[allow(clippy::too_many_arguments)]
pub fn hash_documents<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
    num_perm: usize,
    seed: u64,
    shingle: Option<&str>,
    profile: Option<&str>,
    family: &str,
) -> PyResult<Hashed<'py>> {
    let options = index_options(num_perm, seed, shingle, profile, family)?;
    let (offsets, data) = (offsets.as_slice()?, data.as_slice()?);
    let n = count(offsets)?;
    let mut corpus = Corpus::new();
    for i in 0..n {
        corpus.push("", &String::from_utf8_lossy(value(offsets, data, i)?));
    }
    let index = py
        .detach(|| build_index(&corpus, &options, &Progress::new()))
        .map_err(to_py)?;
    let mut sig_offsets = Vec::with_capacity(n + 1);
    let mut sig_bytes = Vec::with_capacity(n * num_perm * 4);
    let mut set_offsets = Vec::with_capacity(n + 1);
    let mut set_bytes = Vec::with_capacity(index.sets.total() * 8);
    sig_offsets.push(0i64);
    set_offsets.push(0i64);
    for i in 0..n {
        if !index.signatures.is_empty_doc(i) {
            sig_bytes.extend(index.signatures.row(i).iter().flat_map(|v| v.to_le_bytes()));
        }
        sig_offsets.push(sig_bytes.len() as i64);
        set_bytes.extend(index.sets.get(i).iter().flat_map(|h| h.to_le_bytes()));
        set_offsets.push(set_bytes.len() as i64);
    }
    Ok((
        sig_offsets.into_pyarray(py),
        sig_bytes.into_pyarray(py),
        set_offsets.into_pyarray(py),
        set_bytes.into_pyarray(py),
    ))
}

/// One row per (band, bucket key, document) for the documents with shingles: `(band, key,
/// position in the batch)`. The key is the CLI's own ([`band_key`]), so buckets are the same.
#[pyfunction]
#[pyo3(signature = (offsets, data, *, num_perm, bands, rows))]
pub fn band_rows<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    data: PyReadonlyArray1<'py, u8>,
    num_perm: usize,
    bands: usize,
    rows: usize,
) -> PyResult<(Column<'py, i32>, Column<'py, i64>, Column<'py, i64>)> {
    let banding: Banding = banding(bands, rows, num_perm)?;
    let (offsets, data) = (offsets.as_slice()?, data.as_slice()?);
    let n = count(offsets)?;
    let (mut band_col, mut key_col, mut doc_col) = (Vec::new(), Vec::new(), Vec::new());
    let mut signature = Vec::with_capacity(num_perm);
    for i in 0..n {
        let bytes = value(offsets, data, i)?;
        if bytes.is_empty() {
            // A document without shingles has no signature row and is in no bucket.
            continue;
        }
        signature_of(bytes, num_perm, &mut signature)?;
        for band in 0..bands {
            band_col.push(band as i32);
            // Spark has no unsigned 64-bit type: the key's bits as a signed long.
            key_col.push(band_key(&signature, banding, band) as i64);
            doc_col.push(i as i64);
        }
    }
    Ok((
        band_col.into_pyarray(py),
        key_col.into_pyarray(py),
        doc_col.into_pyarray(py),
    ))
}

/// What [`score_buckets`] returns: for each kept pair, the positions of its two documents
/// among the document rows given, its exact Jaccard, its estimate and its `bands_hit`; then
/// the number of candidate pairs scored (kept or not).
type ScoredInBuckets<'py> = (
    Column<'py, i64>,
    Column<'py, i64>,
    Column<'py, f64>,
    Column<'py, f64>,
    Column<'py, i32>,
    u64,
);

/// The documents of a partition, decoded once, in input order: signatures, band keys,
/// shingle sets and (with a bucket cap) the bands each forms pairs in, so that a pair's tests
/// read slices.
struct Members {
    num_perm: usize,
    bands: usize,
    /// Input positions, ascending and distinct: member `i` is the document at `rows[i]`.
    rows: Vec<i64>,
    /// Where member `i` was among the document rows given.
    given_at: Vec<usize>,
    signatures: Vec<u32>,
    keys: Vec<u64>,
    set_offsets: Vec<usize>,
    sets: Vec<u64>,
    /// `bands` flags per member: it is among the first `max_bucket` members of its bucket in
    /// that band (with no cap, every member of a bucket of two or more is).
    emitted: Option<Vec<bool>>,
}

impl Members {
    fn signature(&self, i: usize) -> &[u32] {
        &self.signatures[i * self.num_perm..(i + 1) * self.num_perm]
    }

    fn set(&self, i: usize) -> &[u64] {
        &self.sets[self.set_offsets[i]..self.set_offsets[i + 1]]
    }

    /// True when the CLI's banding emits the pair (i, j) in `band`: the two share its bucket
    /// (equal keys, as the CLI groups them) and both are within the bucket cap there.
    fn emitted_in(&self, i: usize, j: usize, band: usize) -> bool {
        let b = self.bands;
        self.keys[i * b + band] == self.keys[j * b + band]
            && self
                .emitted
                .as_ref()
                .is_none_or(|e| e[i * b + band] && e[j * b + band])
    }

    /// The member for input position `row`.
    fn at(&self, row: i64) -> Option<usize> {
        self.rows.binary_search(&row).ok()
    }
}

/// The candidate pairs of one partition's buckets, scored where they meet, each once.
///
/// A partition holds some buckets (those of two or more documents, each whole) as rows
/// `(band, key, member)`, `member` a document's input position, and once each the documents
/// they hold (`doc_row`, the input position, its signature and shingle set; a document given
/// twice is read once). With `--max-bucket` only a bucket's first members are listed, and
/// `emitted` (a list column: offsets, band numbers) names for each document every band in
/// which it is among its bucket's first members. Each bucket's pairs are the CLI's (members
/// in input order, every pair once); a pair is scored only in the first band that emits it, decided from
/// the two documents alone (their band keys and emitted bands), so no pair is scored twice
/// and none is missed, however many bands or buckets it shares; its `bands_hit` counts the
/// bands that emit it, as [`lshscope::minhash::find_candidates`] counts them. Pairs below
/// `threshold` (exact Jaccard) are counted but not returned.
#[pyfunction]
#[pyo3(signature = (doc_row, sig, set, emitted, band, key, member, *, num_perm, bands, rows, threshold))]
#[allow(clippy::too_many_arguments)]
pub fn score_buckets<'py>(
    py: Python<'py>,
    doc_row: PyReadonlyArray1<'py, i64>,
    sig: Buffers<'py>,
    set: Buffers<'py>,
    emitted: Option<(PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i32>)>,
    band: PyReadonlyArray1<'py, i32>,
    key: PyReadonlyArray1<'py, i64>,
    member: PyReadonlyArray1<'py, i64>,
    num_perm: usize,
    bands: usize,
    rows: usize,
    threshold: f64,
) -> PyResult<ScoredInBuckets<'py>> {
    let banding = banding(bands, rows, num_perm)?;
    let doc_row = doc_row.as_slice()?;
    let (sig_offsets, sig_bytes) = (sig.0.as_slice()?, sig.1.as_slice()?);
    let (set_offsets, set_bytes) = (set.0.as_slice()?, set.1.as_slice()?);
    let emitted = match &emitted {
        Some((offsets, values)) => Some((offsets.as_slice()?, values.as_slice()?)),
        None => None,
    };
    let docs = doc_row.len();
    if count(sig_offsets)? != docs
        || count(set_offsets)? != docs
        || emitted.is_some_and(|(o, _)| o.len() != docs + 1)
    {
        return Err(PyValueError::new_err(
            "the document columns (row, signature, set, emitted) differ in length",
        ));
    }
    let (band, key, member) = (band.as_slice()?, key.as_slice()?, member.as_slice()?);
    if key.len() != band.len() || member.len() != band.len() {
        return Err(PyValueError::new_err(
            "the bucket columns (band, key, member) differ in length",
        ));
    }

    let mut order: Vec<usize> = (0..docs).collect();
    order.sort_by_key(|&i| doc_row[i]);
    order.dedup_by_key(|i| doc_row[*i]);
    let n = order.len();
    let mut members = Members {
        num_perm,
        bands,
        rows: order.iter().map(|&i| doc_row[i]).collect(),
        given_at: order,
        signatures: Vec::with_capacity(n * num_perm),
        keys: Vec::with_capacity(n * bands),
        set_offsets: Vec::with_capacity(n + 1),
        sets: Vec::new(),
        emitted: emitted.map(|_| vec![false; n * bands]),
    };
    let mut scratch = Vec::with_capacity(num_perm);
    let mut set_scratch = Vec::new();
    members.set_offsets.push(0);
    for m in 0..n {
        let i = members.given_at[m];
        // Documents without shingles are in no bucket: every member has a signature.
        signature_of(value(sig_offsets, sig_bytes, i)?, num_perm, &mut scratch)?;
        members.signatures.extend_from_slice(&scratch);
        members
            .keys
            .extend((0..bands).map(|b| band_key(&scratch, banding, b)));
        set_of(value(set_offsets, set_bytes, i)?, &mut set_scratch)?;
        members.sets.extend_from_slice(&set_scratch);
        members.set_offsets.push(members.sets.len());
        if let (Some((offsets, values)), Some(flags)) = (emitted, members.emitted.as_mut()) {
            for &b in value(offsets, values, i)? {
                let b = usize::try_from(b)
                    .ok()
                    .filter(|&b| b < bands)
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "document {}: band {b} is not below {bands}",
                            doc_row[i]
                        ))
                    })?;
                flags[m * bands + b] = true;
            }
        }
    }

    // The bucket rows as (band, key, member), sorted: each bucket's members in input order.
    let mut entries = Vec::with_capacity(band.len());
    for i in 0..band.len() {
        let b = usize::try_from(band[i])
            .ok()
            .filter(|&b| b < bands)
            .ok_or_else(|| {
                PyValueError::new_err(format!("band {} is not below {bands}", band[i]))
            })?;
        let m = members.at(member[i]).ok_or_else(|| {
            PyValueError::new_err(format!(
                "document {} is in a bucket of band {b} but not among the documents given",
                member[i]
            ))
        })?;
        if members.keys[m * bands + b] != key[i] as u64 {
            return Err(PyValueError::new_err(format!(
                "document {}: the bucket key of band {b} is not its signature's",
                member[i]
            )));
        }
        if members.emitted.as_ref().is_some_and(|e| !e[m * bands + b]) {
            return Err(PyValueError::new_err(format!(
                "document {} is listed in a bucket of band {b} that does not emit it",
                member[i]
            )));
        }
        entries.push((b, key[i], m));
    }
    entries.sort_unstable();
    if entries.windows(2).any(|w| w[0] == w[1]) {
        return Err(PyValueError::new_err(
            "a document is listed twice in one bucket",
        ));
    }

    let (first, second, jaccards, estimates, hits, candidates) = py.detach(|| {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        let (mut jaccards, mut estimates, mut hits) = (Vec::new(), Vec::new(), Vec::new());
        let mut candidates = 0u64;
        for bucket in entries.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
            let here = bucket[0].0;
            for (k, &(_, _, i)) in bucket.iter().enumerate() {
                for &(_, _, j) in &bucket[k + 1..] {
                    // Scored in the first band that emits the pair: this one, unless an
                    // earlier band's bucket holds it too.
                    if (0..here).any(|b| members.emitted_in(i, j, b)) {
                        continue;
                    }
                    candidates += 1;
                    let jaccard = jaccard(members.set(i), members.set(j));
                    if jaccard < threshold {
                        continue;
                    }
                    first.push(members.given_at[i] as i64);
                    second.push(members.given_at[j] as i64);
                    jaccards.push(jaccard);
                    estimates.push(crate::estimate(members.signature(i), members.signature(j)));
                    hits.push(
                        (here..bands)
                            .filter(|&b| members.emitted_in(i, j, b))
                            .count() as i32,
                    );
                }
            }
        }
        (first, second, jaccards, estimates, hits, candidates)
    });
    Ok((
        first.into_pyarray(py),
        second.into_pyarray(py),
        jaccards.into_pyarray(py),
        estimates.into_pyarray(py),
        hits.into_pyarray(py),
        candidates,
    ))
}
