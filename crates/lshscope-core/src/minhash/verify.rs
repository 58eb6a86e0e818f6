//! Verification of candidate pairs: exact Jaccard and MinHash estimate for each.

use rayon::prelude::*;

use super::{CandidatePair, Index, Signatures};
use crate::Result;
use crate::jobs::{Phase, Progress};
#[cfg(target_arch = "x86_64")]
use crate::minhash::similarity::{block_matches, tail_matches};
use crate::minhash::similarity::{jaccard, prefetch_set, prefetch_signature};

/// A candidate pair with its exact and estimated similarity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerifiedPair {
    /// Input position of the first document (a < b).
    pub a: u32,
    /// Input position of the second document.
    pub b: u32,
    /// Bands in which the two documents shared a bucket.
    pub bands_hit: u32,
    /// Exact Jaccard of the two shingle sets.
    pub jaccard: f64,
    /// Fraction of all K signature rows that agree.
    pub estimate: f64,
}

/// A [`VerifiedPair`] in 24 bytes instead of 32, for holding millions (a scan's sorted
/// output): the estimate as its count of agreeing rows, which unpacks to the same `f64`
/// (the estimate is that count over K), and `bands_hit` in 16 bits (K is at most 4096).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PackedPair {
    /// Input position of the first document (a < b).
    pub a: u32,
    /// Input position of the second document.
    pub b: u32,
    jaccard: f64,
    bands_hit: u16,
    agreeing_rows: u16,
}

impl PackedPair {
    /// Bytes of a packed pair: [`PackedPair::to_words`] written little-endian.
    pub const BYTES: usize = 20;

    /// Packs `pair`, whose estimate was computed with `num_perm` rows.
    #[inline]
    pub fn pack(pair: &VerifiedPair, num_perm: usize) -> Self {
        // The count of agreeing rows: the product is within an ulp or two of a whole number,
        // where adding a half and truncating agrees with `f64::round`, a call into the C
        // library on this target (1 % of a sorted scan's CPU; every kept pair is packed).
        let agreeing_rows = (pair.estimate * num_perm as f64 + 0.5) as u16;
        let packed = PackedPair {
            a: pair.a,
            b: pair.b,
            jaccard: pair.jaccard,
            bands_hit: pair.bands_hit as u16,
            agreeing_rows,
        };
        debug_assert_eq!(packed.unpack(num_perm), *pair, "a pair of {num_perm} rows");
        packed
    }

    /// The pair as five 32-bit words, `[a, b, Jaccard's low and high halves, bands hit |
    /// agreeing rows << 16]`: 4-byte aligned, so millions of them hold no padding, and
    /// written little-endian in a file of sorted runs, readable on any machine.
    #[inline]
    pub fn to_words(self) -> [u32; 5] {
        let jaccard = self.jaccard.to_bits();
        [
            self.a,
            self.b,
            jaccard as u32,
            (jaccard >> 32) as u32,
            u32::from(self.bands_hit) | (u32::from(self.agreeing_rows) << 16),
        ]
    }

    /// The pair [`PackedPair::to_words`] gave.
    #[inline]
    pub fn from_words(words: &[u32; 5]) -> Self {
        PackedPair {
            a: words[0],
            b: words[1],
            jaccard: f64::from_bits(u64::from(words[2]) | (u64::from(words[3]) << 32)),
            bands_hit: words[4] as u16,
            agreeing_rows: (words[4] >> 16) as u16,
        }
    }

    /// The [`VerifiedPair`] again; `num_perm` must be the K the pair was packed with, or the
    /// estimate comes out wrong.
    #[inline]
    pub fn unpack(&self, num_perm: usize) -> VerifiedPair {
        VerifiedPair {
            a: self.a,
            b: self.b,
            bands_hit: self.bands_hit as u32,
            jaccard: self.jaccard,
            estimate: self.agreeing_rows as f64 / num_perm as f64,
        }
    }
}

