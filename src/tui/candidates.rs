//! The candidates of a banding: what a re-banding job is asked ([`RebandRequest`]) and what
//! it answers ([`BandOutcome`]), and the candidate list's state ([`Candidates`]). The job
//! itself is [`super::run_reband_job`].

use std::sync::Arc;
use std::time::Duration;

use crate::analysis::histogram::SimilarityHistogram;
use crate::jobs::{Latest, Ticket};
use crate::minhash::Banding;
use crate::minhash::VerifiedPair;

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
}
