//! LSH banding: split each signature into b bands of r rows, bucket documents by band, and
//! collect the pairs that share at least one bucket.

use std::time::Instant;

use rayon::prelude::*;

use super::index::Signatures;
use crate::jobs::{Phase, Progress};
use crate::terms::Setting::{Bands, NumPerm, Rows};
use crate::{Error, Result};

/// b bands of r rows; uses the first b·r rows of each signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Banding {
    pub bands: usize,
    pub rows: usize,
}

impl Banding {
    /// Checks b ≥ 1, r ≥ 1 and b·r ≤ K.
    pub fn new(bands: usize, rows: usize, num_perm: usize) -> Result<Self> {
        if num_perm == 0 {
            return Err(Error::usage(format!("{NumPerm} must be at least 1")));
        }
        if bands == 0 || rows == 0 {
            return Err(Error::usage(format!(
                "bands and rows must be at least 1 (got {bands} bands × {rows} rows)"
            )));
        }
        if bands * rows > num_perm {
            return Err(Error::usage(format!(
                "{bands} bands × {rows} rows = {} hashes, but signatures have only {num_perm} \
                 ({NumPerm}): lower {Bands} or {Rows}, or raise {NumPerm}",
                bands * rows
            )));
        }
        Ok(Banding { bands, rows })
    }

    pub fn hashes_used(&self) -> usize {
        self.bands * self.rows
    }

    /// For each band, how many of its r rows the signatures `a` and `b` agree on; r means the
    /// band puts them in the same bucket (its key is a hash of exactly those r values).
    pub fn band_agreement<'s>(
        &self,
        a: &'s [u32],
        b: &'s [u32],
    ) -> impl Iterator<Item = usize> + 's {
        let rows = self.rows;
        (0..self.bands).map(move |i| {
            let range = i * rows..(i + 1) * rows;
            crate::minhash::similarity::agreeing_rows(&a[range.clone()], &b[range])
        })
    }

    /// Which bands put documents `a` and `b` of `sigs` in the same bucket. A document without
    /// shingles is in no bucket, so it collides nowhere.
    pub fn agreeing_bands(&self, sigs: &Signatures, a: usize, b: usize) -> Vec<bool> {
        let empty = sigs.is_empty_doc(a) || sigs.is_empty_doc(b);
        self.band_agreement(sigs.row(a), sigs.row(b))
            .map(|rows| !empty && rows == self.rows)
            .collect()
    }

    /// True when documents `a` and `b` of `sigs` share a bucket in some band: a candidate
    /// pair (the bucket cap aside), decided from the two signatures, as
    /// [`Self::agreeing_bands`] decides each band.
    pub fn collide(&self, sigs: &Signatures, a: usize, b: usize) -> bool {
        !sigs.is_empty_doc(a)
            && !sigs.is_empty_doc(b)
            && self
                .band_agreement(sigs.row(a), sigs.row(b))
                .any(|rows| rows == self.rows)
    }

    /// The most rows any one band agrees on for documents `a` and `b` of `sigs`: r means they
    /// are a candidate; for a missed pair, how close it came.
    pub fn closest_band(&self, sigs: &Signatures, a: usize, b: usize) -> usize {
        self.band_agreement(sigs.row(a), sigs.row(b))
            .max()
            .unwrap_or(0)
    }
}

impl std::fmt::Display for Banding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}×{}", self.bands, self.rows)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BandingOptions {
    pub banding: Banding,
    /// Only the first N members (in input order) of a larger bucket form pairs; never fewer
    /// than [`MIN_MAX_BUCKET`].
    pub max_bucket: Option<usize>,
}

/// The smallest bucket cap: a bucket's first N documents form its pairs, so a cap below 2
/// would keep none. The banding never caps below it; the faces refuse less
/// ([`max_bucket_refusal`]).
pub const MIN_MAX_BUCKET: usize = 2;

/// Why a bucket cap of `n` is refused, when it is below [`MIN_MAX_BUCKET`]: each face adds
/// how to say "no cap" in its own terms.
pub fn max_bucket_refusal(n: usize) -> Option<String> {
    (n < MIN_MAX_BUCKET).then(|| {
        format!(
            "{n} would keep no pair (the first N documents of a bucket form its pairs); give at \
             least {MIN_MAX_BUCKET}"
        )
    })
}