/// Verifies every candidate (parallel) and keeps those with exact Jaccard ≥ `threshold`, in
/// the order of `candidates`.
pub fn verify(
    index: &Index,
    candidates: &[CandidatePair],
    threshold: f64,
    progress: &Progress,
) -> Result<Vec<VerifiedPair>> {
    progress.begin(Phase::Verifying, candidates.len() as u64);
    let chunks: Vec<Vec<VerifiedPair>> = candidates
        .par_chunks(16 * 1024)
        .map(|chunk| {
            progress.check()?;
            let out = chunk
                .iter()
                .enumerate()
                .filter_map(|(k, c)| {
                    // Pairs are sorted by a, so set a is usually cached; fetch b's (and a new a's) two pairs
                    // ahead: farther ahead measured no better, nearer leaves latency exposed.
                    if let Some(next) = chunk.get(k + 2) {
                        prefetch_set(index.sets.get(next.b as usize));
                        prefetch_signature(index.signatures.row(next.b as usize));
                        if next.a != chunk[k + 1].a {
                            prefetch_set(index.sets.get(next.a as usize));
                            prefetch_signature(index.signatures.row(next.a as usize));
                        }
                    }
                    let j = jaccard_at_least(
                        index.sets.get(c.a as usize),
                        index.sets.get(c.b as usize),
                        threshold,
                    )?;
                    Some(VerifiedPair {
                        a: c.a,
                        b: c.b,
                        bands_hit: c.bands_hit,
                        jaccard: j,
                        estimate: estimate(&index.signatures, c.a as usize, c.b as usize),
                    })
                })
                .collect();
            progress.advance(chunk.len() as u64);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    Ok(chunks.concat())
}

/// The exact Jaccard of two sorted sets when it is at least `threshold`, else `None`: the same
/// value and the same decision as `jaccard(a, b) >= threshold`, usually without reading both
/// sets to the end.
///
/// Two bounds end the work early, both exact in floating point because the computed Jaccard
/// `fl(i / (n − i))` only grows with the intersection size i (n = |A| + |B|):
/// - sizes: J ≤ min/max, so `fl(min / max) < threshold` rejects without reading the sets;
/// - during the merge: at most `matched + min(left in A, left in B)` values can still match, so
///   once that count is below the smallest i that reaches the threshold, the pair is rejected.
#[inline]
pub fn jaccard_at_least(a: &[u64], b: &[u64], threshold: f64) -> Option<f64> {
    match plan(a, b, threshold) {
        Plan::Known(j) => j,
        Plan::Merge { need, n } => {
            #[cfg(target_arch = "x86_64")]
            {
                if has_avx512() {
                    // SAFETY: the CPU supports the features the function was compiled for.
                    let inter = unsafe { intersection_at_least_avx512(a, b, (0, 0, 0), need) }?;
                    return Some(ratio(inter, n));
                }
            }
            let j = jaccard(a, b);
            (j >= threshold).then_some(j)
        }
    }
}

/// [`jaccard_at_least`] of `a` with each set of `others`, in order, into `out` (cleared
/// first): the same values and decisions.
///
/// With AVX-512 the block merges run two at a time in one loop, a merge that ends making room
/// for the next. A block merge is a chain of dependent steps (load the blocks' last values,
/// compare, advance) that leaves the compare port idle while each step's loads arrive; two
/// independent chains fill those gaps, and their cache misses overlap. A streamed scan meets
/// each document with several others in a bucket, so pairs that share their first set come
/// in runs.
pub fn jaccards_at_least(a: &[u64], others: &[&[u64]], threshold: f64, out: &mut Vec<Option<f64>>) {
    merge_planned(a, others, threshold, out, |n| need_of_sum(n, threshold));
}

/// [`jaccards_at_least`] with the needs of each |A| + |B| kept in `needs` from one call to
/// the next: the same values and decisions. For a caller with one threshold and many calls
/// (a scan's stream), where computing each pair's need (a few dependent divisions) was a
/// tenth of a scan of short texts at t = 0.5.
pub(crate) fn jaccards_at_least_with(
    a: &[u64],
    others: &[&[u64]],
    threshold: f64,
    needs: &mut Needs,
    out: &mut Vec<Option<f64>>,
) {
    needs.keep_for(threshold);
    merge_planned(a, others, threshold, out, |n| needs.of(n));
}

/// The smallest intersection size whose Jaccard reaches `threshold` for sets whose sizes add
/// up to n: [`smallest_reaching`] up to n / 2, the largest the smaller set can be.
#[inline]
fn need_of_sum(n: usize, threshold: f64) -> Option<usize> {
    smallest_reaching(n, n / 2, threshold)
}

/// [`need_of_sum`] of one threshold per n, computed when first asked.
#[derive(Debug, Default)]
pub(crate) struct Needs {
    /// The threshold the table holds needs for.
    threshold: f64,
    /// Per n: 0 not yet computed, 1 none (no intersection reaches), i + 2 the need i.
    table: Vec<u32>,
}

impl Needs {
    /// Empties the table unless it holds needs for `threshold` (the same bits: NaN too).
    fn keep_for(&mut self, threshold: f64) {
        if self.threshold.to_bits() != threshold.to_bits() {
            self.threshold = threshold;
            self.table.clear();
        }
    }

    #[inline]
    fn of(&mut self, n: usize) -> Option<usize> {
        if n >= self.table.len() {
            self.table.resize(n + 1, 0);
        }
        match self.table[n] {
            0 => {
                let need = need_of_sum(n, self.threshold);
                // A need fits u32 whenever n does; past that, compute it every time.
                if let Some(code) = need.map_or(Some(1), |i| u32::try_from(i + 2).ok()) {
                    self.table[n] = code;
                }
                need
            }
            1 => None,
            code => Some(code as usize - 2),
        }
    }
}

/// The body of [`jaccards_at_least`], `need_of(n)` giving [`need_of_sum`]`(n, threshold)`.
#[inline(always)]
fn merge_planned(
    a: &[u64],
    others: &[&[u64]],
    threshold: f64,
    out: &mut Vec<Option<f64>>,
    mut need_of: impl FnMut(usize) -> Option<usize>,
) {
    out.clear();
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx512() {
            let mut queue = Vec::new();
            for (q, other) in others.iter().enumerate() {
                out.push(match plan_with(a, other, threshold, &mut need_of) {
                    Plan::Known(j) => j,
                    Plan::Merge { need, .. } => {
                        queue.push((q, need));
                        None
                    }
                });
            }
            // SAFETY: the CPU supports the features the function was compiled for.
            unsafe { merge_in_pairs(a, others, &queue, threshold > 0.0, out) };
            return;
        }
    }
    out.extend(
        others
            .iter()
            .map(|other| jaccard_at_least(a, other, threshold)),
    );
}

/// The merges of `queue` (positions in `others` and their needs), two at a time, their
/// Jaccards written to `out` at those positions (None: below the need). `check`: some need
/// may stop a merge early (else every need is 0 and the bound is not tested).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
unsafe fn merge_in_pairs(
    a: &[u64],
    others: &[&[u64]],
    queue: &[(usize, usize)],
    check: bool,
    out: &mut [Option<f64>],
) {
    // A lane: the queue entry it merges and where its merge stands (i, j, count).
    type Lane = (usize, (usize, usize, usize));
    let mut next = 0;
    let mut take = || {
        // The set two merges on is fetched now, to be in cache when its lane opens.
        if let Some(&(q, _)) = queue.get(next + 2) {
            prefetch_set(others[q]);
        }
        let lane = queue.get(next).map(|_| (next, (0, 0, 0)));
        next += 1;
        lane
    };
    let mut lanes: [Option<Lane>; 2] = [take(), take()];
    let finish = |out: &mut [Option<f64>], e: usize, inter: Option<usize>| {
        let (q, _) = queue[e];
        out[q] = inter.map(|i| ratio(i, a.len() + others[q].len()));
    };
    while let [Some((e0, s0)), Some((e1, s1))] = lanes {
        let (q0, need0) = queue[e0];
        let (q1, need1) = queue[e1];
        let (b, c) = (others[q0], others[q1]);
        // SAFETY: the CPU supports the features (this function's own).
        let (states, rejected) = unsafe {
            if check {
                interleaved_steps::<true>(a, [b, c], [s0, s1], [need0, need1])
            } else {
                interleaved_steps::<false>(a, [b, c], [s0, s1], [0, 0])
            }
        };
        for (lane, ((e, state), (set, out_now))) in [(e0, states[0]), (e1, states[1])]
            .into_iter()
            .zip([b, c].into_iter().zip(rejected))
            .enumerate()
        {
            let (i, j, count) = state;
            let need = queue[e].1;
            if out_now {
                finish(out, e, None);
            } else if i + BLOCK > a.len() || j + BLOCK > set.len() {
                // No whole block left on one side: the ends, in one register.
                // SAFETY: the CPU has the features (this function's own).
                let inter = count + unsafe { tail_matches(&a[i..], &set[j..]) };
                finish(out, e, (inter >= need).then_some(inter));
            } else {
                lanes[lane] = Some((e, state));
                continue;
            }
            lanes[lane] = take();
        }
    }
    // One merge left: alone.
    for (e, state) in lanes.into_iter().flatten() {
        let (q, need) = queue[e];
        // SAFETY: as above.
        let inter = unsafe { intersection_at_least_avx512(a, others[q], state, need) };
        finish(out, e, inter);
    }
}

/// What [`jaccard_at_least`] needs to do for a pair of sets.
enum Plan {
    /// Decided without a merge.
    Known(Option<f64>),
    /// A merge of sets whose sizes add up to `n`, keeping the pair if at least `need` values
    /// are shared.
    Merge { need: usize, n: usize },
}

#[inline]
fn plan(a: &[u64], b: &[u64], threshold: f64) -> Plan {
    plan_with(a, b, threshold, |n| need_of_sum(n, threshold))
}

/// [`plan`], `need_of(n)` giving [`need_of_sum`]`(n, threshold)`.
#[inline(always)]
fn plan_with(
    a: &[u64],
    b: &[u64],
    threshold: f64,
    need_of: impl FnOnce(usize) -> Option<usize>,
) -> Plan {
    if threshold.is_nan() {
        // Nothing compares at least NaN.
        return Plan::Known(None);
    }
    if a == b {
        // Identical sets: Jaccard 1 (0 when empty) without a merge, as `jaccard` gives it.
        let j = jaccard(a, b);
        return Plan::Known((j >= threshold).then_some(j));
    }
    let n = a.len() + b.len();
    if threshold <= 0.0 {
        // Every pair is kept: the whole intersection (need 0 never stops the merge early).
        return Plan::Merge { need: 0, n };
    }
    // The sizes' bound J ≤ small / large is the need's own test at i = small: `ratio(small,
    // n)` is that quotient, and the ratio only grows with i, so sizes that rule a pair out
    // leave no need at or below `small`. Both empty: n = 0, no need, Jaccard 0 below any
    // positive threshold.
    let small = a.len().min(b.len());
    match need_of(n) {
        Some(need) if need <= small => Plan::Merge { need, n },
        _ => Plan::Known(None),
    }
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn has_avx512() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512dq")
        && std::is_x86_feature_detected!("avx512bw")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("popcnt")
}

/// [`Signatures::estimate`] of documents `a` and `b`, the same value, with AVX-512 when the
/// CPU has it: 16 rows per compare instead of the 4 of the portable build's SSE2.
#[inline]
pub fn estimate(signatures: &Signatures, a: usize, b: usize) -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") {
            if signatures.is_empty_doc(a) || signatures.is_empty_doc(b) {
                return 0.0;
            }
            let (x, y) = (signatures.row(a), signatures.row(b));
            // SAFETY: the CPU supports the features the function was compiled for.
            let agree = unsafe { agreeing_rows_avx512(x, y) };
            return agree as f64 / signatures.num_perm() as f64;
        }
    }
    signatures.estimate(a, b)
}

