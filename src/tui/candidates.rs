//! The candidates of a banding: what a re-banding job is asked ([`RebandRequest`]) and what
//! it answers ([`BandOutcome`], or [`EstimatedOutcome`] when the candidates are sampled), and
//! the candidate list's state ([`Candidates`]). The job's steps are [`band_candidates`];
//! [`super::run_reband_job`] turns its answers into actions.
//!
//! When a banding's bucket pairs are too many to enumerate, its candidates are kept as buckets
//! ([`crate::pipeline::bucketed`]) and estimated from a uniform sample of bucket-pair
//! occurrences ([`crate::pipeline::rebanding::sample_candidates`]): a quick sample first, then
//! a larger one, or the exact enumeration when it fits.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::Result;
use crate::analysis::histogram::SimilarityHistogram;
use crate::analysis::sampled::{CandidateEstimate, Estimate};
use crate::jobs::{Latest, Ticket};
use crate::minhash::Banding;
use crate::minhash::VerifiedPair;
use crate::pipeline::bucketed::{BandCache, CandidateBuckets, JaccardCache};
use crate::pipeline::rebanding::{
    estimated_bucket_pairs, reband_unchecked, remember, sample_candidates,
};
use crate::rng::SplitMix64;

use super::list::{ListView, PairList, list_order};
use super::session::Loaded;

/// Band and verify `banding` over `data`; answered with a [`BandOutcome`].
#[derive(Debug, Clone)]
pub struct RebandRequest {
    pub data: Arc<Loaded>,
    pub banding: Banding,
    pub max_bucket: Option<usize>,
    /// Pairs verified before (sorted by (a, b)): their similarities are not computed again.
    pub known: Option<Arc<Vec<VerifiedPair>>>,
    /// The list view and histogram bins when asked, for [`Prepared`].
    pub view: ListView,
    pub bins: usize,
    /// When to sample instead of enumerating, and what sampling keeps between jobs.
    pub sampling: Sampling,
}

/// The sampled mode's settings and the state it shares between re-banding jobs.
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
    pub refined_draws: usize,
    /// Bands still to build after this long from the request are left to the refined
    /// answer: the first estimate samples the bands built by then (at ~35 ms per band on a
    /// million documents and two cores, an r step at b = 64 would otherwise wait 2 s).
    pub first_bands_within: Duration,
}

/// The explorer enumerates a banding's candidates when their bucket pairs are at most this
/// many. Measured on a million generated documents of ~300 characters (2-core VM): the exact
/// answer costs about 1 µs per pair there (verification out of cache, at 1–2 M pairs/s) and
/// holds roughly 80 bytes per pair at its peak (bucket pairs, candidates, verified pairs, the
/// list order, the answer shown before), so 8 M keeps it within about 10 s and 0.7 GB; above
/// it the sampled estimate, whose intervals are already narrow, is the final answer.
pub const EXACT_BUCKET_PAIRS: u64 = 8_000_000;

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

/// A banding's candidates estimated from a sample: `outcome.pairs` is a uniform sample of the
/// distinct candidate pairs (for the list), `estimate` the histogram of all of them.
#[derive(Debug, Clone)]
pub struct EstimatedOutcome {
    pub outcome: BandOutcome,
    pub estimate: Arc<CandidateEstimate>,
    /// True when a refined answer (a larger sample, or the exact candidates) follows.
    pub refining: bool,
    /// Bucket pairs over all bands (exact) and what the buckets hold in memory.
    pub bucket_pairs: u64,
    pub bucket_bytes: usize,
    /// The largest bucket, in documents.
    pub largest_bucket: u64,
    /// `--max-bucket` is not applied to sampled candidates.
    pub cap_ignored: bool,
}

/// An answer of [`band_candidates`].
#[derive(Debug)]
pub enum BandAnswer {
    Exact(BandOutcome),
    Estimated(Box<EstimatedOutcome>),
}

