//! The explorer's background work: every [`Effect`] knows its [`Lane`] and how to run
//! itself ([`Effect::run`]); [`Workers`] holds one [`Runner`] thread per lane, indexed by
//! the lane. A job kind is an `Effect` variant, the `Action` that answers it, and one arm in
//! each of [`Effect::lane`] and [`Effect::run`].
//!
//! Latest-wins lanes keep only the newest waiting request (a re-banding, a truth, a label
//! snapshot that holds every earlier change); the export lane queues (each export is its own
//! file). Tests and benches run the same code on their own thread ([`run_effect_inline`]).

use lshscope_core::Error;
use lshscope_core::jobs::{Pending, Progress, Runner, Ticket, run_inline};

use super::app::{Action, Effect};
use super::candidates::{RebandAnswer, RebandJob, run_reband};
use super::labels::LabelSave;

/// A worker thread of the explorer, one per kind of job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    Reband,
    Truth,
    Export,
    Labels,
    Clusters,
    Import,
    Cost,
    Family,
    Sample,
}

impl Lane {
    pub const ALL: [Lane; 9] = [
        Lane::Reband,
        Lane::Truth,
        Lane::Export,
        Lane::Labels,
        Lane::Clusters,
        Lane::Import,
        Lane::Cost,
        Lane::Family,
        Lane::Sample,
    ];

    /// The worker thread's name.
    fn thread_name(self) -> &'static str {
        match self {
            Lane::Reband => "lshscope-reband",
            Lane::Truth => "lshscope-truth",
            Lane::Export => "lshscope-export",
            Lane::Labels => "lshscope-labels",
            Lane::Clusters => "lshscope-clusters",
            Lane::Import => "lshscope-import",
            Lane::Cost => "lshscope-cost",
            Lane::Family => "lshscope-family",
            Lane::Sample => "lshscope-sample",
        }
    }

    /// Exports queue (each is its own file); every other lane needs only its newest request.
    fn pending(self) -> Pending {
        match self {
            Lane::Export => Pending::Queue,
            _ => Pending::LatestWins,
        }
    }
}

impl Effect {
    /// The lane that runs this effect.
    pub fn lane(&self) -> Lane {
        match self {
            Effect::Reband(_) => Lane::Reband,
            Effect::Export(_) => Lane::Export,
            Effect::Truth(_) => Lane::Truth,
            Effect::SaveLabels(_) => Lane::Labels,
            Effect::Clusters(_) => Lane::Clusters,
            Effect::Import(_) => Lane::Import,
            Effect::Cost(_) => Lane::Cost,
            Effect::Family(_) => Lane::Family,
            Effect::Sample(_) => Lane::Sample,
        }
    }

    /// The handle through which the effect's work learns it was cancelled (a fresh one for
    /// work nobody cancels: exports and label writes).
    fn progress(&self) -> Progress {
        match self {
            Effect::Reband(job) => job.progress.clone(),
            Effect::Truth(job) => job.progress.clone(),
            Effect::Clusters(job) => job.progress.clone(),
            Effect::Import(job) => job.progress.clone(),
            Effect::Cost(job) => job.progress.clone(),
            Effect::Family(job) => job.progress.clone(),
            Effect::Sample(job) => job.progress.clone(),
            Effect::Export(_) | Effect::SaveLabels(_) => Progress::new(),
        }
    }

