//! Incremental re-banding: the candidates of a new banding (b, r) of the same index, with the
//! exact similarities of pairs the previous banding already verified reused instead of
//! recomputed. The explorer drives this on every b or r step; its benches and tests call the
//! same functions.

use rayon::prelude::*;

use super::bucketed::{CandidateBuckets, JaccardCache};
use crate::analysis::sampled::{CandidateEstimate, Draw};
use crate::jobs::{Phase, Progress};
use crate::minhash::{
    Banding, BandingOptions, Index, VerifiedPair, band_keys, find_candidates, verify,
};
use crate::rng::SplitMix64;
use crate::similarity::jaccard;
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
    reband_unchecked(index, banding, max_bucket, known, progress)
}

/// [`reband`] without the bucket budget check, for a caller that has counted the bucket
/// pairs exactly (see [`CandidateBuckets::occurrences`]) and knows they fit.
pub fn reband_unchecked(
    index: &Index,
    banding: Banding,
    max_bucket: Option<usize>,
    known: Option<&[VerifiedPair]>,
    progress: &Progress,
) -> Result<Vec<VerifiedPair>> {
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

/// What a sample of a banding's candidates gives: the estimated histogram of distinct
/// candidate pairs and a uniform sample of those pairs to audit.
#[derive(Debug, Clone)]
pub struct SampledCandidates {
    pub estimate: CandidateEstimate,
    /// Distinct candidate pairs, each candidate pair equally likely to be here (large buckets
    /// included), with exact Jaccard, estimate and bands hit; sorted by (a, b).
    pub pairs: Vec<VerifiedPair>,
}

/// Draws per parallel chunk; each chunk has its own generator, seeded from the chunk number,
/// so a sample does not depend on how chunks are spread over threads.
const DRAW_CHUNK: usize = 4096;

/// Estimates the candidates of `buckets` from `draws` uniform bucket-pair occurrences: each
/// draw's pair gets its bands hit from the two signatures (so a pair counts once however many
/// bands it shares, see [`CandidateEstimate`]) and its exact Jaccard (from `cache` when known,
/// else computed and cached). A draw is kept for the pair list with probability
/// 1 / bands hit, which makes every distinct candidate pair equally likely to be listed.
pub fn sample_candidates(
    index: &Index,
    buckets: &CandidateBuckets,
    draws: usize,
    seed: u64,
    bins: usize,
    cache: &JaccardCache,
    progress: &Progress,
) -> Result<SampledCandidates> {
    let banding = buckets.banding;
    let sigs = &index.signatures;
    let chunks = draws.div_ceil(DRAW_CHUNK);
    progress.begin(Phase::Verifying, draws as u64);
    struct Chunk {
        draws: Vec<Draw>,
        kept: Vec<VerifiedPair>,
        computed: Vec<(u32, u32, f64)>,
    }
    let per_chunk: Vec<Chunk> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            progress.check()?;
            let mut rng = SplitMix64::new(SplitMix64::mix(seed ^ SplitMix64::mix(c as u64)));
            let count = DRAW_CHUNK.min(draws - c * DRAW_CHUNK);
            let mut out = Chunk {
                draws: Vec::with_capacity(count),
                kept: Vec::new(),
                computed: Vec::new(),
            };
            for _ in 0..count {
                let Some(drawn) = buckets.draw(&mut rng) else {
                    break;
                };
                let (x, y) = drawn.reps;
                let (bands_hit, jaccard, estimate) = if x == y {
                    // Copies of one set: the same signature, so every band, Jaccard 1.
                    (banding.bands as u32, 1.0, 1.0)
                } else {
                    let hit = banding
                        .band_agreement(sigs.row(x as usize), sigs.row(y as usize))
                        .filter(|&rows| rows == banding.rows)
                        .count() as u32;
                    let jaccard = cache.get(x, y).unwrap_or_else(|| {
                        let j = jaccard(index.sets.get(x as usize), index.sets.get(y as usize));
                        out.computed.push((x, y, j));
                        j
                    });
                    // Sharing a bucket means agreeing on a band (bar a 64-bit key collision).
                    (hit.max(1), jaccard, sigs.estimate(x as usize, y as usize))
                };
                out.draws.push(Draw { jaccard, bands_hit });
                if rng.below(bands_hit as u64) == 0 {
                    out.kept.push(VerifiedPair {
                        a: drawn.docs.0,
                        b: drawn.docs.1,
                        bands_hit,
                        jaccard,
                        estimate,
                    });
                }
            }
            progress.advance(count as u64);
            Ok(out)
        })
        .collect::<Result<_>>()?;
    let mut all_draws = Vec::with_capacity(draws);
    let mut pairs = Vec::new();
    for chunk in per_chunk {
        all_draws.extend_from_slice(&chunk.draws);
        pairs.extend_from_slice(&chunk.kept);
        cache.insert_all(chunk.computed);
    }
    pairs.sort_unstable_by_key(|p| (p.a, p.b));
    pairs.dedup_by_key(|p| (p.a, p.b));
    Ok(SampledCandidates {
        estimate: CandidateEstimate::from_draws(&all_draws, buckets.occurrences(), bins),
        pairs,
    })
}