/// Rows at which two signatures of one length agree.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,popcnt")]
unsafe fn agreeing_rows_avx512(x: &[u32], y: &[u32]) -> usize {
    use std::arch::x86_64::*;
    assert_eq!(x.len(), y.len());
    let mut agree = 0;
    let mut i = 0;
    while i + 16 <= x.len() {
        // SAFETY: i + 16 <= len of both.
        let (vx, vy) = unsafe {
            (
                _mm512_loadu_si512(x.as_ptr().add(i).cast()),
                _mm512_loadu_si512(y.as_ptr().add(i).cast()),
            )
        };
        agree += _mm512_cmpeq_epi32_mask(vx, vy).count_ones() as usize;
        i += 16;
    }
    agree + crate::minhash::similarity::agreeing_rows(&x[i..], &y[i..])
}

/// Jaccard as [`jaccard`] computes it from the intersection size and |A| + |B|.
#[inline]
pub(crate) fn ratio(inter: usize, n: usize) -> f64 {
    let union = n - inter;
    if union == 0 {
        0.0
    } else {
        inter as f64 / union as f64
    }
}

/// The smallest intersection size i ≤ `most` whose Jaccard `ratio(i, n)` is at least
/// `threshold`, if any.
fn smallest_reaching(n: usize, most: usize, threshold: f64) -> Option<usize> {
    // i / (n − i) ≥ t ⇔ i ≥ t·n / (1 + t) in real numbers; start there and correct for
    // rounding by stepping, so the answer agrees with `ratio` exactly.
    let guess = (threshold * n as f64 / (1.0 + threshold)).floor() as usize;
    let mut i = guess.min(most);
    while i > 0 && ratio(i - 1, n) >= threshold {
        i -= 1;
    }
    while i <= most && ratio(i, n) < threshold {
        i += 1;
    }
    (i <= most).then_some(i)
}

