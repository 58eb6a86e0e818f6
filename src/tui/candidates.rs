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

use super::clock::Clock;
use super::list::{ListView, PairList, list_order};

/// Band and verify `banding` over `data`; answered with a [`BandOutcome`].
/// Public fields: a message from the App to a job, built once and read by the job.
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
/// Public fields: a job's answer, handed to the App once and taken apart there.
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
/// Public fields: a job's answer; once shown it is only read ([`Candidates::result`]).
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
/// Public fields: a job's answer, handed to the App once and taken apart there.
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
/// similarities verified so far, and the list's rows and selection. Its fields are private:
/// the views read them through the accessors below, and the App changes them only through
/// its methods (each says what it hands back for the App to do next).
#[derive(Debug, Default)]
pub struct Candidates {
    /// The re-banding asked last, until it answers (latest wins).
    job: Latest<RebandRequest>,
    /// The newest answered request; its `banding` may lag behind the banding asked for.
    result: Option<BandOutcome>,
    /// Similarities of every pair verified so far, reused by the next re-banding job.
    known: Option<Arc<Vec<VerifiedPair>>>,
    /// Rows are indices into `result.pairs`, filtered and sorted.
    list: PairList,
    /// `e` was pressed while the shown candidates answered an older banding: the export runs
    /// when the current banding's candidates arrive, so files and screen agree.
    export_pending: bool,
    /// From the request of the shown result to its histogram and list being ready.
    last_latency: Option<Duration>,
    /// From the request of the shown banding to its first histogram (a quick estimate, or
    /// the exact one when nothing came first).
    first_latency: Option<Duration>,
    /// The estimate behind the shown result when its candidates were sampled; `None` when
    /// they are exact.
    estimated: Option<EstimatedInfo>,
    /// The sampled mode's settings and shared state, handed to every re-banding job.
    sampling: Sampling,
}

/// What a re-banding job takes from the rest of the explorer beside the banding.
/// Public fields: the App's part of a request, handed to [`Candidates::request`] once.
#[derive(Debug, Clone)]
pub struct RebandContext {
    pub data: Arc<Loaded>,
    pub max_bucket: Option<usize>,
    /// The list view and histogram bins the answer is prepared for.
    pub view: ListView,
    pub bins: usize,
}

impl Candidates {
    /// No candidates yet; re-banding samples as `sampling` says.
    pub fn new(sampling: Sampling) -> Self {
        Candidates {
            sampling,
            ..Candidates::default()
        }
    }

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

    /// The re-banding asked last, until it answers.
    pub fn job(&self) -> &Latest<RebandRequest> {
        &self.job
    }

    /// The newest answered request (its banding may lag behind the one asked for).
    pub fn result(&self) -> Option<&BandOutcome> {
        self.result.as_ref()
    }

    /// Similarities of every pair verified so far this session.
    pub fn known(&self) -> Option<&Arc<Vec<VerifiedPair>>> {
        self.known.as_ref()
    }

    /// The candidate list's rows and selection.
    pub fn list(&self) -> &PairList {
        &self.list
    }

    /// From the request of the shown result to its histogram and list being ready.
    pub fn last_latency(&self) -> Option<Duration> {
        self.last_latency
    }

    /// From the request of the shown banding to its first histogram.
    pub fn first_latency(&self) -> Option<Duration> {
        self.first_latency
    }

    /// The estimate behind the shown result, when its candidates were sampled.
    pub fn estimated(&self) -> Option<&EstimatedInfo> {
        self.estimated.as_ref()
    }

    /// An export waits for the candidates of the banding asked for.
    pub fn export_pending(&self) -> bool {
        self.export_pending
    }

    /// The sampled mode's settings and shared state.
    pub fn sampling(&self) -> &Sampling {
        &self.sampling
    }

    /// True when the shown candidates answer another banding than `asked`.
    pub fn is_stale(&self, asked: Banding) -> bool {
        self.result.as_ref().is_some_and(|r| r.banding != asked)
    }

    /// The selected row's pair, if any.
    pub fn selected_pair(&self) -> Option<&VerifiedPair> {
        let result = self.result.as_ref()?;
        result.pairs.get(self.list.selected_index()? as usize)
    }

    /// Cancels the running re-banding (on quit).
    pub fn cancel(&self) {
        self.job.cancel_running();
    }

