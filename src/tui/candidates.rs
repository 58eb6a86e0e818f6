//! The candidates of a banding as the explorer shows them: what a re-banding job is asked
//! ([`RebandRequest`]) and what it answers ([`BandOutcome`], or [`EstimatedOutcome`] when the
//! candidates are sampled), and the candidate list's state ([`Candidates`]). Whether the
//! candidates are enumerated or sampled is the engine's policy
//! ([`lshscope_core::pipeline::band_policy`]); [`run_reband`] adds what only the explorer needs, the
//! histogram and the list order of each answer.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lshscope_core::Result;
use lshscope_core::analysis::histogram::SimilarityHistogram;
use lshscope_core::analysis::sampled::{CandidateEstimate, Estimate};
use lshscope_core::jobs::{Latest, Ticket};
use lshscope_core::minhash::Banding;
use lshscope_core::minhash::VerifiedPair;
use lshscope_core::pipeline::Loaded;
use lshscope_core::pipeline::band_policy::{
    BandAnswer, BandRequest, EstimatedCandidates, Sampling, band_candidates,
};

use super::list::{ListView, PairList, list_order};

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

/// A banding's candidates estimated from a sample: `outcome.pairs` is a uniform sample of the
/// distinct candidate pairs (for the list), `info` the estimate of all of them.
#[derive(Debug, Clone)]
pub struct EstimatedOutcome {
    pub outcome: BandOutcome,
    pub info: EstimatedInfo,
}

/// A re-banding job's answer as the explorer shows it.
#[derive(Debug)]
pub enum RebandAnswer {
    Exact(BandOutcome),
    Estimated(Box<EstimatedOutcome>),
}

/// The re-banding job: the engine's exact-or-sampled banding ([`band_candidates`]), each
/// answer prepared for the explorer (histogram and list order computed off the UI thread)
/// and tagged with the job's id. A quick first estimate, when there is one, is handed to
/// `first`; the final answer is returned (`Err(Cancelled)` once a newer request superseded
/// this one).
pub fn run_reband(job: &RebandJob, mut first: impl FnMut(RebandAnswer)) -> Result<RebandAnswer> {
    let start = Instant::now();
    let request = &job.request;
    let answer = |a: BandAnswer| match a {
        BandAnswer::Exact { pairs, known } => {
            let prepared = Prepared::new(&pairs, request.bins, request.view);
            RebandAnswer::Exact(BandOutcome {
                request: job.id,
                banding: request.banding,
                pairs: Arc::new(pairs),
                known: known.map(Arc::new),
                elapsed: start.elapsed(),
                prepared: Some(Box::new(prepared)),
            })
        }
        BandAnswer::Estimated(estimated) => {
            let EstimatedCandidates {
                sampled,
                refining,
                bucket_pairs,
                bucket_bytes,
                largest_bucket,
                cap_ignored,
            } = *estimated;
            let prepared = Prepared {
                view: request.view,
                hist: sampled.estimate.histogram(),
                order: list_order(&sampled.pairs, request.view),
            };
            RebandAnswer::Estimated(Box::new(EstimatedOutcome {
                outcome: BandOutcome {
                    request: job.id,
                    banding: request.banding,
                    pairs: Arc::new(sampled.pairs),
                    known: None,
                    elapsed: start.elapsed(),
                    prepared: Some(Box::new(prepared)),
                },
                info: EstimatedInfo {
                    estimate: Arc::new(sampled.estimate),
                    refining,
                    bucket_pairs,
                    bucket_bytes,
                    largest_bucket,
                    cap_ignored,
                },
            }))
        }
    };
    let asked = BandRequest {
        index: &request.data.index,
        banding: request.banding,
        max_bucket: request.max_bucket,
        known: request.known.as_deref().map(Vec::as_slice),
        bins: request.bins,
        sampling: &request.sampling,
    };
    band_candidates(asked, &job.progress, |a| first(answer(a))).map(answer)
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

/// What a re-banding job takes from the rest of the explorer beside the banding.
#[derive(Debug, Clone)]
pub struct RebandContext {
    pub data: Arc<Loaded>,
    pub max_bucket: Option<usize>,
    /// The list view and histogram bins the answer is prepared for.
    pub view: ListView,
    pub bins: usize,
}

impl Candidates {
    /// `bands` × `rows` as a banding of `k` hashes, or what to tell the user.
    pub fn checked_banding(bands: usize, rows: usize, k: usize) -> Result<Banding, String> {
        if bands == 0 || rows == 0 {
            return Err("bands and rows are at least 1".to_string());
        }
        if bands * rows > k {
            return Err(format!(
                "b·r ≤ K: {bands} × {rows} = {} > {k} (raise --num-perm to go further)",
                bands * rows
            ));
        }
        Banding::new(bands, rows, k).map_err(|e| crate::cli::errors::render_error(&e))
    }

    /// Asks for the candidates of `banding`: the running job is cancelled (latest wins) and
    /// the new one returned for the App to queue. It reuses the similarities verified so far
    /// and the sampled mode's state.
    pub fn request(&mut self, banding: Banding, context: RebandContext) -> RebandJob {
        self.job.submit(RebandRequest {
            data: context.data,
            banding,
            max_bucket: context.max_bucket,
            known: self.known.clone(),
            view: context.view,
            bins: context.bins,
            sampling: self.sampling.clone(),
        })
    }
}

/// What an estimated result adds to its sample of pairs: the engine's [`EstimatedCandidates`]
/// without the sample, the estimate shared with the views.
#[derive(Debug, Clone)]
pub struct EstimatedInfo {
    pub estimate: Arc<CandidateEstimate>,
    /// A refined answer (a larger sample, or the exact candidates) is still to come.
    pub refining: bool,
    /// Bucket pairs over all bands (exact) and what the buckets hold in memory.
    pub bucket_pairs: u64,
    pub bucket_bytes: usize,
    /// The largest bucket, in documents.
    pub largest_bucket: u64,
    /// `--max-bucket` is not applied to sampled candidates.
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