/// |A ∩ B| when it is at least `need`, else `None` (the block merge of
/// [`crate::minhash::similarity::intersection_size`], stopping once too few values are left to
/// match), from a merge already at positions `(i, j)` with `count` values matched before them.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
unsafe fn intersection_at_least_avx512(
    a: &[u64],
    b: &[u64],
    (mut i, mut j, mut count): (usize, usize, usize),
    need: usize,
) -> Option<usize> {
    while i + BLOCK <= a.len() && j + BLOCK <= b.len() {
        // SAFETY: i + 8 <= a.len() and j + 8 <= b.len() were checked above.
        count += unsafe { block_matches(a, b, i, j) };
        (i, j) = advance(a, b, i, j);
        // Values of the blocks left behind matched all they could (the block merge leaves a
        // block only when no later block of the other set holds its values), so at most the
        // smaller remainder can still match.
        if count + (a.len() - i).min(b.len() - j) < need {
            return None;
        }
    }
    // SAFETY: the CPU has the features (this function's own).
    let inter = count + unsafe { tail_matches(&a[i..], &b[j..]) };
    (inter >= need).then_some(inter)
}

/// Steps of two block merges of `a` (with `sets[0]` and `sets[1]`, from `states`) in one
/// loop, while both have whole blocks left (and, with `CHECK`, both can still reach their
/// need): where each merge stands (i, j, count), and whether it was rejected.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
#[allow(clippy::type_complexity)]
unsafe fn interleaved_steps<const CHECK: bool>(
    a: &[u64],
    [b, c]: [&[u64]; 2],
    [(mut i, mut j, mut count_b), (mut k, mut l, mut count_c)]: [(usize, usize, usize); 2],
    [need_b, need_c]: [usize; 2],
) -> ([(usize, usize, usize); 2], [bool; 2]) {
    let mut out = [false, false];
    while i.max(k) + BLOCK <= a.len() && j + BLOCK <= b.len() && l + BLOCK <= c.len() {
        // SAFETY: all four blocks are in bounds (checked above).
        let (mb, mc) = unsafe { (block_matches(a, b, i, j), block_matches(a, c, k, l)) };
        count_b += mb;
        count_c += mc;
        (i, j) = advance(a, b, i, j);
        (k, l) = advance(a, c, k, l);
        if CHECK {
            // As in the single merge: a pair that can no longer reach its need is rejected.
            out = [
                count_b + (a.len() - i).min(b.len() - j) < need_b,
                count_c + (a.len() - k).min(c.len() - l) < need_c,
            ];
            if out[0] || out[1] {
                break;
            }
        }
    }
    ([(i, j, count_b), (k, l, count_c)], out)
}

