//! Candidates as buckets: each band's buckets and each document's bucket per band, for
//! clustering without listing pairs.

use rayon::prelude::*;

use super::keys::{band_keys_among, band_keys_of_docs};
use super::stats::BucketStats;
use super::{BandingOptions, BucketInfo, pairs_among, start_banding};
use crate::Result;
use crate::jobs::Progress;
use crate::minhash::index::Signatures;

/// The buckets of one band that can form pairs: two or more documents, each list in input
/// order and cut to the first `max_bucket` members.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
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

    /// True when the band has no bucket of two or more documents.
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
/// follows documents × bands (at most 10 bytes per document and band, and 4 per bucket),
/// however many pairs the buckets stand for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BucketLists {
    /// One entry per band, in band order.
    pub bands: Vec<BandBuckets>,
    /// For document d and band k, at `d · bands + k`, the number of d's bucket in
    /// `bands[k]`, or `u32::MAX` when d is in no listed bucket (alone, empty, excluded, or
    /// beyond the bucket cap). Document-major, so one document's buckets are read together
    /// (two cache lines at 32 bands).
    bucket_of: Vec<u32>,
    /// `bucket_of` in 16 bits (`u16::MAX`: none) when no band has more than 65,535 buckets
    /// (numbers up to 65,534: any corpus of up to 131,071 documents, and most far larger),
    /// else empty. Where pairs are checked for earlier bands, a row is then 64 bytes at 32
    /// bands, one cache line and one compare, where the 32-bit row is two of each; the check
    /// read the rows at random and was a seventh of a short-text scan.
    narrow: Vec<u16>,
    /// The largest buckets over all bands, largest first (at most 10; sizes before the cap).
    pub largest_buckets: Vec<BucketInfo>,
    /// Buckets larger than `max_bucket`, largest first (at most 10 listed).
    pub capped_buckets: Vec<BucketInfo>,
    /// How many buckets were larger than `max_bucket`, all of them (the list above keeps 10).
    pub capped_bucket_count: usize,
    /// Bucket pairs the cap leaves out (with multiplicity over bands).
    pub pairs_dropped_by_cap: u64,
    /// Pairs the listed buckets stand for, counted with multiplicity over bands (an upper
    /// bound on the distinct candidates).
    pub bucket_pairs: u64,
}

impl BucketLists {
    /// In how many bands `a` and `b` share a listed bucket: a candidate pair when above 0,
    /// with the `bands_hit` that [`find_candidates_among`](super::find_candidates_among) would give it.
    pub fn bands_hit(&self, a: u32, b: u32) -> u32 {
        self.shared_bands(a, b).count
    }

    /// True when `a` and `b` share a listed bucket in a band before `band`.
    pub fn collide_before(&self, a: u32, b: u32, band: usize) -> bool {
        self.shared_bands(a, b).first < band
    }

    /// The bands in which `a` and `b` share a listed bucket, as the first such band and their
    /// count: one pass that gives both [`BucketLists::collide_before`] (`first < band`) and
    /// [`BucketLists::bands_hit`] (`count`), with AVX-512 16 bands to a compare (32 on the
    /// 16-bit rows). A streamed
    /// scan asks this for every bucket pair of every band (2.5 G times for 147 M candidates of
    /// a template corpus at 32 × 4), where the two scalar loops were a quarter of the phase.
    #[inline]
    pub fn shared_bands(&self, a: u32, b: u32) -> SharedBands {
        if self.narrow.is_empty() {
            shared_bands(self.buckets_of(a), self.buckets_of(b))
        } else {
            shared_bands_narrow(self.narrow_row(a), self.narrow_row(b))
        }
    }