/// Two documents (input positions, `a < b`) that share a bucket in `bands_hit` bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CandidatePair {
    pub a: u32,
    pub b: u32,
    pub bands_hit: u32,
}

/// A bucket worth reporting: its band, its size and its first member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BucketInfo {
    pub band: usize,
    pub size: usize,
    pub first_doc: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Candidates {
    /// Sorted by (a, b).
    pub pairs: Vec<CandidatePair>,
    /// The largest buckets over all bands, largest first (at most 10).
    pub largest_buckets: Vec<BucketInfo>,
    /// Buckets larger than `max_bucket`, largest first (at most 10 listed).
    pub capped_buckets: Vec<BucketInfo>,
    pub capped_bucket_count: usize,
    /// Bucket pairs not emitted because of the cap (counted with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Bucket pairs emitted, over all bands (before the union).
    pub bucket_pairs: u64,
    /// Time spent computing bucket keys and grouping them, all bands.
    pub grouping_seconds: f64,
    /// Time spent merging the bands' pairs into candidates.
    pub union_seconds: f64,
}

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

/// Bucket keys of one band for every document that has shingles, sorted by (key, doc).
pub fn band_keys(sigs: &Signatures, banding: Banding, band: usize) -> Vec<(u64, u32)> {
    band_keys_among(sigs, banding, band, None)
}

/// [`band_keys`] of the documents `included` marks (all when `None`).
fn band_keys_among(
    sigs: &Signatures,
    banding: Banding,
    band: usize,
    included: Option<&[bool]>,
) -> Vec<(u64, u32)> {
    let mut keys: Vec<(u64, u32)> = Vec::with_capacity(sigs.len());
    keys.extend(
        (0..sigs.len())
            .filter(|&i| !sigs.is_empty_doc(i) && included.is_none_or(|inc| inc[i]))
            .map(|i| (band_key(sigs.row(i), banding, band), i as u32)),
    );
    sort_by_key_then_doc(keys)
}

/// Sorts (key, doc) entries whose docs are ascending and whose keys are uniform hashes.
///
/// Two stable counting passes (most-significant digit first): 256 partitions by the top 8
/// bits, then each partition, small enough to stay in cache, by its next bits into buckets of
/// about one distinct key; an insertion sort only fixes order inside those tiny buckets. Both
/// passes are linear and cache-friendly (a single pass into a million buckets misses cache on
/// nearly every write), which keeps re-banding a million documents well under a second. Many
/// documents with one key (duplicates) stay in doc order and never move.
fn sort_by_key_then_doc(mut keys: Vec<(u64, u32)>) -> Vec<(u64, u32)> {
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
        super::index::insertion_sort(dst);
    }
    keys
}

struct BandResult {
    pairs: Vec<u64>,
    stats: BucketStats,
}

/// What the buckets of one band (or, totalled, of all bands) report besides their pairs.
#[derive(Default)]
struct BucketStats {
    /// The largest buckets, largest first (at most 10 kept).
    largest: Vec<BucketInfo>,
    /// Buckets above the cap, largest first (at most 10 kept), and how many there were.
    capped: Vec<BucketInfo>,
    capped_count: usize,
    /// Bucket pairs the cap dropped.
    dropped: u64,
}

impl BucketStats {
    /// Walks the buckets of one band's `keys` (sorted by key, then document) that hold two or
    /// more documents, records them, and hands each one's first `cap` members to `visit`.
    fn walk(
        &mut self,
        keys: &[(u64, u32)],
        band: usize,
        cap: usize,
        mut visit: impl FnMut(&[(u64, u32)]),
    ) {
        for run in keys.chunk_by(|x, y| x.0 == y.0) {
            let size = run.len();
            if size < 2 {
                continue;
            }
            let info = BucketInfo {
                band,
                size,
                first_doc: run[0].1,
            };
            self.largest.push(info);
            if self.largest.len() > 64 {
                keep_top(&mut self.largest, 10);
            }
            let kept = size.min(cap);
            if kept < size {
                self.capped.push(info);
                self.capped_count += 1;
                if self.capped.len() > 64 {
                    keep_top(&mut self.capped, 10);
                }
                self.dropped += pairs_among(size as u64) - pairs_among(kept as u64);
            }
            visit(&run[..kept]);
        }
        keep_top(&mut self.largest, 10);
        keep_top(&mut self.capped, 10);
    }

