//! The cost view (`H`): a heatmap over every banding b × r with b·r ≤ K of what moving there
//! would cost on this corpus (candidate pairs, the explorer's memory, or P(t)), with the
//! current banding and the bandings the explorer would sample marked, and a cursor whose
//! Enter moves the explorer there.
//!
//! The grid is computed once per session off the UI thread by [`run_cost`] from the
//! signatures of a uniform sample of the documents ([`lshscope_core::analysis::cost`]); t only
//! changes P(t), which is recomputed in place.

use std::sync::Arc;
use std::time::{Duration, Instant};

use lshscope_core::analysis::cost::{CostGrid, CostOptions, cost_grid, sample_signatures};
use lshscope_core::jobs::{Latest, Ticket};
use lshscope_core::minhash::Banding;

use lshscope_core::pipeline::Loaded;

use super::clock::Clock;

/// What the heatmap colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CostMetric {
    /// Distinct candidate pairs in the corpus.
    #[default]
    Pairs,
    /// What the explorer holds for the banding's candidates.
    Memory,
    /// P(t): the chance that a pair of similarity t becomes a candidate.
    Probability,
}

impl CostMetric {
    pub fn label(self) -> &'static str {
        match self {
            CostMetric::Pairs => "candidate pairs",
            CostMetric::Memory => "memory",
            CostMetric::Probability => "P(t)",
        }
    }

    pub fn next(self) -> Self {
        match self {
            CostMetric::Pairs => CostMetric::Memory,
            CostMetric::Memory => CostMetric::Probability,
            CostMetric::Probability => CostMetric::Pairs,
        }
    }
}

/// Compute the cost grid of `data`; answered with a [`CostOutcome`].
#[derive(Debug, Clone)]
pub struct CostRequest {
    pub data: Arc<Loaded>,
    pub options: CostOptions,
}

/// A cost job as the event loop runs it.
pub type CostJob = Ticket<CostRequest>;

/// The grid, tagged with the request that asked for it.
#[derive(Debug, Clone)]
pub struct CostOutcome {
    pub request: u64,
    pub grid: CostGrid,
    pub elapsed: Duration,
}

/// The job: sample the signatures, count every banding. `None` when cancelled.
pub fn run_cost(job: &CostJob) -> Option<CostOutcome> {
    let start = Instant::now();
    let request = &job.request;
    let signatures = &request.data.index.signatures;
    let sample = sample_signatures(signatures, request.options.sample, request.options.seed);
    let grid = cost_grid(&sample, signatures.len(), &request.options, &job.progress).ok()?;
    Some(CostOutcome {
        request: job.id,
        grid,
        elapsed: start.elapsed(),
    })
}

/// The cost view's state: the job, the grid, the cursor and the metric. Changed only through
/// its methods.
#[derive(Debug, Default)]
pub struct CostState {
    job: Latest<CostRequest>,
    grid: Option<CostGrid>,
    /// The banding under the cursor.
    cursor: Option<Banding>,
    metric: CostMetric,
    /// How long the grid took.
    elapsed: Option<Duration>,
}

impl CostState {
    /// The grid job while it runs.
    pub fn running(&self) -> Option<&CostJob> {
        self.job.running()
    }

    /// The grid, once computed.
    pub fn grid(&self) -> Option<&CostGrid> {
        self.grid.as_ref()
    }

    /// The banding under the cursor, once the view was opened.
    pub fn cursor(&self) -> Option<Banding> {
        self.cursor
    }

    /// The banding under the cursor, `from` before the cursor was placed.
    pub fn cursor_or(&self, from: Banding) -> Banding {
        self.cursor.unwrap_or(from)
    }

    /// What the heatmap colours.
    pub fn metric(&self) -> CostMetric {
        self.metric
    }

    /// How long the grid took, once computed.
    pub fn elapsed(&self) -> Option<Duration> {
        self.elapsed
    }

    /// Opens the view with the cursor on `at`. The grid is computed once a session (the
    /// counts depend on the corpus only): the job for `request` when there is no grid and
    /// none on its way.
    pub fn open(&mut self, at: Banding, request: impl FnOnce() -> CostRequest) -> Option<CostJob> {
        self.cursor = Some(at);
        (self.grid.is_none() && !self.job.is_running()).then(|| self.job.submit(request()))
    }

    /// Colours the next metric.
    pub fn cycle_metric(&mut self) {
        self.metric = self.metric.next();
    }

    /// Cancels the grid job (on quit).
    pub fn cancel(&self) {
        self.job.cancel_running();
    }

    /// Takes `outcome` when it answers the newest request (latest wins).
    pub fn accept(&mut self, outcome: CostOutcome, threshold: f64, clock: Clock) {
        if self.job.accept(outcome.request).is_none() {
            return;
        }
        let mut grid = outcome.grid;
        grid.set_threshold(threshold);
        self.grid = Some(grid);
        self.elapsed = Some(clock.report(outcome.elapsed));
    }

    /// P(t) follows the threshold; the counts do not depend on it.
    pub fn follow_threshold(&mut self, threshold: f64) {
        if let Some(grid) = &mut self.grid
            && grid.threshold != threshold
        {
            grid.set_threshold(threshold);
        }
    }

    /// Moves the cursor by `bands` and `rows` steps, inside b·r ≤ `num_perm`: a row step
    /// keeps b when it fits, else takes the widest b of the new r.
    pub fn move_cursor(&mut self, from: Banding, bands: isize, rows: isize, num_perm: usize) {
        let at = self.cursor.unwrap_or(from);
        let r = (at.rows as isize + rows).clamp(1, num_perm as isize) as usize;
        let widest = num_perm / r;
        let b = (at.bands as isize + bands).clamp(1, widest as isize) as usize;
        self.cursor = Some(Banding { bands: b, rows: r });
    }
}