    /// Takes exact candidates when they answer the newest request (latest wins): the instant
    /// that request was made, for the latency the status line shows; `None` drops the answer.
    /// An exact answer ends any estimate; the first answer to a banding sets the first
    /// latency.
    pub fn accept_exact(&mut self, outcome: &BandOutcome, clock: Clock) -> Option<Instant> {
        let ticket = self.job.accept(outcome.request)?;
        if self.estimated.take().is_none_or(|e| !e.refining) {
            self.first_latency = Some(clock.report(ticket.submitted.elapsed()));
        }
        Some(ticket.submitted)
    }

    /// Takes sampled candidates with their estimate: the outcome to show and when its request
    /// was made, or `None` when it answers an older request. A first answer (`refining`)
    /// leaves the job running for the refined one. `asked` is the banding asked for now.
    pub fn accept_estimated(
        &mut self,
        estimated: EstimatedOutcome,
        asked: Banding,
        clock: Clock,
    ) -> Option<(BandOutcome, Instant)> {
        let id = estimated.outcome.request;
        let started = if estimated.info.refining {
            match self.job.running() {
                Some(t) if t.id == id => t.submitted,
                _ => return None,
            }
        } else {
            self.job.accept(id)?.submitted
        };
        let first = self.estimated.as_ref().is_none_or(|e| !e.refining) || self.is_stale(asked);
        if first {
            self.first_latency = Some(clock.report(started.elapsed()));
        }
        self.estimated = Some(estimated.info);
        Some((estimated.outcome, started))
    }

    /// Makes `outcome` the shown result (its similarities become the known ones) and hands
    /// back what the worker prepared for it, for the App's histogram and list.
    pub fn show(&mut self, mut outcome: BandOutcome) -> Option<Prepared> {
        self.known = outcome
            .known
            .take()
            .or_else(|| Some(Arc::clone(&outcome.pairs)));
        let prepared = outcome.prepared.take();
        self.result = Some(outcome);
        prepared.map(|p| *p)
    }

    /// The shown result is on screen (histogram and list filled): records its latency from
    /// `started`, and says whether an export was waiting for it (`true`: run it now).
    pub fn shown(&mut self, started: Option<Instant>, clock: Clock) -> bool {
        self.last_latency = started.map(|t| clock.report(t.elapsed()));
        std::mem::take(&mut self.export_pending)
    }

    /// A re-banding or import failed: `None` when it answered an older request, else whether
    /// an export was waiting for it (it is dropped).
    pub fn fail(&mut self, request: u64) -> Option<bool> {
        self.job.accept(request)?;
        Some(std::mem::take(&mut self.export_pending))
    }

    /// Holds an export until the candidates of `asked` arrive, when they are on their way and
    /// the shown ones answer another banding; `false`: export the shown ones now.
    pub fn hold_export(&mut self, asked: Banding) -> bool {
        let waiting = self.job.is_running() && (self.result.is_none() || self.is_stale(asked));
        if waiting {
            self.export_pending = true;
        }
        waiting
    }

    /// Shows `order` (indices into the shown result) as the list, keeping the pair `keep`
    /// selected if it is still there. A selection on the first row is where the list
    /// opened, not a pair the user chose: the list stays at its top when it refills (a first
    /// estimate's sample followed by the exact candidates would otherwise carry row 1 to
    /// wherever that pair sits among ties, say row 32).
    pub fn show_rows(&mut self, order: Vec<u32>, keep: Option<(u32, u32)>, height: usize) {
        let keep = keep.filter(|_| self.list.selected() > 0);
        let pairs = self.result.as_ref().map(|r| &r.pairs);
        self.list.show(
            order,
            |i| match (pairs, keep) {
                (Some(pairs), Some(k)) => (pairs[i as usize].a, pairs[i as usize].b) == k,
                _ => false,
            },
            height,
        );
    }

    /// Moves the list's selection or scroll with one of [`PairList`]'s steps, for a list
    /// `height` rows tall.
    pub fn move_selection(&mut self, height: usize, step: impl FnOnce(&mut PairList, usize)) {
        step(&mut self.list, height);
    }
}

/// What an estimated result adds to its sample of pairs: the engine's [`EstimatedCandidates`]
/// without the sample, the estimate shared with the views. Public fields: part of a job's
/// answer; once shown it is only read ([`Candidates::estimated`]).
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