    /// The statistics of all bands together.
    fn total<'a>(bands: impl Iterator<Item = &'a BucketStats>) -> BucketStats {
        let mut total = BucketStats::default();
        for b in bands {
            total.largest.extend_from_slice(&b.largest);
            total.capped.extend_from_slice(&b.capped);
            total.capped_count += b.capped_count;
            total.dropped += b.dropped;
        }
        keep_top(&mut total.largest, 10);
        keep_top(&mut total.capped, 10);
        total
    }
}

fn keep_top(list: &mut Vec<BucketInfo>, limit: usize) {
    list.sort_by(|x, y| y.size.cmp(&x.size).then(x.band.cmp(&y.band)));
    list.truncate(limit);
}

/// The pairs among `m` documents, m(m − 1)/2: what a bucket of m stands for, and the pairs of
/// a corpus of m documents.
pub fn pairs_among(m: u64) -> u64 {
    m * m.saturating_sub(1) / 2
}

/// Candidate pairs of `sigs` under `options`: the union over bands of the pairs that share a
/// bucket, each with the number of bands it collided in. Parallel over bands.
pub fn find_candidates(
    sigs: &Signatures,
    options: &BandingOptions,
    progress: &Progress,
) -> Result<Candidates> {
    find_candidates_among(sigs, options, None, progress)
}

