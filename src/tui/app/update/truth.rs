//! The truth's commands: computing it, the missed-pairs list, recall at t.

use crate::tui::app::{App, Effect, PairSource};
use crate::tui::keys::{Command, hint};
use crate::tui::truth::{
    MeasuredCandidates, MissedView, SampleDone, TruthDone, TruthFailure, TruthTask,
};

impl App {
    /// `T`: the exact join at t, in the background.
    pub(super) fn compute_truth(&mut self) {
        let t = self.curve.threshold;
        if t <= 0.0 {
            self.complain("the exact join needs t > 0 (at 0 every pair is similar)");
        } else if self.data.is_some() {
            self.start_truth_job(TruthTask::Join { threshold: t });
            self.say(format!("computing the exact truth at J ≥ {t}…"));
        }
    }

    /// `m`: the pair list shows the missed pairs, or the candidates again.
    pub(super) fn toggle_missed(&mut self) {
        if self.truth.truth().is_none() {
            self.complain(format!(
                "no truth yet: {} computes it (exact join at t), or start with --truth FILE",
                hint(Command::ComputeTruth)
            ));
            return;
        }
        if self.truth.toggle_missed() {
            self.say(format!(
                "pair list: missed pairs (true J ≥ t, not candidates); {}: candidates",
                hint(Command::ToggleMissed)
            ));
        } else {
            self.say("pair list: candidate pairs");
        }
    }

    /// The list commands that act on the missed list while it is shown; `false` leaves
    /// `cmd` to the candidate list's handling (moving the selection serves both).
    pub(super) fn missed_list_command(&mut self, cmd: Command) -> bool {
        let height = self.list_height();
        match cmd {
            Command::Top => self.truth.missed_to_end(false, height),
            Command::Bottom => self.truth.missed_to_end(true, height),
            Command::Open => self.open_missed(),
            Command::Export => self.export_missed(),
            Command::JumpPrompt => self.complain(format!(
                "{} searches the candidate list ({} shows it)",
                hint(Command::JumpPrompt),
                hint(Command::ToggleMissed)
            )),
            _ => return false,
        }
        true
    }

    /// ← / → in the viewer opened from the missed list.
    pub(super) fn step_missed(&mut self, delta: isize) {
        let height = self.list_height();
        if self.truth.move_missed(delta, height) {
            self.open_missed();
        } else {
            self.say("no more pairs in the missed list");
        }
    }

    /// The missed list's view: the candidate list's filter and sort, at t.
    pub(super) fn missed_view(&self) -> MissedView {
        MissedView {
            list: self.list_view(),
            threshold: self.curve.threshold,
            height: self.list_height(),
        }
    }

    pub(super) fn rebuild_missed(&mut self) {
        let view = self.missed_view();
        self.truth.rebuild_missed(view);
    }

    /// Measures the truth against the shown candidates at the current t.
    pub(super) fn truth_remeasure(&mut self) {
        let view = self.missed_view();
        // Sampled candidates: recall from the signatures, precision from the estimates.
        let candidates = match (self.candidates.result(), &self.data) {
            (Some(r), Some(data)) => Some(match self.candidates.estimated_total() {
                Some(total) => MeasuredCandidates::Sampled {
                    banding: r.banding,
                    signatures: &data.index.signatures,
                    total: total.value.round() as usize,
                    at_or_above: self
                        .candidates
                        .estimated_at_or_above(self.curve.threshold)
                        .map_or(0, |e| e.value.round() as usize),
                },
                None => MeasuredCandidates::Listed {
                    banding: r.banding,
                    pairs: r.pairs.as_slice(),
                    at_or_above: self.pairs_at_or_above_t,
                },
            }),
            _ => None,
        };
        self.truth.remeasure(candidates, self.hist.bins(), view);
    }

    /// After loading: read `--truth FILE` in the background.
    pub(super) fn truth_on_loaded(&mut self) {
        if let Some(path) = self.truth.file().cloned() {
            self.start_truth_job(TruthTask::Read(path));
        }
    }

    pub(super) fn start_truth_job(&mut self, task: TruthTask) {
        let Some(data) = self.data.clone() else {
            return;
        };
        let job = self.truth.submit(data, task);
        self.effects.push(Effect::Truth(job));
    }

    pub(super) fn on_truth_done(&mut self, done: TruthDone) {
        match self.truth.accept(done, self.hist.bins()) {
            None => {}
            Some(Ok(text)) => {
                self.say(text);
                self.truth_remeasure();
                self.remeasure_pinned_family();
            }
            Some(Err(TruthFailure::BadFile(e))) => {
                self.fatal = Some(e);
                self.should_quit = true;
            }
            Some(Err(TruthFailure::Refused(msg))) => self.complain(msg),
            Some(Err(TruthFailure::Failed(msg))) => {
                self.complain(format!("exact join failed: {msg}"))
            }
        }
    }

    /// Starts the stratified tuning sample at t when there is no truth and no sample for this
    /// t (the cost view asks for it: its recall and precision come from the sample).
    pub(super) fn request_tuning_sample(&mut self) {
        let t = self.curve.threshold;
        if let Some(data) = self.data.clone()
            && self.truth.needs_sample(t)
        {
            let job = self.truth.submit_sample(data, t);
            self.effects.push(Effect::Sample(job));
        }
    }

    pub(super) fn on_sample_done(&mut self, mut done: SampleDone) {
        if let Ok(sample) = &mut done.outcome {
            let took = std::time::Duration::from_secs_f64(sample.seconds);
            sample.seconds = self.clock.report(took).as_secs_f64();
        }
        match self.truth.accept_sample(done) {
            None => {}
            Some(Ok(text)) => {
                self.say(text);
                // Asked for an earlier t: t may have come back meanwhile to where the sample
                // it replaced served, and this one does not.
                self.request_tuning_sample();
            }
            Some(Err(message)) => self.complain(format!("tuning sample failed: {message}")),
        }
    }

    /// Opens the selected missed pair in the pair viewer.
    fn open_missed(&mut self) {
        let (Some(p), Some(data)) = (self.truth.selected_missed().copied(), self.data.clone())
        else {
            self.complain("no missed pair selected");
            return;
        };
        let pair = self.truth.as_verified(&data, &p);
        self.show_pair(&pair, PairSource::Missed);
    }
}