    /// These lists' bands followed by `later`'s (of another banding over the same
    /// documents): one set of lists in which a pair's first shared band says which banding
    /// met it first, and a pair in no band is missed by both. The bucket statistics are the
    /// two sets' together, `later`'s bands numbered after these.
    pub(crate) fn followed_by(self, later: BucketLists) -> BucketLists {
        let (first_bands, later_bands) = (self.bands.len(), later.bands.len());
        let bands = first_bands + later_bands;
        let docs = self.bucket_of.len() / first_bands.max(1);
        assert_eq!(
            later.bucket_of.len(),
            docs * later_bands,
            "both lists over the same documents"
        );
        // Each document's row: its buckets in these bands, then in `later`'s.
        fn rows<T: Copy>(first: &[T], later: &[T], widths: (usize, usize), docs: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(docs * (widths.0 + widths.1));
            for d in 0..docs {
                out.extend_from_slice(&first[d * widths.0..(d + 1) * widths.0]);
                out.extend_from_slice(&later[d * widths.1..(d + 1) * widths.1]);
            }
            out
        }
        let widths = (first_bands, later_bands);
        let bucket_of = rows(&self.bucket_of, &later.bucket_of, widths, docs);
        let narrow = if self.narrow.is_empty() || later.narrow.is_empty() {
            Vec::new()
        } else {
            rows(&self.narrow, &later.narrow, widths, docs)
        };
        let renumber = |list: Vec<BucketInfo>| {
            list.into_iter().map(|info| BucketInfo {
                band: info.band + first_bands,
                ..info
            })
        };
        let by_size = |list: &mut Vec<BucketInfo>| {
            list.sort_by(|x, y| y.size.cmp(&x.size).then(x.band.cmp(&y.band)));
            list.truncate(10);
        };
        let mut largest_buckets = self.largest_buckets;
        largest_buckets.extend(renumber(later.largest_buckets));
        by_size(&mut largest_buckets);
        let mut capped_buckets = self.capped_buckets;
        capped_buckets.extend(renumber(later.capped_buckets));
        by_size(&mut capped_buckets);
        let mut all_bands = self.bands;
        all_bands.extend(later.bands);
        debug_assert_eq!(all_bands.len(), bands);
        BucketLists {
            bands: all_bands,
            bucket_of,
            narrow,
            largest_buckets,
            capped_buckets,
            capped_bucket_count: self.capped_bucket_count + later.capped_bucket_count,
            pairs_dropped_by_cap: self.pairs_dropped_by_cap + later.pairs_dropped_by_cap,
            bucket_pairs: self.bucket_pairs + later.bucket_pairs,
        }
    }

    /// True when the buckets are also held in 16 bits (no band has more than 65,535).
    #[cfg(test)]
    pub(crate) fn has_narrow_rows(&self) -> bool {
        !self.narrow.is_empty()
    }

    /// These lists without their 16-bit rows, as a banding with more buckets has them.
    #[cfg(test)]
    pub(crate) fn without_narrow_rows(mut self) -> Self {
        self.narrow = Vec::new();
        self
    }

    /// `doc`'s row of [`BucketLists::narrow`]; only asked when there are narrow rows.
    #[inline]
    fn narrow_row(&self, doc: u32) -> &[u16] {
        let b = self.bands.len();
        &self.narrow[doc as usize * b..(doc as usize + 1) * b]
    }

