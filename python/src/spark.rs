//! Batch kernels for `lshscope.spark`: Spark hands the Python workers Arrow record batches,
//! and these functions work on the batches' raw buffers (offsets and bytes as NumPy arrays,
//! no Python object per row), so every number is the engine's, computed as `lshscope scan`
//! computes it.
//!
//! The plan they serve (see `python/lshscope/spark.py`): hash each document once (signature
//! and shingle set, both carried as binary columns), emit one row per (band, bucket key,
//! document), group by bucket in Spark, expand each bucket into its pairs with the CLI's bucket
//! cap, count the bands each pair shares, then score each pair from the two documents' rows.

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

/// The pairs of each bucket (its members given as an Arrow list column: offsets into
/// `members`): members in input order, only the first `cap` of a larger bucket, every pair
/// `a < b` once, as the CLI's banding walk enumerates them.
#[pyfunction]
#[pyo3(signature = (offsets, members, *, cap=None))]
pub fn bucket_pairs<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, i64>,
    members: PyReadonlyArray1<'py, i64>,
    cap: Option<usize>,
) -> PyResult<(Column<'py, i64>, Column<'py, i64>)> {
    let (offsets, members) = (offsets.as_slice()?, members.as_slice()?);
    // The CLI never caps a bucket below a pair.
    let cap = cap.unwrap_or(usize::MAX).max(2);
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let mut bucket = Vec::new();
    for i in 0..count(offsets)? {
        bucket.clear();
        bucket.extend_from_slice(value(offsets, members, i)?);
        bucket.sort_unstable();
        bucket.truncate(cap);
        for (k, &a) in bucket.iter().enumerate() {
            for &b in &bucket[k + 1..] {
                first.push(a);
                second.push(b);
            }
        }
    }
    Ok((first.into_pyarray(py), second.into_pyarray(py)))
}

/// Exact Jaccard and MinHash estimate of each pair from the two documents' binary columns
/// (signatures, then shingle sets, each as offsets and bytes), with the CLI's formulas.
#[pyfunction]
#[pyo3(signature = (sig_a, sig_b, set_a, set_b, *, num_perm))]
pub fn score_pairs<'py>(
    py: Python<'py>,
    sig_a: Buffers<'py>,
    sig_b: Buffers<'py>,
    set_a: Buffers<'py>,
    set_b: Buffers<'py>,
    num_perm: usize,
) -> PyResult<(Column<'py, f64>, Column<'py, f64>)> {
    let columns = [&sig_a, &sig_b, &set_a, &set_b].map(|(o, d)| (o.as_slice(), d.as_slice()));
    let mut slices = Vec::with_capacity(4);
    for (o, d) in columns {
        slices.push((o?, d?));
    }
    let n = count(slices[0].0)?;
    if slices.iter().any(|(o, _)| o.len() != n + 1) {
        return Err(PyValueError::new_err("the four columns differ in length"));
    }
    let (mut sa, mut sb, mut xa, mut xb) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut jaccards = Vec::with_capacity(n);
    let mut estimates = Vec::with_capacity(n);
    for i in 0..n {
        signature_of(value(slices[0].0, slices[0].1, i)?, num_perm, &mut sa)?;
        signature_of(value(slices[1].0, slices[1].1, i)?, num_perm, &mut sb)?;
        set_of(value(slices[2].0, slices[2].1, i)?, &mut xa)?;
        set_of(value(slices[3].0, slices[3].1, i)?, &mut xb)?;
        jaccards.push(jaccard(&xa, &xb));
        estimates.push(crate::estimate(&sa, &sb));
    }
    Ok((jaccards.into_pyarray(py), estimates.into_pyarray(py)))
}