/// Values of a block merge's step: 8 values per block.
#[cfg(target_arch = "x86_64")]
use crate::minhash::similarity::ISECT_BLOCK as BLOCK;

/// The block merge's next positions: the block(s) with the smaller last value are left.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn advance(a: &[u64], b: &[u64], i: usize, j: usize) -> (usize, usize) {
    let (amax, bmax) = (a[i + BLOCK - 1], b[j + BLOCK - 1]);
    (
        i + ((amax <= bmax) as usize) * BLOCK,
        j + ((bmax <= amax) as usize) * BLOCK,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_packed_pair_is_24_bytes_and_unpacks_to_the_same_values() {
        assert_eq!(std::mem::size_of::<PackedPair>(), 24);
        for k in [1, 7, 100, 128, 256, 1000, 4096] {
            for agree in 0..=k {
                let pair = VerifiedPair {
                    a: 3,
                    b: u32::MAX,
                    bands_hit: (agree % 4096) as u32,
                    jaccard: agree as f64 / (k + 3) as f64,
                    estimate: agree as f64 / k as f64,
                };
                let unpacked = PackedPair::pack(&pair, k).unpack(k);
                assert_eq!(unpacked, pair, "K {k}, {agree} rows agree");
                assert_eq!(unpacked.estimate.to_bits(), pair.estimate.to_bits());
            }
        }
    }

    #[test]
    fn identical_sets_take_the_shortcut_with_the_merge_s_values() {
        let set: Vec<u64> = (0..300).map(|i| i * 7 + 1).collect();
        let copy = set.clone();
        assert_eq!(jaccard(&set, &copy), 1.0);
        assert_eq!(
            crate::minhash::similarity::intersection_size_merge(&set, &copy),
            set.len()
        );
        for t in [0.0, 0.5, 1.0] {
            assert_eq!(jaccard_at_least(&set, &copy, t), Some(1.0));
        }
        // Two empty sets: Jaccard 0, as the merge defines it.
        assert_eq!(jaccard(&[], &[]), 0.0);
        assert_eq!(jaccard_at_least(&[], &[], 0.0), Some(0.0));
        assert_eq!(jaccard_at_least(&[], &[], 0.5), None);
        // One element apart: the merge again.
        let mut near = set.clone();
        near[150] += 3;
        assert_eq!(jaccard(&set, &near), 299.0 / 301.0);
    }

    #[test]
    fn thresholded_jaccard_agrees_with_the_full_one() {
        let mut rng = crate::util::rng::SplitMix64::new(29);
        let thresholds = [
            0.0,
            0.1,
            0.3,
            0.5,
            0.7,
            0.8,
            0.9,
            0.95,
            0.99,
            1.0,
            1.0 / 3.0,
            2.0 / 3.0,
        ];
        for round in 0..4000 {
            // Sets drawn from a small universe so they overlap at every level, sizes from 0
            // to a few hundred and far apart or equal.
            let universe = 1 + rng.below(600);
            let na = rng.below(300) as usize;
            let nb = if round % 3 == 0 {
                na
            } else {
                rng.below(300) as usize
            };
            let mut a: Vec<u64> = (0..na).map(|_| rng.below(universe)).collect();
            let mut b: Vec<u64> = if round % 5 == 0 {
                // Near-copies: most of A, a few changes.
                a.iter()
                    .map(|&x| {
                        if rng.below(20) == 0 {
                            rng.below(universe)
                        } else {
                            x
                        }
                    })
                    .collect()
            } else {
                (0..nb).map(|_| rng.below(universe)).collect()
            };
            a.sort_unstable();
            a.dedup();
            b.sort_unstable();
            b.dedup();
            let full = jaccard(&a, &b);
            for &t in &thresholds {
                let expected = (full >= t).then_some(full);
                assert_eq!(
                    jaccard_at_least(&a, &b, t),
                    expected,
                    "t = {t}, {a:?} {b:?}"
                );
                // The threshold exactly at the pair's own value keeps it.
                assert_eq!(jaccard_at_least(&a, &b, full), Some(full));
            }
        }
        assert_eq!(jaccard_at_least(&[], &[], 0.0), Some(0.0));
        assert_eq!(jaccard_at_least(&[], &[], 0.5), None);
        assert_eq!(jaccard_at_least(&[1, 2], &[], 0.5), None);
    }

    /// Merges two at a time give each pair what the pair alone gets: runs of sets of every
    /// length (shorter than a block, ragged, equal to A, empty), at thresholds that stop
    /// merges early at different points, so lanes end, are rejected and refill in every order.
    #[test]
    fn merges_in_pairs_agree_with_each_pair_alone() {
        let mut rng = crate::util::rng::SplitMix64::new(47);
        let thresholds = [
            0.0,
            -1.0,
            0.05,
            0.3,
            0.5,
            0.8,
            0.95,
            1.0,
            f64::NAN,
            1.0 / 3.0,
        ];
        let mut out = Vec::new();
        // One table of needs for the whole test, across thresholds (it must start again when
        // the threshold changes) and rounds (it must give the needs it kept).
        let (mut needs, mut kept) = (Needs::default(), Vec::new());
        for round in 0..1500 {
            let universe = 2 + rng.below(900);
            let draw = |rng: &mut crate::util::rng::SplitMix64, n: usize| {
                let mut s: Vec<u64> = (0..n).map(|_| rng.below(universe)).collect();
                s.sort_unstable();
                s.dedup();
                s
            };
            let na = rng.below(if round % 4 == 0 { 12 } else { 400 }) as usize;
            let a = draw(&mut rng, na);
            let runs = rng.below(9) as usize;
            let others: Vec<Vec<u64>> = (0..runs)
                .map(|k| match (round + k) % 5 {
                    0 => a.clone(),
                    1 => {
                        // A near-copy of A: most values kept, a few replaced.
                        let mut s: Vec<u64> = a
                            .iter()
                            .map(|&x| {
                                if rng.below(12) == 0 {
                                    rng.below(universe)
                                } else {
                                    x
                                }
                            })
                            .collect();
                        s.sort_unstable();
                        s.dedup();
                        s
                    }
                    2 => {
                        let n = rng.below(10) as usize;
                        draw(&mut rng, n)
                    }
                    _ => {
                        let n = rng.below(500) as usize;
                        draw(&mut rng, n)
                    }
                })
                .collect();
            let sets: Vec<&[u64]> = others.iter().map(Vec::as_slice).collect();
            for &t in &thresholds {
                jaccards_at_least(&a, &sets, t, &mut out);
                let alone: Vec<Option<f64>> =
                    sets.iter().map(|s| jaccard_at_least(&a, s, t)).collect();
                assert_eq!(out, alone, "t = {t}, round {round}");
                let full: Vec<Option<f64>> = sets
                    .iter()
                    .map(|s| {
                        let j = jaccard(&a, s);
                        (j >= t).then_some(j)
                    })
                    .collect();
                assert_eq!(out, full, "t = {t}, round {round}: the plain Jaccard");
                for _ in 0..2 {
                    jaccards_at_least_with(&a, &sets, t, &mut needs, &mut kept);
                    assert_eq!(kept, out, "t = {t}, round {round}: the needs kept");
                }
            }
        }
    }

    #[test]
    fn estimates_equal_the_signatures_own() {
        let mut rng = crate::util::rng::SplitMix64::new(31);
        for k in [1, 15, 16, 17, 64, 128, 130] {
            let n = 40;
            let data: Vec<u32> = (0..n * k).map(|_| rng.below(3) as u32).collect();
            let empty: Vec<bool> = (0..n).map(|d| d % 9 == 4).collect();
            let sigs = Signatures::from_rows(k, data, empty).unwrap();
            for a in 0..n {
                for b in 0..n {
                    assert_eq!(estimate(&sigs, a, b), sigs.estimate(a, b), "k = {k}");
                }
            }
        }
    }

    #[test]
    fn smallest_reaching_is_exact() {
        for n in 0..200 {
            for &t in &[0.01, 0.3, 0.5, 0.75, 0.9, 0.99, 1.0] {
                let most = n / 2;
                let brute = (0..=most).find(|&i| ratio(i, n) >= t);
                assert_eq!(smallest_reaching(n, most, t), brute, "n = {n}, t = {t}");
            }
        }
    }
}