/// [`find_candidates`] among the documents `included` marks (all when `None`): with
/// identical copies collapsed, only their representatives.
pub fn find_candidates_among(
    sigs: &Signatures,
    options: &BandingOptions,
    included: Option<&[bool]>,
    progress: &Progress,
) -> Result<Candidates> {
    if let Some(inc) = included {
        assert_eq!(inc.len(), sigs.len(), "one flag per document");
    }
    let banding = options.banding;
    Banding::new(banding.bands, banding.rows, sigs.num_perm())?;
    let cap = options.max_bucket.unwrap_or(usize::MAX).max(MIN_MAX_BUCKET);
    progress.begin(Phase::Banding, banding.bands as u64);
    let started = Instant::now();

    let per_band: Vec<BandResult> = (0..banding.bands)
        .into_par_iter()
        .map(|band| {
            progress.check()?;
            let keys = band_keys_among(sigs, banding, band, included);
            let mut out = BandResult {
                pairs: Vec::new(),
                stats: BucketStats::default(),
            };
            out.stats.walk(&keys, band, cap, |members| {
                for (i, &(_, a)) in members.iter().enumerate() {
                    for &(_, b) in &members[i + 1..] {
                        out.pairs.push(((a as u64) << 32) | b as u64);
                    }
                }
            });
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;

    let grouped_at = Instant::now();
    let mut result = Candidates {
        grouping_seconds: (grouped_at - started).as_secs_f64(),
        ..Default::default()
    };
    let totals = BucketStats::total(per_band.iter().map(|r| &r.stats));
    result.largest_buckets = totals.largest;
    result.capped_buckets = totals.capped;
    result.capped_bucket_count = totals.capped_count;
    result.pairs_dropped_by_cap = totals.dropped;
    progress.check()?;
    let band_pairs: Vec<Vec<u64>> = per_band.into_iter().map(|r| r.pairs).collect();
    result.bucket_pairs = band_pairs.iter().map(|p| p.len() as u64).sum();
    result.pairs = union_of_band_pairs(band_pairs, sigs.len());
    result.union_seconds = grouped_at.elapsed().as_secs_f64();
    Ok(result)
}

/// The buckets of one band that can form pairs: two or more documents, each list in input
/// order and cut to the first `max_bucket` members.
#[derive(Debug, Clone, Default)]
pub struct BandBuckets {
    /// Members of bucket k: `members[offsets[k]..offsets[k + 1]]`.
    offsets: Vec<u32>,
    members: Vec<u32>,
}

impl BandBuckets {
    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Members of bucket `k`, in input order.
    pub fn bucket(&self, k: usize) -> &[u32] {
        &self.members[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }

    /// Every bucket, in order of key.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        self.offsets
            .windows(2)
            .map(|w| &self.members[w[0] as usize..w[1] as usize])
    }
}

/// A banding's candidates kept as buckets, not pairs: what clusters need, in memory that
/// follows documents × bands (at most 8 bytes per document and band), however many pairs the
/// buckets stand for.
#[derive(Debug, Clone, Default)]
pub struct BucketLists {
    pub bands: Vec<BandBuckets>,
    /// For document d and band k, at `d · bands + k`, the number of d's bucket in
    /// `bands[k]`, or `u32::MAX` when d is in no listed bucket (alone, empty, excluded, or
    /// beyond the bucket cap). Document-major, so one document's buckets share a cache line.
    bucket_of: Vec<u32>,
    /// The largest buckets over all bands, largest first (at most 10; sizes before the cap).
    pub largest_buckets: Vec<BucketInfo>,
    /// Buckets larger than `max_bucket`, largest first (at most 10 listed).
    pub capped_buckets: Vec<BucketInfo>,
    pub capped_bucket_count: usize,
    /// Bucket pairs the cap leaves out (with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Pairs the listed buckets stand for, counted with multiplicity over bands (an upper
    /// bound on the distinct candidates).
    pub bucket_pairs: u64,
}

impl BucketLists {
    /// In how many bands `a` and `b` share a listed bucket: a candidate pair when above 0,
    /// with the `bands_hit` that [`find_candidates_among`] would give it.
    pub fn bands_hit(&self, a: u32, b: u32) -> u32 {
        let (row_a, row_b) = (self.buckets_of(a), self.buckets_of(b));
        row_a
            .iter()
            .zip(row_b)
            .filter(|&(&x, &y)| x != u32::MAX && x == y)
            .count() as u32
    }

    /// True when `a` and `b` share a listed bucket in a band before `band`.
    pub fn collide_before(&self, a: u32, b: u32, band: usize) -> bool {
        let (row_a, row_b) = (self.buckets_of(a), self.buckets_of(b));
        row_a[..band]
            .iter()
            .zip(&row_b[..band])
            .any(|(&x, &y)| x != u32::MAX && x == y)
    }

    /// The bands in which `a` and `b` share a listed bucket, as the first such band and their
    /// count: one pass that gives both [`BucketLists::collide_before`] (`first < band`) and
    /// [`BucketLists::bands_hit`] (`count`), 16 bands to a compare with AVX-512. A streamed
    /// scan asks this for every bucket pair of every band (2.5 G times for 147 M candidates of
    /// a template corpus at 32 × 4), where the two scalar loops were a quarter of the phase.
    #[inline]
    pub fn shared_bands(&self, a: u32, b: u32) -> SharedBands {
        shared_bands(self.buckets_of(a), self.buckets_of(b))
    }

    /// Appends to `fresh` each document of `later` (documents that share `a`'s bucket in
    /// `band`) that shares no listed bucket with `a` in an earlier band, with the number of
    /// bands in which the two share one: the pairs of `a` a streamed scan takes in `band`, as
    /// [`BucketLists::shared_bands`] decides them. The rows of `later` are read in order and
    /// fetched a few members ahead; with AVX-512 the whole pass is one function, 16 bands to
    /// a compare.
    pub fn first_met_in(&self, a: u32, later: &[u32], band: usize, fresh: &mut Vec<(u32, u32)>) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt") {
                // SAFETY: the CPU supports the features the function was compiled for.
                return unsafe { self.first_met_in_avx512(a, later, band, fresh) };
            }
        }
        for (q, &b) in later.iter().enumerate() {
            if let Some(&ahead) = later.get(q + ROWS_AHEAD) {
                self.prefetch(ahead);
            }
            let shared = self.shared_bands(a, b);
            if shared.first >= band {
                fresh.push((b, shared.count));
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,popcnt")]
    unsafe fn first_met_in_avx512(
        &self,
        a: u32,
        later: &[u32],
        band: usize,
        fresh: &mut Vec<(u32, u32)>,
    ) {
        use std::arch::x86_64::*;
        let bands = self.bands.len();
        let row_a = self.buckets_of(a);
        let none = _mm512_set1_epi32(-1);
        for (q, &b) in later.iter().enumerate() {
            if let Some(&ahead) = later.get(q + ROWS_AHEAD) {
                self.prefetch(ahead);
            }
            let row_b = self.buckets_of(b);
            let (mut first, mut count, mut k) = (bands, 0u32, 0usize);
            while k < bands {
                let lanes: __mmask16 = if bands - k >= 16 {
                    u16::MAX
                } else {
                    (1u16 << (bands - k)) - 1
                };
                // SAFETY: the mask covers lanes k..bands of both rows, which are `bands` long.
                let (x, y) = unsafe {
                    (
                        _mm512_maskz_loadu_epi32(lanes, row_a.as_ptr().add(k).cast()),
                        _mm512_maskz_loadu_epi32(lanes, row_b.as_ptr().add(k).cast()),
                    )
                };
                let shared = _mm512_mask_cmpeq_epi32_mask(
                    _mm512_mask_cmpneq_epi32_mask(lanes, x, none),
                    x,
                    y,
                );
                if shared != 0 && first == bands {
                    first = k + shared.trailing_zeros() as usize;
                }
                count += shared.count_ones();
                k += 16;
            }
            if first >= band {
                fresh.push((b, count));
            }
        }
    }

    /// Hints the CPU to load `doc`'s buckets (its row is read at random by the next pairs).
    #[inline(always)]
    pub(super) fn prefetch(&self, doc: u32) {
        let row = self.buckets_of(doc);
        // A row is 4 bytes per band: 32 bands are two cache lines.
        for l in 0..row.len().div_ceil(16).min(4) {
            crate::minhash::similarity::prefetch_line(row.as_ptr().wrapping_add(l * 16));
        }
    }

    /// The bucket of `doc` in each band (`u32::MAX`: none).
    pub fn buckets_of(&self, doc: u32) -> &[u32] {
        let b = self.bands.len();
        &self.bucket_of[doc as usize * b..(doc as usize + 1) * b]
    }
}

/// How many members ahead [`BucketLists::first_met_in`] fetches a row: far enough that a row
/// from memory arrives in time, near enough that it is still in cache when read.
const ROWS_AHEAD: usize = 8;

/// Where two documents' buckets agree: see [`BucketLists::shared_bands`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SharedBands {
    /// The first band in which they share a listed bucket (the number of bands when none).
    pub first: usize,
    /// Bands in which they share a listed bucket.
    pub count: u32,
}

/// [`SharedBands`] of two rows of buckets (`u32::MAX`: in no listed bucket).
#[inline]
fn shared_bands(row_a: &[u32], row_b: &[u32]) -> SharedBands {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU supports the features the function was compiled for.
            return unsafe { shared_bands_avx512(row_a, row_b) };
        }
    }
    shared_bands_portable(row_a, row_b)
}

