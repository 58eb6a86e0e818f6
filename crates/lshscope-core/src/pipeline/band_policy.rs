//! Exact or sampled: how a banding's candidates are obtained when the user may step to any
//! (b, r). [`band_candidates`] enumerates and verifies the candidates when their bucket pairs
//! fit a budget, and otherwise estimates them from a uniform sample of bucket-pair
//! occurrences ([`super::rebanding::sample_candidates`]): a quick sample first, then a larger
//! one, or the exact enumeration when it fits. The explorer's re-banding job, `bench
//! --explorer` and any other face call it with a [`Sampling`] they keep between bandings.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Result;
use crate::analysis::sampled::CandidateEstimate;
use crate::jobs::Progress;
use crate::minhash::{Banding, Index, VerifiedPair};
use crate::util::rng::SplitMix64;

use super::bucketed::{BandCache, CandidateBuckets, JaccardCache};
use super::rebanding::{
    SampledCandidates, estimated_bucket_pairs, reband_unchecked, remember, sample_candidates,
};

/// Enumerate a banding's candidates when their bucket pairs are at most this many. Measured
/// on a million generated documents of ~300 characters (2-core VM): the exact answer costs
/// about 1 µs per pair there (verification out of cache, at 1–2 M pairs/s) and holds roughly
/// 80 bytes per pair at its peak (bucket pairs, candidates, verified pairs, the explorer's
/// list order, the answer shown before), so 8 M keeps it within about 10 s and 0.7 GB; above
/// it the sampled estimate, whose intervals are already narrow, is the final answer.
pub const EXACT_BUCKET_PAIRS: u64 = 8_000_000;

/// The sampled mode's settings and the state it shares between bandings of one corpus.
/// Cloning shares the state.
#[derive(Debug, Clone)]
pub struct Sampling {
    /// Bands built so far (a b step builds one band) and the identical groups.
    pub bands: Arc<BandCache>,
    /// Exact Jaccard of the pairs sampled so far.
    pub jaccards: Arc<JaccardCache>,
    /// Enumerate the candidates only when their bucket pairs are at most this many.
    pub enumeration_budget: u64,
    /// Bucket pairs (counted from the buckets; with a cap, estimated from band 1) above which a
    /// sampled first answer comes before the exact one: enumerating that many pairs takes
    /// longer than a user should wait.
    pub preview_above: u64,
    /// Draws of the first answer and of the refined one.
    pub first_draws: usize,
    /// Draws of the refined answer, the larger sample that replaces the first.
    pub refined_draws: usize,
    /// Bands still to build after this long from the request are left to the refined
    /// answer: the first estimate samples the bands built by then (at ~35 ms per band on a
    /// million documents and two cores, an r step at b = 64 would otherwise wait 2 s).
    pub first_bands_within: Duration,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            bands: Arc::new(BandCache::new()),
            jaccards: Arc::new(JaccardCache::new()),
            enumeration_budget: EXACT_BUCKET_PAIRS,
            // Verifying 500 k pairs takes about 0.3 s on a million documents: beyond that a
            // sampled first answer comes before the exact one.
            preview_above: 500_000,
            first_draws: 20_000,
            refined_draws: 500_000,
            first_bands_within: Duration::from_millis(500),
        }
    }
}

/// What [`band_candidates`] is asked.
#[derive(Debug, Clone, Copy)]
pub struct BandRequest<'a> {
    /// The index whose signatures are banded.
    pub index: &'a Index,
    /// The b × r to band with.
    pub banding: Banding,
    /// Only the first N members of a larger bucket form pairs; `None` for no cap. Sampled
    /// answers ignore it ([`EstimatedCandidates::cap_ignored`]).
    pub max_bucket: Option<usize>,
    /// Pairs verified before (sorted by (a, b)): their similarities are not computed again.
    pub known: Option<&'a [VerifiedPair]>,
    /// Bins of a sampled answer's estimated histogram.
    pub bins: usize,
    /// The budgets and caches that decide between enumerating and sampling.
    pub sampling: &'a Sampling,
}

/// A banding's candidates estimated from a sample.
#[derive(Debug, Clone)]
pub struct EstimatedCandidates {
    /// A uniform sample of the distinct candidate pairs (sorted by (a, b)) and the estimated
    /// histogram of all of them.
    pub sampled: SampledCandidates,
    /// True when a refined answer (a larger sample, or the exact candidates) follows.
    pub refining: bool,
    /// Bucket pairs over all bands (exact) and what the buckets hold in memory.
    pub bucket_pairs: u64,
    /// Bytes the band buckets hold in memory.
    pub bucket_bytes: usize,
    /// The largest bucket, in documents.
    pub largest_bucket: u64,
    /// `max_bucket` is not applied to sampled candidates.
    pub cap_ignored: bool,
}