/// The re-banding job's steps. The banding's buckets are built first (those built within
/// [`Sampling::first_bands_within`]), which counts its bucket pairs exactly. Up to
/// [`Sampling::preview_above`] bucket pairs the candidates are enumerated and verified at
/// once; beyond, a quick sampled estimate is handed to `report`, then the exact candidates
/// follow when their bucket pairs fit [`Sampling::enumeration_budget`], else a larger sample. Returns the
/// final answer (`Err(Cancelled)` once a newer request superseded this one).
pub fn band_candidates(job: &RebandJob, mut report: impl FnMut(BandAnswer)) -> Result<BandAnswer> {
    let start = Instant::now();
    let request = &job.request;
    let progress = &job.progress;
    let index = &request.data.index;
    let banding = request.banding;
    let sampling = &request.sampling;
    let known = request.known.as_deref().map(Vec::as_slice);
    let exact = |pairs: Vec<VerifiedPair>| {
        let known = known.and_then(|k| remember(k, &pairs)).map(Arc::new);
        let prepared = Prepared::new(&pairs, request.bins, request.view);
        BandAnswer::Exact(BandOutcome {
            request: job.id,
            banding,
            pairs: Arc::new(pairs),
            known,
            elapsed: start.elapsed(),
            prepared: Some(Box::new(prepared)),
        })
    };
    // Identical copies, found once per session: pairs of copies are verified once per
    // pair of representatives.
    let copies = sampling.bands.docs(index);
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
    let guess = request
        .max_bucket
        .map(|_| estimated_bucket_pairs(index, banding, request.max_bucket));
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
        return Ok(exact(reband_unchecked(
            index,
            banding,
            request.max_bucket,
            known,
            Some(&copies),
            progress,
        )?));
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
            request.bins,
            &sampling.jaccards,
            progress,
        )?;
        let prepared = Prepared {
            view: request.view,
            hist: sampled.estimate.histogram(),
            order: list_order(&sampled.pairs, request.view),
        };
        Ok(BandAnswer::Estimated(Box::new(EstimatedOutcome {
            outcome: BandOutcome {
                request: job.id,
                banding,
                pairs: Arc::new(sampled.pairs),
                known: None,
                elapsed: start.elapsed(),
                prepared: Some(Box::new(prepared)),
            },
            estimate: Arc::new(sampled.estimate),
            refining,
            bucket_pairs: buckets.occurrences(),
            bucket_bytes: buckets.heap_bytes(),
            largest_bucket: buckets.largest_bucket(),
            cap_ignored: request.max_bucket.is_some(),
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
        return Ok(exact(reband_unchecked(
            index,
            banding,
            request.max_bucket,
            known,
            Some(&copies),
            progress,
        )?));
    }
    estimated(&buckets, sampling.refined_draws, seed ^ 0x5eed, false)
}

/// A re-banding job as the event loop runs it.
pub type RebandJob = Ticket<RebandRequest>;

/// The verified candidates of one banding, tagged with the request that asked for them.
#[derive(Debug, Clone)]
pub struct BandOutcome {
    pub request: u64,
    pub banding: Banding,
    /// Every candidate with its exact Jaccard and estimate, sorted by (a, b). Shared with the
    /// next re-banding job, which reuses the similarities of the pairs both bandings find.
    pub pairs: Arc<Vec<VerifiedPair>>,
    /// Every pair verified so far this session (sorted by (a, b)), for the next job; `None`
    /// means just `pairs`.
    pub known: Option<Arc<Vec<VerifiedPair>>>,
    pub elapsed: Duration,
    /// Histogram counts and list order computed by the worker for the view asked with the
    /// request, so a large result does not stall the UI thread; `None`: the App computes them.
    pub prepared: Option<Box<Prepared>>,
}

/// A result's histogram counts (no labels) and its list order for `view`.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub view: ListView,
    pub hist: SimilarityHistogram,
    pub order: Vec<u32>,
}

impl Prepared {
    pub fn new(pairs: &[VerifiedPair], bins: usize, view: ListView) -> Self {
        Prepared {
            view,
            hist: SimilarityHistogram::from_values(pairs.iter().map(|p| (p.jaccard, None)), bins),
            order: list_order(pairs, view),
        }
    }
}

/// The candidate list and what it shows: the re-banding asked last, the newest answer, the
/// similarities verified so far, and the list's rows and selection.
#[derive(Debug, Default)]
pub struct Candidates {
    /// The re-banding asked last, until it answers (latest wins).
    pub job: Latest<RebandRequest>,
    /// The newest answered request; its `banding` may lag behind the banding asked for.
    pub result: Option<BandOutcome>,
    /// Similarities of every pair verified so far, reused by the next re-banding job.
    pub known: Option<Arc<Vec<VerifiedPair>>>,
    /// Rows are indices into `result.pairs`, filtered and sorted.
    pub list: PairList,
    /// `e` was pressed while the shown candidates answered an older banding: the export runs
    /// when the current banding's candidates arrive, so files and screen agree.
    pub export_pending: bool,
    /// From the request of the shown result to its histogram and list being ready.
    pub last_latency: Option<Duration>,
    /// From the request of the shown banding to its first histogram (a quick estimate, or
    /// the exact one when nothing came first).
    pub first_latency: Option<Duration>,
    /// The estimate behind the shown result when its candidates were sampled; `None` when
    /// they are exact.
    pub estimated: Option<EstimatedInfo>,
    /// The sampled mode's settings and shared state, handed to every re-banding job.
    pub sampling: Sampling,
}

/// What an estimated result adds to its sample of pairs.
#[derive(Debug, Clone)]
pub struct EstimatedInfo {
    pub estimate: Arc<CandidateEstimate>,
    /// A refined answer is still to come.
    pub refining: bool,
    pub bucket_pairs: u64,
    pub bucket_bytes: usize,
    pub largest_bucket: u64,
    pub cap_ignored: bool,
}

impl Candidates {
    /// Estimated candidate pairs in all, when the shown candidates are sampled.
    pub fn estimated_total(&self) -> Option<Estimate> {
        self.estimated.as_ref().map(|e| e.estimate.total)
    }

    /// Estimated candidate pairs with Jaccard ≥ `t`, when the shown candidates are sampled.
    pub fn estimated_at_or_above(&self, t: f64) -> Option<Estimate> {
        self.estimated.as_ref().map(|e| e.estimate.at_or_above(t))
    }

    /// Estimated candidate pairs with Jaccard < `t`, when the shown candidates are sampled.
    pub fn estimated_below(&self, t: f64) -> Option<Estimate> {
        self.estimated.as_ref().map(|e| e.estimate.below(t))
    }
}
