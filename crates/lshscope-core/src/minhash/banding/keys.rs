//! Bucket keys: the hash of a band's r values, and each band's keys sorted by (key, doc).

use super::Banding;
use crate::minhash::index::Signatures;
use crate::minhash::similarity::prefetch_line;

/// The key of band `band` of a signature row: a 64-bit hash of its r values. Two documents
/// share a bucket when their keys are equal, that is when their r values agree (or, with
/// probability about 2^-64, by a hash collision).
#[inline]
pub fn band_key(row: &[u32], banding: Banding, band: usize) -> u64 {
    let values = &row[band * banding.rows..(band + 1) * banding.rows];
    // SAFETY: any initialized u32 slice is a valid byte slice of four times the length, with
    // alignment 1. Keys are only compared within one process, so byte order does not matter.
    let bytes =
        unsafe { std::slice::from_raw_parts(values.as_ptr().cast::<u8>(), size_of_val(values)) };
    xxhash_rust::xxh3::xxh3_64(bytes)
}

/// Rows ahead whose band values a key pass fetches: about a memory latency's worth of keys.
const KEYS_AHEAD: usize = 16;

/// Bucket keys of one band for every document that has shingles, sorted by (key, doc).
pub fn band_keys(sigs: &Signatures, banding: Banding, band: usize) -> Vec<(u64, u32)> {
    band_keys_among(sigs, banding, band, None)
}

/// [`band_keys`] of the documents `included` marks (all when `None`).
pub(super) fn band_keys_among(
    sigs: &Signatures,
    banding: Banding,
    band: usize,
    included: Option<&[bool]>,
) -> Vec<(u64, u32)> {
    let mut keys: Vec<(u64, u32)> = Vec::with_capacity(sigs.len());
    let n = sigs.len();
    let offset = band * banding.rows;
    keys.extend(
        (0..n)
            .inspect(|&i| {
                // One band reads a few bytes of each row, rows hundreds of bytes apart: every
                // read is a cache miss unless fetched ahead (80 % of `band_key`'s time was the
                // load of its values).
                if i + KEYS_AHEAD < n {
                    prefetch_line(sigs.row(i + KEYS_AHEAD)[offset..].as_ptr());
                }
            })
            .filter(|&i| !sigs.is_empty_doc(i) && included.is_none_or(|inc| inc[i]))
            .map(|i| (band_key(sigs.row(i), banding, band), i as u32)),
    );
    sort_by_key_then_doc(keys)
}

/// The keys of every band for the documents `docs` (ascending), each band's sorted by (key,
/// doc) as [`band_keys_among`] gives them. Each document's row is read once, for all its bands,
/// where one pass per band reads a few bytes of every row: with rows of hundreds of bytes each
/// such read is a cache miss, and the passes were bound by them.
pub(super) fn band_keys_of_docs(
    sigs: &Signatures,
    banding: Banding,
    docs: &[u32],
) -> Vec<Vec<(u64, u32)>> {
    use rayon::prelude::*;
    const CHUNK: usize = 4096;
    let mut per_band: Vec<Vec<(u64, u32)>> = (0..banding.bands)
        .map(|_| vec![(0u64, 0u32); docs.len()])
        .collect();
    // For each chunk of documents, its slice of every band's keys.
    let mut rest: Vec<&mut [(u64, u32)]> = per_band.iter_mut().map(|v| v.as_mut_slice()).collect();
    /// A chunk of documents and its slice of every band's key list.
    struct ChunkKeys<'a> {
        docs: &'a [u32],
        bands: Vec<&'a mut [(u64, u32)]>,
    }
    let mut chunks: Vec<ChunkKeys> = Vec::new();
    for chunk in docs.chunks(CHUNK) {
        let mut slices = Vec::with_capacity(rest.len());
        for band in rest.iter_mut() {
            let (head, tail) = std::mem::take(band).split_at_mut(chunk.len());
            slices.push(head);
            *band = tail;
        }
        chunks.push(ChunkKeys {
            docs: chunk,
            bands: slices,
        });
    }
    chunks.into_par_iter().for_each(|mut chunk| {
        for (i, &d) in chunk.docs.iter().enumerate() {
            let row = sigs.row(d as usize);
            for (band, keys) in chunk.bands.iter_mut().enumerate() {
                keys[i] = (band_key(row, banding, band), d);
            }
        }
    });
    per_band.into_par_iter().map(sort_by_key_then_doc).collect()
}

/// Sorts (key, doc) entries whose docs are ascending and whose keys are uniform hashes.
///
/// Two stable counting passes (most-significant digit first): 256 partitions by the top 8
/// bits, then each partition, small enough to stay in cache, by its next bits into buckets of
/// about one distinct key; an insertion sort only fixes order inside those tiny buckets. Both
/// passes are linear and cache-friendly (a single pass into a million buckets misses cache on
/// nearly every write), which keeps re-banding a million documents well under a second. Many
/// documents with one key (duplicates) stay in doc order and never move.
pub(super) fn sort_by_key_then_doc(mut keys: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
    let n = keys.len();
    if n < 256 {
        keys.sort_unstable();
        return keys;
    }
    const TOP_BITS: u32 = 8;
    let mut starts = [0usize; (1 << TOP_BITS) + 1];
    for &(k, _) in &keys {
        starts[(k >> (64 - TOP_BITS)) as usize + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut partitioned = vec![(0u64, 0u32); n];
    let mut next = starts;
    for &entry in &keys {
        let slot = &mut next[(entry.0 >> (64 - TOP_BITS)) as usize];
        partitioned[*slot] = entry;
        *slot += 1;
    }
    // Second pass: each partition back into `keys`, at the same offsets.
    let mut counts: Vec<u32> = Vec::new();
    for p in 0..1 << TOP_BITS {
        let (lo, hi) = (starts[p], starts[p + 1]);
        let (src, dst) = (&partitioned[lo..hi], &mut keys[lo..hi]);
        let len = src.len();
        if len < 32 {
            dst.copy_from_slice(src);
            dst.sort_unstable();
            continue;
        }
        let bits = (usize::BITS - len.leading_zeros()).clamp(4, 16);
        let shift = 64 - TOP_BITS - bits;
        let mask = (1u64 << bits) - 1;
        counts.clear();
        counts.resize((1 << bits) + 1, 0);
        for &(k, _) in src {
            counts[((k >> shift) & mask) as usize + 1] += 1;
        }
        for i in 1..counts.len() {
            counts[i] += counts[i - 1];
        }
        for &entry in src {
            let slot = &mut counts[((entry.0 >> shift) & mask) as usize];
            dst[*slot as usize] = entry;
            *slot += 1;
        }
        crate::minhash::index::insertion_sort(dst);
    }
    keys
}
