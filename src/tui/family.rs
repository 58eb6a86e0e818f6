//! A second sketch family pinned beside the truth's measurement: its S-curve as measured on
//! the same documents and truth pairs ([`FamilyCurve`]), drawn over the formula so a user sees
//! what one-permutation hashing or C-MinHash would do to their pairs before choosing one.
//!
//! The family's agreement masks over D draws are computed once in the background (the
//! documents the truth names, hashed D times); every banding after that is bit tests, as for
//! the truth's own redraws ([`lshscope_core::analysis::redraws`]).

use std::sync::Arc;

use lshscope_core::analysis::family_curve::FamilyCurve;
use lshscope_core::analysis::redraws::RedrawAgreement;
use lshscope_core::analysis::truth::TruthPair;
use lshscope_core::jobs::{Latest, Ticket};
use lshscope_core::minhash::{Banding, IndexOptions, SketchFamily};
use lshscope_core::pipeline::Loaded;

use super::truth::{REDRAW_BYTES, redraw};

/// Measure `family` on the truth pairs of `data`; answered with a [`FamilyDone`].
/// Public fields: a message from the App to a job, built once and read by the job.
#[derive(Debug, Clone)]
pub struct FamilyRequest {
    pub data: Arc<Loaded>,
    pub family: SketchFamily,
    pub truth: Arc<Vec<TruthPair>>,
}

/// A family job as the event loop runs it.
pub type FamilyJob = Ticket<FamilyRequest>;

/// The answer of a family job: the masks, or why there are none.
/// Public fields: a job's answer, handed to the App once and taken apart there.
#[derive(Debug)]
pub struct FamilyDone {
    pub request: u64,
    pub outcome: Result<Arc<RedrawAgreement>, String>,
}

/// The pinned family: which, its masks once measured, and its curve for the shown banding.
/// Its fields are private: [`FamilyState`] changes them, the views read the accessors.
#[derive(Debug, Clone)]
pub struct PinnedFamily {
    family: SketchFamily,
    /// The truth the masks belong to (a new truth measures again).
    truth: Arc<Vec<TruthPair>>,
    /// `None` while the job runs.
    agreement: Option<Arc<RedrawAgreement>>,
    curve: Option<FamilyCurve>,
}

impl PinnedFamily {
    /// The family pinned.
    pub fn family(&self) -> SketchFamily {
        self.family
    }

    /// The truth the masks belong to.
    pub fn truth(&self) -> &Arc<Vec<TruthPair>> {
        &self.truth
    }

    /// The family's agreement masks, once measured.
    pub fn agreement(&self) -> Option<&Arc<RedrawAgreement>> {
        self.agreement.as_ref()
    }

    /// The family's curve for the shown banding, once measured (and when it fits in K).
    pub fn curve(&self) -> Option<&FamilyCurve> {
        self.curve.as_ref()
    }
}

/// The family pin and its job. Its fields are private: read through the accessors, changed
/// only through the methods below.
#[derive(Debug, Default)]
pub struct FamilyState {
    pinned: Option<PinnedFamily>,
    job: Latest<FamilyRequest>,
}

impl FamilyState {
    /// The pinned family, if any.
    pub fn pinned(&self) -> Option<&PinnedFamily> {
        self.pinned.as_ref()
    }

    /// The family job, while it runs.
    pub fn job(&self) -> &Latest<FamilyRequest> {
        &self.job
    }

    /// Cancels the family job (on quit).
    pub fn cancel(&self) {
        self.job.cancel_running();
    }

    /// The family `P` pins next after the current pin: each family other than the index's in
    /// turn, then none.
    pub fn next_family(&self, index_family: SketchFamily) -> Option<SketchFamily> {
        let others = SketchFamily::ALL.into_iter().filter(|&f| f != index_family);
        match &self.pinned {
            None => others.clone().next(),
            Some(p) => others.skip_while(|&f| f != p.family).nth(1),
        }
    }

    /// Pins `family` for `truth` and returns the job that measures it (cancelling any
    /// running one).
    pub fn pin(
        &mut self,
        data: Arc<Loaded>,
        family: SketchFamily,
        truth: Arc<Vec<TruthPair>>,
    ) -> FamilyJob {
        self.pinned = Some(PinnedFamily {
            family,
            truth: Arc::clone(&truth),
            agreement: None,
            curve: None,
        });
        self.job.submit(FamilyRequest {
            data,
            family,
            truth,
        })
    }

    /// Drops the pin and cancels its job.
    pub fn unpin(&mut self) {
        self.job.cancel();
        self.pinned = None;
    }

    /// Takes the newest job's answer; `Some(Err)` says why the family could not be measured
    /// (the pin is then dropped).
    pub fn accept(&mut self, done: FamilyDone) -> Option<Result<SketchFamily, String>> {
        self.job.accept(done.request)?;
        let pinned = self.pinned.as_mut()?;
        match done.outcome {
            Ok(agreement) => {
                pinned.agreement = Some(agreement);
                Some(Ok(pinned.family))
            }
            Err(why) => {
                self.pinned = None;
                Some(Err(why))
            }
        }
    }

    /// The pinned family's curve for `banding` in `bins` bins (kept while the banding stays).
    pub fn remeasure(&mut self, banding: Banding, bins: usize) {
        let Some(pinned) = &mut self.pinned else {
            return;
        };
        let Some(agreement) = &pinned.agreement else {
            pinned.curve = None;
            return;
        };
        if banding.bands * banding.rows > agreement.num_perm() {
            pinned.curve = None;
        } else if pinned.curve.as_ref().is_none_or(|c| c.banding != banding) {
            pinned.curve = Some(FamilyCurve::measure(
                pinned.family,
                agreement,
                &pinned.truth,
                banding,
                bins,
            ));
        }
    }
}

/// Runs a family job; `None` when it was cancelled. The masks are the truth's own kind
/// (the truth module's `redraw`, same memory budget), drawn in the pinned family with the index's
/// K and seed.
pub fn run_family_job(job: &FamilyJob) -> Option<FamilyDone> {
    let request = &job.request;
    let options = IndexOptions {
        family: request.family,
        ..request.data.index.options.clone()
    };
    let outcome = match redraw(&request.data, &request.truth, &options, &job.progress)? {
        Some(agreement) => Ok(agreement),
        None if request.truth.is_empty() => Err("the truth has no pairs to measure on".into()),
        None => Err(format!(
            "{} truth pairs need more than {} MiB of masks to measure {} over 8 draws",
            lshscope_core::util::numfmt::thousands(request.truth.len() as u64),
            REDRAW_BYTES >> 20,
            request.family
        )),
    };
    job.progress.finish();
    Some(FamilyDone {
        request: job.id,
        outcome,
    })
}