    /// Runs the effect on the calling thread and returns the App's answer (`None`:
    /// cancelled, nothing to answer). A re-banding hands its quick first estimate, when it
    /// has one, to `first`.
    pub fn run(self, first: &mut dyn FnMut(Action)) -> Option<Action> {
        match self {
            Effect::Reband(job) => run_reband_job_reporting(job, first),
            Effect::Truth(job) => super::truth::run_truth_job(&job).map(Action::TruthDone),
            Effect::Export(job) => {
                Some(Action::Exported(super::export::run_export(&job.data, &job)))
            }
            Effect::SaveLabels(save) => Some(run_label_save(Ticket::new(save.generation, *save))),
            Effect::Clusters(job) => super::clusters::run_clusters(&job)
                .map(|outcome| Action::ClustersDone(Box::new(outcome))),
            Effect::Import(job) => {
                super::imported::run_import(&job).map(|answer| Action::Imported(Box::new(answer)))
            }
            Effect::Cost(job) => {
                super::cost::run_cost(&job).map(|outcome| Action::CostDone(Box::new(outcome)))
            }
            Effect::Family(job) => super::family::run_family_job(&job).map(Action::FamilyDone),
            Effect::Sample(job) => super::truth::run_sample_job(&job).map(Action::SampleDone),
        }
    }
}

/// The worker threads of a session, one [`Runner`] per [`Lane`].
pub(super) struct Workers {
    lanes: Vec<Runner<Effect>>,
}

impl Workers {
    /// Starts a thread per lane; each delivers its answers to `deliver`.
    pub(super) fn spawn(
        deliver: impl Fn(Action) + Clone + Send + 'static,
    ) -> std::io::Result<Self> {
        let lanes = Lane::ALL
            .iter()
            .map(|&lane| {
                let deliver = deliver.clone();
                Runner::spawn(lane.thread_name(), lane.pending(), move |ticket| {
                    let effect: Effect = ticket.request;
                    if let Some(answer) = effect.run(&mut |first| deliver(first)) {
                        deliver(answer);
                    }
                })
            })
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Workers { lanes })
    }

    /// Hands `effect` to its lane.
    pub(super) fn start(&self, effect: Effect) {
        let ticket = Ticket {
            progress: effect.progress(),
            ..Ticket::new(0, effect)
        };
        self.lanes[ticket.request.lane() as usize].submit(ticket);
    }

    /// Writes the labels still queued and waits for that; the other workers stop on their own
    /// (their jobs were cancelled when quitting).
    pub(super) fn finish(mut self) {
        self.lanes.swap_remove(Lane::Labels as usize).finish();
    }
}

/// Runs `effect` on the calling thread with the same job code as the worker threads, and
/// returns the answer the worker would send (`None`: cancelled, nothing is sent).
pub fn run_effect_inline(effect: Effect) -> Option<Action> {
    let progress = effect.progress();
    let ticket = Ticket {
        progress,
        ..Ticket::new(0, effect)
    };
    run_inline(ticket, |t| t.request.run(&mut |_| {})).flatten()
}

/// The re-banding job: band and verify (or sample, see [`run_reband`]), reusing the
/// similarities known so far, then prepare the histogram and list order off the UI thread.
/// Returns the final answer; a quick first estimate, when there is one, is handed to
/// `first`. `None` when cancelled.
pub fn run_reband_job_reporting(job: RebandJob, mut first: impl FnMut(Action)) -> Option<Action> {
    let answer = |a: RebandAnswer| match a {
        RebandAnswer::Exact(outcome) => Action::Banded(outcome),
        RebandAnswer::Estimated(outcome) => Action::Estimated(outcome),
    };
    match run_reband(&job, |a| first(answer(a))) {
        Ok(a) => {
            job.progress.finish();
            Some(answer(a))
        }
        Err(Error::Cancelled) => None,
        Err(e) => Some(Action::BandFailed {
            request: job.id,
            message: crate::cli::errors::render_error(&e),
        }),
    }
}

/// [`run_reband_job_reporting`] with the final answer only (tests and benches).
pub fn run_reband_job(job: RebandJob) -> Option<Action> {
    run_reband_job_reporting(job, |_| {})
}

/// Writes a label snapshot ([`LabelSave::write`]) and answers as the label writer does.
pub fn run_label_save(job: Ticket<LabelSave>) -> Action {
    Action::LabelsSaved(job.request.write())
}