/// An answer of [`band_candidates`].
#[derive(Debug)]
pub enum BandAnswer {
    /// Every candidate, verified, sorted by (a, b); `known` is every pair verified so far
    /// (the request's and these) when the request had some and they fit
    /// [`super::rebanding::MAX_KNOWN_PAIRS`].
    Exact {
        /// The candidates with their exact Jaccard, sorted by (a, b).
        pairs: Vec<VerifiedPair>,
        /// Every pair verified so far, the request's and these, sorted by (a, b); `None` when the
        /// request had none or they would not fit.
        known: Option<Vec<VerifiedPair>>,
    },
    /// Too many bucket pairs to enumerate in time: a sample of the candidates and their estimated
    /// histogram.
    Estimated(Box<EstimatedCandidates>),
}

impl EstimatedCandidates {
    /// The estimate of every candidate pair's Jaccard.
    pub fn estimate(&self) -> &CandidateEstimate {
        &self.sampled.estimate
    }
}

/// Bands `request.banding`, exactly or by sampling. The banding's buckets are built first
/// (those built within [`Sampling::first_bands_within`]), which counts its bucket pairs
/// exactly. Up to [`Sampling::preview_above`] bucket pairs the candidates are enumerated and
/// verified at once; beyond, a quick sampled estimate is handed to `report`, then the exact
/// candidates follow when their bucket pairs fit [`Sampling::enumeration_budget`], else a
/// larger sample. Returns the final answer (`Err(Cancelled)` once `progress` is cancelled).
pub fn band_candidates(
    request: BandRequest<'_>,
    progress: &Progress,
    mut report: impl FnMut(BandAnswer),
) -> Result<BandAnswer> {
    let start = Instant::now();
    let BandRequest {
        index,
        banding,
        max_bucket,
        known,
        bins,
        sampling,
    } = request;
    // Identical copies, found once per session: pairs of copies are verified once per
    // pair of representatives.
    let copies = sampling.bands.docs(index);
    let exact = || -> Result<BandAnswer> {
        let pairs = reband_unchecked(index, banding, max_bucket, known, Some(&copies), progress)?;
        let known = known.and_then(|k| remember(k, &pairs));
        Ok(BandAnswer::Exact { pairs, known })
    };
    // The buckets come first: their pair count is exact, where band 1 alone can be far off
    // (one band that hits a common shingle holds most of a banding's pairs). The first
    // answer uses the bands built by the deadline (all of them after a b step, which
    // builds one); the rest are built after it.
    let first_buckets = sampling.bands.buckets_by(
        index,
        banding,
        Some(start + sampling.first_bands_within),
        progress,
    )?;
    let complete = first_buckets.bands_built() == banding.bands;
    // With a cap the buckets overcount (they are not capped): band 1's capped count decides.
    let guess = max_bucket.map(|_| estimated_bucket_pairs(index, banding, max_bucket));
    let quick = sampling.preview_above.min(sampling.enumeration_budget);
    // Building the bands took time already (an r step, a jump): the exact answer would
    // build them again in its own form, so an estimate goes first unless nothing collides.
    let waited =
        start.elapsed() > sampling.first_bands_within / 2 && first_buckets.occurrences() > 0;
    let small = !waited
        && match guess {
            Some(guess) => guess <= quick,
            None => complete && first_buckets.occurrences() <= quick,
        };
    if small {
        return exact();
    }
    let estimated = |buckets: &CandidateBuckets,
                     draws: usize,
                     seed: u64,
                     refining: bool|
     -> Result<BandAnswer> {
        let sampled = sample_candidates(
            index,
            buckets,
            draws,
            seed,
            bins,
            &sampling.jaccards,
            progress,
        )?;
        Ok(BandAnswer::Estimated(Box::new(EstimatedCandidates {
            sampled,
            refining,
            bucket_pairs: buckets.occurrences(),
            bucket_bytes: buckets.heap_bytes(),
            largest_bucket: buckets.largest_bucket(),
            cap_ignored: max_bucket.is_some(),
        })))
    };
    let seed = SplitMix64::mix(((banding.bands as u64) << 32) | banding.rows as u64);
    report(estimated(&first_buckets, sampling.first_draws, seed, true)?);
    progress.check()?;
    let buckets = if first_buckets.bands_built() < banding.bands {
        sampling.bands.buckets(index, banding, progress)?
    } else {
        first_buckets
    };
    // With a cap, what gets enumerated is the capped buckets, which only band 1 estimates.
    let fits = match guess {
        Some(guess) => guess <= sampling.enumeration_budget,
        None => buckets.occurrences() <= sampling.enumeration_budget,
    };
    if fits {
        return exact();
    }
    estimated(&buckets, sampling.refined_draws, seed ^ 0x5eed, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::minhash::{IndexOptions, build_index};
    use crate::synthetic::templated::{TemplateOptions, generate_templated};

    /// Template families give many candidates at a permissive banding.
    fn index() -> Index {
        let corpus = generate_templated(&TemplateOptions {
            docs: 600,
            seed: 7,
            identical_group: 4,
            template_family: 40,
            max_family: 50,
            ..Default::default()
        })
        .corpus;
        build_index(&corpus, &IndexOptions::default(), &Progress::new()).unwrap()
    }

    fn pairs_of(pairs: &[VerifiedPair]) -> Vec<(u32, u32)> {
        pairs.iter().map(|p| (p.a, p.b)).collect()
    }

    fn ask<'a>(index: &'a Index, banding: Banding, sampling: &'a Sampling) -> BandRequest<'a> {
        BandRequest {
            index,
            banding,
            max_bucket: None,
            known: None,
            bins: 20,
            sampling,
        }
    }

    #[test]
    fn a_banding_within_the_preview_is_enumerated_at_once() {
        let index = index();
        let banding = Banding::new(16, 8, 128).unwrap();
        let exact =
            super::super::rebanding::reband(&index, banding, None, None, None, &Progress::new())
                .unwrap();
        assert!(!exact.is_empty());
        let sampling = Sampling::default();
        let mut reported = 0;
        let answer = band_candidates(ask(&index, banding, &sampling), &Progress::new(), |_| {
            reported += 1
        })
        .unwrap();
        assert_eq!(reported, 0, "no estimate before an exact answer that fits");
        let BandAnswer::Exact { pairs, known } = answer else {
            panic!("expected the exact candidates");
        };
        assert_eq!(pairs_of(&pairs), pairs_of(&exact));
        assert!(known.is_none(), "nothing was known before");
    }

    #[test]
    fn beyond_the_budget_a_quick_estimate_comes_first_and_a_larger_one_last() {
        let index = index();
        let banding = Banding::new(32, 2, 128).unwrap();
        let exact =
            super::super::rebanding::reband(&index, banding, None, None, None, &Progress::new())
                .unwrap();
        let sampling = Sampling {
            enumeration_budget: 0,
            preview_above: 0,
            first_draws: 500,
            refined_draws: 5_000,
            ..Sampling::default()
        };
        let mut first = Vec::new();
        let answer = band_candidates(ask(&index, banding, &sampling), &Progress::new(), |a| {
            first.push(a)
        })
        .unwrap();
        let [BandAnswer::Estimated(quick)] = first.as_slice() else {
            panic!("one quick estimate first: {first:?}");
        };
        assert!(quick.refining);
        let BandAnswer::Estimated(last) = answer else {
            panic!("a budget of 0 leaves the estimate as the final answer");
        };
        assert!(!last.refining);
        // The sampled pairs are real candidates, and the estimate is of the right size.
        let all = pairs_of(&exact);
        assert!(!last.sampled.pairs.is_empty());
        for p in &last.sampled.pairs {
            assert!(
                all.binary_search(&(p.a, p.b)).is_ok(),
                "{p:?} is no candidate"
            );
        }
        let total = last.estimate().total;
        assert!(
            (total.low..=total.high).contains(&(exact.len() as f64)),
            "{total} does not cover {} candidates",
            exact.len()
        );
    }

    #[test]
    fn an_estimate_first_then_the_exact_candidates_when_they_fit() {
        let index = index();
        let banding = Banding::new(32, 2, 128).unwrap();
        let sampling = Sampling {
            preview_above: 0,
            first_draws: 500,
            ..Sampling::default()
        };
        let mut first = 0;
        let answer = band_candidates(ask(&index, banding, &sampling), &Progress::new(), |a| {
            assert!(matches!(a, BandAnswer::Estimated(ref e) if e.refining));
            first += 1;
        })
        .unwrap();
        assert_eq!(first, 1);
        assert!(matches!(answer, BandAnswer::Exact { .. }));
    }
}
