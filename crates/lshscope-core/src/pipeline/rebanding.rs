//! Incremental re-banding: the candidates of a new banding (b, r) of the same index, with the
//! exact similarities of pairs the previous banding already verified reused instead of
//! recomputed. The explorer drives this on every b or r step; its benches and tests call the
//! same functions.

use rayon::prelude::*;

use super::bucketed::{CandidateBuckets, CollapsedDocs, JaccardCache};
use crate::analysis::sampled::{CandidateEstimate, Draw};
use crate::jobs::{Phase, Progress};
use crate::minhash::similarity::jaccard;
use crate::minhash::similarity::prefetch_set;
use crate::minhash::{
    Banding, BandingOptions, Index, VerifiedPair, band_keys, estimate, find_candidates, pairs_among,
};
use crate::terms::Setting::MaxBucket;
use crate::util::rng::SplitMix64;
use crate::{Error, Result};

/// The explorer refuses a banding expected to emit more bucket pairs than this (about 0.5 GB
/// of pair buffers): with r = 1 on a large corpus, one popular minimum hash puts most
/// documents in one bucket, and its pairs alone would exhaust memory.
pub const MAX_BUCKET_PAIRS: u64 = 40_000_000;

/// Bucket pairs band 0 of `banding` would emit, times b: an estimate of the total (bands are
/// exchangeable, each uses its own independent permutations). Costs one band of work.
pub fn estimated_bucket_pairs(index: &Index, banding: Banding, max_bucket: Option<usize>) -> u64 {
    let keys = band_keys(&index.signatures, banding, 0);
    let cap = max_bucket
        .unwrap_or(usize::MAX)
        .max(crate::minhash::MIN_MAX_BUCKET) as u64;
    let mut pairs = 0u64;
    let mut start = 0;
    while start < keys.len() {
        let mut end = start + 1;
        while end < keys.len() && keys[end].0 == keys[start].0 {
            end += 1;
        }
        pairs += pairs_among(((end - start) as u64).min(cap));
        start = end;
    }
    pairs.saturating_mul(banding.bands as u64)
}

/// Band and verify every candidate of `banding` (threshold 0: the histogram needs them all).
///
/// Exact Jaccard and the MinHash estimate of a pair do not depend on the banding, and
/// neighbouring bandings share most of their candidates, so pairs found in `known` (sorted by
/// (a, b), as candidates are) take their similarities from it in one merge pass; only the
/// new pairs are verified, and with `copies` (the identical groups) a pair involving copies
/// is verified once per pair of representatives (see [`fill_similarities`]). This is what
/// keeps a b or r step fast on large corpora.
pub fn reband(
    index: &Index,
    banding: Banding,
    max_bucket: Option<usize>,
    known: Option<&[VerifiedPair]>,
    copies: Option<&CollapsedDocs>,
    progress: &Progress,
) -> Result<Vec<VerifiedPair>> {
    check_bucket_budget(index, banding, max_bucket)?;
    reband_unchecked(index, banding, max_bucket, known, copies, progress)
}

/// [`reband`] without the bucket budget check, for a caller that has counted the bucket
/// pairs exactly (see [`CandidateBuckets::occurrences`]) and knows they fit.
pub fn reband_unchecked(
    index: &Index,
    banding: Banding,
    max_bucket: Option<usize>,
    known: Option<&[VerifiedPair]>,
    copies: Option<&CollapsedDocs>,
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
    let previous = known.unwrap_or(&[]);
    // Known similarities by a merge on (a, b); the rest are NaN until filled below.
    let mut out = Vec::with_capacity(candidates.pairs.len());
    let mut j = 0;
    for c in &candidates.pairs {
        while j < previous.len() && (previous[j].a, previous[j].b) < (c.a, c.b) {
            j += 1;
        }
        out.push(match previous.get(j) {
            Some(p) if (p.a, p.b) == (c.a, c.b) => VerifiedPair {
                bands_hit: c.bands_hit,
                ..*p
            },
            _ => VerifiedPair {
                a: c.a,
                b: c.b,
                bands_hit: c.bands_hit,
                jaccard: f64::NAN,
                estimate: f64::NAN,
            },
        });
    }
    drop(candidates);
    fill_similarities(index, copies, &mut out, progress)?;
    Ok(out)
}

/// Pairs filled in place per parallel chunk (as [`crate::minhash::verify()`] chunks its candidates).
const FILL_CHUNK: usize = 16 * 1024;

