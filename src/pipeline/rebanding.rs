//! Incremental re-banding: the candidates of a new banding (b, r) of the same index, with the
//! exact similarities of pairs the previous banding already verified reused instead of
//! recomputed. The explorer drives this on every b or r step; its benches and tests call the
//! same functions.

use crate::jobs::Progress;
use crate::minhash::{
    Banding, BandingOptions, Index, VerifiedPair, band_keys, find_candidates, verify,
};
use crate::{Error, Result};

/// The explorer refuses a banding expected to emit more bucket pairs than this (about 0.5 GB
/// of pair buffers): with r = 1 on a large corpus, one popular minimum hash puts most
/// documents in one bucket, and its pairs alone would exhaust memory.
pub const MAX_BUCKET_PAIRS: u64 = 40_000_000;

/// Bucket pairs band 0 of `banding` would emit, times b: an estimate of the total (bands are
/// exchangeable, each uses its own independent permutations). Costs one band of work.
pub fn estimated_bucket_pairs(index: &Index, banding: Banding, max_bucket: Option<usize>) -> u64 {
    let keys = band_keys(&index.signatures, banding, 0);
    let cap = max_bucket.unwrap_or(usize::MAX).max(2) as u64;
    let mut pairs = 0u64;
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == keys[start].0 {
            end += 1;
        }
        let size = ((end - start) as u64).min(cap);
        pairs += size * size.saturating_sub(1) / 2;
        start = end;
    }
    pairs.saturating_mul(banding.bands as u64)
}

/// Band and verify every candidate of `banding` (threshold 0: the histogram needs them all).
///
/// Exact Jaccard and the MinHash estimate of a pair do not depend on the banding, and
/// neighbouring bandings share most of their candidates, so pairs found in `known` (sorted by
/// (a, b), as candidates are) take their similarities from it in one merge pass; only the
/// new pairs are verified. This is what keeps a b or r step fast on large corpora.
pub fn reband(
    index: &Index,
    banding: Banding,
    max_bucket: Option<usize>,
    known: Option<&[VerifiedPair]>,
    progress: &Progress,
) -> Result<Vec<VerifiedPair>> {
    check_bucket_budget(index, banding, max_bucket)?;
    let candidates = find_candidates(
        &index.signatures,
        &BandingOptions {
            banding,
            max_bucket,
        },
        progress,
    )?;
    let Some(previous) = known else {
        return verify(index, &candidates.pairs, 0.0, progress);
    };
    let mut out = Vec::with_capacity(candidates.pairs.len());
    let mut missing = Vec::new();
    let mut slots = Vec::new();
    let mut j = 0;
    for c in &candidates.pairs {
        while j < previous.len() && (previous[j].a, previous[j].b) < (c.a, c.b) {
            j += 1;
        }
        match previous.get(j) {
            Some(p) if (p.a, p.b) == (c.a, c.b) => out.push(VerifiedPair {
                bands_hit: c.bands_hit,
                ..*p
            }),
            _ => {
                slots.push(out.len());
                missing.push(*c);
                // Filled in below from the verification of `missing`.
                out.push(VerifiedPair {
                    a: c.a,
                    b: c.b,
                    bands_hit: c.bands_hit,
                    jaccard: f64::NAN,
                    estimate: f64::NAN,
                });
            }
        }
    }
    // Threshold 0 keeps every pair, in input order, so results line up with `slots`.
    let fresh = verify(index, &missing, 0.0, progress)?;
    for (slot, pair) in slots.into_iter().zip(fresh) {
        out[slot] = pair;
    }
    Ok(out)
}

/// Beyond this many remembered pairs (32 bytes each) only the latest result is kept.
pub const MAX_KNOWN_PAIRS: usize = 4_000_000;

/// The sorted union by (a, b) of `known` and `pairs` (both sorted): the similarities the next
/// job can reuse. When it would exceed [`MAX_KNOWN_PAIRS`], just `pairs`.
pub fn remember(known: &[VerifiedPair], pairs: &[VerifiedPair]) -> Vec<VerifiedPair> {
    if known.len() + pairs.len() > MAX_KNOWN_PAIRS {
        return pairs.to_vec();
    }
    let mut out = Vec::with_capacity(known.len() + pairs.len());
    let (mut i, mut j) = (0, 0);
    while i < known.len() && j < pairs.len() {
        let (x, y) = ((known[i].a, known[i].b), (pairs[j].a, pairs[j].b));
        match x.cmp(&y) {
            std::cmp::Ordering::Less => {
                out.push(known[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(pairs[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(pairs[j]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&known[i..]);
    out.extend_from_slice(&pairs[j..]);
    out
}

/// Refuses `banding` up front with [`Error::Refused`] when [`estimated_bucket_pairs`] is
/// beyond [`MAX_BUCKET_PAIRS`]: the one wording of this budget.
pub fn check_bucket_budget(
    index: &Index,
    banding: Banding,
    max_bucket: Option<usize>,
) -> Result<()> {
    let expected = estimated_bucket_pairs(index, banding, max_bucket);
    if expected > MAX_BUCKET_PAIRS {
        return Err(Error::refused(format!(
            "{banding} would emit about {} bucket pairs (estimated from band 1), more than the \
             explorer holds ({}); raise r, or start with --max-bucket N",
            crate::numfmt::compact(expected),
            crate::numfmt::compact(MAX_BUCKET_PAIRS)
        )));
    }
    Ok(())
}
