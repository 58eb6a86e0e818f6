//! Verification of candidate pairs: exact Jaccard and MinHash estimate for each.

use rayon::prelude::*;

use super::{CandidatePair, Index, Signatures};
use crate::Result;
use crate::jobs::{Phase, Progress};
use crate::minhash::similarity::{
    intersection_size_merge, jaccard, prefetch_set, prefetch_signature,
};

/// A candidate pair with its exact and estimated similarity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VerifiedPair {
    /// Input position of the first document (a < b).
    pub a: u32,
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
pub struct PackedPair {
    pub a: u32,
    pub b: u32,
    jaccard: f64,
    bands_hit: u16,
    agreeing_rows: u16,
}

impl PackedPair {
    /// Bytes of [`PackedPair::to_bytes`].
    pub const BYTES: usize = 20;

    /// Packs `pair`, whose estimate was computed with `num_perm` rows.
    pub fn pack(pair: &VerifiedPair, num_perm: usize) -> Self {
        let packed = PackedPair {
            a: pair.a,
            b: pair.b,
            jaccard: pair.jaccard,
            bands_hit: pair.bands_hit as u16,
            agreeing_rows: (pair.estimate * num_perm as f64).round() as u16,
        };
        debug_assert_eq!(packed.unpack(num_perm), *pair, "a pair of {num_perm} rows");
        packed
    }

    /// The pair's 20 bytes, little-endian, for a file of sorted runs; read back with
    /// [`PackedPair::from_bytes`] on any machine.
    pub fn to_bytes(&self) -> [u8; Self::BYTES] {
        let mut out = [0u8; Self::BYTES];
        out[0..4].copy_from_slice(&self.a.to_le_bytes());
        out[4..8].copy_from_slice(&self.b.to_le_bytes());
        out[8..16].copy_from_slice(&self.jaccard.to_le_bytes());
        out[16..18].copy_from_slice(&self.bands_hit.to_le_bytes());
        out[18..20].copy_from_slice(&self.agreeing_rows.to_le_bytes());
        out
    }

    pub fn from_bytes(bytes: &[u8; Self::BYTES]) -> Self {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        PackedPair {
            a: u32::from_le_bytes(bytes[0..4].try_into().expect("4 bytes")),
            b: u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes")),
            jaccard: f64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes")),
            bands_hit: u16_at(16),
            agreeing_rows: u16_at(18),
        }
    }

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
    if threshold <= 0.0 {
        return Some(jaccard(a, b));
    }
    if threshold.is_nan() {
        // Nothing compares at least NaN.
        return None;
    }
    if a == b {
        // Identical sets: Jaccard 1 (0 when empty) without a merge, as `jaccard` gives it.
        let j = jaccard(a, b);
        return (j >= threshold).then_some(j);
    }
    let (small, large) = (a.len().min(b.len()), a.len().max(b.len()));
    if large == 0 || (small as f64 / large as f64) < threshold {
        // Both empty: Jaccard 0, below any positive threshold.
        return None;
    }
    let n = a.len() + b.len();
    let need = smallest_reaching(n, small, threshold)?;
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512dq") {
            // SAFETY: the CPU supports the features the function was compiled for.
            let inter = unsafe { intersection_at_least_avx512(a, b, need) }?;
            return Some(ratio(inter, n));
        }
    }
    let j = jaccard(a, b);
    (j >= threshold).then_some(j)
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
fn ratio(inter: usize, n: usize) -> f64 {
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
/// [`crate::minhash::similarity::intersection_size`], stopping once too few values are left to match).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512dq,avx512bw,avx512vl,popcnt")]
unsafe fn intersection_at_least_avx512(a: &[u64], b: &[u64], need: usize) -> Option<usize> {
    use std::arch::x86_64::*;
    const BLOCK: usize = 8;
    let (mut i, mut j, mut count) = (0usize, 0usize, 0usize);
    while i + BLOCK <= a.len() && j + BLOCK <= b.len() {
        // SAFETY: i + 8 <= a.len() and j + 8 <= b.len() were checked above.
        let (vb, ap) = unsafe {
            (
                _mm512_loadu_si512(b.as_ptr().add(j).cast()),
                a.as_ptr().add(i),
            )
        };
        let mut mask: __mmask8 = 0;
        for x in 0..BLOCK {
            // SAFETY: x < 8 and i + 8 <= a.len().
            let va = _mm512_set1_epi64(unsafe { *ap.add(x) } as i64);
            mask |= _mm512_cmpeq_epi64_mask(va, vb);
        }
        count += mask.count_ones() as usize;
        let (amax, bmax) = (a[i + BLOCK - 1], b[j + BLOCK - 1]);
        i += ((amax <= bmax) as usize) * BLOCK;
        j += ((bmax <= amax) as usize) * BLOCK;
        // Values of the blocks left behind matched all they could (the block merge leaves a
        // block only when no later block of the other set holds its values), so at most the
        // smaller remainder can still match.
        if count + (a.len() - i).min(b.len() - j) < need {
            return None;
        }
    }
    let inter = count + intersection_size_merge(&a[i..], &b[j..]);
    (inter >= need).then_some(inter)
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
        assert_eq!(intersection_size_merge(&set, &copy), set.len());
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