/// Computes the exact Jaccard and the estimate of every pair in `pairs` whose Jaccard is NaN,
/// in place: the same values [`crate::minhash::verify()`] gives at threshold 0.
///
/// A pair in which either document has identical copies (per `copies`) takes its values from
/// one computation per pair of representatives: identical sets have identical signatures, so
/// every such pair has the values of its representatives' pair, and a group of m copies alone
/// is m(m−1)/2 pairs at Jaccard 1, which on template-heavy corpora is most of the candidates.
/// Every other pair is computed where it lies, with the sets prefetched ahead.
pub fn fill_similarities(
    index: &Index,
    copies: Option<&CollapsedDocs>,
    pairs: &mut [VerifiedPair],
    progress: &Progress,
) -> Result<()> {
    let involves_copies =
        |p: &VerifiedPair| copies.is_some_and(|c| c.has_copies(p.a) || c.has_copies(p.b));
    let todo = pairs.par_iter().filter(|p| p.jaccard.is_nan()).count();
    progress.begin(Phase::Verifying, todo as u64);
    let similarities = |x: u32, y: u32| {
        (
            jaccard(index.sets.get(x as usize), index.sets.get(y as usize)),
            estimate(&index.signatures, x as usize, y as usize),
        )
    };
    pairs.par_chunks_mut(FILL_CHUNK).try_for_each(|chunk| {
        progress.check()?;
        let mut done = 0;
        for k in 0..chunk.len() {
            if !chunk[k].jaccard.is_nan() || involves_copies(&chunk[k]) {
                continue;
            }
            // Sets of later pairs are fetched while this one is merged (as `verify` does).
            if let Some(next) = chunk.get(k + 2) {
                prefetch_set(index.sets.get(next.b as usize));
                prefetch_set(index.sets.get(next.a as usize));
            }
            let p = &mut chunk[k];
            (p.jaccard, p.estimate) = similarities(p.a, p.b);
            done += 1;
        }
        progress.advance(done);
        Ok::<_, crate::Error>(())
    })?;
    let Some(copies) = copies else {
        return Ok(());
    };
    // The rest by pair of representatives: sorted so that each representative pair is
    // computed once, then written to every slot that has it.
    let mut shared: Vec<(u64, u32)> = pairs
        .par_iter()
        .enumerate()
        .filter(|(_, p)| p.jaccard.is_nan())
        .map(|(slot, p)| {
            let (x, y) = (copies.representative(p.a), copies.representative(p.b));
            (((x.min(y) as u64) << 32) | x.max(y) as u64, slot as u32)
        })
        .collect();
    shared.par_sort_unstable_by_key(|&(key, _)| key);
    let values: Vec<(f64, f64)> = shared
        .par_chunk_by(|x, y| x.0 == y.0)
        .map(|run| {
            let key = run[0].0;
            similarities((key >> 32) as u32, key as u32)
        })
        .collect();
    progress.check()?;
    for (run, (j, e)) in shared.chunk_by(|x, y| x.0 == y.0).zip(values) {
        for &(_, slot) in run {
            let p = &mut pairs[slot as usize];
            (p.jaccard, p.estimate) = (j, e);
        }
    }
    progress.advance(shared.len() as u64);
    Ok(())
}

/// Beyond this many remembered pairs (32 bytes each) only the latest result is kept.
pub const MAX_KNOWN_PAIRS: usize = 4_000_000;

/// The sorted union by (a, b) of `known` and `pairs` (both sorted): the similarities the next
/// job can reuse. `None` when it would exceed [`MAX_KNOWN_PAIRS`]: then `pairs` alone are
/// what the next job reuses (kept by the caller, not copied).
pub fn remember(known: &[VerifiedPair], pairs: &[VerifiedPair]) -> Option<Vec<VerifiedPair>> {
    if known.len() + pairs.len() > MAX_KNOWN_PAIRS {
        return None;
    }
    Some(crate::util::sorted::union_by_key(known, pairs, |p| {
        (p.a, p.b)
    }))
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
             explorer holds ({}); raise r, or start with {MaxBucket} N",
            crate::util::numfmt::compact(expected),
            crate::util::numfmt::compact(MAX_BUCKET_PAIRS)
        )));
    }
    Ok(())
}