#[inline]
fn shared_bands_portable(row_a: &[u32], row_b: &[u32]) -> SharedBands {
    let mut out = SharedBands {
        first: row_a.len(),
        count: 0,
    };
    for (k, (&x, &y)) in row_a.iter().zip(row_b).enumerate().rev() {
        if x != u32::MAX && x == y {
            out.first = k;
            out.count += 1;
        }
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn shared_bands_avx512(row_a: &[u32], row_b: &[u32]) -> SharedBands {
    use std::arch::x86_64::*;
    assert_eq!(row_a.len(), row_b.len());
    let none = _mm512_set1_epi32(-1);
    let (mut first, mut count, mut k) = (row_a.len(), 0u32, 0usize);
    while k < row_a.len() {
        // The last block is loaded under a mask (its lanes past the row compare as unequal).
        let lanes: __mmask16 = if row_a.len() - k >= 16 {
            u16::MAX
        } else {
            (1u16 << (row_a.len() - k)) - 1
        };
        // SAFETY: the mask covers lanes k..len of both rows only; masked-off lanes are not read.
        let (x, y) = unsafe {
            (
                _mm512_maskz_loadu_epi32(lanes, row_a.as_ptr().add(k).cast()),
                _mm512_maskz_loadu_epi32(lanes, row_b.as_ptr().add(k).cast()),
            )
        };
        let shared =
            _mm512_mask_cmpeq_epi32_mask(_mm512_mask_cmpneq_epi32_mask(lanes, x, none), x, y);
        if shared != 0 && first == row_a.len() {
            first = k + shared.trailing_zeros() as usize;
        }
        count += shared.count_ones();
        k += 16;
    }
    SharedBands { first, count }
}

/// The buckets of every band among the documents `included` marks (all when `None`), with
/// the same statistics as [`find_candidates_among`] and the same pairs implied: two documents
/// are candidates exactly when [`BucketLists::bands_hit`] is above 0. Parallel over bands.
pub fn bucket_lists(
    sigs: &Signatures,
    options: &BandingOptions,
    included: Option<&[bool]>,
    progress: &Progress,
) -> Result<BucketLists> {
    if let Some(inc) = included {
        assert_eq!(inc.len(), sigs.len(), "one flag per document");
    }
    let banding = options.banding;
    Banding::new(banding.bands, banding.rows, sigs.num_perm())?;
    let cap = options.max_bucket.unwrap_or(usize::MAX).max(MIN_MAX_BUCKET);
    progress.begin(Phase::Banding, banding.bands as u64);
    struct Band {
        buckets: BandBuckets,
        bucket_of: Vec<u32>,
        stats: BucketStats,
        pairs: u64,
    }
    let per_band: Vec<Band> = (0..banding.bands)
        .into_par_iter()
        .map(|band| {
            progress.check()?;
            let keys = band_keys_among(sigs, banding, band, included);
            let mut out = Band {
                buckets: BandBuckets {
                    offsets: vec![0],
                    members: Vec::new(),
                },
                bucket_of: vec![u32::MAX; sigs.len()],
                stats: BucketStats::default(),
                pairs: 0,
            };
            let Band {
                buckets,
                bucket_of,
                stats,
                pairs,
            } = &mut out;
            stats.walk(&keys, band, cap, |members| {
                *pairs += pairs_among(members.len() as u64);
                let number = buckets.len() as u32;
                for &(_, d) in members {
                    buckets.members.push(d);
                    bucket_of[d as usize] = number;
                }
                buckets.offsets.push(buckets.members.len() as u32);
            });
            out.buckets.members.shrink_to_fit();
            progress.advance(1);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    let mut result = BucketLists::default();
    let bands = per_band.len();
    result.bucket_of = vec![u32::MAX; sigs.len() * bands];
    for (k, band) in per_band.iter().enumerate() {
        for (d, &bucket) in band.bucket_of.iter().enumerate() {
            result.bucket_of[d * bands + k] = bucket;
        }
    }
    let totals = BucketStats::total(per_band.iter().map(|b| &b.stats));
    result.largest_buckets = totals.largest;
    result.capped_buckets = totals.capped;
    result.capped_bucket_count = totals.capped_count;
    result.pairs_dropped_by_cap = totals.dropped;
    for band in per_band {
        result.bucket_pairs += band.pairs;
        result.bands.push(band.buckets);
    }
    Ok(result)
}

/// Merges the pairs of all bands (packed `a << 32 | b`) into sorted candidates, counting in
/// how many bands each pair appeared.
///
/// The pairs are first scattered into partitions by ranges of `a`, each small enough to sort
/// in cache, and the partitions are then sorted and run-length counted in parallel; their
/// concatenation is sorted by (a, b). One global sort of tens of millions of pairs would spend
/// most of its time waiting for memory.
fn union_of_band_pairs(band_pairs: Vec<Vec<u64>>, docs: usize) -> Vec<CandidatePair> {
    let total: usize = band_pairs.iter().map(Vec::len).sum();
    if total == 0 {
        return Vec::new();
    }
    let parts = (total / 32_768).next_power_of_two().clamp(1, 1 << 14);
    let part_of = |p: u64| (((p >> 32) as usize * parts) / docs.max(1)).min(parts - 1);
    let mut starts = vec![0usize; parts + 1];
    for pairs in &band_pairs {
        for &p in pairs {
            starts[part_of(p) + 1] += 1;
        }
    }
    for i in 1..=parts {
        starts[i] += starts[i - 1];
    }
    let mut all = vec![0u64; total];
    let mut next = starts.clone();
    for pairs in band_pairs {
        for p in pairs {
            let slot = &mut next[part_of(p)];
            all[*slot] = p;
            *slot += 1;
        }
    }
    let mut slices: Vec<&mut [u64]> = Vec::with_capacity(parts);
    let mut rest: &mut [u64] = &mut all;
    for i in 0..parts {
        let (head, tail) = rest.split_at_mut(starts[i + 1] - starts[i]);
        slices.push(head);
        rest = tail;
    }
    // Sort each partition in place and count its distinct pairs, then write every partition
    // straight into its place in one exact-size result (no per-partition vectors to
    // concatenate: at tens of millions of pairs that copy would double the peak).
    let distinct: Vec<usize> = slices
        .par_iter_mut()
        .map(|slice| {
            slice.sort_unstable();
            slice.chunk_by(|x, y| x == y).count()
        })
        .collect();
    let mut result = vec![
        CandidatePair {
            a: 0,
            b: 0,
            bands_hit: 0
        };
        distinct.iter().sum()
    ];
    let mut outputs = Vec::with_capacity(parts);
    let mut rest: &mut [CandidatePair] = &mut result;
    for &d in &distinct {
        let (head, tail) = rest.split_at_mut(d);
        outputs.push(head);
        rest = tail;
    }
    slices
        .into_par_iter()
        .zip(outputs)
        .for_each(|(slice, out)| {
            for (run, slot) in slice.chunk_by(|x, y| x == y).zip(out.iter_mut()) {
                *slot = CandidatePair {
                    a: (run[0] >> 32) as u32,
                    b: run[0] as u32,
                    bands_hit: run.len() as u32,
                };
            }
        });
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{IndexOptions, build_index};

    #[test]
    fn band_agreement_counts_rows_per_band() {
        let banding = Banding { bands: 3, rows: 2 };
        let a = [1, 2, 3, 4, 5, 6, 9];
        let b = [1, 2, 3, 0, 0, 0, 7];
        assert_eq!(
            banding.band_agreement(&a, &b).collect::<Vec<_>>(),
            vec![2, 1, 0]
        );
    }

    #[test]
    fn agreeing_bands_match_the_candidates() {
        let corpus = Corpus::from_pairs([
            (
                "a",
                "the quick brown fox jumps over the lazy dog near the river bank",
            ),
            (
                "b",
                "the quick brown fox jumps over the lazy dog near the river bend",
            ),
            (
                "c",
                "completely different words about copper wire and electricity",
            ),
            ("e", ""),
        ]);
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let banding = Banding { bands: 32, rows: 4 };
        let sigs = &index.signatures;
        let found = find_candidates(
            sigs,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap();
        for a in 0..4 {
            for b in a + 1..4 {
                let bands = banding.agreeing_bands(sigs, a, b);
                assert_eq!(bands.len(), 32);
                let hits = bands.iter().filter(|&&hit| hit).count();
                let candidate = found
                    .pairs
                    .iter()
                    .find(|p| (p.a as usize, p.b as usize) == (a, b));
                assert_eq!(candidate.map_or(0, |p| p.bands_hit as usize), hits);
                if !sigs.is_empty_doc(a) && !sigs.is_empty_doc(b) {
                    assert_eq!(banding.closest_band(sigs, a, b) == 4, hits > 0);
                }
            }
        }
        // The near copies collide somewhere; the empty document nowhere.
        assert!(banding.agreeing_bands(sigs, 0, 1).contains(&true));
        assert!(!banding.agreeing_bands(sigs, 0, 3).contains(&true));
    }

    #[test]
    fn radix_grouping_matches_sort() {
        let mut rng = crate::util::rng::SplitMix64::new(1);
        for n in [0usize, 5, 300, 5000, 70_000] {
            let keys: Vec<(u64, u32)> = (0..n as u32)
                .map(|d| {
                    let k = rng.next_u64();
                    // Some heavy duplicates, as identical documents give.
                    (
                        if d % 5 == 0 {
                            77
                        } else {
                            (k % (n as u64 / 2 + 1)) << 40
                        },
                        d,
                    )
                })
                .collect();
            let mut expected = keys.clone();
            expected.sort_unstable();
            assert_eq!(sort_by_key_then_doc(keys), expected, "n = {n}");
        }
    }

    #[test]
    fn union_over_many_partitions_matches_a_plain_count() {
        let mut rng = crate::util::rng::SplitMix64::new(9);
        let docs = 5000u64;
        let band_pairs: Vec<Vec<u64>> = (0..6)
            .map(|_| {
                (0..40_000)
                    .map(|_| {
                        let a = rng.next_u64() % (docs - 1);
                        let b = a + 1 + rng.next_u64() % (docs - 1 - a);
                        (a << 32) | b
                    })
                    .collect()
            })
            .collect();
        let mut counts = std::collections::BTreeMap::new();
        for p in band_pairs.iter().flatten() {
            *counts.entry(*p).or_insert(0u32) += 1;
        }
        let expected: Vec<CandidatePair> = counts
            .into_iter()
            .map(|(p, n)| CandidatePair {
                a: (p >> 32) as u32,
                b: p as u32,
                bands_hit: n,
            })
            .collect();
        assert_eq!(union_of_band_pairs(band_pairs, docs as usize), expected);
    }

    #[test]
    fn bucket_lists_imply_the_candidates() {
        let mut texts: Vec<String> = (0..60)
            .map(|i| {
                format!(
                    "a boilerplate notice about item {} and its {} colour",
                    i % 7,
                    i % 3
                )
            })
            .collect();
        texts.push(String::new());
        texts.extend(std::iter::repeat_n("one copied line".to_string(), 5));
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let n = idx.signatures.len() as u32;
        for cap in [None, Some(4)] {
            let options = BandingOptions {
                banding: Banding::new(16, 2, 128).unwrap(),
                max_bucket: cap,
            };
            let pairs = find_candidates(&idx.signatures, &options, &Progress::new()).unwrap();
            let lists = bucket_lists(&idx.signatures, &options, None, &Progress::new()).unwrap();
            let mut implied = Vec::new();
            for a in 0..n {
                for b in a + 1..n {
                    let hit = lists.bands_hit(a, b);
                    if hit > 0 {
                        implied.push(CandidatePair {
                            a,
                            b,
                            bands_hit: hit,
                        });
                    }
                }
            }
            assert_eq!(implied, pairs.pairs, "cap {cap:?}");
            assert_eq!(lists.bucket_pairs, pairs.bucket_pairs);
            assert_eq!(lists.pairs_dropped_by_cap, pairs.pairs_dropped_by_cap);
            assert_eq!(lists.largest_buckets, pairs.largest_buckets);
            let listed: usize = lists
                .bands
                .iter()
                .map(|b| b.iter().map(<[u32]>::len).sum::<usize>())
                .sum();
            assert!(listed <= n as usize * 16);
        }
    }

    #[test]
    fn checks_budget() {
        assert!(Banding::new(20, 5, 100).is_ok());
        let err = Banding::new(20, 6, 100).unwrap_err().to_string();
        assert!(
            err.contains("120 hashes") && err.contains("raise `num_perm`"),
            "{err}"
        );
        assert!(Banding::new(0, 5, 100).is_err());
    }

    #[test]
    fn identical_docs_collide_in_every_band_and_empty_never() {
        let corpus = Corpus::from_texts([
            "same text here",
            "",
            "same text here",
            "",
            "other words entirely",
        ]);
        let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let opts = BandingOptions {
            banding: Banding::new(16, 8, 128).unwrap(),
            max_bucket: None,
        };
        let c = find_candidates(&idx.signatures, &opts, &Progress::new()).unwrap();
        assert_eq!(
            c.pairs,
            vec![CandidatePair {
                a: 0,
                b: 2,
                bands_hit: 16
            }]
        );
        assert_eq!(c.largest_buckets[0].size, 2);
    }

    #[test]
    fn max_bucket_caps_and_reports() {
        let texts: Vec<&str> = std::iter::repeat_n("a repeated boilerplate line", 50).collect();
        let corpus = Corpus::from_texts(texts);
        let idx = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let banding = Banding::new(4, 4, 128).unwrap();
        let full = find_candidates(
            &idx.signatures,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(full.pairs.len(), 50 * 49 / 2);
        let capped = find_candidates(
            &idx.signatures,
            &BandingOptions {
                banding,
                max_bucket: Some(10),
            },
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(capped.pairs.len(), 45);
        assert_eq!(capped.capped_bucket_count, 4);
        assert_eq!(capped.pairs_dropped_by_cap, 4 * (1225 - 45));
        assert!(capped.pairs.iter().all(|p| p.b < 10 && p.bands_hit == 4));
    }

    #[test]
    fn shared_bands_agree_with_the_two_scalar_questions() {
        let mut rng = crate::util::rng::SplitMix64::new(43);
        for bands in [1usize, 2, 15, 16, 17, 20, 31, 32, 33, 64, 100] {
            for _ in 0..400 {
                // Few distinct buckets, so rows agree often; MAX (no bucket) on both sides too.
                let mut draw = || match rng.below(5) {
                    0 => u32::MAX,
                    v => v as u32,
                };
                let a: Vec<u32> = (0..bands).map(|_| draw()).collect();
                let b: Vec<u32> = (0..bands).map(|_| draw()).collect();
                let hits: Vec<bool> = a
                    .iter()
                    .zip(&b)
                    .map(|(&x, &y)| x != u32::MAX && x == y)
                    .collect();
                let expected = SharedBands {
                    first: hits.iter().position(|&h| h).unwrap_or(bands),
                    count: hits.iter().filter(|&&h| h).count() as u32,
                };
                assert_eq!(shared_bands(&a, &b), expected, "{a:?} {b:?}");
                assert_eq!(shared_bands_portable(&a, &b), expected, "{a:?} {b:?}");
            }
        }
    }
}