    /// Appends to `fresh` each document of `later` (documents that share `a`'s bucket in
    /// `band`) that shares no listed bucket with `a` in an earlier band, with the number of
    /// bands in which the two share one: the pairs of `a` a streamed scan takes in `band`, as
    /// [`BucketLists::shared_bands`] decides them. The rows of `later` are read in order and
    /// fetched a few members ahead; with AVX-512 the whole pass is one function, 16 bands to
    /// a compare (32 on the 16-bit rows).
    pub fn first_met_in(&self, a: u32, later: &[u32], band: usize, fresh: &mut Vec<(u32, u32)>) {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt") {
                if !self.narrow.is_empty() && std::is_x86_feature_detected!("avx512bw") {
                    // SAFETY: the CPU supports the features the function was compiled for.
                    return unsafe { self.first_met_in_narrow_avx512(a, later, band, fresh) };
                }
                // SAFETY: as above (the 32-bit rows are always there).
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

    /// [`BucketLists::first_met_in`] on the narrow rows, 32 bands to a compare.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,popcnt")]
    unsafe fn first_met_in_narrow_avx512(
        &self,
        a: u32,
        later: &[u32],
        band: usize,
        fresh: &mut Vec<(u32, u32)>,
    ) {
        use std::arch::x86_64::*;
        let row_a = self.narrow_row(a);
        let bands = row_a.len();
        if (1..=32).contains(&bands) {
            // One load and compare a pair, `a`'s row and its buckets loaded once.
            let lanes: __mmask32 = u32::MAX >> (32 - bands);
            // SAFETY: the mask covers the row's `bands` lanes only.
            let x = unsafe { _mm512_maskz_loadu_epi16(lanes, row_a.as_ptr().cast()) };
            let listed = _mm512_mask_cmpneq_epi16_mask(lanes, x, _mm512_set1_epi16(-1));
            for (q, &b) in later.iter().enumerate() {
                if let Some(&ahead) = later.get(q + ROWS_AHEAD) {
                    self.prefetch(ahead);
                }
                // SAFETY: as above: `b`'s row, also `bands` long, read under the same mask.
                let y =
                    unsafe { _mm512_maskz_loadu_epi16(lanes, self.narrow_row(b).as_ptr().cast()) };
                let shared = _mm512_mask_cmpeq_epi16_mask(listed, x, y);
                if shared == 0 || shared.trailing_zeros() as usize >= band {
                    fresh.push((b, shared.count_ones()));
                }
            }
            return;
        }
        for (q, &b) in later.iter().enumerate() {
            if let Some(&ahead) = later.get(q + ROWS_AHEAD) {
                self.prefetch(ahead);
            }
            // SAFETY: this function's features are the kernel's.
            let shared = unsafe { shared_bands_narrow_avx512(row_a, self.narrow_row(b)) };
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
    pub(in crate::minhash) fn prefetch(&self, doc: u32) {
        if !self.narrow.is_empty() {
            // 2 bytes per band: 32 bands are one cache line.
            let row = self.narrow_row(doc);
            for l in 0..row.len().div_ceil(32).min(4) {
                crate::minhash::similarity::prefetch_line(row.as_ptr().wrapping_add(l * 32));
            }
            return;
        }
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
pub(super) fn shared_bands(row_a: &[u32], row_b: &[u32]) -> SharedBands {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU supports the features the function was compiled for.
            return unsafe { shared_bands_avx512(row_a, row_b) };
        }
    }
    shared_bands_portable(row_a, row_b)
}

#[inline]
pub(super) fn shared_bands_portable(row_a: &[u32], row_b: &[u32]) -> SharedBands {
    shared_bands_scalar(row_a, row_b, u32::MAX)
}

/// [`SharedBands`] of two rows of bucket numbers, band by band; `none` marks no bucket. The
/// one scalar loop behind the 32-bit and the 16-bit rows.
#[inline]
fn shared_bands_scalar<T: Copy + Eq>(row_a: &[T], row_b: &[T], none: T) -> SharedBands {
    let mut out = SharedBands {
        first: row_a.len(),
        count: 0,
    };
    for (k, (&x, &y)) in row_a.iter().zip(row_b).enumerate().rev() {
        if x != none && x == y {
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

/// [`SharedBands`] of two narrow rows of buckets (`u16::MAX`: in no listed bucket).
#[inline]
pub(super) fn shared_bands_narrow(row_a: &[u16], row_b: &[u16]) -> SharedBands {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU supports the features the function was compiled for.
            return unsafe { shared_bands_narrow_avx512(row_a, row_b) };
        }
    }
    shared_bands_narrow_portable(row_a, row_b)
}

#[inline]
pub(super) fn shared_bands_narrow_portable(row_a: &[u16], row_b: &[u16]) -> SharedBands {
    shared_bands_scalar(row_a, row_b, u16::MAX)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,popcnt")]
#[inline]
unsafe fn shared_bands_narrow_avx512(row_a: &[u16], row_b: &[u16]) -> SharedBands {
    use std::arch::x86_64::*;
    assert_eq!(row_a.len(), row_b.len());
    let none = _mm512_set1_epi16(-1);
    let (mut first, mut count, mut k) = (row_a.len(), 0u32, 0usize);
    while k < row_a.len() {
        // The last block is loaded under a mask (its lanes past the row compare as unequal).
        let lanes: __mmask32 = if row_a.len() - k >= 32 {
            u32::MAX
        } else {
            (1u32 << (row_a.len() - k)) - 1
        };
        // SAFETY: the mask covers lanes k..len of both rows only; masked-off lanes are not read.
        let (x, y) = unsafe {
            (
                _mm512_maskz_loadu_epi16(lanes, row_a.as_ptr().add(k).cast()),
                _mm512_maskz_loadu_epi16(lanes, row_b.as_ptr().add(k).cast()),
            )
        };
        let shared =
            _mm512_mask_cmpeq_epi16_mask(_mm512_mask_cmpneq_epi16_mask(lanes, x, none), x, y);
        if shared != 0 && first == row_a.len() {
            first = k + shared.trailing_zeros() as usize;
        }
        count += shared.count_ones();
        k += 32;
    }
    SharedBands { first, count }
}

/// The buckets of every band among the documents `included` marks (all when `None`), with
/// the same statistics as [`find_candidates_among`](super::find_candidates_among) and the same pairs implied: two documents
/// are candidates exactly when [`BucketLists::bands_hit`] is above 0. Parallel over bands.
pub fn bucket_lists(
    sigs: &Signatures,
    options: &BandingOptions,
    included: Option<&[bool]>,
    progress: &Progress,
) -> Result<BucketLists> {
    let (banding, cap) = start_banding(sigs, options, included, progress)?;
    let per_band: Vec<Band> = (0..banding.bands)
        .into_par_iter()
        .map(|band| {
            progress.check()?;
            let keys = band_keys_among(sigs, banding, band, included);
            let (mut buckets, mut stats, mut pairs) =
                (BandBuckets::default(), BucketStats::default(), 0);
            buckets.offsets.push(0);
            stats.walk(&keys, band, cap, |members| {
                pairs += pairs_among(members.len() as u64);
                buckets.members.extend(members.iter().map(|&(_, d)| d));
                buckets.offsets.push(buckets.members.len() as u32);
            });
            buckets.members.shrink_to_fit();
            progress.advance(1);
            Ok(Band {
                buckets,
                stats,
                pairs,
            })
        })
        .collect::<Result<_>>()?;
    Ok(assemble(per_band, sigs.len()))
}

/// One band's share of a [`BucketLists`]: its buckets, its statistics and its bucket pairs.
#[derive(Default)]
pub(super) struct Band {
    pub(super) buckets: BandBuckets,
    pub(super) stats: BucketStats,
    pub(super) pairs: u64,
}

/// The lists of all bands over `docs` documents from each band's share: each document's
/// buckets (document-major, from the bands' members), the statistics and pairs totalled.
pub(super) fn assemble(per_band: Vec<Band>, docs: usize) -> BucketLists {
    let mut result = BucketLists::default();
    let bands = per_band.len();
    // Bucket numbers below u16::MAX fit in 16 bits, and u16::MAX stays free for "none".
    let narrow = per_band
        .iter()
        .all(|b| b.buckets.len() <= usize::from(u16::MAX));
    result.bucket_of = vec![u32::MAX; docs * bands];
    if narrow {
        result.narrow = vec![u16::MAX; docs * bands];
    }
    for (k, band) in per_band.iter().enumerate() {
        for (number, members) in band.buckets.iter().enumerate() {
            for &d in members {
                result.bucket_of[d as usize * bands + k] = number as u32;
                if narrow {
                    result.narrow[d as usize * bands + k] = number as u16;
                }
            }
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
    result
}

/// [`bucket_lists`] of every document, keying only the first of each group of documents whose
/// banded values are equal. `first_of[d]` is the first document in input order (so `≤ d`)
/// whose leading b × r signature values equal d's, d itself when no earlier one's do, as
/// `first_of_each_row` finds them. Such documents share a bucket in every band, so only the
/// first of each group is keyed and sorted; the others join its buckets at their input
/// positions, and a bucket's size counts them all. The lists, bucket numbers and statistics
/// are those of [`bucket_lists`] (tested): only the keying and sorting, most of the work, is
/// done per distinct row, which in a template corpus that repeats texts verbatim is about
/// half of the documents.
pub(crate) fn bucket_lists_of_representatives(
    sigs: &Signatures,
    options: &BandingOptions,
    first_of: &[u32],
    progress: &Progress,
) -> Result<BucketLists> {
    assert_eq!(
        first_of.len(),
        sigs.len(),
        "a first document for each document"
    );
    let (banding, cap) = start_banding(sigs, options, None, progress)?;
    let n = sigs.len();
    // Each first document's group size, and which documents are keyed.
    let mut multiplicity = vec![0u32; n];
    let mut keyed = vec![false; n];
    for (d, &first) in first_of.iter().enumerate() {
        debug_assert!(first as usize <= d, "a group's first document comes first");
        if !sigs.is_empty_doc(d) {
            multiplicity[first as usize] += 1;
            keyed[d] = first as usize == d;
        }
    }
    let keyed: Vec<u32> = (0..n as u32).filter(|&d| keyed[d as usize]).collect();
    let keys_by_band = band_keys_of_docs(sigs, banding, &keyed);
    drop(keyed);
    progress.check()?;
    let per_band: Vec<Band> = keys_by_band
        .into_par_iter()
        .enumerate()
        .map(|(band, keys)| {
            progress.check()?;
            // The bucket of each first document (keyed ones only); the others take theirs
            // below.
            let mut bucket_of_first = vec![u32::MAX; n];
            let mut stats = BucketStats::default();
            let mut offsets = vec![0u32];
            let mut pairs = 0u64;
            for run in keys.chunk_by(|x, y| x.0 == y.0) {
                let size: usize = run
                    .iter()
                    .map(|&(_, d)| multiplicity[d as usize] as usize)
                    .sum();
                if size < 2 {
                    continue;
                }
                let info = BucketInfo {
                    band,
                    size,
                    // Keys sort by (key, document) and a group's first document is its
                    // smallest, so this is the bucket's first member.
                    first_doc: run[0].1,
                };
                let kept = stats.record(info, cap);
                pairs += pairs_among(kept as u64);
                let number = offsets.len() as u32 - 1;
                for &(_, d) in run {
                    bucket_of_first[d as usize] = number;
                }
                offsets.push(offsets[offsets.len() - 1] + kept as u32);
            }
            stats.finish();
            // Every document takes its first's bucket, in input order, while the bucket has
            // room under the cap. A first document left out by the cap has no bucket, and
            // neither have its copies: they come after it in input order, so after the cut too.
            let mut cursor = offsets[..offsets.len() - 1].to_vec();
            let mut members = vec![0u32; offsets[offsets.len() - 1] as usize];
            for d in 0..n {
                if sigs.is_empty_doc(d) {
                    continue;
                }
                let bucket = bucket_of_first[first_of[d] as usize];
                if bucket == u32::MAX {
                    continue;
                }
                let at = &mut cursor[bucket as usize];
                if *at < offsets[bucket as usize + 1] {
                    members[*at as usize] = d as u32;
                    *at += 1;
                }
            }
            progress.advance(1);
            Ok(Band {
                buckets: BandBuckets { offsets, members },
                stats,
                pairs,
            })
        })
        .collect::<Result<_>>()?;
    Ok(assemble(per_band, n))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A band of `buckets` buckets of two documents each: documents 2k and 2k + 1 in bucket k.
    fn band_of_pairs(buckets: u32) -> Band {
        Band {
            buckets: BandBuckets {
                offsets: (0..=buckets).map(|k| 2 * k).collect(),
                members: (0..2 * buckets).collect(),
            },
            ..Band::default()
        }
    }

    /// Bucket numbers up to 65,534 are held in 16 bits, the last ones distinct from each other
    /// and from "no bucket"; one more bucket and only the 32-bit rows are kept. Either way the
    /// lists answer as the 32-bit rows do.
    #[test]
    fn narrow_rows_hold_every_number_below_the_none_mark() {
        for (buckets, narrow) in [(65_535u32, true), (65_536, false)] {
            // A second band of three buckets; the last document is in no bucket.
            let docs = 2 * buckets + 1;
            let lists = assemble(
                vec![band_of_pairs(buckets), band_of_pairs(3)],
                docs as usize,
            );
            assert_eq!(lists.has_narrow_rows(), narrow, "{buckets} buckets");
            let last = 2 * buckets - 2;
            let wide = lists.clone().without_narrow_rows();
            for (a, b, shared) in [
                (0, 1, (0, 2)),
                (2, 3, (0, 2)),
                (1, 2, (2, 0)),
                (last, last + 1, (0, 1)),
                (last - 1, last, (2, 0)),
                (last - 2, last - 1, (0, 1)),
                (last + 1, docs - 1, (2, 0)),
                (docs - 1, 0, (2, 0)),
            ] {
                let expected = SharedBands {
                    first: shared.0,
                    count: shared.1,
                };
                assert_eq!(lists.shared_bands(a, b), expected, "{buckets}: {a}, {b}");
                assert_eq!(wide.shared_bands(a, b), expected, "{buckets}: {a}, {b}");
                let mut fresh = Vec::new();
                lists.first_met_in(a, &[b], 1, &mut fresh);
                let mut wide_fresh = Vec::new();
                wide.first_met_in(a, &[b], 1, &mut wide_fresh);
                assert_eq!(fresh, wide_fresh, "{buckets}: {a}, {b}");
            }
        }
    }
}