/// What a sample of a banding's candidates gives: the estimated histogram of distinct
/// candidate pairs and a uniform sample of those pairs to audit.
#[derive(Debug, Clone)]
pub struct SampledCandidates {
    /// The estimated number of distinct candidates per similarity bin, with intervals.
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
///
/// When only the first k bands of the banding are built (a first answer against a deadline),
/// the estimate is the two-stage one of [`CandidateEstimate::from_band_sample`], and the list
/// is uniform over the distinct pairs that collide in those k bands (a draw is kept with
/// probability 1 / bands hit among them); the answer with every band replaces it.
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
    let built = buckets.bands_built();
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
                // Bands hit in all b bands (the weight) and in the first k, those built (the
                // listing's odds).
                let (bands_hit, hit_built, jaccard, estimate) = if x == y {
                    // Copies of one set: the same signature, so every band, Jaccard 1.
                    (banding.bands as u32, built as u32, 1.0, 1.0)
                } else {
                    let (mut hit, mut hit_built) = (0u32, 0u32);
                    for (band, rows) in banding
                        .band_agreement(sigs.row(x as usize), sigs.row(y as usize))
                        .enumerate()
                    {
                        if rows == banding.rows {
                            hit += 1;
                            hit_built += u32::from(band < built);
                        }
                    }
                    let jaccard = cache.get(x, y).unwrap_or_else(|| {
                        let j = jaccard(index.sets.get(x as usize), index.sets.get(y as usize));
                        out.computed.push((x, y, j));
                        j
                    });
                    // Sharing a bucket means agreeing on a band (bar a 64-bit key collision).
                    (
                        hit.max(1),
                        hit_built.max(1),
                        jaccard,
                        sigs.estimate(x as usize, y as usize),
                    )
                };
                out.draws.push(Draw {
                    jaccard,
                    bands_hit,
                    band: drawn.band,
                });
                if rng.below(hit_built as u64) == 0 {
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
        estimate: CandidateEstimate::from_band_sample(
            &all_draws,
            buckets.occurrences(),
            (built, banding.bands),
            bins,
        ),
        pairs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Corpus;
    use crate::minhash::{IdenticalGroups, IndexOptions, build_index};

    #[test]
    fn pairs_of_copies_take_their_representatives_values_and_equal_verification() {
        // Families of near-copies with verbatim copies among them, empty texts (which are
        // never grouped) and unique texts.
        let mut texts: Vec<String> = Vec::new();
        for i in 0..240 {
            texts.push(match i % 6 {
                0 | 1 => format!("a listing for a small flat in block {}", i % 4),
                2 => "the same notice copied word for word".to_string(),
                3 => String::new(),
                _ => format!("a listing for a small flat in block {i} near the park"),
            });
        }
        let corpus = Corpus::from_texts(texts.iter().map(String::as_str));
        let index = build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap();
        let copies = CollapsedDocs::new(&IdenticalGroups::find(&index.sets));
        assert!(copies.copies() > 100);
        let banding = Banding::new(16, 2, 128).unwrap();
        let plain = reband(&index, banding, None, None, None, &Progress::new()).unwrap();
        let collapsed =
            reband(&index, banding, None, None, Some(&copies), &Progress::new()).unwrap();
        let candidates = find_candidates(
            &index.signatures,
            &BandingOptions {
                banding,
                max_bucket: None,
            },
            &Progress::new(),
        )
        .unwrap();
        let verified =
            crate::minhash::verify(&index, &candidates.pairs, 0.0, &Progress::new()).unwrap();
        assert!(verified.len() > 1000);
        let bits = |v: &[VerifiedPair]| -> Vec<(u32, u32, u32, u64, u64)> {
            v.iter()
                .map(|p| {
                    (
                        p.a,
                        p.b,
                        p.bands_hit,
                        p.jaccard.to_bits(),
                        p.estimate.to_bits(),
                    )
                })
                .collect()
        };
        assert_eq!(bits(&plain), bits(&verified));
        assert_eq!(bits(&collapsed), bits(&verified));
        // With half of the similarities known from another banding, the same again.
        let known: Vec<VerifiedPair> = verified.iter().step_by(2).copied().collect();
        let reused = reband(
            &index,
            banding,
            None,
            Some(&known),
            Some(&copies),
            &Progress::new(),
        )
        .unwrap();
        assert_eq!(bits(&reused), bits(&verified));
    }
}
